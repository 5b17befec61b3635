"""What the fuzzers (`make bench`, tests/test_many_readers.py) let GET /api/v1/fit refuse.

It answers three asks no schema can state with a 422 naming the field, as issue 36 asks: a
context past the model's own, a precision spelling it does not know, and hardware that is a
class of parts rather than one part (the 422 lists the parts). `CONFIG` lets 422 through the
fuzzer's acceptance check for that path only; the check in `fit_refusals_hook` (loaded with
SCHEMATHESIS_HOOKS=HOOKS) then lets only those three fields through.
"""

FIT_PATH = "/api/v1/fit"
UNSTATABLE = frozenset({"context", "precision", "hardware"})
HOOKS = "scripts.benchkit.fit_refusals_hook"
CHECK = "fit_refuses_only_unstatable"
CONFIG = f"""
[[operations]]
include-path = "{FIT_PATH}"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "422"]
"""
