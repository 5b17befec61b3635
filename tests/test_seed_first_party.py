"""First-party sources and claims (issue 21): the loader reads since/how/page and a source's
version/commit/read, and refuses bad input naming the file, line and field.

Loading only (no database): each case breaks a private copy of the fixture seed.
"""

import shutil
from pathlib import Path

import pytest

from app.seeding.errors import SeedError
from app.seeding.load import load_seed
from tests.conftest import SEED_DIR
from tests.test_seed_errors import line_number, replace_in

SOURCE_HEAD = "vllm-docs:\n  short: vLLM docs (v0.33.0)\n"


@pytest.fixture
def seed_dir(tmp_path: Path) -> Path:
    return Path(shutil.copytree(SEED_DIR, tmp_path / "seed"))


def problems(seed_dir: Path) -> list[str]:
    with pytest.raises(SeedError) as caught:
        load_seed(seed_dir)
    return [str(p) for p in caught.value.problems]


def test_the_fixture_reads_a_first_party_source_and_its_claims() -> None:
    data = load_seed(SEED_DIR)
    source = data.sources["vllm-docs"]
    assert (source.kind, source.version, source.commit, source.read) == (
        "project-docs",
        "v0.33.0",
        None,
        "2026-11-25",
    )
    claim = data.claims["vllm-docs"]["vllm"]["prefix-caching"]
    assert not isinstance(claim, list)
    assert (claim.level, claim.since, claim.how) == ("yes", None, "--enable-prefix-caching")
    assert claim.page is not None and claim.page.endswith("automatic_prefix_caching.md")


@pytest.mark.parametrize(
    "since", ["v0.4.0", "0.5.0rc1", "1.2.post1", "b4500", "v2.0.0-beta.2", "'0.4'"]
)
def test_a_since_may_be_any_release_spelling(seed_dir: Path, since: str) -> None:
    path = seed_dir / "claims/vllm-docs.yaml"
    replace_in(path, "    how: --enable-prefix-caching\n", f"    since: {since}\n")
    claim = load_seed(seed_dir).claims["vllm-docs"]["vllm"]["prefix-caching"]
    assert not isinstance(claim, list) and claim.since == since.strip("'")


@pytest.mark.parametrize(
    ("since", "message"),
    [
        ("soon", "not a version; allowed: a version such as v0.4.0"),
        ("'2026-11-02'", "not a version"),
        ("0.4", "0.4 is read as a number; quote it: '0.4'"),
    ],
)
def test_a_since_that_is_not_a_version_is_refused(seed_dir: Path, since: str, message: str) -> None:
    path = seed_dir / "claims/vllm-docs.yaml"
    replace_in(path, "    how: --enable-prefix-caching\n", f"    since: {since}\n")
    [problem] = problems(seed_dir)
    line = line_number(path, "    since:")
    assert problem.startswith(
        f"claims/vllm-docs.yaml:{line}: vllm.prefix-caching: field 'since': {message}"
    )


def test_a_page_must_be_a_web_address(seed_dir: Path) -> None:
    path = seed_dir / "claims/vllm-docs.yaml"
    replace_in(path, "    note: A parser", "    page: docs/tool_calling.md\n    note: A parser")
    [problem] = problems(seed_dir)
    line = line_number(path, "    page: docs/")
    assert problem.startswith(
        f"claims/vllm-docs.yaml:{line}: vllm.tool-calling: field 'page': not a web address"
    )


ENGINE_PAGE = "https://github.com/vllm-project/vllm-metal/blob/211a1e4/docs/installation.md"


def test_a_chained_claim_reads_the_engines_page_and_refuses_a_path(seed_dir: Path) -> None:
    path = seed_dir / "claims/vllm-docs.yaml"
    replace_in(path, "    note: A parser", f"    engine_page: {ENGINE_PAGE}\n    note: A parser")
    claim = load_seed(seed_dir).claims["vllm-docs"]["vllm"]["tool-calling"]
    assert not isinstance(claim, list) and claim.engine_page == ENGINE_PAGE
    replace_in(path, ENGINE_PAGE, "docs/installation.md")
    [problem] = problems(seed_dir)
    line = line_number(path, "    engine_page:")
    assert problem.startswith(
        f"claims/vllm-docs.yaml:{line}: vllm.tool-calling: field 'engine_page': not a web address"
    )


