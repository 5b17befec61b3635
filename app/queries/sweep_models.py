"""The read models of team sweeps (app/queries/sweeps.py builds them): a point per load, a
curve per setup, a chart per model and workload, a timeline per setup across versions, and
the page that holds them; /benchmarks, /compare, /decide and /api/v1/sweeps share them."""

from pydantic import BaseModel, Field, computed_field

from app.schemas import SourceRef


class RunRef(BaseModel):
    import_id: str
    file: str
    where: str


class SweepPoint(BaseModel):
    load: str  # "16 concurrent", "4.5 req/s", "all requests at once"
    concurrency: int | None
    request_rate: float | None
    per_user: float  # tok/s/user
    per_user_from: str  # "file", or "tpot" when it is 1000 / mean TPOT
    per_gpu: float  # output tok/s per GPU
    output_throughput: float  # tok/s, all GPUs
    total_per_gpu: float | None = None  # input and output tok/s per GPU, when the file gives it
    ttft_p99: float | None = None  # ms
    tpot_p99: float | None = None  # ms
    goodput: float | None = None  # requests/s that met the run's own goodput targets
    # Its share of the request throughput, in per cent: what a `goodput` level reads.
    goodput_share: float | None = None
    # Repeats: several runs of the setup at this load make one point of medians; the spread of
    # the per-GPU and per-user figures is min–max (two to four runs) or the IQR (five or more).
    n: int = 1
    spread: str = "one run"
    per_gpu_low: float | None = None
    per_gpu_high: float | None = None
    per_user_low: float | None = None
    per_user_high: float | None = None
    runs: list[RunRef] = []  # every run behind the point (one for a single run)
    # US dollars per million tokens at this load; None (never 0) without a price.
    cost_per_million_output_tokens: float | None = None
    cost_per_million_total_tokens: float | None = None
    # Energy, where the file carries GPU power (AIPerf/GenAI-Perf telemetry); None without it.
    gpu_watts: float | None = None  # mean board power per GPU that worked, W
    joules_per_output_token: float | None = None
    on_frontier: bool = False
    import_id: str
    file: str
    where: str  # the run's place in its file
    source: SourceRef


class NearestPoint(BaseModel):
    load: str
    per_gpu: float
    per_user: float | None
    ttft_p99: float | None
    tpot_p99: float | None
    goodput: float | None = None  # % of requests within the run's goodput targets


class AtLevel(BaseModel):
    """The curve at the page's service level (app/measures/service_level.py)."""

    per_gpu: float | None  # output tok/s per GPU, interpolated; None when not reached
    reached: bool
    between: list[str] | None  # the two measured loads it lies between
    note: str = ""  # why there is no figure
    nearest: NearestPoint | None = None  # when not reached: the closest measured load
    per_user: float | None = None  # where the interpolated point sits on the chart's x axis
    rank: int | None = None  # among curves of one hardware, model, precision and workload
    ranked_among: int = 0
    # With repeats at the bracketing loads, the spread interpolated the same way, and whether
    # it overlaps the spread of the curve ranked next to this one.
    per_gpu_low: float | None = None
    per_gpu_high: float | None = None
    within_noise: bool = False
    total_per_gpu: float | None = None  # input and output tok/s per GPU, interpolated alike
    cost_per_million_output_tokens: float | None = None
    cost_per_million_total_tokens: float | None = None
    # Power per GPU interpolated like the throughput, over the throughput there; None unless
    # both bracketing loads carry a power reading.
    joules_per_output_token: float | None = None
    # The target the figure is read at (several targets: the tightest), for the chart only:
    # it decides whether the interpolated point sits on the per-user line or needs a label
    # (app/present/service_level.py, OFF_AXIS).
    binding: str = Field(default="", exclude=True)


class PriceView(BaseModel):
    """The price behind a curve's costs, and what a cost assumes."""

    usd_per_gpu_hour: float
    basis: str
    given_in: str  # "the instance's price list" or "the URL (price=)"


class LevelView(BaseModel):
    per_user: float | None
    ttft_p99: float | None
    tpot_p99: float | None
    goodput: float | None = None  # % of requests within each run's own goodput targets
    description: str  # '≥ 50 tok/s/user'


class SweepCurve(BaseModel):
    system: str
    system_name: str
    system_version: str | None
    hardware: str | None  # a vocabulary slug
    hardware_in_file: str | None = None  # the file's name, for an unlisted-hardware entry
    hardware_name: str | None = None
    gpus: int
    precision: str | None
    points: list[SweepPoint]  # by per-user throughput
    points_left_out: int = 0
    at_level: AtLevel | None = None  # only when the page asks for a service level
    price: PriceView | None = None  # per GPU-hour, when one is set for the hardware

    @computed_field  # type: ignore[prop-decorator]
    @property
    def label(self) -> str:
        """'vLLM 0.10.1 · NVIDIA H100 ×8 · FP8'"""
        name = (
            f"{self.system_name} {self.system_version}" if self.system_version else self.system_name
        )
        hardware = self.hardware_name or self.hardware or "hardware not stated"
        parts = [name, f"{hardware} ×{self.gpus}"]
        return " · ".join(parts + ([self.precision] if self.precision else []))


class SweepChart(BaseModel):
    model: str | None  # a vocabulary slug
    model_in_file: str | None = None  # the file's name, for an unlisted-model entry
    model_name: str | None = None
    input_tokens: int | None
    output_tokens: int | None
    curves: list[SweepCurve]
    curves_left_out: int = 0

    @computed_field  # type: ignore[prop-decorator]
    @property
    def label(self) -> str:
        """'Llama 3.1 8B · ~1024 in / 512 out tokens'"""
        lengths = f"~{self.input_tokens or '?'} in / {self.output_tokens or '?'} out tokens"
        return f"{self.model_name or self.model or 'model not stated'} · {lengths}"


class TimelineEntry(BaseModel):
    version: str
    per_gpu: float | None  # at the level, or at the timeline's load
    per_gpu_low: float | None = None
    per_gpu_high: float | None = None
    n: int = 1  # runs behind the figure (at the level: the fewest at the two loads)
    change: float | None = None  # from the version before: +0.2 is 20% more per GPU
    threshold: float | None = None  # the spread (or 10% without repeats) a change must pass
    flag: str = ""  # "improvement", "regression", or "" (within the spread)
    note: str = ""  # why there is no figure


class Timeline(BaseModel):
    """One setup (system, hardware, GPU count, precision, model, workload) across versions."""

    system: str
    system_name: str
    setup: str  # 'NVIDIA H100 SXM5 80GB ×1 · FP8 · Llama 3.1 8B · ~1024 in / 511 out tokens'
    basis: str  # 'at the service level …' or 'at 64 concurrent, the heaviest load all ran'
    entries: list[TimelineEntry]  # in version order, oldest first
    note: str = ""  # 'measured in one version only; a timeline needs two'


class SweepPage(BaseModel):
    query: str
    level: LevelView | None = None
    cost_note: str = ""  # why costs are absent or what they assume
    energy_note: str = ""  # what energy per token assumes, when any point has one
    timelines: list[Timeline] = []  # setups measured in two versions or more come first
    charts: list[SweepChart]
    charts_left_out: int = 0
    left_out: list[str] = []  # runs and setups that make no point or curve, and why
