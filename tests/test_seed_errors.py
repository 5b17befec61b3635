"""The loader rejects bad seed files with errors that say where and what, and writes nothing."""

from pathlib import Path

import pytest
from sqlalchemy import Engine, func
from sqlmodel import Session, select

from app.models import Claim, Meta, System
from app.seeding.errors import SeedError
from app.seeding.load import load_seed
from app.seeding.prepare import seed
from tests.conftest import REAL_SEED_DIR


def problems_for(seed_dir: Path) -> list[str]:
    with pytest.raises(SeedError) as caught:
        load_seed(seed_dir)
    return [str(p) for p in caught.value.problems]


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1))


def line_number(path: Path, needle: str) -> int:
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(needle)


@pytest.mark.data
def test_the_real_seed_folder_is_valid() -> None:
    data = load_seed(REAL_SEED_DIR)  # raises SeedError listing every problem
    # Every file is read: a system file the loader skipped would vanish from the site.
    assert set(data.systems) == {p.stem for p in (REAL_SEED_DIR / "systems").glob("*.yaml")}
    assert set(data.claims) == {p.stem for p in (REAL_SEED_DIR / "claims").glob("*.yaml")}
    assert set(data.benchmarks) == {p.stem for p in (REAL_SEED_DIR / "benchmarks").glob("*.csv")}


def test_bad_yaml_names_file_and_line(seed_copy: Path) -> None:
    path = seed_copy / "systems" / "ollama.yaml"
    path.write_text(path.read_text() + "tags: [unclosed\n")
    [problem] = problems_for(seed_copy)
    assert problem.startswith("systems/ollama.yaml:")
    assert "not valid YAML" in problem


def test_unknown_system_slug_in_claims_suggests_the_near_miss(seed_copy: Path) -> None:
    path = seed_copy / "claims" / "olla-servers-compared.yaml"
    replace_in(path, "vllm:\n", "vlm:\n")
    [problem] = problems_for(seed_copy)
    assert problem.startswith(f"claims/olla-servers-compared.yaml:{line_number(path, 'vlm:')}:")
    assert "unknown system 'vlm'" in problem
    assert "did you mean" in problem and "vllm" in problem


def test_unknown_level_lists_the_allowed_levels(seed_copy: Path) -> None:
    path = seed_copy / "claims" / "best-inference-servers-2026.yaml"
    text = path.read_text()
    first_level = next(line for line in text.splitlines() if line.endswith(": yes"))
    replace_in(path, first_level, first_level.replace(": yes", ": sometimes"))
    [problem] = problems_for(seed_copy)
    assert f"best-inference-servers-2026.yaml:{line_number(path, 'sometimes')}:" in problem
    assert "'sometimes'" in problem
    for level in ("yes", "partial", "experimental", "via", "no", "unknown"):
        assert f"'{level}'" in problem


def test_wrong_type_names_the_field(seed_copy: Path) -> None:
    path = seed_copy / "systems" / "vllm.yaml"
    replace_in(path, "tags:\n", "tags: 12\nx_tags:\n")
    problems = problems_for(seed_copy)
    assert any("field 'tags'" in p and "list" in p for p in problems)
    assert any("field 'x_tags'" in p and "Extra inputs" in p for p in problems)


def test_duplicate_key_is_an_error(seed_copy: Path) -> None:
    path = seed_copy / "metrics.yaml"
    path.write_text(
        path.read_text() + "throughput:\n  name: Again\n  units: [tok/s]\n"
        "  better: higher\n  kind: absolute\n"
    )
    [problem] = problems_for(seed_copy)
    assert problem.startswith("metrics.yaml:")
    assert "duplicate key" in problem and "throughput" in problem


def test_missing_required_field(seed_copy: Path) -> None:
    path = seed_copy / "systems" / "sglang.yaml"
    lines = [line for line in path.read_text().splitlines() if not line.startswith("summary:")]
    path.write_text("\n".join(lines) + "\n")
    [problem] = problems_for(seed_copy)
    assert problem.startswith("systems/sglang.yaml:")
    assert "field 'summary': Field required" in problem


def test_benchmark_row_errors_name_file_line_and_column(seed_copy: Path) -> None:
    path = seed_copy / "benchmarks" / "best-inference-servers-2026.csv"
    lines = path.read_text().splitlines()
    lines[1] = lines[1].replace(",2780,", ",2,780,") if ",2780," in lines[1] else lines[1] + "x"
    lines[2] = lines[2].replace(",ms,", ",furlongs,")
    path.write_text("\n".join(lines) + "\n")
    problems = problems_for(seed_copy)
    assert any(p.startswith("benchmarks/best-inference-servers-2026.csv:2:") for p in problems)
    assert any(
        p.startswith("benchmarks/best-inference-servers-2026.csv:3:") and "column 'unit'" in p
        for p in problems
    )


