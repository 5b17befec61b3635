"""A real OpenID Connect provider for the sign-in tests: the `oidc-provider-mock` package's
server (Authlib's authorization server under Flask) in a process of its own, with the
people the tests sign in as."""

import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.live_servers import free_port

# Three people and the groups their provider puts them in (ATLAS_OIDC_*_GROUPS below).
PEOPLE = {
    "ada-sub": {"preferred_username": "ada", "groups": ["atlas-admins", "staff"]},
    "eddie-sub": {"preferred_username": "eddie", "groups": ["atlas-editors"]},
    "vera-sub": {"preferred_username": "vera", "groups": ["staff"]},
    # No groups: a verified address in a domain the editor list names.
    "gail-sub": {"email": "gail@example.org", "email_verified": True},
}
GROUP_SETTINGS = {
    "atlas_oidc_admin_groups": "atlas-admins",
    "atlas_oidc_editor_groups": "Atlas-Editors, @example.org",
}


@contextmanager
def oidc_provider(tmp_path: Path, token_seconds: int = 3600) -> Iterator[str]:
    """The provider running on a free port; its issuer URL."""
    port = free_port()
    issuer = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "oidc_provider_mock", "--port", str(port)]
    command += ["--require-nonce", "--token-max-age", str(token_seconds)]
    for sub, claims in PEOPLE.items():
        command += ["--user-claims", json.dumps({"sub": sub, **claims})]
    log = tmp_path / "oidc-provider.log"
    with log.open("w") as out:
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        _wait_until_up(issuer, server, log)
        yield issuer
    finally:
        server.terminate()
        server.wait(timeout=20)


def _wait_until_up(issuer: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert server.poll() is None, log.read_text()[-3000:]
        try:
            with urllib.request.urlopen(f"{issuer}/.well-known/openid-configuration", timeout=1):
                return
        except (OSError, urllib.error.URLError):
            time.sleep(0.2)
    raise AssertionError(f"the OpenID Connect provider did not come up:\n{log.read_text()}")
