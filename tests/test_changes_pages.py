"""/changes and a system page's history, as HTML: order, filters, paging, HTMX, escaping,
bad values, and a reseed showing at once."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient
from sqlalchemy import func
from sqlmodel import Session, select

from app.db import make_engine
from app.main import create_app
from app.models import Revision
from app.present.change_words import field_label
from app.seeding.prepare import seed
from app.seeding.yamlio import dump_yaml, read_yaml
from app.settings import Settings
from app.writes import revisions
from app.writes import seed as seed_writes
from tests.conftest import SEED_DIR
from tests.databases import copy_of
from tests.history import HOSTILE_KEY, HOSTILE_MESSAGE, HOSTILE_URL, team_history, users, write

HTMX = {"HX-Request": "true", "HX-Target": "change_list"}


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.text, "html.parser")


def items(soup: BeautifulSoup) -> list:
    return soup.select("#change_list li.change")


def heads(soup: BeautifulSoup) -> list[str]:
    """Each listed change as "Action Kind key"."""
    parts = (".action", ".change-kind", ".change-key")
    return [" ".join(li.select_one(p).get_text() for p in parts) for li in items(soup)]


@pytest.fixture(scope="module")
def history_url(tmp_path_factory: pytest.TempPathFactory, database_url: str) -> str:
    """The seeded data plus the team's changes in tests/history.py (read-only here)."""
    url = copy_of(database_url, tmp_path_factory.mktemp("changes"), SEED_DIR)
    write(url, team_history)
    return url


@pytest.fixture(scope="module")
def client(history_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(database_url=history_url, seed_dir=SEED_DIR))) as c:
        yield c


@pytest.fixture
def own(tmp_path: Path, database_url: str) -> Iterator[tuple[str, TestClient]]:
    """A database and app of this test's own, for tests that write."""
    url = copy_of(database_url, tmp_path, SEED_DIR)
    write(url, team_history)
    with TestClient(create_app(Settings(database_url=url, seed_dir=SEED_DIR))) as c:
        yield url, c


def test_changes_are_listed_newest_first_with_who_when_and_what(client: TestClient) -> None:
    soup = soup_of(client.get("/changes"))
    assert [li["id"] for li in items(soup)] == [f"change-{n}" for n in range(6, 0, -1)]
    first_team = items(soup)[4]  # ann's new claim, after the seed's first-load summary
    assert first_team.select_one(".action").get_text() == "Create"
    assert first_team.select_one(".change-kind").get_text() == "Claim"
    assert first_team.select_one(".change-key").get_text() == "vllm/speculative-decoding/our-lab"
    assert first_team.select_one(".change-system a")["href"] == "/systems/vllm"
    assert first_team.select_one(".change-actor")["href"] == "/changes?user=ann"
    assert first_team.select_one("time")["datetime"] == "2026-11-02T09:30:00+00:00"
    assert "2 Nov 2026, 09:30 UTC" in first_team.select_one(".change-meta").get_text()
    assert first_team.select_one(".change-message").get_text() == "Measured on our own cluster"
    summary = items(soup)[-1]
    assert summary.select_one(".change-kind").get_text() == "Data set"
    assert "(the published data)" in summary.select_one(".change-meta").get_text()


def test_the_diff_shows_only_changed_fields_shortened(client: TestClient) -> None:
    soup = soup_of(client.get("/changes?user=bob&kind=benchmark_result"))
    (result,) = items(soup)
    pairs = zip(result.select("dt"), result.select("dd"), strict=True)
    fields = {dt.get_text(): dd for dt, dd in pairs}
    assert list(fields) == ["Value", "Notes"], "unit and hardware did not change"
    assert fields["Value"].select_one("del").get_text() == "was: 2300"
    assert fields["Value"].select_one("ins").get_text() == "now: 2460"
    assert fields["Notes"].select_one("ins").get_text().endswith("y…")
    assert len(fields["Notes"].select_one("ins").get_text()) < 200
    created = items(soup_of(client.get("/changes?user=ann&kind=claim&system=vllm")))[0]
    assert created.select("dd del") == [] and len(created.select("dd ins")) == 2
    listed = items(soup_of(client.get("/changes?user=seed&kind=system")))[0]
    assert listed.select_one("dt").get_text() == "Best for"
    assert "Long prompts" in listed.select_one("ins").get_text()
    assert "Serving many users" not in listed.get_text(), "entries that stayed are not repeated"


def test_filters_by_user_system_and_kind(client: TestClient) -> None:
    assert heads(soup_of(client.get("/changes?user=ann"))) == [
        "Delete Claim llama-cpp/vulkan/our-lab",
        "Create Claim vllm/speculative-decoding/our-lab",
    ]
    vllm = soup_of(client.get("/changes?system=vllm"))
    assert len(items(vllm)) == 3
    assert all(li.select_one(".change-system") for li in items(vllm))
    assert heads(soup_of(client.get("/changes?kind=benchmark_result&system=sglang"))) == [
        "Update Benchmark result our-lab-sglang-1"
    ]
    form = soup_of(client.get("/changes?user=bob&system=vllm"))
    assert form.select_one('select[name="user"] option[selected]')["value"] == "bob"
    assert form.select_one('select[name="system"] option[selected]')["value"] == "vllm"
    empty = soup_of(client.get("/changes?user=bob&kind=metric"))
    assert items(empty) == []
    assert "No change matches these filters" in empty.select_one(".empty-state").get_text()


