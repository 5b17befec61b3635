"""Weighing (issue 21, docs/data-model.md): a cell's headline is the strongest current
evidence, a disagreeing source keeps it disputed, and a "no" resting only on a source marked
machine-written or vendor-interested is weak; one sentence says why."""

from bs4 import BeautifulSoup
from fastapi.testclient import TestClient

from app.queries.cells import (
    cell_level,
    cell_reason,
    is_disputed,
    is_weak,
    outweighed,
    strongest_first,
)
from app.schemas import Caveat, ClaimView, SourceRef

TEAM = "team-measurement"

DOCS = SourceRef(
    slug="x-docs",
    short="X docs",
    title="X documentation",
    date="2025-01-01",
    kind="project-docs",
    version="v1.2.0",
    read="2026-11-25",
)
NOTES = SourceRef(
    slug="x-notes",
    short="X notes",
    title="X release notes",
    date="2024-06-01",
    kind="release-notes",
    commit="0123456789abcdef",
    read="2026-11-25",
)
ARTICLE = SourceRef(slug="guide", short="A guide", title="A guide", date="2026-06")
OLDER = SourceRef(slug="old", short="Old guide", title="Old guide", date="2026-02")
MACHINE = SourceRef(
    slug="bot",
    short="Bot page",
    title="Bot page",
    date="2026-09",
    caveats=[Caveat(kind="machine-written", text="Chat markers.")],
)
VENDOR = SourceRef(
    slug="vendor",
    short="Vendor post",
    title="Vendor post",
    date="2026-10",
    caveats=[Caveat(kind="vendor-interest", text="Sells a rival.")],
)
DATED = SourceRef(
    slug="dated",
    short="Rough date",
    title="Rough date",
    date="2026-11",
    caveats=[Caveat(kind="vague-date", text="Only a month.")],
)


def claim(source: SourceRef, level: str, withdrawn: bool = False) -> ClaimView:
    return ClaimView(level=level, strength=None, note=None, source=source, withdrawn=withdrawn)


def test_the_projects_own_docs_outrank_a_newer_article() -> None:
    claims = [claim(ARTICLE, "no"), claim(DOCS, "yes")]
    assert cell_level(claims) == "yes"
    assert not is_disputed(claims) and not is_weak(claims)
    assert [c.source.slug for c in strongest_first(claims)] == ["x-docs", "guide"]
    assert outweighed(claims) == [claims[0]]
    assert cell_reason(claims) == (
        "Reads yes: the project's own docs (v1.2.0) say so; one article disagrees, but the "
        "project's own word outweighs it."
    )


def test_first_party_sources_that_disagree_make_a_dispute_articles_cannot_settle() -> None:
    claims = [claim(DOCS, "yes"), claim(NOTES, "no"), claim(ARTICLE, "yes")]
    assert is_disputed(claims) and outweighed(claims) == []
    assert cell_reason(claims) == (
        "Reads yes: the project's own docs (v1.2.0) say so; one article agrees; one "
        "first-party reading disagrees."
    )


def test_without_first_party_articles_that_disagree_make_a_dispute() -> None:
    # The docs say only "unknown", and a withdrawn docs claim says nothing at all.
    claims = [claim(DOCS, "unknown"), claim(NOTES, "yes", withdrawn=True)]
    claims += [claim(ARTICLE, "no"), claim(OLDER, "partial")]
    assert is_disputed(claims) and outweighed(claims) == []
    assert not is_disputed([claim(ARTICLE, "yes"), claim(OLDER, "via")])


def test_the_teams_own_claim_disputes_the_docs_but_an_article_does_not() -> None:
    team = SourceRef(slug="team", short="Our team", title="Ours", date="2026-11", kind=TEAM)
    assert is_disputed([claim(DOCS, "yes"), claim(team, "no")])
    claims = [claim(DOCS, "partial"), claim(team, "experimental"), claim(MACHINE, "no")]
    assert not is_disputed(claims) and outweighed(claims) == [claims[2]]


def test_first_party_sources_are_weighed_newest_first_among_themselves() -> None:
    claims = [claim(NOTES, "experimental"), claim(DOCS, "yes")]
    assert cell_level(claims) == "yes"
    assert strongest_first(claims)[1].source.slug == "x-notes"


def test_release_notes_are_named_by_their_commit_when_no_version_is_given() -> None:
    claims = [claim(NOTES, "partial"), claim(ARTICLE, "partial")]
    assert cell_reason(claims) == (
        "Reads partly: the project's release notes (0123456789) say so; one article agrees."
    )