def test_a_how_longer_than_a_flag_is_refused(seed_dir: Path) -> None:
    path = seed_dir / "claims/vllm-docs.yaml"
    replace_in(path, "--enable-prefix-caching", "x" * 201)
    [problem] = problems(seed_dir)
    assert "vllm.prefix-caching: field 'how': String should have at most 200 characters" in problem


def test_a_claim_file_for_an_unknown_source_is_refused(seed_dir: Path) -> None:
    (seed_dir / "claims/vllm-docs.yaml").rename(seed_dir / "claims/vllm-doc.yaml")
    assert problems(seed_dir) == [
        "claims/vllm-doc.yaml: file name: unknown source 'vllm-doc' (not in sources.yaml)"
    ]


@pytest.mark.parametrize(
    ("old", "new", "at", "message"),
    [
        (
            "  read: '2026-11-25'\n",
            "",
            None,
            "field 'read': a project-docs source needs the day it was read (YYYY-MM-DD)",
        ),
        (
            "  version: v0.33.0\n",
            "",
            None,
            "field 'version': a project-docs source needs the docs version or the commit read",
        ),
        (
            "  url: https://github.com/vllm-project/vllm/tree/v0.33.0/docs\n",
            "",
            None,
            "field 'url': a project-docs source needs its URL",
        ),
        (
            "  read: '2026-11-25'\n",
            "  read: '2026-10-01'\n",
            "  read:",
            "field 'read': 2026-10-01 is before the source's date 2026-11-02",
        ),
        (
            "  read: '2026-11-25'\n",
            "  read: 2026-11\n",
            "  read:",
            "field 'read': not a day; allowed: YYYY-MM-DD (got '2026-11')",
        ),
        (
            "  version: v0.33.0\n",
            "  version: v0.33.0\n  commit: 4BA787\n",
            "  commit:",
            "field 'commit': not a commit; allowed: 7 to 40 lower-case hex digits",
        ),
    ],
)
def test_a_first_party_source_says_what_was_read_and_when(
    seed_dir: Path, old: str, new: str, at: str | None, message: str
) -> None:
    """A missing field is reported at the source's own line, a bad one at its line."""
    path = seed_dir / "sources.yaml"
    text = path.read_text()
    head = text.index(SOURCE_HEAD)
    assert old in text[head:]
    path.write_text(text[:head] + text[head:].replace(old, new, 1))
    [problem] = problems(seed_dir)
    line = line_number(path, at) if at else line_number(path, "vllm-docs:")
    assert problem.startswith(f"sources.yaml:{line}: vllm-docs: {message}")


def test_a_source_other_than_an_article_needs_a_url(seed_dir: Path) -> None:
    path = seed_dir / "sources.yaml"
    replace_in(path, "  date: 2026-03\n  kind: article\n", "  date: 2026-03\n  kind: paper\n")
    [problem] = problems(seed_dir)
    assert problem.endswith("olla-servers-compared: field 'url': a paper source needs its URL")


def test_the_old_vendor_docs_kind_is_refused_with_the_new_names(seed_dir: Path) -> None:
    replace_in(seed_dir / "sources.yaml", "kind: project-docs", "kind: vendor-docs")
    [problem] = problems(seed_dir)
    assert (
        "field 'kind'" in problem and "'project-docs'" in problem and "'release-notes'" in problem
    )


def test_a_figure_from_a_source_other_than_an_article_needs_its_whole_context(
    seed_dir: Path,
) -> None:
    header = (seed_dir / "benchmarks/olla-servers-compared.csv").read_text().splitlines()[0]
    path = seed_dir / "benchmarks/vllm-docs.csv"
    path.write_text(
        f"{header}\n"
        "vd-1,vllm,ttft,5,,,exact,s,nvidia-h100-sxm5-80gb,1,,,,online-serving,,,,,,\n"
        "vd-2,vllm,ttft,6,,,exact,s,unspecified-gpu,,llama-3.1-8b,,,unspecified,,,,,,\n"
    )
    assert problems(seed_dir) == [
        "benchmarks/vllm-docs.csv:2: row 2 (vd-1): column 'model': a figure needs its model "
        "(a vague entry will do where the project-docs does not say)"
    ]


def test_an_article_figure_may_still_leave_its_hardware_out() -> None:
    data = load_seed(SEED_DIR)
    rows = [r for rows in data.benchmarks.values() for r in rows]
    assert any(r.hardware is None for r in rows)  # the articles' rows keep their blanks
