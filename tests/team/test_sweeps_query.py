"""The sweep query (app/queries/sweeps.py) on real confirmed imports: which runs make a curve,
what joins one curve across files, what is left out and said so, filters and bounds."""

from collections.abc import Iterator

import pytest
from sqlmodel import Session, col, select

from app.accounts import users as accounts
from app.accounts.models import Role
from app.db import make_engine, writer
from app.models import BenchmarkResult, Source
from app.params.benchmarks import BenchmarkParams, SweepParams
from app.queries import sweeps
from app.queries.sweep_models import SweepChart, SweepPage
from app.queries.sweeps import shows_sweeps, team_sweeps
from app.writes.team import delete_result
from tests.team.sweep_data import (
    AIPERF,
    FIXTURES,
    GUIDELLM,
    H100,
    LLAMA_BENCH,
    SGLANG,
    VLLM_8QPS,
    VLLM_SWEEP,
    faster_vllm_sweep,
    import_file,
)

LLAMA = "llama-3.1-8b"  # the files' meta-llama/Llama-3.1-8B-Instruct, as the uploader said
# Models the vocabulary lacks: imported as unlisted-model, charted apart by the file's name.
QWEN_32B, QWEN_7B = "Qwen/Qwen3-32B-FP8", "Qwen/Qwen2.5-7B-Instruct"
H100_SLUG = "nvidia-h100-sxm5-80gb"
H100_NAME = "NVIDIA H100 SXM5 80GB"
GENAI_PERF = FIXTURES / "genai-perf" / "config-v2_genai_perf.json"  # per-user in the file


@pytest.fixture(scope="module")
def imported(accounts_url: str) -> dict[str, str]:
    """Every kind of import a team makes, oldest first; the import's source slug by name."""
    fp8 = {"hardware": H100, "precision": "FP8"}
    a100 = {"system": "lmdeploy", "hardware": "NVIDIA A100 80GB", "precision": "BF16"}
    faster = {"name": "sglang-sweep.json", "data": faster_vllm_sweep(1.3)}
    files = [
        # The 8 req/s file names vLLM 0.11.2; the sweep's does not, so the team says it.
        (
            "vllm-sweep",
            VLLM_SWEEP,
            {"system": "vllm", "system_version": "0.11.2", "gpus": 1, **fp8},
        ),
        ("vllm-8qps", VLLM_8QPS, {"system": "vllm", "gpus": 1, **fp8}),
        ("guidellm", GUIDELLM, {"precision": "BF16"}),
        ("sglang-tp2", SGLANG, {"hardware": H100}),
        ("llama-bench", LLAMA_BENCH, {}),
        ("aiperf", AIPERF, {"system": "vllm", "precision": "FP8"}),
        ("genai-perf", GENAI_PERF, a100),
        ("genai-perf-again", GENAI_PERF, a100),
        ("no-gpus", VLLM_SWEEP, {"system": "sglang", **fp8}),
        ("sglang-sweep", VLLM_SWEEP, {"system": "sglang", "gpus": 1, **fp8, **faster}),
    ]
    return {name: import_file(accounts_url, path, **given) for name, path, given in files}


@pytest.fixture
def session(accounts_url: str, imported: dict[str, str]) -> Iterator[Session]:
    engine = make_engine(accounts_url)
    with Session(engine) as session:
        yield session
    engine.dispose()


def chart(page: SweepPage, model: str) -> SweepChart:
    [found] = [c for c in page.charts if (c.model_in_file or c.model) == model]
    return found


def test_each_model_and_workload_gets_a_chart_and_each_setup_a_curve(session: Session) -> None:
    page = team_sweeps(session, SweepParams())
    assert [c.model_in_file or c.model for c in page.charts] == [
        LLAMA,
        QWEN_32B,
        QWEN_7B,
    ]  # newest import first (the GenAI-Perf file twice is one load repeated: no curve)
    llama = chart(page, LLAMA)
    # Lengths within 10% are one workload; the chart names the newest run's (a measured mean).
    assert (llama.input_tokens, llama.output_tokens) == (1024, 511)
    assert [c.label for c in llama.curves] == [
        f"SGLang · {H100_NAME} ×1 · FP8",
        f"vLLM 0.11.2 · {H100_NAME} ×1 · FP8",
    ]
    assert page.charts_left_out == 0 and all(c.curves_left_out == 0 for c in page.charts)


