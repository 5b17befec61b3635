"""Hostile seed files are refused with a named problem and write nothing; zero figures render.

The cases run on a small seed folder (three systems, cut from the fixture seed) so that each
costs a fraction of a full load; tests/test_seed_errors.py breaks whole copies of it.
"""

import csv
import io
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient
from ruamel.yaml import YAML
from sqlalchemy import Engine
from sqlmodel import Session, SQLModel, select
from typer.testing import CliRunner

from app.cli import cli
from app.main import create_app
from app.migrations import migrate
from app.models import BenchmarkResult, Hardware
from app.seeding.errors import SeedError
from app.seeding.export import export_seed
from app.seeding.load import load_seed
from app.seeding.prepare import seed
from app.seeding.schema import BENCHMARK_COLUMNS
from app.seeding.yamlio import dump_yaml
from app.settings import Settings
from tests.conftest import SEED_DIR
from tests.databases import new_database_url, new_engine
from tests.test_seed_errors import line_number, replace_in

KEPT = ("omlx", "sglang", "vllm")
OLLA_CSV = "benchmarks/olla-servers-compared.csv"
OLLA_CLAIMS = "claims/olla-servers-compared.yaml"


# -- a small seed folder, a database seeded from it, and a way to break it ----------------
def _cut_yaml(path: Path, keep: Any, most: int | None = None) -> None:
    data = YAML(typ="rt").load(path.read_text())
    kept = [k for k, v in data.items() if keep(k, v)][:most]
    for key in [k for k in data if k not in kept]:
        del data[key]
    path.write_text(dump_yaml(data))


def _cut_csv(path: Path) -> None:
    rows = [r for r in csv.DictReader(io.StringIO(path.read_text())) if r["system"] in KEPT]
    path.write_text(_csv_text(rows, header=True))


def _csv_text(rows: list[dict[str, str]], header: bool = False) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, BENCHMARK_COLUMNS, lineterminator="\n")
    if header:
        writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


@pytest.fixture(scope="module")
def small_seed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("small") / "seed"
    shutil.copytree(SEED_DIR, root)
    for path in (root / "systems").iterdir():
        if path.stem not in KEPT:
            path.unlink()
    for path in [*(root / "claims").iterdir(), *(root / "support").iterdir()]:
        _cut_yaml(path, lambda system, _: system in KEPT)
    for path in (root / "benchmarks").iterdir():
        _cut_csv(path)
    # A few rules are enough to break; parsing YAML is most of each test's time.
    _cut_yaml(root / "rules.yaml", lambda _, rule: set(rule.get("systems", [])) <= set(KEPT), 3)
    return root


@pytest.fixture
def seed_dir(small_seed: Path, tmp_path: Path) -> Path:
    """A private copy of the small seed folder that a test may break."""
    return Path(shutil.copytree(small_seed, tmp_path / "seed"))