def test_unit_must_suit_the_metric(seed_copy: Path) -> None:
    path = seed_copy / "benchmarks" / "best-inference-servers-2026.csv"
    lines = path.read_text().splitlines()
    row = next(i for i, line in enumerate(lines) if ",throughput," in line and ",tok/s," in line)
    lines[row] = lines[row].replace(",tok/s,", ",ms,")
    path.write_text("\n".join(lines) + "\n")
    [problem] = problems_for(seed_copy)
    assert f"csv:{row + 1}:" in problem
    assert "does not fit metric 'throughput'; allowed: tok/s" in problem


def test_several_problems_are_reported_in_one_run(seed_copy: Path) -> None:
    replace_in(seed_copy / "claims" / "olla-servers-compared.yaml", "vllm:\n", "vlm:\n")
    replace_in(seed_copy / "systems" / "tgi.yaml", "kind: engine", "kind: rocket")
    problems = problems_for(seed_copy)
    assert len(problems) == 2
    assert {p.split(":")[0] for p in problems} == {
        "claims/olla-servers-compared.yaml",
        "systems/tgi.yaml",
    }


def test_headline_licence_must_be_backed_by_a_fact(seed_copy: Path) -> None:
    replace_in(seed_copy / "systems" / "ollama.yaml", "licence: MIT", "licence: AGPL-3.0")
    [problem] = problems_for(seed_copy)
    assert "'AGPL-3.0' is not backed by a fact" in problem


def counts(engine: Engine) -> tuple[int, int, str]:
    with Session(engine) as session:
        systems = session.exec(select(func.count()).select_from(System)).one()
        claims = session.exec(select(func.count()).select_from(Claim)).one()
        version = session.get(Meta, "data_version")
        return systems, claims, version.value if version else ""


def test_a_bad_file_leaves_the_database_as_it_was(seed_copy: Path, empty_engine: Engine) -> None:
    seed(empty_engine, seed_copy)
    before = counts(empty_engine)
    (seed_copy / "systems" / "vllm.yaml").unlink()  # claims now refer to a missing system
    with pytest.raises(SeedError):
        seed(empty_engine, seed_copy)
    assert counts(empty_engine) == before


def test_a_failure_inside_the_write_rolls_back(seed_copy: Path, empty_engine: Engine) -> None:
    seed(empty_engine, seed_copy)
    before = counts(empty_engine)
    data = load_seed(seed_copy)
    data.claims["olla-servers-compared"]["vllm"]["no-such-capability"] = next(
        iter(data.claims["olla-servers-compared"]["vllm"].values())
    )
    from app.writes.seed import apply_seed

    with pytest.raises(KeyError):
        apply_seed(empty_engine, data)
    assert counts(empty_engine) == before


def test_rules_are_checked_against_the_guided_flow_questions(seed_copy: Path) -> None:
    (seed_copy / "rules.yaml").write_text(
        "apple-coding-agents:\n"
        "  when:\n"
        "    hardware: [apple-silicon]\n"
        "    workload: [coding-agents]\n"
        "    mood: [happy]\n"
        "  systems: [omlx]\n"
        "  effect: boost\n"
        "  weight: 3\n"
        "  reason: Persistent SSD prefix cache suits agents that resend long prompts.\n"
        "  source: genai-in-depth-serving-frameworks\n"
    )
    problems = problems_for(seed_copy)
    option_problems = [p for p in problems if "unknown option 'coding-agents'" in p]
    assert option_problems and option_problems[0].startswith("rules.yaml:4:")
    assert "allowed: general-chat" in option_problems[0]
    assert any("rules.yaml:5:" in p and "unknown question 'mood'" in p for p in problems)


def test_a_valid_rule_round_trips(seed_copy: Path, empty_engine: Engine, tmp_path: Path) -> None:
    from app.seeding.export import export_seed

    text = (
        "apple-coding-agents:\n"
        "  when:\n"
        "    hardware:\n"
        "      - apple-silicon\n"
        "  systems:\n"
        "    - omlx\n"
        "  effect: boost\n"
        "  weight: 3.0\n"
        "  reason: Persistent SSD prefix cache suits agents that resend long prompts.\n"
        "  source: genai-in-depth-serving-frameworks\n"
    )
    (seed_copy / "rules.yaml").write_text(text)
    seed(empty_engine, seed_copy)
    export_seed(empty_engine, tmp_path / "out")
    assert (tmp_path / "out" / "rules.yaml").read_text() == text


# Most of these build and seed a database per case: the slow tier keeps plain pytest under
# its two minutes (they run on every `make test` and in CI).
pytestmark = pytest.mark.slow
