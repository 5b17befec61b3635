"""Several app servers on one PostgreSQL database, as a team runs them behind one port."""

import json
import os
import socket
import subprocess
import sys
import time
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

pytestmark = pytest.mark.postgres
CLI = str(Path(sys.executable).parent / "inference-atlas")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get_json(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


def wait_until_up(base: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        assert server.poll() is None, log.read_text()[-3000:]
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=1):
                return
        except (OSError, urllib.error.URLError):
            time.sleep(0.25)
    raise AssertionError(f"{base} did not come up:\n{log.read_text()[-3000:]}")


@pytest.fixture
def two_servers(tmp_path: Path, seed_copy: Path) -> Iterator[tuple[list[str], dict[str, str]]]:
    """Two `inference-atlas serve` processes started at once on one empty database."""
    env = {
        **os.environ,
        "DATABASE_URL": new_database_url(tmp_path, "shared"),
        "SEED_DIR": str(seed_copy),
        "ACCESS_LOG": "false",
        # A minute between background reads of the data version: a change made elsewhere
        # that shows within the tests' few seconds came by PostgreSQL's NOTIFY.
        "VERSION_POLL_SECONDS": "60",
    }
    servers, bases, logs = [], [], []
    for i in range(2):
        port = free_port()
        logs.append(tmp_path / f"serve-{i}.log")
        with logs[-1].open("w") as log:
            servers.append(subprocess.Popen(
                [CLI, "serve", "--port", str(port)], env=env, stdout=log, stderr=subprocess.STDOUT
            ))  # fmt: skip
        bases.append(f"http://127.0.0.1:{port}")
    try:
        for base, server, log in zip(bases, servers, logs, strict=True):
            wait_until_up(base, server, log)
        yield bases, env
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=20)
        for log in logs:
            assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


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

    # Neither process served a request since the reseed: the NOTIFY sent by its commit tells
    # both, and their caches move to the new version (the poll is a minute away).
    deadline = time.monotonic() + 10
    seen: list[object] = []
    while time.monotonic() < deadline:
        seen = [get_json(f"{base}/api/v1/systems/vllm")["summary"] for base in bases]
        if seen == [data["summary"]] * 2:
            break
        time.sleep(0.2)
    assert seen == [data["summary"]] * 2
    with engine.connect() as db:
        [(actor, action)] = db.execute(
            text("SELECT actor, action FROM revision WHERE entity = 'system' AND key = 'vllm'")
        ).all()
    assert (actor, action) == ("seed", "update")
    engine.dispose()


def send_json(url: str, body: object, token: str, method: str = "POST") -> tuple[int, dict]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), method=method,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )  # fmt: skip
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, json.loads(response.read())


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
    add = subprocess.run([CLI, "user", "add", "eddie", "--role", "editor", "--password-stdin"],
                         input="correct horse battery staple\n", env=env, capture_output=True,
                         text=True, check=False)  # fmt: skip
    assert add.returncode == 0, add.stderr
    made = subprocess.run([CLI, "token", "add", "--user", "eddie"], env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    token = made.stdout.strip()
    assert made.returncode == 0 and len(token) > 30, made.stderr
    anonymous = [get_json(f"{base}/api/v1/systems/vllm") for base in (first, second)]
    assert [openai_api_disputed(system) for system in anonymous] == [False, False]

    status, saved = send_json(f"{first}/api/v1/benchmarks", {
        "system": "vllm", "metric": "throughput", "value": 4321, "unit": "tok/s",
        "hardware": "H100 SXM", "gpus": 1,
    }, token)  # fmt: skip
    assert status == 201
    # Signed-in reads skip the shared render cache: the other process answers from the
    # database at once, with no wait for its version watcher.
    request = urllib.request.Request(
        f"{second}/api/v1/benchmarks?origin=team", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        served = json.loads(response.read())["results"]
    assert [(r["id"], r["value"], r["hardware"]) for r in served] == [
        (saved["id"], 4321, "nvidia-h100-sxm5-80gb")]  # fmt: skip
    status, claim = send_json(f"{second}/api/v1/systems/vllm/claims/openai-api",
                              {"level": "partial"}, token, "PUT")  # fmt: skip
    assert status == 201 and claim["by"] == "eddie"
    # Anonymous readers share each process's render cache, which held the page from before.
    # The claim was made through the second; the first hears of it by NOTIFY.
    deadline = time.monotonic() + 10
    disputed: list[bool] = []
    while time.monotonic() < deadline:
        disputed = [
            openai_api_disputed(get_json(f"{base}/api/v1/systems/vllm")) for base in (first, second)
        ]
        if disputed == [True, True]:
            break
        time.sleep(0.2)
    assert disputed == [True, True]