@pytest.fixture(scope="module")
def seeded(small_seed: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    engine = new_engine(tmp_path_factory.mktemp("db"), "small")
    migrate.upgrade(engine)
    seed(engine, small_seed)
    yield engine
    engine.dispose()


def snapshot(engine: Engine) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in key order."""
    with engine.connect() as conn:
        return {
            table.name: [
                tuple(row)
                for row in conn.execute(table.select().order_by(*table.primary_key.columns))
            ]
            for table in SQLModel.metadata.sorted_tables
        }


def refused(seed_dir: Path, engine: Engine) -> list[str]:
    """The problems `seed` reports for a broken folder; the database must not change."""
    before = snapshot(engine)
    with pytest.raises(SeedError) as caught:
        seed(engine, seed_dir)
    assert snapshot(engine) == before
    return [str(p) for p in caught.value.problems]


def add_row(seed_dir: Path, **cells: str) -> int:
    """Append one omlx row to the Olla CSV; return its line number."""
    row = {c: "" for c in BENCHMARK_COLUMNS}
    row.update(id="osc-added", system="omlx", metric="ttft", value="5", qualifier="exact", unit="s")
    row.update(cells)
    path = seed_dir / OLLA_CSV
    path.write_text(path.read_text() + _csv_text([row]))
    return len(path.read_text().splitlines())


def test_the_small_seed_is_valid(seeded: Engine) -> None:
    assert len(snapshot(seeded)["system"]) == len(KEPT)


# -- 1. zero ------------------------------------------------------------------------------
def test_a_range_from_zero_and_a_zero_figure_render(seed_dir: Path, tmp_path: Path) -> None:
    replace_in(
        seed_dir / OLLA_CSV,
        "osc-omlx-ttft-no-ssd-cache,omlx,ttft,,30,90,",
        "osc-omlx-ttft-no-ssd-cache,omlx,ttft,,0,90,",
    )
    # A zero in a ranked context (two systems on stated hardware) and in a chart.
    replace_in(
        seed_dir / "benchmarks/overview-early-2026.csv", "throughput,12500,", "throughput,0,"
    )
    app = create_app(Settings(database_url=new_database_url(tmp_path, "z"), seed_dir=seed_dir))
    with TestClient(app) as client:
        for url in ("/benchmarks", "/systems/omlx", "/compare?s=omlx&s=vllm", "/systems/vllm"):
            assert client.get(url).status_code == 200, url
        soup = BeautifulSoup(client.get("/systems/omlx").text, "html.parser")
    figure = soup.select_one("#bench-osc-omlx-ttft-no-ssd-cache td.figure")
    assert figure is not None and figure.get_text(strip=True) == "0–90 s"


def test_a_ratio_of_zero_is_refused(seed_dir: Path, seeded: Engine) -> None:
    path = seed_dir / "benchmarks/serving-engine-guide-18-tools.csv"
    replace_in(path, "relative-throughput,,2.2,3.5,", "relative-throughput,,0,3.5,")
    [problem] = refused(seed_dir, seeded)
    assert problem.startswith(f"{path.relative_to(seed_dir)}:{line_number(path, ',,0,3.5,')}:")
    assert "column 'low': 0 is not a ratio (unit x); allowed: a number above 0" in problem


def test_a_negative_figure_is_refused(seed_dir: Path, seeded: Engine) -> None:
    line = add_row(seed_dir, value="-5")
    [problem] = refused(seed_dir, seeded)
    assert problem.startswith(f"{OLLA_CSV}:{line}: row {line}: column 'value':")
    assert "greater than or equal to 0 (got '-5')" in problem


# -- 2. numbers that are not finite --------------------------------------------------------
@pytest.mark.parametrize(
    ("column", "cells"),
    [
        ("value", {"value": "nan"}),
        ("value", {"value": "inf"}),
        ("low", {"value": "", "low": "-inf", "high": "3"}),
        ("high", {"value": "", "low": "1", "high": "1e400"}),
    ],
)
def test_a_figure_must_be_finite(
    seed_dir: Path, seeded: Engine, column: str, cells: dict[str, str]
) -> None:
    line = add_row(seed_dir, **cells)
    [problem] = refused(seed_dir, seeded)
    assert problem.startswith(f"{OLLA_CSV}:{line}: row {line}: column '{column}':")
    assert f"Input should be a finite number (got '{cells[column]}')" in problem


def test_concurrency_must_be_a_whole_number(seed_dir: Path, seeded: Engine) -> None:
    line = add_row(seed_dir, concurrency="nan")
    [problem] = refused(seed_dir, seeded)
    assert problem.startswith(f"{OLLA_CSV}:{line}: row {line}: column 'concurrency':")
    assert "valid integer, unable to parse string as an integer (got 'nan')" in problem


@pytest.mark.parametrize(
    ("file", "pattern", "field", "raw", "shown"),
    [
        (OLLA_CLAIMS, r"  [a-z0-9-]+: yes", "strength", "{level: yes, strength: .nan}", "nan"),
        ("rules.yaml", r"  weight: .*", "weight", ".inf", "inf"),
        ("rules.yaml", r"  weight: .*", "weight", "1e400", "inf"),
    ],
)
def test_a_yaml_number_must_be_finite(
    seed_dir: Path, seeded: Engine, file: str, pattern: str, field: str, raw: str, shown: str
) -> None:
    path = seed_dir / file
    line = next(line for line in path.read_text().splitlines() if re.fullmatch(pattern, line))
    replace_in(path, line, line.split(": ")[0] + ": " + raw)
    [problem] = refused(seed_dir, seeded)
    assert problem.startswith(f"{file}:{line_number(path, raw)}:")
    assert f"field '{field}': Input should be a finite number (got {shown})" in problem


# -- 3. empty files ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("file", "text", "hint"),
    [
        ("systems/vllm.yaml", "", ""),
        ("sources.yaml", "# to do\n", ""),
        (OLLA_CLAIMS, "\n", "; write {} for no claims"),
        ("rules.yaml", "", "; write {} for no rules"),
    ],
)
def test_an_empty_yaml_file_is_refused(
    seed_dir: Path, seeded: Engine, file: str, text: str, hint: str
) -> None:
    (seed_dir / file).write_text(text)
    assert refused(seed_dir, seeded) == [
        f"{file}:1: file is empty (no data, only blank lines or comments){hint}"
    ]


def test_a_csv_without_a_header_is_refused(seed_dir: Path, seeded: Engine) -> None:
    (seed_dir / OLLA_CSV).write_text("")
    [problem] = refused(seed_dir, seeded)
    assert (
        problem
        == f"{OLLA_CSV}:1: file is empty; the first line must be the header: "
        + ",".join(BENCHMARK_COLUMNS)
    )


def test_a_missing_rules_file_is_refused(seed_dir: Path, seeded: Engine) -> None:
    (seed_dir / "rules.yaml").unlink()
    assert refused(seed_dir, seeded) == ["rules.yaml: file is missing; write {} for no rules"]


def test_nothing_on_purpose_is_written_out(
    seed_dir: Path, empty_engine: Engine, tmp_path: Path
) -> None:
    (seed_dir / "rules.yaml").write_text("{}\n")
    (seed_dir / OLLA_CLAIMS).write_text("{}\n")
    (seed_dir / OLLA_CSV).write_text(",".join(BENCHMARK_COLUMNS) + "\n")
    data = seed(empty_engine, seed_dir)
    assert data.rules == {} and data.claims["olla-servers-compared"] == {}
    assert data.benchmarks["olla-servers-compared"] == []
    export_seed(empty_engine, tmp_path / "out")
    assert (tmp_path / "out" / "rules.yaml").read_text() == "{}\n"


# -- 4. encodings --------------------------------------------------------------------------
@pytest.mark.parametrize("file", ["systems/vllm.yaml", OLLA_CSV, "sources.yaml"])
def test_invalid_utf8_names_file_and_line(seed_dir: Path, seeded: Engine, file: str) -> None:
    path = seed_dir / file
    lines = path.read_bytes().split(b"\n")
    lines[2] = lines[2][:4] + b"\xff" + lines[2][4:]
    path.write_bytes(b"\n".join(lines))
    assert refused(seed_dir, seeded) == [
        f"{file}:3: not valid UTF-8 (byte 0xff at line 3, column 5); save it as UTF-8"
    ]


def test_a_byte_order_mark_is_accepted(seed_dir: Path) -> None:
    for file in ("sources.yaml", "systems/vllm.yaml", OLLA_CSV):
        path = seed_dir / file
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert load_seed(seed_dir).benchmarks["olla-servers-compared"]


# -- 5. keys that are not text -------------------------------------------------------------
@pytest.mark.parametrize(
    ("file", "append", "where", "key", "kind"),
    [
        ("sources.yaml", "1: x\n", "", "1", "a number"),
        (OLLA_CLAIMS, "true:\n  openai-api: yes\n", "", "true", "a boolean"),
        (OLLA_CLAIMS, "vllm2:\n  null: yes\n", "vllm2: ", "null", "null"),
        ("systems/vllm.yaml", "3.5: x\n", "", "3.5", "a number"),
    ],
)
def test_a_key_must_be_text(
    seed_dir: Path, seeded: Engine, file: str, append: str, where: str, key: str, kind: str
) -> None:
    path = seed_dir / file
    path.write_text(path.read_text() + append)
    line = line_number(path, f"{key}:")
    assert refused(seed_dir, seeded) == [
        f"{file}:{line}: {where}key {key} is read as {kind}, not text; "
        f"allowed: text keys (quote it: '{key}')"
    ]


# -- 6. stray files ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("stray", "allowed"),
    [
        ("systems/vllm.yml", "systems/ holds only <slug>.yaml files"),
        ("claims/notes.txt", "claims/ holds only <slug>.yaml files"),
        ("benchmarks/x.tsv", "benchmarks/ holds only <slug>.csv files"),
        (
            "rules.yml",
            "sources.yaml, capabilities.yaml, metrics.yaml, hardware.yaml, models.yaml, "
            "workloads.yaml, rules.yaml, architectures.yaml, systems/",
        ),
    ],
)
def test_a_stray_file_is_refused(seed_dir: Path, seeded: Engine, stray: str, allowed: str) -> None:
    shutil.copy(seed_dir / "systems/vllm.yaml", seed_dir / stray)
    [problem] = refused(seed_dir, seeded)
    assert problem.startswith(f"{stray}: unexpected file {Path(stray).name!r}; allowed: {allowed}")


def test_a_folder_inside_a_data_folder_is_refused(seed_dir: Path, seeded: Engine) -> None:
    (seed_dir / "systems/old").mkdir()
    [problem] = refused(seed_dir, seeded)
    assert problem == "systems/old: unexpected folder 'old'; allowed: systems/ holds only " + (
        "<slug>.yaml files"
    )


def test_hidden_files_are_ignored(seed_dir: Path) -> None:
    (seed_dir / "systems/.DS_Store").write_bytes(b"\x00\x01")
    (seed_dir / ".DS_Store").write_bytes(b"\x00\x01")
    assert set(load_seed(seed_dir).systems) == set(KEPT)


# -- 7. links ------------------------------------------------------------------------------
BAD_LINKS = ["javascript:alert(1)", "data:text/html,hi", "file:///etc/passwd", "/vllm", "https://"]
LINK_ERROR = "not a web address; allowed: http:// or https:// and a host name"


@pytest.mark.parametrize("link", BAD_LINKS)
def test_a_repository_must_be_a_web_address(seed_dir: Path, seeded: Engine, link: str) -> None:
    path = seed_dir / "systems/omlx.yaml"
    replace_in(path, "repository: https://github.com/jundot/omlx", f"repository: '{link}'")
    assert refused(seed_dir, seeded) == [
        f"systems/omlx.yaml:{line_number(path, 'repository:')}: field 'repository': "
        f"{LINK_ERROR} (got {link!r})"
    ]


@pytest.mark.parametrize(
    ("file", "old", "new", "field"),
    [
        ("sources.yaml", "  kind: article\n", "  kind: article\n  url: javascript:x\n", "url"),
        (
            "systems/vllm.yaml",
            "value: https://github.com/vllm-project/vllm",
            "value: javascript:x",
            "facts.",
        ),
        (
            "systems/vllm.yaml",
            "  - attribute: repository\n",
            "  - attribute: paper\n    value: javascript:x\n    source: olla-servers-compared\n"
            "  - attribute: repository\n",
            "facts.",
        ),
    ],
)
def test_every_link_must_be_a_web_address(
    seed_dir: Path, seeded: Engine, file: str, old: str, new: str, field: str
) -> None:
    path = seed_dir / file
    replace_in(path, old, new)
    [problem] = refused(seed_dir, seeded)
    assert problem.startswith(f"{file}:{line_number(path, 'javascript:x')}:")
    assert f"field '{field}" in problem
    assert problem.endswith(f"{LINK_ERROR} (got 'javascript:x')")


# -- 8. the same family --------------------------------------------------------------------
def test_a_list_where_a_mapping_belongs(seed_dir: Path, seeded: Engine) -> None:
    (seed_dir / "systems/vllm.yaml").write_text("- name: vLLM\n")
    [problem] = refused(seed_dir, seeded)
    assert problem.startswith("systems/vllm.yaml:1: field '(entry)': Input should be a valid dict")


@pytest.mark.parametrize(
    ("extra", "message"),
    [(",surplus", "21 cells, more than the 20 columns"), ("", "19 cells, fewer than the 20")],
)
def test_a_row_must_have_one_cell_per_column(
    seed_dir: Path, seeded: Engine, extra: str, message: str
) -> None:
    path = seed_dir / OLLA_CSV
    line = add_row(seed_dir)
    text = path.read_text().rstrip("\n")
    path.write_text((text + extra if extra else text.rsplit(",", 1)[0]) + "\n")
    [problem] = refused(seed_dir, seeded)
    assert problem.startswith(f"{OLLA_CSV}:{line}: row {line}: {message}")


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        ('"Apple', "not valid CSV: unexpected end of data"),
        ('"' + "x" * 200_000 + '"', "not valid CSV: field larger than field limit"),
    ],
)
def test_a_csv_that_cannot_be_parsed(
    seed_dir: Path, seeded: Engine, cell: str, message: str
) -> None:
    path = seed_dir / OLLA_CSV
    path.write_text(path.read_text() + f"osc-added,omlx,ttft,5,,,exact,s,{cell}\n")
    line = len(path.read_text().splitlines())
    [problem] = refused(seed_dir, seeded)
    assert problem.startswith(f"{OLLA_CSV}:{line}: row {line}: {message}")


@pytest.mark.parametrize(
    ("file", "old", "new", "message"),
    [
        (
            "systems/omlx.yaml",
            "name: oMLX",
            "name: " + "o" * 2001,
            "field 'name': String should have at most 2000 characters",
        ),
        (
            "sources.yaml",
            "short: Server overview",
            "short: " + "s" * 61,
            "field 'short': String should have at most 60 characters",
        ),
        (
            "systems/omlx.yaml",
            "name: oMLX",
            'name: "o\\x00MLX"',
            "field 'name': contains the control character U+0000; allowed: printable text",
        ),
        (
            "sources.yaml",
            "date: 2026-01\n",
            "date: 2026-13\n",
            "field 'date': not a calendar date; allowed: a real year, month and day "
            "(got '2026-13')",
        ),
        (
            "sources.yaml",
            "date: 2026-01\n",
            "date: 2026-02-30\n",
            "not valid YAML: cannot read a value: day is out of range for month",
        ),
        (
            "rules.yaml",
            "weight: 3.0",
            "weight: 4",
            "field 'weight': Input should be less than or equal to 3 (got 4)",
        ),
    ],
)
def test_values_that_would_break_a_page_or_the_database(
    seed_dir: Path, seeded: Engine, file: str, old: str, new: str, message: str
) -> None:
    path = seed_dir / file
    replace_in(path, old, new)
    [problem] = refused(seed_dir, seeded)
    assert problem.startswith(f"{file}:{line_number(path, new.strip()[:30])}:")
    assert message in problem


def test_a_yaml_alias_is_refused(seed_dir: Path, seeded: Engine) -> None:
    # Export writes values out, so an alias would not survive the round trip.
    path = seed_dir / "rules.yaml"
    rule = "  systems: [omlx]\n  effect: boost\n  reason: R.\n  source: olla-servers-compared\n"
    path.write_text(
        f"first:\n  when: &shared\n    hardware: [apple-silicon]\n{rule}"
        f"second:\n  when: *shared\n{rule}"
    )
    [problem] = refused(seed_dir, seeded)
    assert problem.startswith(f"rules.yaml:{line_number(path, '*shared')}:")
    assert problem.endswith(
        "repeats a value through a YAML alias (*name); write the value out instead"
    )


@pytest.mark.parametrize(
    ("raw", "bound"),
    [("0", "greater than or equal to 1"), ("99999999999999999999", "less than or equal to")],
)
def test_concurrency_is_a_count_a_database_can_hold(
    seed_dir: Path, seeded: Engine, raw: str, bound: str
) -> None:
    line = add_row(seed_dir, concurrency=raw)
    [problem] = refused(seed_dir, seeded)
    assert problem.startswith(f"{OLLA_CSV}:{line}: row {line}: column 'concurrency': Input should")
    assert bound in problem and f"(got '{raw}')" in problem


def test_a_duplicate_benchmark_id_names_both_places(seed_dir: Path, seeded: Engine) -> None:
    first = line_number(seed_dir / OLLA_CSV, "osc-omlx-ttft-ssd-cache,")
    line = add_row(seed_dir, id="osc-omlx-ttft-ssd-cache")
    [problem] = refused(seed_dir, seeded)
    assert problem.startswith(f"{OLLA_CSV}:{line}: row {line} (osc-omlx-ttft-ssd-cache): ")
    assert f"first used in olla-servers-compared.csv:{first}" in problem


def test_deep_nesting_is_refused(seed_dir: Path, seeded: Engine) -> None:
    (seed_dir / "systems/vllm.yaml").write_text("name: " + "[" * 300 + "]" * 300 + "\n")
    assert refused(seed_dir, seeded) == [
        "systems/vllm.yaml: not valid YAML: nested too deeply (hundreds of levels)"
    ]


def test_a_missing_seed_folder_is_named(tmp_path: Path, seeded: Engine) -> None:
    assert refused(tmp_path / "nowhere", seeded) == [
        f"{tmp_path / 'nowhere'}: seed folder not found"
    ]


# -- the command line never shows a traceback ---------------------------------------------
@pytest.mark.parametrize("breakage", ["utf8", "huge-cell"])
def test_seed_command_reports_and_writes_nothing(
    seed_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, breakage: str
) -> None:
    monkeypatch.setenv("DATABASE_URL", new_database_url(tmp_path, "cli"))
    if breakage == "utf8":
        (seed_dir / OLLA_CSV).write_bytes(b"\xff")
    else:
        add_row(seed_dir, note="x" * 200_000)
    result = CliRunner().invoke(cli, ["seed", "--seed-dir", str(seed_dir)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "Nothing was written." in result.output and "Traceback" not in result.output


# -- 9. hardware, model and workload names ------------------------------------------------
def test_a_figure_may_name_its_hardware_by_alias(seed_dir: Path) -> None:
    add_row(
        seed_dir,
        hardware="h100 sxm",
        model="Llama-3.1-8B",
        workload="Online Serving",
        precision="int4",
    )
    row = {r.id: r for rs in load_seed(seed_dir).benchmarks.values() for r in rs}["osc-added"]
    assert (row.hardware, row.model, row.workload, row.precision) == (  # type: ignore[attr-defined]
        "nvidia-h100-sxm5-80gb",
        "llama-3.1-8b",
        "online-serving",
        "INT4",
    )


@pytest.mark.parametrize(
    ("column", "value", "hint"),
    [
        ("hardware", "H100 SMX", "did you mean nvidia-h100-sxm5-80gb"),
        ("model", "Llama 3.2 8B", "did you mean llama-3.1-8b, llama-3-8b"),
        ("workload", "onlin serving", "did you mean online-serving"),
    ],
)
def test_an_unknown_name_is_refused_with_file_line_and_column(
    seed_dir: Path, seeded: Engine, column: str, value: str, hint: str
) -> None:
    line = add_row(seed_dir, **{column: value})
    [problem] = refused(seed_dir, seeded)
    assert problem.startswith(
        f"{OLLA_CSV}:{line}: row {line} (osc-added): column '{column}': unknown {column} "
        f"{value!r}; {hint}"
    )


def test_a_name_two_entries_claim_is_refused(seed_dir: Path, seeded: Engine) -> None:
    path = seed_dir / "hardware.yaml"
    text = path.read_text().replace("    - NVIDIA A100\n", "    - NVIDIA A100\n    - H100 SXM\n")
    path.write_text(text)
    [problem] = refused(seed_dir, seeded)
    line = line_number(path, "    - NVIDIA A100") + 1
    assert problem == (
        f"hardware.yaml:{line}: nvidia-a100-unspecified: the name 'H100 SXM' already belongs "
        "to 'nvidia-h100-sxm5-80gb'; a name may name one entry"
    )


def test_an_alias_that_repeats_the_name_is_refused(seed_dir: Path, seeded: Engine) -> None:
    path = seed_dir / "models.yaml"
    path.write_text(path.read_text().replace("    - Meta-Llama-3-8B\n", "    - Llama-3-8b\n"))
    [problem] = refused(seed_dir, seeded)
    assert problem.endswith(
        "llama-3-8b: alias 'Llama-3-8b' repeats a name the entry already answers to; remove it"
    )


def test_active_parameters_belong_to_a_mixture_of_experts(seed_dir: Path, seeded: Engine) -> None:
    path = seed_dir / "models.yaml"
    text = path.read_text()
    text = text.replace("  kind: moe\n", "  kind: moe\n  active_parameters_b: 37\n")
    text = text.replace("  parameters_b: 34\n", "  parameters_b: 34\n  active_parameters_b: 34\n")
    path.write_text(text)
    [problem] = refused(seed_dir, seeded)
    line = line_number(path, "  active_parameters_b: 34")
    assert problem == (
        f"models.yaml:{line}: llava-next-34b: field 'active_parameters_b': only a mixture of "
        "experts has one (kind: moe, moe-vision-language, hybrid)"
    )


def test_active_parameters_cannot_exceed_the_total(seed_dir: Path, seeded: Engine) -> None:
    path = seed_dir / "models.yaml"
    added = "  parameters_b: 671\n  kind: moe\n  active_parameters_b: 700\n"
    replace_in(path, "  kind: moe\n", added)
    [problem] = refused(seed_dir, seeded)
    line = line_number(path, "  active_parameters_b: 700")
    assert problem == (
        f"models.yaml:{line}: deepseek-v3: field 'active_parameters_b': 700 is more than the "
        "model's 671 billion parameters"
    )


def test_an_entry_cites_only_known_sources(seed_dir: Path, seeded: Engine) -> None:
    path = seed_dir / "workloads.yaml"
    path.write_text(
        path.read_text().replace(
            "    - serving-engine-guide-18-tools\n", "    - serving-engine-guide\n", 1
        )
    )
    [problem] = refused(seed_dir, seeded)
    assert problem.endswith(
        "decode-tg128: unknown source 'serving-engine-guide' (not in sources.yaml)"
    )


def test_reseeding_keeps_the_ids_of_entries(seed_dir: Path, seeded: Engine) -> None:
    with Session(seeded) as session:
        before = dict(session.exec(select(Hardware.slug, Hardware.id)).all())
        figures = session.exec(select(BenchmarkResult.slug, BenchmarkResult.hardware_id)).all()
    seed(seeded, seed_dir)
    with Session(seeded) as session:
        assert dict(session.exec(select(Hardware.slug, Hardware.id)).all()) == before
        again = session.exec(select(BenchmarkResult.slug, BenchmarkResult.hardware_id)).all()
    assert sorted(again) == sorted(figures)


# Most of these build and seed a database per case: the slow tier keeps plain pytest under
# its two minutes (they run on every `make test` and in CI).
pytestmark = pytest.mark.slow
