"""Who may do what: 401 and 403, tokens, private instances, the production secret."""

import logging
from collections.abc import Iterator
from datetime import timedelta

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlmodel import Session
from typer.testing import CliRunner

from app.accounts import users as service
from app.accounts.models import Role, utcnow
from app.accounts.users import SignedIn
from app.accounts.web import EditorUser
from app.cli import cli
from app.db import make_engine, writer
from app.main import create_app
from app.settings import InsecureSecretError, Settings
from app.web.cache import PUBLIC_CACHING
from tests.accounts.conftest import SAME_ORIGIN, SECRET, build_app, sign_in
from tests.conftest import SEED_DIR

pytestmark = pytest.mark.database


def make_token(url: str, name: str, days: int | None = None) -> str:
    engine = make_engine(url)
    with Session(writer(engine)) as session, session.begin():
        _, raw = service.add_token(session, name, days)
    engine.dispose()
    return raw


@pytest.fixture(scope="module")
def guarded_app(accounts_url: str) -> Iterator[FastAPI]:
    """The module's database with one write-like route that needs an editor, the way the
    write API will (app.accounts.web.EditorUser)."""
    app = build_app(accounts_url)

    @app.post("/api/v1/test-writes")
    async def test_write(who: EditorUser) -> dict[str, str]:
        return {"by": who.name, "via": who.via}

    with TestClient(app):
        yield app


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_anonymous_api_writes_get_401_with_a_bearer_challenge(guarded_app) -> None:
    response = TestClient(guarded_app).post("/api/v1/test-writes")
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"
    assert "inference-atlas token add" in response.json()["detail"]


def test_viewers_get_403_and_editors_and_admins_pass(guarded_app, accounts_url) -> None:
    client = TestClient(guarded_app)
    viewer = client.post("/api/v1/test-writes", headers=bearer(make_token(accounts_url, "vera")))
    assert viewer.status_code == 403
    assert viewer.json()["detail"] == (
        "You are signed in as vera (viewer); this needs editor or admin."
    )
    for name in ("eddie", "ada"):
        token = make_token(accounts_url, name)
        response = client.post("/api/v1/test-writes", headers=bearer(token))
        assert response.status_code == 200
        assert response.json() == {"by": name, "via": "token"}