def test_without_first_party_the_newest_source_without_a_weakening_caveat_leads() -> None:
    # The machine-written and vendor pages are newer, but weigh less; a vague date does not.
    claims = [claim(MACHINE, "no"), claim(VENDOR, "no"), claim(OLDER, "yes"), claim(DATED, "via")]
    assert cell_level(claims) == "via"
    assert [c.source.slug for c in strongest_first(claims)] == ["dated", "old", "vendor", "bot"]
    assert is_disputed(claims) and not is_weak(claims)
    assert cell_reason(claims) == (
        "Reads yes, through another project: Rough date (Nov 2026), the newest of the sources "
        "that weigh most, says so; one article agrees; two articles disagree."
    )


def test_a_no_resting_only_on_a_machine_written_source_is_weak() -> None:
    claims = [claim(MACHINE, "no")]
    assert cell_level(claims) == "no" and is_weak(claims)
    assert cell_reason(claims) == (
        "Reads no, but weakly: Bot page (Sep 2026) says so, and it is probably machine-written."
    )


def test_a_weak_no_stops_being_weak_when_a_plain_source_agrees() -> None:
    claims = [claim(VENDOR, "no"), claim(OLDER, "no")]
    assert cell_level(claims) == "no" and not is_weak(claims)
    assert cell_reason(claims).startswith("Reads no: Old guide (Feb 2026), the newest")


def test_a_yes_from_a_weakened_source_is_not_weak_but_says_why_it_is_shaky() -> None:
    claims = [claim(VENDOR, "yes")]
    assert not is_weak(claims)
    assert cell_reason(claims) == (
        "Reads yes: Vendor post (Oct 2026) says so, though it is written by a vendor with a stake."
    )


def test_unknown_and_withdrawn_claims_say_nothing_about_the_headline() -> None:
    claims = [claim(DOCS, "unknown"), claim(ARTICLE, "no", withdrawn=True), claim(OLDER, "yes")]
    assert cell_level(claims) == "yes" and not is_disputed(claims)
    assert cell_reason([claim(DOCS, "unknown")]) == (
        "Reads unknown: the sources that speak to it say they do not know."
    )
    assert cell_reason([claim(ARTICLE, "no", withdrawn=True)]) == ""


def test_the_cell_panel_and_api_say_why_on_the_fixture_seed(client: TestClient) -> None:
    # vLLM's own docs say yes to prefix caching; the machine-written overview says no.
    body = client.get("/api/v1/systems/vllm").json()
    cells = {c["capability"]: c for g in body["features"] + body["hardware"] for c in g["cells"]}
    cell = cells["prefix-caching"]
    assert (cell["level"], cell["disputed"], cell["weak"]) == ("yes", False, False)
    assert cell["claims"][0]["source"]["slug"] == "vllm-docs"
    assert [c["source"]["slug"] for c in cell["claims"] if c["outweighed"]] == [
        "overview-early-2026"
    ]
    reason = "Reads yes: the project's own docs (v0.33.0) say so; four articles agree; one "
    assert cell["reason"] == reason + "article disagrees, but the project's own word outweighs it."
    panel = BeautifulSoup(
        client.get("/matrix/cell?system=vllm&capability=prefix-caching").text, "html.parser"
    )
    shown = panel.select_one(".cell-reason")
    assert shown is not None and shown.get_text(strip=True) == cell["reason"]
    # The article stays in the panel, labelled with its date and its text; no Disputed flag.
    assert not panel.select(".disputed-flag")
    [flag] = panel.select(".claim-list > li .dissent-flag")
    item = flag.find_parent("li")
    assert flag.get_text(" ", strip=True).startswith("An article disagrees (Jan 2026)")
    assert item is not None and item.select_one(".note") is not None
    # The system page and the feature page label it the same way.
    for url, row in (("/systems/vllm", "#cap-prefix-caching"), ("/features/prefix-caching", "")):
        shown_on = BeautifulSoup(client.get(url).text, "html.parser")
        labels = [f.get_text(" ", strip=True) for f in shown_on.select(f"{row} .dissent-flag")]
        assert any(t.startswith("An article disagrees (Jan 2026)") for t in labels), url
    schema = client.get("/openapi.json").json()["components"]["schemas"]
    assert {"weak", "reason"} <= set(schema["Cell"]["properties"])
