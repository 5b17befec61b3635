"""scripts/check_docs_prose.py on a tiny made-up docs cache and seed folder."""

from pathlib import Path

import pytest

from scripts.check_docs_prose import main

PAGE = (
    "https://example.org/docs/caching.md\n"
    "# Caching\n"
    "Prefix caching stores the key value blocks of earlier prompts\n"
    "so that later requests reuse them.\n"
)


def make(tmp_path: Path, note: str) -> tuple[Path, Path]:
    cache = tmp_path / "cache" / "x-docs"
    cache.mkdir(parents=True)
    (cache / "caching.md").write_text(PAGE)
    seed = tmp_path / "seed"
    (seed / "claims").mkdir(parents=True)
    (seed / "claims" / "x-docs.yaml").write_text(
        "x:\n  prefix-caching:\n    level: yes\n"
        "    page: https://example.org/docs/caching.md\n"
        f"    note: {note}\n"
    )
    (seed / "benchmarks").mkdir()
    (seed / "benchmarks" / "x-docs.csv").write_text(
        "id,note\nx-1,Fast so that later requests reuse them; we measured it\n"
    )
    return seed, tmp_path / "cache"


def test_a_copied_run_is_named_with_field_line_and_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Nine words in a row from the page, then our own.
    seed, cache = make(
        tmp_path, "It stores the key value blocks of earlier prompts, as we read it."
    )
    assert main(["--seed", str(seed), "--cache", str(cache)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "claims/x-docs.yaml:5: x.prefix-caching.note: 8 words shared with x-docs/caching.md: "
        '"stores the key value blocks of earlier prompts"'
    )
    assert out[-1] == "1 run(s) of 8+ words shared with 1 cached page(s) of 1 source(s)"


def test_our_own_words_pass_and_short_runs_and_urls_do_not_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Seven shared words ("the key value blocks of earlier prompts") is under the bar; the page
    # field repeats the URL line, which is not prose.
    seed, cache = make(tmp_path, "Keeps the key value blocks of earlier prompts around.")
    assert main(["--seed", str(seed), "--cache", str(cache)]) == 0
    assert capsys.readouterr().out.startswith("0 run(s) of 8+ words")
    # A CSV cell is checked too, and the run length is a parameter.
    assert main(["--seed", str(seed), "--cache", str(cache), "--words", "5"]) == 1
    out = capsys.readouterr().out
    assert (
        'benchmarks/x-docs.csv:2: row 2, note: 6 words shared with x-docs/caching.md: "so that '
        'later requests reuse them"'
    ) in out.splitlines()


def test_a_missing_cache_is_said_plainly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seed, _ = make(tmp_path, "Ours.")
    monkeypatch.setenv("ATLAS_DOCS_CACHE", str(tmp_path / "nowhere"))
    assert main(["--seed", str(seed)]) == 2
    assert capsys.readouterr().out.startswith(f"No docs cache at {tmp_path / 'nowhere'}")
