"""`inference-atlas serve` with LOG_FORMAT=json: every line JSON, one line per request."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import SEED_DIR
from tests.databases import copy_of

pytestmark = pytest.mark.slow

CLI = str(Path(sys.executable).parent / "inference-atlas")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str, **headers: str) -> int:
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=5) as response:
        return response.status


def test_serve_writes_json_lines_and_no_uvicorn_access_lines(
    tmp_path: Path, database_url: str
) -> None:
    url = copy_of(database_url, tmp_path, SEED_DIR)
    env = {**os.environ, "DATABASE_URL": url, "LOG_FORMAT": "json", "ACCESS_LOG": "true"}
    port = free_port()
    log_path = tmp_path / "serve.log"
    with log_path.open("w") as log:
        server = subprocess.Popen(
            [CLI, "serve", "--port", str(port)], env=env, stdout=log, stderr=subprocess.STDOUT
        )
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                try:
                    get(f"{base}/healthz")
                    break
                except OSError:
                    assert time.monotonic() < deadline, log_path.read_text()[-2000:]
                    time.sleep(0.2)
            assert get(f"{base}/sources", **{"X-Request-ID": "e2e-sources"}) == 200
        finally:
            server.terminate()
            server.wait(timeout=20)
    lines = [json.loads(line) for line in log_path.read_text().splitlines()]  # all JSON
    loggers = {line["logger"] for line in lines}
    assert "uvicorn.access" not in loggers and "uvicorn.error" in loggers
    [sources] = [line for line in lines if line.get("request_id") == "e2e-sources"]
    assert (sources["route"], sources["status"], sources["client"]) == (
        "/sources",
        200,
        "127.0.0.1",
    )
    assert any("newest schema" in line["message"] for line in lines)
