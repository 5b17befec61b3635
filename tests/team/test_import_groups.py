"""An imported result file shows as one group on the system page and on /benchmarks (its
file, setup, loads, one figure's range, links), not a row per metric per load; published
figures and hand-entered team results keep their rows."""

from collections.abc import Callable
from typing import Any

from bs4 import BeautifulSoup
from fastapi.testclient import TestClient

from tests.team.sweep_data import H100, VLLM_SWEEP, import_file


def soup(response: Any) -> BeautifulSoup:
    assert response.status_code == 200, response.text[:500]
    return BeautifulSoup(response.text, "html.parser")


def test_a_four_run_import_is_one_group_on_the_system_page(
    accounts_url: str, clients: Callable[..., TestClient]
) -> None:
    reader = clients("vera")  # a viewer: signed in, so never served a cached page
    before = soup(reader.get("/systems/vllm"))
    rows_before = before.select("table.benchmarks tbody tr[id^=bench-]")
    assert rows_before and not before.select(".import-group")

    source = import_file(
        accounts_url,
        VLLM_SWEEP,
        system="vllm",
        hardware=H100,
        gpus=1,
        precision="FP8",
        system_version="0.11.2",
    )
    key = source.removeprefix("import-")

    after = soup(reader.get("/systems/vllm"))
    groups = after.select(".import-group")
    assert len(groups) == 1
    group = groups[0]
    assert group["id"] == f"import-{key}"
    assert group.select_one(".import-file").get_text(strip=True) == VLLM_SWEEP.name
    assert group.select_one(".import-loads").get_text() == "c=1, 4, 16, 64"
    setup = group.select_one(".import-setup").get_text()
    assert "1× NVIDIA H100" in setup and "FP8" in setup and "0.11.2" in setup
    assert group.select_one(".import-headline").get_text().startswith("Output throughput ")
    assert "–" in group.select_one(".import-headline").get_text()  # a range over four loads
    links = [a["href"] for a in group.select(".import-links a")]
    # Every reader may open a saved import (tests/team/test_import_pages.py).
    assert links == [f"/benchmarks?source={source}#team_sweeps", f"/imports/{key}"]
    # The table keeps exactly the rows it had: none of the file's figures is a row of its own.
    rows_after = after.select("table.benchmarks tbody tr[id^=bench-]")
    assert [r["id"] for r in rows_after] == [r["id"] for r in rows_before]

    jump = after.select_one("nav.on-page a[href='#benchmarks']")
    assert jump is not None and jump.get_text() == f"Benchmarks ({len(rows_before)} + 1 file)"
    # The history says the file was imported once, not ten of its figures one by one.
    changes = after.select("#history li.change")
    imported = after.select("#history li.change-import")
    assert len(imported) == 1 and len(changes) <= 10
    words = imported[0].select_one(".change-words").get_text(" ", strip=True)
    saved = reader.get(f"/api/v1/benchmarks?source={source}").json()["matched"]
    assert words == f"Imported {VLLM_SWEEP.name} : {saved} figures saved"
    assert f"{saved} figures on " in group.select_one(".import-facts").get_text()

    editor = soup(clients("eddie").get("/systems/vllm"))
    editor_links = [a["href"] for a in editor.select(f"#import-{key} .import-links a")]
    assert editor_links[-1] == f"/imports/{key}"


