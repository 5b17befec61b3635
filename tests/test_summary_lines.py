"""Best-for and weakness lines as pages show them (app/queries/summary.py): near-duplicates
folded with every source kept, a line resting on an outvoted claim marked disputed, a line
only weak sources give marked weak; and "When to choose which" worded as sentences
(app/decision/wording.py)."""

from bs4 import BeautifulSoup
from fastapi.testclient import TestClient

from app.decision.wording import when_clause
from app.queries.summary import fold, summarise, topics
from app.schemas import CategoryCells, Caveat, Cell, ClaimView, SourcedText, SourceRef


def source(slug: str, *caveats: str, kind: str = "article") -> SourceRef:
    return SourceRef(
        slug=slug,
        short=slug.title(),
        title=slug,
        date="2026-01",
        kind=kind,
        caveats=[Caveat(kind=k, text="…") for k in caveats],
    )


DOCS = source("docs", kind="project-docs")
PLAIN, OTHER = source("plain"), source("other")
MACHINE, VENDOR = source("machine", "machine-written"), source("vendor", "vendor-interest")


def line(text: str, by: SourceRef) -> SourcedText:
    return SourcedText(text=text, source=by)


def cells(*levels: tuple[SourceRef, str], headline: str = "yes") -> list[CategoryCells]:
    """One disputed prefix-caching cell with the claims given, headline `headline`."""
    claims = [ClaimView(level=level, strength=None, note=None, source=s) for s, level in levels]
    cell = Cell(
        capability="prefix-caching",
        name="Prefix caching",
        description="",
        level=headline,
        disputed=len({lv for _, lv in levels}) > 1,
        claims=claims,
    )
    return [CategoryCells(slug="memory", name="Memory", kind="feature", cells=[cell])]


def test_lines_on_the_same_topics_fold_and_others_stay_apart() -> None:
    lines = [
        line("Tensor- and pipeline-parallel multi-GPU deployments", PLAIN),
        line("Cold start around a minute", PLAIN),
        line("Multi-GPU distributed inference", OTHER),
        line("Mixed GPU clusters", OTHER),
    ]
    folded = fold(lines)
    assert [(first.text, [s.text for s in similar]) for first, similar in folded] == [
        (
            "Tensor- and pipeline-parallel multi-GPU deployments",
            ["Multi-GPU distributed inference"],
        ),
        ("Cold start around a minute", []),
        ("Mixed GPU clusters", []),  # names no topic: never folded with anything
    ]
    # Topics match whole words: "Q&A coverage" is not RAG, "machines" is not a Mac.
    assert topics("Tutorials, Q&A coverage and Kubernetes operators") == {"ecosystem", "cloud"}
    assert "apple" not in topics("Large models on multi-GPU NVIDIA machines")


def test_a_weakness_resting_on_an_outvoted_claim_is_marked_disputed_and_linked() -> None:
    weakness = line("Prefix-heavy traffic: shared prefixes are recomputed", MACHINE)
    groups = cells((DOCS, "yes"), (PLAIN, "yes"), (MACHINE, "no"))
    [marked] = summarise([weakness], groups, [], "vllm", weakness=True)
    assert marked.caution_kind == "disputed"
    assert marked.caution == (
        "Machine reads Prefix caching as “no”, but 2 other sources read it as “yes”."
    )
    assert marked.caution_link == "/systems/vllm/claims/prefix-caching/machine"
    # The same line as a strength does not rest on a "no": nothing disputed about it then,
    # and a source on the winning side is never marked.
    [strength] = summarise([weakness], groups, [], "vllm", weakness=False)
    assert strength.caution_kind == "weak"  # only its machine-written source says it
    agreeing = line("Setups that rely on prefix caching", PLAIN)
    assert summarise([agreeing], groups, [], "vllm", weakness=False)[0].caution is None


def test_a_line_only_weak_sources_give_is_marked_weak_and_sorted_last() -> None:
    lines = [
        line("Spiky traffic with hundreds of requests at once", VENDOR),
        line("Serving many concurrent users", MACHINE),
        line("Enterprise settings", PLAIN),
    ]
    out = summarise(lines, [], [], "vllm", weakness=False)
    assert [o.text for o in out] == [
        "Enterprise settings",
        "Spiky traffic with hundreds of requests at once",
    ]
    assert out[0].caution is None
    assert out[1].caution_kind == "weak" and [s.source.slug for s in out[1].similar] == ["machine"]
    assert out[1].caution == (
        "Only sources with caveats say this (probably machine-written; "
        "written by a vendor with a stake)."
    )
    # One sound source among them is enough to say it flat.
    backed = summarise(
        [*lines[:2], line("Many concurrent users", PLAIN)], [], [], "vllm", weakness=False
    )
    assert backed[0].caution is None and len(backed) == 1


def test_conditions_read_as_a_clause() -> None:
    assert when_clause({"hardware": ["amd-gpu"], "workload": ["structured-output"]}) == (
        "when you run on an AMD GPU and the main workload is structured output"
    )
    assert when_clause({"priority": ["model-breadth"]}) == "when breadth of models matters most"
    assert when_clause({"workload": ["rag", "agents", "coding-agent"], "needs": ["multi-gpu"]}) == (
        "when the main workload is retrieval-augmented generation, agents and tool use or coding "
        "agents and you need several GPUs for one model"
    )


# -- over HTTP, on the fixture seed ----------------------------------------------------------
def test_the_system_page_marks_vllms_disputed_weakness(client: TestClient) -> None:
    soup = BeautifulSoup(client.get("/systems/vllm").text, "html.parser")
    weaknesses = soup.find("h2", string="Weaknesses").find_parent("div")
    items = weaknesses.select(".summary-lines > li")
    prefix = next(li for li in items if li.get_text().startswith("Prefix-heavy traffic"))
    assert prefix.select_one(".caution-note .disputed-flag")
    link = prefix.select_one(".caution-note a")["href"]
    assert link == "/systems/vllm/claims/prefix-caching/overview-early-2026"
    assert client.get(link).status_code == 200
    body = client.get("/api/v1/systems/vllm").json()
    marked = {w["text"][:20]: w["caution_kind"] for w in body["weakness_summary"]}
    assert marked["Prefix-heavy traffic"] == "disputed"
    assert len(body["weaknesses"]) == 2  # the lines as the seed gives them stay in the JSON


def test_compare_shows_the_same_marks(client: TestClient) -> None:
    soup = BeautifulSoup(client.get("/compare?s=vllm&s=sglang").text, "html.parser")
    row = soup.find("th", string="Weaknesses").find_parent("tr")
    vllm = row.select_one('td[data-system="vLLM"]')
    assert vllm.select(".caution-note .disputed-flag")
    flat = [li for li in vllm.select(".summary-lines > li") if not li.select_one(".caution-note")]
    assert all("Prefix-heavy" not in li.get_text() for li in flat)
