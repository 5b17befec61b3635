"""Trusted proxy sign-in through Debian's Caddy and its forward_auth, in front of a real
`inference-atlas serve`: the sign-in service (here a small stand-in for oauth2-proxy or
Authelia) names the person in headers Caddy copies onto the request; the app believes them
from Caddy's address only.
"""

import os
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx2
import pytest

from tests.live_servers import free_port, serving

pytestmark = [
    pytest.mark.slow,
    # Skipped only outside CI: `make test` installs Debian's caddy (scripts/system-deps.sh).
    pytest.mark.skipif(
        shutil.which("caddy") is None and os.environ.get("CI", "").lower() not in ("1", "true"),
        reason="needs Debian's caddy",
    ),
]

# Who the stand-in sign-in service knows, by the value of its own cookie, and their groups.
PEOPLE = {"pat-sso": ("pat@example.com", "staff,atlas-editors"), "kim-sso": ("kim", "staff")}


class SignInService(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        cookie = self.headers.get("Cookie", "")
        found = PEOPLE.get(cookie.removeprefix("sso="))
        self.send_response(200 if found else 401)
        if found:
            self.send_header("X-Forwarded-User", found[0])
            self.send_header("X-Forwarded-Groups", found[1])
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


CADDYFILE = """{{
\tadmin off
\tauto_https off
}}
http://127.0.0.1:{port} {{
	# `route` keeps this order (Caddy's own would strip the headers after forward_auth):
	# whatever the client sent under these names goes; only the service's count.
	route {{
		request_header -X-Forwarded-User
		request_header -X-Forwarded-Groups
		forward_auth 127.0.0.1:{auth} {{
			uri /auth
			copy_headers X-Forwarded-User X-Forwarded-Groups
		}}
		reverse_proxy 127.0.0.1:{app}
	}}
}}
"""


@pytest.fixture(scope="module")
def sign_in_service() -> Iterator[int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), SignInService)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def app_base(accounts_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    env = {
        "DATABASE_URL": accounts_url,
        "ATLAS_SECRET_KEY": "a-test-secret-that-is-long-enough-for-production",
        "ATLAS_PROXY_USER_HEADER": "X-Forwarded-User",
        "ATLAS_PROXY_GROUPS_HEADER": "X-Forwarded-Groups",
        "ATLAS_OIDC_EDITOR_GROUPS": "atlas-editors",
        "ATLAS_OIDC_ADMIN_GROUPS": "atlas-admins",
        # Caddy connects from 127.0.0.1; the tests' own direct requests come from 127.0.0.2.
        "ATLAS_TRUSTED_PROXIES": "127.0.0.1",
    }
    with serving(tmp_path_factory.mktemp("proxy-app"), env, count=1) as [base]:
        yield base


@pytest.fixture(scope="module")
def caddy(app_base: str, sign_in_service: int, tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("caddy")
    port = free_port()
    config = folder / "Caddyfile"
    config.write_text(
        CADDYFILE.format(port=port, auth=sign_in_service, app=app_base.rsplit(":", 1)[1])
    )
    env = {
        **os.environ,
        "HOME": str(folder),
        "XDG_DATA_HOME": str(folder),
        "XDG_CONFIG_HOME": str(folder),
    }
    log = folder / "caddy.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            ["caddy", "run", "--config", str(config), "--adapter", "caddyfile"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    _wait_for(base, process, log)
    yield base
    process.terminate()
    process.wait(timeout=20)


def _wait_for(base: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text()[-3000:]
        try:
            httpx2.get(f"{base}/healthz", timeout=1)
            return
        except httpx2.HTTPError:
            time.sleep(0.2)
    raise AssertionError(f"caddy did not come up:\n{log.read_text()[-3000:]}")


def me(base: str, transport: httpx2.HTTPTransport | None = None, **headers: str) -> httpx2.Response:
    with httpx2.Client(transport=transport, timeout=10) as client:
        return client.get(f"{base}/api/v1/me", headers=headers)


def test_the_proxy_signs_people_in_with_their_groups_roles(caddy: str) -> None:
    pat = me(caddy, Cookie="sso=pat-sso")
    assert pat.json() == {"name": "pat", "role": "editor", "via": "proxy"}
    assert me(caddy, Cookie="sso=kim-sso").json() == {
        "name": "kim",
        "role": "viewer",
        "via": "proxy",
    }
    assert me(caddy).status_code == 401  # the sign-in service refused: Caddy answers for it


def test_headers_a_client_sends_through_the_proxy_are_replaced(caddy: str) -> None:
    forged = {"X-Forwarded-User": "ada", "X-Forwarded-Groups": "atlas-admins"}
    answer = me(caddy, Cookie="sso=kim-sso", **forged)
    assert answer.json() == {"name": "kim", "role": "viewer", "via": "proxy"}


def test_the_headers_sent_straight_to_the_app_count_for_nothing(app_base: str) -> None:
    elsewhere = httpx2.HTTPTransport(local_address="127.0.0.2")
    forged = {"X-Forwarded-User": "ada", "X-Forwarded-Groups": "atlas-admins"}
    assert me(app_base, elsewhere, **forged).status_code == 401


@pytest.mark.parametrize("example", ["oauth2-proxy", "authelia"])
def test_the_documented_examples_are_caddyfiles_caddy_reads(example: str) -> None:
    config = Path(__file__).parents[2] / "deploy" / "sign-in" / f"{example}.Caddyfile"
    env = {**os.environ, "ATLAS_HOSTNAME": "atlas.example.com"}
    adapted = subprocess.run(
        ["caddy", "adapt", "--adapter", "caddyfile", "--config", str(config)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert adapted.returncode == 0, adapted.stderr
    # The headers are dropped before forward_auth copies them (a route keeps that order).
    assert 0 < adapted.stdout.index('"delete"') < adapted.stdout.index('"handle_response"')