def test_runs_of_one_setup_from_several_files_make_one_curve_with_its_frontier(
    session: Session, imported: dict[str, str]
) -> None:
    vllm = chart(team_sweeps(session, SweepParams()), LLAMA).curves[1]
    # The sweep (511 and 512 output tokens on average) and the 8 req/s run (512) are one workload.
    assert [p.load for p in vllm.points] == [
        "8 req/s",
        "64 concurrent",
        "16 concurrent",
        "4 concurrent",
        "1 concurrent",
    ]
    assert [p.source.slug for p in vllm.points] == [imported["vllm-8qps"]] + [
        imported["vllm-sweep"]
    ] * 4
    # 8 req/s gave less per user and less per GPU than 64 concurrent: off the frontier.
    assert [p.on_frontier for p in vllm.points] == [False, True, True, True, True]
    c64 = vllm.points[1]
    assert c64.per_gpu == c64.output_throughput == pytest.approx(5617.863)
    assert c64.per_user == pytest.approx(1000 / 10.87) and c64.per_user_from == "tpot"
    assert (c64.concurrency, c64.request_rate, c64.where) == (64, None, "line 4")
    assert c64.file == VLLM_SWEEP.name and c64.import_id == imported["vllm-sweep"][7:]


def test_throughput_is_divided_by_the_gpus_the_run_used(session: Session) -> None:
    [sglang] = chart(team_sweeps(session, SweepParams()), QWEN_32B).curves
    assert (sglang.gpus, sglang.hardware, sglang.precision) == (2, H100_SLUG, "FP8")
    top = max(sglang.points, key=lambda p: p.output_throughput)
    assert top.per_gpu == pytest.approx(top.output_throughput / 2)
    assert all(p.on_frontier for p in sglang.points)


def test_a_per_user_figure_from_the_file_is_kept_and_said_so() -> None:
    where = ("k", "f.json", "run 1", "s", "S", "T", "2026-01", "team-measurement")
    setup = {"gpus": 1, "concurrency": 8}
    given = {"output_throughput": 300.0, "output_throughput_per_user": 39.2, "tpot_mean": 25.48}
    point, _ = sweeps._point(setup, given, where)
    assert point is not None and point.per_user_from == "file"
    assert point.per_user == pytest.approx(39.2) and point.per_user != pytest.approx(1000 / 25.48)
    derived, _ = sweeps._point(setup, {**given, "output_throughput_per_user": None}, where)
    assert derived is not None and derived.per_user_from == "tpot"


def test_the_same_file_imported_twice_is_one_load_repeated_not_a_curve(session: Session) -> None:
    page = team_sweeps(session, SweepParams())
    assert "llama-3.3-70b-instruct" not in [c.model for c in page.charts]
    assert "2 setups were measured at one load only (a curve needs two)" in page.left_out


def test_what_makes_no_point_or_curve_is_counted(session: Session) -> None:
    left_out = team_sweeps(session, SweepParams()).left_out
    assert set(left_out) == {
        "4 runs had no GPU count (give one when importing)",
        "3 runs lacked an output throughput",  # llama-bench measures single streams
        # The AIPerf run; the GenAI-Perf file imported twice (one load, repeated).
        "2 setups were measured at one load only (a curve needs two)",
    }


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({"system": ("sglang",)}, {QWEN_32B: 4, LLAMA: 4}),
        ({"hardware": ("unlisted-hardware",)}, {QWEN_7B: 4}),
        ({"model": (LLAMA,), "system": ("vllm",)}, {LLAMA: 5}),
        ({"precision": ("BF16",)}, {QWEN_7B: 4}),
        # A concurrency filter drops the runs driven by a request rate, as /benchmarks does.
        ({"cmin": 10, "system": ("vllm",)}, {LLAMA: 2, QWEN_7B: 2}),
        ({"cmax": 4, "hardware": (H100_SLUG,)}, {LLAMA: 4, QWEN_32B: 2}),
    ],
)
def test_filters(session: Session, filters: dict[str, object], expected: dict[str, int]) -> None:
    page = team_sweeps(session, SweepParams.model_validate(filters))
    found = {c.model_in_file or c.model: sum(len(k.points) for k in c.curves) for c in page.charts}
    assert found == expected


def test_a_source_filter_keeps_one_import(session: Session, imported: dict[str, str]) -> None:
    page = team_sweeps(session, SweepParams(source=(imported["vllm-sweep"],)))
    [only] = page.charts
    [curve] = only.curves
    assert len(curve.points) == 4 and page.query == f"source={imported['vllm-sweep']}"


