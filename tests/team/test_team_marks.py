"""Team items read as the team's on every page that shows them, and their text stays text."""

from collections.abc import Callable

from fastapi.testclient import TestClient

from tests.team.html import new_result, page, post

Clients = Callable[..., TestClient]
HOSTILE = '<img src=x onerror="alert(1)"> javascript:alert(2)'


def test_team_items_are_marked_wherever_they_show(clients: Clients) -> None:
    editor = clients("eddie")
    result_id = new_result(editor, system="sglang", value="1999")
    post(editor, "/systems/sglang/claims/prefix-caching", {"level": "no", "note": "off by default"})
    reader = clients()
    system = page(reader.get("/systems/sglang"))
    assert system.select_one(f"#bench-{result_id} .team-badge").get_text() == "team-measured"
    claim = [li for li in system.select("#cap-prefix-caching .claim-list li") if li.select(".cite")]
    assert [
        li.select_one(".team-badge").get_text() for li in claim if li.select(".team-badge")
    ] == ["team claim"]
    assert system.select_one("#cap-prefix-caching .disputed-flag")
    feature = page(reader.get("/features/prefix-caching"))
    assert any(b.get_text() == "team claim" for b in feature.select(".team-badge"))
    compare = page(reader.get("/compare?s=sglang&s=vllm"))
    badges = {b.get_text() for b in compare.select(".team-badge")}
    assert badges == {"team claim", "team-measured", "team"}  # claim, figure, source list
    benchmarks = page(reader.get("/benchmarks?system=sglang&origin=team"))
    assert benchmarks.select_one(f"#result-{result_id} .team-badge").get_text() == "team-measured"
    sources = page(reader.get("/sources"))
    assert sources.select_one("#team .badge").get_text() == "team measurement"


def test_what_editors_type_is_shown_as_text_never_as_markup_or_links(clients: Clients) -> None:
    editor = clients("eddie")
    result_id = new_result(editor, system="tgi", note=HOSTILE, setup=HOSTILE)
    post(editor, "/systems/tgi/claims/prefix-caching", {"level": "partial", "note": HOSTILE})
    for client in (editor, clients()):
        response = client.get("/systems/tgi")
        soup = page(response)
        assert soup.select("img[onerror]") == [] and "<img src=x" not in response.text
        row = soup.select_one(f"#bench-{result_id}")
        assert HOSTILE in row.get_text()
        assert not [a for a in soup.select("a[href]") if "javascript" in a["href"].lower()]
    cell = page(editor.get("/matrix/cell?system=tgi&capability=prefix-caching"))
    assert HOSTILE in cell.select_one(".claim-list").get_text()
    assert cell.select_one("#claim-prefix-caching-note")["value"] == HOSTILE
