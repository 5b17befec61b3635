"""Load-test every main view with wrk, on the real data and a synthetic larger copy.

    python scripts/bench.py [--scale 1 --scale 10] [--duration 2] [--rounds 2]
                            [--connections 16 --connections 64] [--reseeds 2]
                            [--check] [--markdown FILE]

Per scale, one uvicorn worker on a throwaway SQLite database, access log on, is measured with:
- every main view (and /healthz) at each connection count, each run paired with a run of the
  floor just before it: a bare FastAPI app in a process of its own (scripts/benchkit/bare.py),
  so the ratio shows what the Atlas's middleware, routing and rendering cost; the requests/s
  ratio to the floor (median over rounds), p99, non-2xx answers, socket errors, exceptions;
- several hundred distinct URLs that no cache has seen, each requested once, at 16 connections;
- a few hundred hostile requests (oversized, repeated, unknown, odd parameters): status codes;
- a few views at 64 connections while `inference-atlas seed` reloads the same database;
- the schema fuzzer (schemathesis, every check) anonymously and with an editor's token, on
  the first scale: its failures;
- the server's peak resident memory over all of it.
Ratios hold across machines even where absolute numbers do not. --check exits 1 when a
target is missed (see scripts/benchkit/report.py); without it the run only reports.
"""

import argparse
import os
import platform
import shutil
import signal
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.benchkit import phases  # noqa: E402
from scripts.benchkit.report import ScaleResult, missed_targets, render  # noqa: E402
from scripts.benchkit.server import BareServer, MemorySampler, Server  # noqa: E402
from scripts.benchkit.wrk import THREADS, TIMEOUT_S  # noqa: E402
from scripts.synthetic_seed import write_synthetic  # noqa: E402


def run_scale(scale: int, args: argparse.Namespace, floor: BareServer, fuzz: bool) -> ScaleResult:
    """Everything for one data set, on a fresh server that is always stopped afterwards."""
    with tempfile.TemporaryDirectory(prefix="atlas-bench-") as tmp:
        folder = Path(tmp)
        seed_dir = ROOT / "seed"
        if scale > 1:
            seed_dir = folder / "seed"
            write_synthetic(seed_dir, scale)
        server = Server(seed_dir, folder / "bench.db", folder / "server.log")
        try:
            server.launch()
            assert server.process is not None
            memory = MemorySampler(server.process.pid)
            memory.start()  # from launch on: seeding an empty database counts too
            try:
                server.wait_ready()
                result = measure(server, floor, folder, scale, args, memory, fuzz)
            finally:
                memory.stop()
            result.peak_rss_mb, result.peak_phase = memory.peak_mb, memory.peak_phase
            return result
        finally:
            server.stop()


def measure(
    server: Server,
    floor: BareServer,
    folder: Path,
    scale: int,
    args: argparse.Namespace,
    memory: MemorySampler,
    fuzz: bool,
) -> ScaleResult:
    """The phases in turn; the fuzzer (it writes) and the reseed last."""
    systems = len(phases.get_json(server, "/api/v1/systems"))
    phases.progress(f"x{scale}: {systems} systems, server on {server.base}")
    memory.phase = "the repeated views"
    views = phases.measure_views(server, floor.base, args.connections, args.duration, args.rounds)
    memory.phase = "the distinct URLs"
    phases.progress(f"x{scale}: distinct URLs")
    distinct = phases.measure_distinct(server, folder)
    memory.phase = "the hostile requests"
    phases.progress(f"x{scale}: hostile requests")
    hostile = phases.measure_hostile(server)
    fuzzed: dict[str, int] = {}
    if fuzz:
        memory.phase = "the schema fuzzer"
        phases.progress(f"x{scale}: schema fuzzer, anonymous and with an editor's token")
        fuzzed["anonymous"] = phases.measure_fuzzer(server, folder)
        token = server.editor_token()
        fuzzed["editor token"] = phases.measure_fuzzer(
            server, folder, {"Authorization": f"Bearer {token}"}
        )
    memory.phase = "the reseed"
    phases.progress(f"x{scale}: views during reseeds")
    reseed = phases.measure_reseed(server, folder, args.reseeds)
    server.check_alive()
    return ScaleResult(scale, systems, views, distinct, hostile, reseed, fuzzed=fuzzed)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--scale",
        type=int,
        action="append",
        help="1 = the real seed/ (repeatable; default 1 and 10)",
    )
    parser.add_argument("--duration", type=int, default=2, help="seconds per wrk run")
    parser.add_argument("--rounds", type=int, default=2, help="floor/view pairs per view")
    parser.add_argument(
        "--connections",
        type=int,
        action="append",
        help="for the repeated views (repeatable; default 16 and 64)",
    )
    parser.add_argument(
        "--reseeds",
        type=int,
        default=2,
        help="seeds during the reseed run (about 1 min each at x10)",
    )
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    parser.add_argument("--no-fuzz", action="store_true", help="skip the schema fuzzer")
    parser.add_argument("--markdown", type=Path, help="also write the report to this file")
    args = parser.parse_args()
    args.scale = args.scale or [1, 10]
    args.connections = args.connections or [16, 64]
    return args


def header(args: argparse.Namespace) -> str:
    return (
        f"Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {platform.node()}: {os.cpu_count()} "
        f"cores, Python {platform.python_version()}, one uvicorn worker, access log on; floor: "
        f"a bare FastAPI app in its own process; wrk -t{THREADS} "
        f"--timeout {TIMEOUT_S}s, {args.duration} s per run, {args.rounds} rounds, "
        f"connections {', '.join(map(str, args.connections))}"
    )


def targets(misses: list[str]) -> str:
    if not misses:
        return "Targets: all met."
    return "\n".join([f"Targets missed ({len(misses)}):", *(f"- {m}" for m in misses)])


def main() -> None:
    # SIGTERM (a timeout, a CI runner) unwinds like Ctrl-C, so the server is always stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    args = parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed: apt-get install wrk")
    sections = [header(args)]
    print(sections[0] + "\n", flush=True)
    misses: list[str] = []
    with BareServer() as floor:
        for number, scale in enumerate(args.scale):
            result = run_scale(scale, args, floor, fuzz=number == 0 and not args.no_fuzz)
            misses += missed_targets(result)
            sections.append(render(result))
            print(sections[-1] + "\n", flush=True)
    sections.append(targets(misses))
    print(sections[-1])
    if args.markdown:
        args.markdown.write_text("\n\n".join(sections) + "\n")
    if args.check and misses:
        sys.exit(1)


if __name__ == "__main__":
    main()
