"""Real `inference-atlas serve` processes for the tests that need several on one database."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CLI = str(Path(sys.executable).parent / "inference-atlas")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get_json(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


def send_json(url: str, body: object, token: str, method: str = "POST") -> tuple[int, dict]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method=method,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, json.loads(response.read())


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


@contextmanager
def serving(tmp_path: Path, env: dict[str, str], count: int = 2) -> Iterator[list[str]]:
    """`count` servers started at once on the database `env` names; their base URLs."""
    env = {**os.environ, "ACCESS_LOG": "false", **env}
    servers, bases, logs = [], [], []
    for i in range(count):
        port = free_port()
        logs.append(tmp_path / f"serve-{i}.log")
        with logs[-1].open("w") as log:
            servers.append(
                subprocess.Popen(
                    [CLI, "serve", "--port", str(port)],
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
        bases.append(f"http://127.0.0.1:{port}")
    try:
        for base, server, log in zip(bases, servers, logs, strict=True):
            wait_until_up(base, server, log)
        yield bases
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=20)
        for log in logs:
            assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


def editor_token(env: dict[str, str], name: str = "eddie") -> str:
    """Add an editor and an API token for them through the command line; the token."""
    env = {**os.environ, **env}
    add = subprocess.run(
        [CLI, "user", "add", name, "--role", "editor", "--password-stdin"],
        input="correct horse battery staple\n",
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert add.returncode == 0, add.stderr
    made = subprocess.run(
        [CLI, "token", "add", "--user", name], env=env, capture_output=True, text=True, check=False
    )
    token = made.stdout.strip()
    assert made.returncode == 0 and len(token) > 30, made.stderr
    return token
