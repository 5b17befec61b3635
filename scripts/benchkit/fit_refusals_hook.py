"""The schemathesis check of scripts/benchkit/fit_refusals.py (imports schemathesis)."""

from typing import Any

import schemathesis

from scripts.benchkit.fit_refusals import FIT_PATH, UNSTATABLE


@schemathesis.check
def fit_refuses_only_unstatable(ctx: Any, response: Any, case: Any) -> None:
    if case.operation.path != FIT_PATH or response.status_code != 422:
        return None
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return None  # a request the schema itself rules out: any 422 is right
    fields = {str(p.get("field")) for p in response.json().get("detail", [])}
    if not fields or not fields <= UNSTATABLE:
        raise AssertionError(
            f"GET {FIT_PATH} refused a valid request for {sorted(fields)}: {response.text[:300]}"
        )
    return None
