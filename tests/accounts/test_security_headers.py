"""Security headers on every kind of response, and markup the Content-Security-Policy allows."""

import re

import pytest
from bs4 import BeautifulSoup
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.settings import PROJECT_ROOT
from app.web.security_headers import CONTENT_SECURITY_POLICY
from tests.accounts.conftest import build_app

EXPECTED = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
}
MAIN_PAGES = [
    "/",
    "/matrix",
    "/matrix?cell=vllm:prefix-caching",
    "/hardware",
    "/benchmarks",
    "/benchmarks?metric=throughput",
    "/compare?s=vllm&s=sglang&s=llama-cpp",
    "/decide",
    "/decide?hardware=nvidia-datacenter&scale=production&workload=rag",
    "/systems/vllm",
    "/features/prefix-caching",
    "/sources",
    "/login",
    "/systems/nope",
]


def assert_secured(response) -> None:
    for name, value in EXPECTED.items():
        assert response.headers.get(name) == value, (response.url, name)


def test_the_policy_allows_no_inline_code_and_no_framing() -> None:
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY
    assert "unsafe-eval" not in CONTENT_SECURITY_POLICY
    for directive in (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "frame-ancestors 'none'",
        "form-action 'self'",
        "base-uri 'none'",
    ):
        assert directive in CONTENT_SECURITY_POLICY.split("; ")


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/", 200),
        ("HEAD", "/", 200),
        ("GET", "/api/v1/systems", 200),
        ("GET", "/static/css/app.css", 200),
        ("GET", "/static/vendor/htmx.min.js", 200),
        ("GET", "/matrix.csv", 200),
        ("GET", "/docs", 200),
        ("GET", "/healthz", 200),
        ("GET", "/no/such/page", 404),
        ("GET", "/systems/nope", 404),
        ("GET", "/api/v1/matrix?kind=rocket", 422),
        ("POST", "/sources", 405),
        ("GET", "/sources/", 308),
        ("GET", "/sources?utm_source=chat", 303),
        ("GET", "/sources?" + "x=1&" * 3000, 414),
        ("POST", "/login", 403),  # refused as cross-site (below)
    ],
)
def test_every_kind_of_response_carries_them(clients, method, path, status) -> None:
    headers = {"Sec-Fetch-Site": "cross-site"} if method == "POST" and status == 403 else {}
    response = clients().request(method, path, headers=headers, follow_redirects=False)
    assert response.status_code == status
    assert_secured(response)


def test_a_not_modified_answer_carries_them(clients) -> None:
    client = clients()
    etag = client.get("/sources").headers["etag"]
    response = client.get("/sources", headers={"If-None-Match": etag})
    assert response.status_code == 304
    assert_secured(response)


def test_an_unknown_host_is_refused_with_them(clients) -> None:
    response = clients().get("/", headers={"Host": "evil.example"})
    assert response.status_code == 400
    assert_secured(response)


def test_a_crash_is_answered_with_them(accounts_url) -> None:
    app: FastAPI = build_app(accounts_url)

    @app.get("/boom")
    async def boom() -> None:
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/boom")
    assert response.status_code == 500
    assert response.text == "Internal Server Error"
    assert_secured(response)


def test_a_signed_in_page_carries_them(clients) -> None:
    assert_secured(clients("eddie").get("/admin/users"))


@pytest.mark.parametrize("path", MAIN_PAGES)
def test_pages_have_no_inline_script_style_or_handlers(clients, path: str) -> None:
    for headers in ({}, {"HX-Request": "true"}):  # whole pages and HTMX fragments
        html = clients().get(path, headers=headers).text
        assert_allowed_by_the_policy(html, path)


def test_the_admin_page_is_allowed_by_the_policy_too(clients) -> None:
    assert_allowed_by_the_policy(clients("ada").get("/admin/users").text, "/admin/users")


def assert_allowed_by_the_policy(html: str, where: str) -> None:
    soup = BeautifulSoup(html, "html.parser")
    assert not soup.select("style"), f"{where}: a <style> element"
    assert not soup.select("[style]"), f"{where}: {soup.select('[style]')[0]}"
    inline = [s for s in soup.select("script") if not s.get("src")]
    assert not inline, f"{where}: inline script {inline[0]}"
    handlers = [(t.name, a) for t in soup.find_all(True) for a in t.attrs if a.startswith("on")]
    assert not handlers, f"{where}: event handler attributes {handlers[:3]}"
    scripted = [a["href"] for a in soup.select("a[href]") if a["href"].startswith("javascript:")]
    assert not scripted, f"{where}: javascript: links"
    for tag in soup.select("[hx-on], [hx-vals^='js:'], [hx-vars]"):
        raise AssertionError(f"{where}: htmx attribute that evaluates code: {tag}")


def test_templates_write_no_inline_style_script_or_handlers() -> None:
    """The pages above cover what they render; this covers every template branch, charts'
    SVG included (app/present/charts.py computes geometry; templates/macros/charts.html draws)."""
    offenders = []
    for path in (PROJECT_ROOT / "templates").rglob("*.html"):
        text = re.sub(r"{#.*?#}", "", path.read_text(), flags=re.S)  # comments may say "style="
        for pattern in (r"\sstyle=", r"<style", r"<script(?![^>]*\ssrc=)", r"\son[a-z]+="):
            offenders += [f"{path.name}: {m.group(0)!r}" for m in re.finditer(pattern, text)]
    assert offenders == []


def test_our_scripts_set_no_inline_style_markup() -> None:
    """Setting element.style from a script file is allowed by the policy; writing a style
    attribute or markup with one (setAttribute, innerHTML) is not."""
    for path in (PROJECT_ROOT / "static" / "js").glob("*.js"):
        text = path.read_text()
        for pattern in (r"setAttribute\(\s*[\"']style", r"style=", r"<style", r"innerHTML"):
            assert not re.search(pattern, text), f"{path.name}: {pattern}"


def test_htmx_is_told_not_to_inject_styles_or_evaluate_code(clients) -> None:
    meta = BeautifulSoup(clients().get("/").text, "html.parser").select_one(
        "meta[name=htmx-config]"
    )
    assert '"includeIndicatorStyles": false' in meta["content"]
    assert '"allowEval": false' in meta["content"]
