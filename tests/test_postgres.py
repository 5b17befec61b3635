"""Several app servers on one PostgreSQL database, as a team runs them behind one port."""

import json
import os
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from app.db import make_engine
from app.seeding.yamlio import dump_yaml, read_yaml
from tests.databases import new_database_url
from tests.live_servers import CLI, editor_token, get_json, send_json, serving

pytestmark = pytest.mark.postgres


@pytest.fixture
def two_servers(tmp_path: Path, seed_copy: Path) -> Iterator[tuple[list[str], dict[str, str]]]:
    """Two `inference-atlas serve` processes started at once on one empty database."""
    env = {"DATABASE_URL": new_database_url(tmp_path, "shared"), "SEED_DIR": str(seed_copy)}
    with serving(tmp_path, env) as bases:
        yield bases, {**os.environ, **env}


def test_a_reseed_is_served_by_every_app_process(
    two_servers: tuple[list[str], dict[str, str]], seed_copy: Path
) -> None:
    bases, env = two_servers
    engine = make_engine(env["DATABASE_URL"])
    with engine.connect() as db:
        version = db.execute(text("SELECT value FROM meta WHERE key = 'data_version'")).scalar()
        loads = db.execute(text("SELECT count(*) FROM revision WHERE entity = 'dataset'")).scalar()
    assert version is not None and version.startswith("1."), "seeded once, by one of them"
    assert loads == 1
    before = [get_json(f"{base}/api/v1/systems/vllm")["summary"] for base in bases]
    assert before[0] == before[1]

    path = seed_copy / "systems" / "vllm.yaml"
    data = read_yaml(path)
    data["summary"] = "Changed by a reseed while two servers run."
    path.write_text(dump_yaml(data))
    reseed = subprocess.run([CLI, "seed"], env=env, capture_output=True, text=True, check=False)
    assert reseed.returncode == 0, reseed.stderr
    assert "1 revisions recorded" in reseed.stdout

    # The very next request to either process serves the reseed: each reads the data
    # version after the request arrived, before answering from its page cache.
    seen = [get_json(f"{base}/api/v1/systems/vllm")["summary"] for base in bases]
    assert seen == [data["summary"]] * 2
    with engine.connect() as db:
        [(actor, action)] = db.execute(
            text("SELECT actor, action FROM revision WHERE entity = 'system' AND key = 'vllm'")
        ).all()
    assert (actor, action) == ("seed", "update")
    engine.dispose()


def openai_api_disputed(system: dict[str, Any]) -> bool:
    return next(
        c["disputed"]
        for g in system["features"]
        for c in g["cells"]
        if c["capability"] == "openai-api"
    )


def test_an_edit_through_one_process_is_served_by_the_other_at_once(
    two_servers: tuple[list[str], dict[str, str]],
) -> None:
    (first, second), env = two_servers
    token = editor_token(env)
    anonymous = [get_json(f"{base}/api/v1/systems/vllm") for base in (first, second)]
    assert [openai_api_disputed(system) for system in anonymous] == [False, False]

    status, saved = send_json(
        f"{first}/api/v1/benchmarks",
        {
            "system": "vllm",
            "metric": "throughput",
            "value": 4321,
            "unit": "tok/s",
            "hardware": "H100 SXM",
            "gpus": 1,
        },
        token,
    )
    assert status == 201
    # Signed-in reads skip the shared render cache: the other process answers from the
    # database at once, with no wait for its version watcher.
    request = urllib.request.Request(
        f"{second}/api/v1/benchmarks?origin=team", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        served = json.loads(response.read())["results"]
    assert [(r["id"], r["value"], r["hardware"]) for r in served] == [
        (saved["id"], 4321, "nvidia-h100-sxm5-80gb")
    ]
    status, claim = send_json(
        f"{second}/api/v1/systems/vllm/claims/openai-api", {"level": "partial"}, token, "PUT"
    )
    assert status == 201 and claim["by"] == "eddie"
    # Anonymous readers share each process's page cache, which held the page from before;
    # the claim was made through the second, and the first serves it at once.
    disputed = [
        openai_api_disputed(get_json(f"{base}/api/v1/systems/vllm")) for base in (first, second)
    ]
    assert disputed == [True, True]