def test_benchmarks_groups_the_file_and_lists_it_when_its_source_is_picked(
    accounts_url: str, clients: Callable[..., TestClient]
) -> None:
    source = import_file(
        accounts_url, VLLM_SWEEP, system="vllm", hardware=H100, gpus=1, precision="FP8"
    )
    reader = clients("vera")
    page = soup(reader.get("/benchmarks"))
    group = page.select_one(f"#import-{source.removeprefix('import-')}")
    assert group is not None
    assert group.select_one(".import-file a")["href"] == "/systems/vllm"
    listed = [r for r in page.select("table.results tbody tr[id^=result-]") if source in str(r)]
    assert listed == []
    # Its JSON is unchanged: every figure of the file, one per metric per load.
    figures = reader.get(f"/api/v1/benchmarks?source={source}").json()
    assert figures["matched"] > 4 * 10
    # Picking the file's source lists its four runs (issue 37), each with its rows folded
    # under it: four entries, not a row per metric per load.
    picked = soup(reader.get(f"/benchmarks?source={source}"))
    assert not picked.select(".import-groups > li:not(.run-group)")
    runs = picked.select("li.run-group")
    assert len(runs) == 4
    assert [r.select_one(".import-loads").get_text() for r in runs] == [
        "c=1",
        "c=4",
        "c=16",
        "c=64",
    ]
    assert [r["id"] for r in runs] == [f"{source}-run-{n}" for n in (1, 2, 3, 4)]
    assert picked.select_one("#import-runs").get_text() == "Runs of the picked file (4)"
    folded = [run.select("details.run-figures tbody tr[id^=result-]") for run in runs]
    assert all(len(rows) == len(folded[0]) > 5 for rows in folded)
    assert sum(len(rows) for rows in folded) == figures["matched"]
    assert all(run.select_one("details.run-figures").get("open") is None for run in runs)
    # None of them is also a row of the main table.
    assert not picked.select("table.results:not(.run-results) tbody tr[id^=result-]")


def test_the_navigation_offers_imports_to_editors_only(
    clients: Callable[..., TestClient],
) -> None:
    def nav_links(client: TestClient) -> list[str]:
        return [a["href"] for a in soup(client.get("/sources")).select("nav[aria-label=Main] a")]

    assert "/imports" in nav_links(clients("eddie"))
    assert "/imports" in nav_links(clients("ada"))
    assert "/imports" not in nav_links(clients("vera"))
    assert "/imports" not in nav_links(clients())
    current = soup(clients("eddie").get("/imports")).select_one("nav a[aria-current=page]")
    assert current is not None and current["href"] == "/imports"


def test_changes_and_its_feed_show_an_import_as_one_entry(
    accounts_url: str, clients: Callable[..., TestClient]
) -> None:
    import xml.etree.ElementTree as ET

    source = import_file(
        accounts_url, VLLM_SWEEP, system="vllm", hardware=H100, gpus=1, precision="FP8"
    )
    key = source.removeprefix("import-")
    reader = clients("vera")
    figures = reader.get(f"/api/v1/benchmarks?source={source}").json()["matched"]
    # The JSON keeps every revision: one per figure saved.
    api = reader.get("/api/v1/changes?kind=benchmark_result&limit=500").json()
    created = [r for r in api["revisions"] if (r.get("after") or {}).get("source") == source]
    assert len(created) == figures > 40

    page = soup(reader.get("/changes"))
    imported = page.select(f"li.change-import a[href='/imports/{key}']")
    assert len(imported) == 1
    item = imported[0].find_parent("li")
    words = item.select_one(".change-words").get_text(" ", strip=True)
    assert words == f"Imported {VLLM_SWEEP.name} : {figures} figures saved on vLLM"
    assert item.select_one(f"a[href='/benchmarks?source={source}#team_sweeps']") is not None
    # None of its figures is an entry of its own.
    assert not [li for li in page.select("li.change") if source in li.get_text()]

    feed = ET.fromstring(reader.get("/changes.atom").content)
    ns = {"a": "http://www.w3.org/2005/Atom"}
    ours = [
        e
        for e in feed.findall("a:entry", ns)
        for link in e.findall("a:link", ns)
        if link.get("href") == f"/imports/{key}" and link.get("rel") == "alternate"
    ]
    assert len(ours) == 1
    title = ours[0].findtext("a:title", namespaces=ns)
    assert title == f"Imported {VLLM_SWEEP.name}: {figures} figures saved"
    assert not [e for e in feed.iter() if e.text and f"source: {source}" in e.text]

    # Paging: a page of two entries, the import one of them; the next page starts after it.
    small = soup(reader.get("/changes?limit=2"))
    assert len(small.select("li.change")) == 2
    older = small.select_one("a[rel=next]")["href"]
    before = int(older.split("before=")[1].split("&")[0])
    assert before <= min(r["id"] for r in created)