def test_routes_that_need_a_role_declare_the_bearer_scheme_in_openapi(guarded_app) -> None:
    schema = TestClient(guarded_app).get("/openapi.json").json()
    assert schema["paths"]["/api/v1/test-writes"]["post"]["security"] == [{"HTTPBearer": []}]
    scheme = schema["components"]["securitySchemes"]["HTTPBearer"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    assert "security" not in schema["paths"]["/api/v1/systems"]["get"]  # reads stay open


def test_a_browser_session_passes_the_role_check_too(guarded_app) -> None:
    client = TestClient(guarded_app)
    assert sign_in(client, "eddie").status_code == 303
    response = client.post("/api/v1/test-writes", headers=SAME_ORIGIN)
    assert response.json() == {"by": "eddie", "via": "session"}


def test_a_bad_expired_or_revoked_token_gets_401_even_on_reads(guarded_app, accounts_url):
    client = TestClient(guarded_app)
    engine = make_engine(accounts_url)
    with Session(writer(engine)) as session, session.begin():
        revoked, revoked_raw = service.add_token(session, "eddie")
        service.revoke_token(session, revoked.id)
        _, expired_raw = service.add_token(session, "eddie", days=1)
    engine.dispose()
    # An expired token: the clock cannot move under a live server, so ask the lookup directly.
    expired_at = utcnow() + timedelta(days=2)
    with Session(engine) as session:
        assert service.token_identity(session, expired_raw, now=expired_at) is None
    for token in ("atl_not-a-real-token", revoked_raw):
        response = client.get("/api/v1/systems", headers=bearer(token))
        assert response.status_code == 401
        assert response.headers["www-authenticate"] == 'Bearer error="invalid_token"'
        assert response.json()["detail"].startswith("The API token is not valid")


def test_a_good_token_reads_privately(guarded_app, accounts_url) -> None:
    response = TestClient(guarded_app).get(
        "/api/v1/systems", headers=bearer(make_token(accounts_url, "vera"))
    )
    assert response.status_code == 200
    assert response.headers["cache-control"] == "private, no-cache"


def test_other_authorization_schemes_are_left_to_the_proxy(guarded_app) -> None:
    response = TestClient(guarded_app).get(
        "/api/v1/systems", headers={"Authorization": "Basic dXNlcjpwYXNz"}
    )
    assert response.status_code == 200
    assert response.headers["cache-control"] == PUBLIC_CACHING


def test_admin_pages_send_anonymous_people_to_sign_in_and_refuse_viewers(clients) -> None:
    anonymous = clients().get("/admin/users", follow_redirects=False)
    assert anonymous.status_code == 303
    assert anonymous.headers["location"] == "/login?next=%2Fadmin%2Fusers"
    htmx = clients().get("/admin/users", headers={"HX-Request": "true"}, follow_redirects=False)
    assert htmx.status_code == 401
    assert htmx.headers["hx-redirect"] == "/login?next=%2Fadmin%2Fusers"
    viewer = clients("vera").get("/admin/users")
    assert viewer.status_code == 403
    assert "this needs admin" in viewer.text
    editor = clients("eddie").post("/admin/users/vera/disable", headers=SAME_ORIGIN)
    assert editor.status_code == 403
    assert clients("ada").get("/admin/users").status_code == 200


@pytest.fixture(scope="module")
def private_app(accounts_url: str) -> Iterator[FastAPI]:
    app = build_app(accounts_url, atlas_public_read=False)
    with TestClient(app):
        yield app


@pytest.mark.parametrize("path", ["/", "/matrix", "/systems/vllm", "/docs", "/matrix.csv"])
def test_a_private_instance_sends_every_page_to_sign_in(private_app, path: str) -> None:
    response = TestClient(private_app).get(path, follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"].startswith("/login")


@pytest.mark.parametrize("path", ["/api/v1/systems", "/api/v1/matrix", "/openapi.json"])
def test_a_private_instance_answers_401_to_anonymous_api_reads(private_app, path: str) -> None:
    response = TestClient(private_app).get(path)
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"


@pytest.mark.parametrize("path", ["/login", "/healthz", "/static/css/app.css", "/logout"])
def test_a_private_instance_still_serves_sign_in_health_and_static_files(private_app, path):
    assert TestClient(private_app).get(path).status_code == 200


def test_a_private_instance_serves_signed_in_people(private_app, accounts_url) -> None:
    client = TestClient(private_app)
    response = sign_in(client, "vera", next_path="/matrix")
    assert response.headers["location"] == "/matrix"
    assert client.get("/matrix").status_code == 200
    token = make_token(accounts_url, "vera")
    assert TestClient(private_app).get("/api/v1/systems", headers=bearer(token)).status_code == 200


@pytest.mark.parametrize(
    ("secret", "problem"),
    [
        ("", "ATLAS_SECRET_KEY is not set"),
        ("changethis", "is the placeholder 'changethis'"),
        ("too-short-a-secret", "is 18 characters long; production needs at least 32"),
    ],
)
def test_production_refuses_to_start_without_a_real_secret(database_url, secret, problem):
    settings = Settings(database_url=database_url, atlas_env="production", secret_key=secret)
    with pytest.raises(InsecureSecretError, match=problem):
        create_app(settings)


def test_production_starts_with_a_real_secret(database_url) -> None:
    settings = Settings(database_url=database_url, atlas_env="production", secret_key=SECRET)
    assert (
        create_app(settings).state.cookie_signer.loads(
            create_app(settings).state.cookie_signer.dumps("x")
        )
        == "x"
    )  # the same secret signs alike in every process


def test_serve_in_production_without_a_secret_exits_with_the_reason(monkeypatch) -> None:
    monkeypatch.setenv("ATLAS_ENV", "production")
    monkeypatch.delenv("ATLAS_SECRET_KEY", raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    result = CliRunner().invoke(cli, ["serve"])
    assert result.exit_code == 1
    assert "ATLAS_SECRET_KEY is not set" in result.stderr
    assert "secrets.token_urlsafe" in result.stderr


def test_either_secret_variable_is_read(monkeypatch) -> None:
    monkeypatch.delenv("ATLAS_SECRET_KEY", raising=False)
    monkeypatch.setenv("SECRET_KEY", "from-secret-key-" * 3)
    assert Settings().secret_key == "from-secret-key-" * 3
    monkeypatch.setenv("ATLAS_SECRET_KEY", "from-atlas-secret-key-" * 2)
    assert Settings().secret_key == "from-atlas-secret-key-" * 2


def test_development_makes_up_a_secret_per_process_and_says_so(database_url, caplog) -> None:
    caplog.set_level(logging.WARNING, logger="inference_atlas")
    first = create_app(Settings(database_url=database_url, seed_dir=SEED_DIR, secret_key=""))
    second = create_app(Settings(database_url=database_url, seed_dir=SEED_DIR, secret_key=""))
    cookie = first.state.cookie_signer.dumps("token")
    with pytest.raises(Exception, match="does not match"):
        second.state.cookie_signer.loads(cookie)
    assert "several processes serving one instance must share one ATLAS_SECRET_KEY" in caplog.text


def test_signed_in_is_a_plain_record() -> None:
    who = SignedIn(1, "eddie", Role.editor, "token", 3)
    assert who.allows(Role.viewer) and who.allows(Role.editor)
    assert not who.allows(Role.admin)
