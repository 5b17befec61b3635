"""Every state-changing route is in a permission test for anonymous people, viewers, editors
and admins. A route added later fails the first test here until it is put in one of the lists
(the write API's WRITES, a form module's POSTS, ADMIN_POSTS below, or PUBLIC with a reason)."""

from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.team import (
    test_catalogue_api,
    test_catalogue_edit,
    test_catalogue_forms,
    test_claim_forms,
    test_import_api,
    test_import_new_entries,
    test_import_pages,
    test_note_forms,
    test_result_forms,
    test_write_api,
)
from tests.team.html import page, post
from tests.webhooks import test_admin_page as webhook_forms
from tests.webhooks import test_webhooks_api as webhook_api

Clients = Callable[..., TestClient]
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}

# The users page: admins only. An unknown user is a real answer past the role check (422).
ADMIN_POSTS = [
    ("/admin/users", {"name": "", "role": "editor", "password": "", "repeat": ""}),
    ("/admin/users/nobody/role", {"role": "editor"}),
    ("/admin/users/nobody/disable", {}),
    ("/admin/users/nobody/enable", {}),
]
# Editor forms outside the team-form modules. An empty price is a real answer past the role
# check (422), so nothing is written.
EDITOR_POSTS = [
    ("/hardware/nvidia-h100-sxm5-80gb/price", {"usd_per_gpu_hour": "", "basis": ""}),
]
# A signed-in user's own account: any role, nobody anonymous. A token id that is not the
# caller's is a real answer past the sign-in check (404).
SIGNED_IN_POSTS = [
    ("/account/tokens", {"label": "x", "expires": "0"}),
    ("/account/tokens/999999/revoke", {}),
]
PUBLIC = {
    ("POST", "/login"): "anyone may try to sign in (limited per name and address)",
    ("POST", "/logout"): "ends the caller's own session, if it has one",
    ("POST", "/account/password"): "any signed-in user, their own password (the current one "
    "is needed too): tests/accounts/test_own_password.py",
    ("POST", "/api/v1/account/password"): "as /account/password, for API clients",
    ("POST", "/fit/log"): "changes nothing: reads a pasted log beside a fit and keeps none of "
    "it (tests/test_fit_pages.py)",
}


def unsafe_routes(app: FastAPI) -> list[tuple[str, Any]]:
    """(method, route) of every route that changes state."""
    found = []
    for included in app.routes:
        # FastAPI keeps an included router whole; its routes carry the full path.
        router = getattr(included, "original_router", None)
        for route in router.routes if router else [included]:
            for method in sorted(UNSAFE & set(getattr(route, "methods", None) or ())):
                found.append((method, route))
    return found


def covered_paths() -> list[tuple[str, str]]:
    """Every (method, concrete path) a permission test sends."""
    forms = [
        *test_result_forms.POSTS,
        *test_claim_forms.POSTS,
        *test_note_forms.POSTS,
        *test_import_pages.POSTS,
        *test_catalogue_forms.POSTS,
        *test_catalogue_edit.POSTS,
        *test_import_new_entries.POSTS,
    ]
    return [
        *((method.upper(), path) for method, path, _ in test_write_api.WRITES),
        *((method.upper(), path) for method, path in test_import_api.WRITES),
        *((method.upper(), path) for method, path, _ in test_catalogue_api.WRITES),
        *(("POST", path.format(id="x-1")) for path, _ in forms),
        *(("POST", path) for path, _ in ADMIN_POSTS),
        *(("POST", path) for path, _ in EDITOR_POSTS),
        *(("POST", path) for path, _ in SIGNED_IN_POSTS),
        *((method.upper(), path) for method, path, _ in webhook_api.WRITES),
        *(("POST", path) for path, _ in webhook_forms.POSTS),
    ]


def test_every_state_changing_route_is_in_a_permission_test(accounts_app: FastAPI) -> None:
    sent = covered_paths()
    routes = unsafe_routes(accounts_app)
    missing = [
        f"{method} {route.path}"
        for method, route in routes
        if (method, route.path) not in PUBLIC
        and not any(m == method and route.path_regex.match(path) for m, path in sent)
    ]
    assert missing == [], "state-changing routes no permission test sends a request to"
    assert ("POST", "/api/v1/notes") in {(m, r.path) for m, r in routes}  # the walk sees them


@pytest.mark.parametrize(("path", "data"), ADMIN_POSTS)
def test_the_users_page_changes_are_for_admins_alone(
    clients: Clients, path: str, data: dict[str, str]
) -> None:
    anonymous = post(clients(), path, data)
    assert anonymous.status_code == 303 and anonymous.headers["location"] == "/login"
    for who in ("vera", "eddie"):
        refused = post(clients(who), path, data)
        assert refused.status_code == 403
        assert "this needs admin" in page(refused).get_text()
    assert post(clients("ada"), path, data).status_code == 422  # past the check: no such user


@pytest.mark.parametrize(("path", "data"), EDITOR_POSTS)
def test_the_editor_forms_elsewhere_are_for_editors_and_admins(
    clients: Clients, path: str, data: dict[str, str]
) -> None:
    anonymous = post(clients(), path, data)
    assert anonymous.status_code == 303 and anonymous.headers["location"].startswith("/login")
    assert post(clients("vera"), path, data).status_code == 403
    for who in ("eddie", "ada"):
        assert post(clients(who), path, data).status_code == 422  # past the check: no price


@pytest.mark.parametrize(("path", "data"), SIGNED_IN_POSTS)
def test_account_changes_need_a_signed_in_user_of_any_role(
    clients: Clients, path: str, data: dict[str, str]
) -> None:
    anonymous = post(clients(), path, data)
    assert anonymous.status_code == 303 and anonymous.headers["location"].startswith("/login")
    for who in ("vera", "eddie", "ada"):
        # Past the check: an expiry of 0 days is refused (422), an unknown token is 404.
        assert post(clients(who), path, data).status_code in (404, 422)