def test_curves_points_and_charts_are_bounded_and_say_what_was_left_out(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sweeps, "MAX_POINTS", 3)
    monkeypatch.setattr(sweeps, "MAX_CURVES", 1)
    monkeypatch.setattr(sweeps, "MAX_CHARTS", 2)
    page = team_sweeps(session, SweepParams())
    assert len(page.charts) == 2 and page.charts_left_out == 1
    llama = page.charts[0]
    [curve] = llama.curves
    assert llama.curves_left_out == 1
    # The newest runs are kept: SGLang's sweep came last.
    assert len(curve.points) == 3 and curve.points_left_out == 1 and curve.system == "sglang"
    monkeypatch.setattr(sweeps, "MAX_RUNS", 5)
    assert team_sweeps(session, SweepParams()).left_out[0] == (
        "only the newest 5 imported runs were read"
    )


def test_the_page_shows_sweeps_only_where_its_filters_leave_room() -> None:
    assert shows_sweeps(BenchmarkParams())
    assert shows_sweeps(BenchmarkParams(metric=("ttft", "throughput"), origin="team"))
    assert not shows_sweeps(BenchmarkParams(origin="published"))
    assert not shows_sweeps(BenchmarkParams(metric=("ttft-p50",)))
    page = BenchmarkParams(system=("vllm",), metric=("tpot",), cmin=4, sort="value", page=2)
    assert SweepParams.of(page) == SweepParams(system=("vllm",), cmin=4)


def test_a_run_counts_while_the_team_keeps_one_of_its_results(fresh_url: str) -> None:
    source = import_file(
        fresh_url, VLLM_SWEEP, system="vllm", hardware=H100, gpus=1, precision="FP8"
    )
    engine = make_engine(fresh_url)
    with Session(writer(engine)) as session, session.begin():
        user = accounts.get_user(session, "eddie")
        assert user is not None and user.id is not None
        who = accounts.SignedIn(user.id, user.name, Role(user.role), "test", "")
        rows = session.exec(
            select(BenchmarkResult.slug, BenchmarkResult.version, BenchmarkResult.import_run_id)
            .join(Source, col(Source.id) == BenchmarkResult.source_id)
            .where(Source.slug == source)
            .order_by(col(BenchmarkResult.id))
        ).all()
        first_run = [r for r in rows if r[2] == rows[0][2]]
        for slug, version, _ in first_run[:-1]:
            delete_result(session, who, slug, version)
    with Session(engine) as session:
        [curve] = team_sweeps(session, SweepParams()).charts[0].curves
        assert len(curve.points) == 4, "one result of the run is left"
    with Session(writer(engine)) as session, session.begin():
        delete_result(session, who, first_run[-1][0], first_run[-1][1])
    with Session(engine) as session:
        [curve] = team_sweeps(session, SweepParams()).charts[0].curves
        assert [p.load for p in curve.points] == ["64 concurrent", "16 concurrent", "4 concurrent"]
    with Session(writer(engine)) as session, session.begin():
        for slug, version, run in rows:
            if run != rows[0][2]:
                delete_result(session, who, slug, version)
    with Session(engine) as session:
        assert team_sweeps(session, SweepParams()) == SweepPage(query="", charts=[])
    engine.dispose()


WHERE = ("k", "f.json", "line 1", "import-k", "f.json", "t", "2026-11-01", "team-measurement")


@pytest.mark.parametrize(
    ("metrics", "gpus", "expected"),
    [
        ({"output_throughput": 800.0, "tpot_mean": 20.0}, 2, (50.0, "tpot", 400.0)),
        (
            {"output_throughput": 800.0, "output_throughput_per_user": 50.0, "tpot_mean": 20.0},
            2,
            (50.0, "tpot", 400.0),
        ),  # the parser's own 1000 / TPOT
        (
            {"output_throughput": 800.0, "output_throughput_per_user": 48.5, "tpot_mean": 20.0},
            4,
            (48.5, "file", 200.0),
        ),
        (
            {"output_throughput": 800.0, "output_throughput_per_user": 48.5},
            1,
            (48.5, "file", 800.0),
        ),
        ({"output_throughput": 800.0}, 1, "lacked TPOT and a per-user throughput"),
        ({"tpot_mean": 20.0}, 1, "lacked an output throughput"),
        (
            {"output_throughput": 800.0, "tpot_mean": 20.0},
            None,
            "had no GPU count (give one when importing)",
        ),
    ],
)
def test_a_point_from_one_run(
    metrics: dict[str, float], gpus: int | None, expected: object
) -> None:
    point, reason = sweeps._point({"gpus": gpus, "request_rate": 2.5}, metrics, WHERE)
    if isinstance(expected, str):
        assert point is None and reason == expected
        return
    assert point is not None and reason == ""
    assert (point.per_user, point.per_user_from, point.per_gpu) == pytest.approx(expected)
    assert point.load == "2.5 req/s" and point.source.slug == "import-k"