def test_the_form_works_without_javascript_and_with_htmx(client: TestClient) -> None:
    soup = soup_of(client.get("/changes"))
    form = soup.select_one("form#changes-form")
    assert form["method"] == "get" and form["action"] == "/changes"
    assert form["hx-target"] == "#change_list" and form["hx-push-url"] == "true"
    kinds = [o["value"] for o in form.select('select[name="kind"] option')]
    assert {"claim", "benchmark_result", "system", "dataset"} <= set(kinds)
    fragment = client.get("/changes?user=ann", headers=HTMX)
    part = soup_of(fragment)
    assert part.select_one("form") is None and part.select_one("section#change_list")
    assert len(items(part)) == 2
    assert fragment.headers["HX-Push-Url"] == "/changes?user=ann"
    assert "HX-Request" in fragment.headers["vary"]


def test_untidy_links_are_tidied_and_unknown_parameters_noted(client: TestClient) -> None:
    response = client.get("/changes?user=&system=vllm&utm_source=chat", follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/changes?system=vllm"
    noted = client.get("/changes?system=vllm&colour=red")
    assert noted.status_code == 200
    assert "colour" in soup_of(noted).select_one(".ignored-notice").get_text()


def test_unknown_filter_values_are_named_on_the_page(client: TestClient) -> None:
    response = client.get("/changes?user=zed&kind=widget&system=vllm")
    assert response.status_code == 422
    banner = soup_of(response).select_one("#change_list .problem-banner")
    text = banner.get_text(" ", strip=True)
    assert "user=zed" in text and "allowed: ann, bob, seed" in text
    assert "kind=widget" in text and "benchmark_result" in text
    assert len(items(soup_of(response))) == 3, "the good filter still applies"
    fragment = client.get("/changes?kind=widget", headers=HTMX)
    assert fragment.status_code == 422
    assert soup_of(fragment).select_one("#change_list .problem-banner")
    assert client.get("/changes?limit=0").status_code == 422
    assert client.get("/changes?before=soon").status_code == 422


def test_pages_go_back_by_id_and_link_to_the_older_one(client: TestClient) -> None:
    first = soup_of(client.get("/changes?limit=4"))
    assert [li["id"] for li in items(first)] == ["change-6", "change-5", "change-4", "change-3"]
    older = first.select_one('nav.pager a[rel="next"]')
    assert older["href"] == "/changes?before=3&limit=4" and older["hx-get"] == older["href"]
    second = soup_of(client.get(older["href"]))
    assert [li["id"] for li in items(second)] == ["change-2", "change-1"]
    assert second.select_one('nav.pager a[rel="next"]') is None, "the last page links no further"
    assert second.select_one("nav.pager a")["href"] == "/changes?limit=4"
    assert soup_of(client.get("/changes")).select_one("nav.pager") is None


@pytest.mark.database
def test_paging_stays_put_while_new_changes_arrive(own: tuple[str, TestClient]) -> None:
    url, client = own
    first = soup_of(client.get("/changes?limit=3"))
    older = first.select_one('nav.pager a[rel="next"]')["href"]

    def more(session: Session) -> None:
        ids = users(session, "carol")
        for n in range(4):
            revisions.record(
                session,
                actor="carol",
                user_id=ids["carol"],
                entity="claim",
                action="create",
                key=f"sglang/x-{n}/our-lab",
                after={"n": n},
                system_slug="sglang",
            )

    write(url, more)
    second = soup_of(client.get(older))
    seen = [li["id"] for li in items(first)] + [li["id"] for li in items(second)]
    assert seen == [f"change-{n}" for n in range(6, 0, -1)], "nothing repeated, nothing skipped"
    newest = soup_of(client.get("/changes?limit=3"))
    assert [li["id"] for li in items(newest)] == ["change-10", "change-9", "change-8"]


def test_hostile_text_is_shown_as_text_never_as_markup_or_links(client: TestClient) -> None:
    response = client.get("/changes?user=bob")
    soup = soup_of(response)
    change = items(soup)[0]
    assert change.select_one(".change-key").get_text() == HOSTILE_KEY
    assert change.select_one(".change-message").get_text() == HOSTILE_MESSAGE
    assert change.select("script, img, b, i") == []
    assert soup.select('script:not([src]), [onerror], a[href^="javascript"]') == []
    assert all(not a["href"].lower().startswith("javascript") for a in soup.select("a[href]"))
    assert HOSTILE_URL in change.select_one("ins").get_text()
    assert "<script>" not in response.text and "&lt;script&gt;" in response.text


def test_the_head_links_the_feed_and_the_json_and_the_nav_has_changes(client: TestClient) -> None:
    soup = soup_of(client.get("/changes?system=vllm&limit=2"))
    feed = soup.select_one('head link[rel="alternate"][type="application/atom+xml"]')
    assert feed["href"] == "/changes.atom?system=vllm"
    json_link = soup.select_one('head link[rel="alternate"][type="application/json"]')
    assert json_link["href"] == "/api/v1/changes?system=vllm&limit=2"
    nav = soup.select_one('nav[aria-label="Main"] a[href="/changes"]')
    assert nav["aria-current"] == "page"
    other = soup_of(client.get("/sources"))
    assert other.select_one('nav[aria-label="Main"] a[href="/changes"]').get("aria-current") is None


def test_a_system_page_shows_its_latest_history(client: TestClient) -> None:
    soup = soup_of(client.get("/systems/vllm"))
    history = soup.select_one("section#history")
    keys = [li.select_one(".change-key").get_text() for li in history.select("li.change")]
    assert keys == [HOSTILE_KEY, "vllm", "vllm/speculative-decoding/our-lab"]
    assert history.select(".change-system") == [], "every change here is this system's"
    assert history.select_one('a[href="/changes?system=vllm"]')
    assert soup.select_one('nav.on-page a[href="#history"]')
    feed = soup.select_one('head link[type="application/atom+xml"]')
    assert feed["href"] == "/changes.atom?system=vllm" and feed["title"] == "Changes to vLLM"
    quiet = soup_of(client.get("/systems/tgi")).select_one("section#history")
    assert quiet.select("li.change") == [] and quiet.select_one(".empty")


def test_a_system_page_lists_ten_changes_at_most(own: tuple[str, TestClient]) -> None:
    url, client = own

    def many(session: Session) -> None:
        for n in range(12):
            revisions.record(
                session,
                actor="seed",
                entity="claim",
                action="update",
                key=f"tgi/cap-{n}/src",
                system_slug="tgi",
                before={"level": "no"},
                after={"level": "yes"},
            )

    write(url, many)
    history = soup_of(client.get("/systems/tgi")).select_one("section#history")
    assert len(history.select("li.change")) == 10
    assert "the 10 most recent are shown" in history.select_one(".hint").get_text()


@pytest.mark.database
def test_a_reseed_shows_on_changes_at_once(
    seed_copy: Path, tmp_path: Path, database_url: str
) -> None:
    url = copy_of(database_url, tmp_path, SEED_DIR)
    with TestClient(create_app(Settings(database_url=url, seed_dir=seed_copy))) as client:
        before = client.get("/changes")
        assert len(items(soup_of(before))) == 1  # the first load's summary
        assert client.get("/changes").headers["etag"] == before.headers["etag"]
        path = seed_copy / "systems" / "tgi.yaml"
        system = read_yaml(path)
        system["summary"] = "Hugging Face's server, edited for this test."
        path.write_text(dump_yaml(system))
        seed(client.app.state.engine, seed_copy)
        after = soup_of(client.get("/changes", headers={"If-None-Match": before.headers["etag"]}))
        newest = items(after)[0]
        assert newest.select_one(".change-key").get_text() == "tgi"
        assert newest.select_one(".change-actor").get_text() == "seed"
        assert "edited for this test" in newest.select_one("dd ins").get_text()
        history = soup_of(client.get("/systems/tgi")).select_one("section#history")
        assert history.select_one(".change-key").get_text() == "tgi"


@pytest.mark.database
def test_revisions_commit_or_roll_back_with_the_version_bump(
    seed_copy: Path, tmp_path: Path, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache is right only if a revision never lands without a new data version."""
    engine = make_engine(copy_of(database_url, tmp_path, SEED_DIR))
    try:
        path = seed_copy / "systems" / "tgi.yaml"
        system = read_yaml(path)
        system["summary"] = "Changed."
        path.write_text(dump_yaml(system))

        def fail(session: Session, *, seeded: bool = False) -> str:
            raise RuntimeError("the version could not be written")

        monkeypatch.setattr(seed_writes, "bump_data_version", fail)
        with pytest.raises(RuntimeError):
            seed(engine, seed_copy)
        with Session(engine) as session:
            assert session.exec(select(func.count()).select_from(Revision)).one() == 1
    finally:
        engine.dispose()


def test_each_change_is_said_in_words_with_a_link_to_what_changed(client: TestClient) -> None:
    first_team = items(soup_of(client.get("/changes")))[4]
    words = first_team.select_one(".change-words a")
    assert words.get_text() == "Added our-lab's claim on vLLM · Speculative decoding"
    assert words["href"] == "/matrix/cell?system=vllm&capability=speculative-decoding"
    assert client.get(words["href"]).status_code == 200
    hostile = items(soup_of(client.get("/changes?user=bob")))[0]
    assert all(a["href"].startswith("/") for a in hostile.select(".change-words a"))


@pytest.mark.parametrize(
    ("key", "label"),
    [
        ("memory_gb", "Memory (GB)"),
        ("system_version", "System version"),
        ("gpus", "GPUs"),
        ("usd_per_gpu_hour", "Price per GPU-hour (USD)"),
        ("best_for", "Best for"),
    ],
)
def test_history_fields_read_as_labels_not_keys(key: str, label: str) -> None:
    assert field_label(key) == label
