"""Load-test the matrix pages with wrk and report each as a ratio to a trivial route's floor.

    python scripts/bench.py [--scale 1 --scale 10] [--duration 5] [--connections 16]

Everything is measured in one run on one machine, against /healthz (no database, no
template) served by the same process, so the ratios hold across machines even if the
absolute numbers do not.
"""

import argparse
import os
import platform
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.synthetic_seed import write_synthetic  # noqa: E402

# Browsers always send Accept-Encoding; wrk sends nothing unless told.
GZIP = ("Accept-Encoding: gzip, deflate, br",)
HTMX = (*GZIP, "HX-Request: true", "HX-Target: matrix_results")
FILTERED = "need=prefix-caching:yes&hw=nvidia-cuda&sort=coverage"
VARIANTS: list[tuple[str, str, tuple[str, ...]]] = [
    ("floor: /healthz", "/healthz", GZIP),  # first: every round starts with it
    ("/matrix full page", "/matrix", GZIP),
    ("/matrix HTMX partial", "/matrix", HTMX),
    ("/matrix filtered, full page", f"/matrix?{FILTERED}", GZIP),
    ("/matrix filtered, HTMX partial", f"/matrix?{FILTERED}", HTMX),
    ("/hardware full page", "/hardware", GZIP),
    ("/matrix repeat visit (304)", "/matrix", (*GZIP, "If-None-Match: ETAG")),
    ("/hardware filtered, HTMX partial", "/hardware?hw=amd-rocm&diff=1", HTMX),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wrk(url: str, headers: tuple[str, ...], duration: int, connections: int) -> tuple[float, str]:
    """(requests per second, p99 latency as wrk prints it)."""
    command = ["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--latency", url]
    for header in headers:
        command[1:1] = ["-H", header]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))  # type: ignore[union-attr]
    p99 = re.search(r"^\s+99%\s+(\S+)", output, re.MULTILINE).group(1)  # type: ignore[union-attr]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)|Socket errors: (.*)", output)
    if errors:
        raise RuntimeError(f"{url}: {errors.group(0)}")
    return rps, p99


def etag_of(url: str) -> str:
    with urllib.request.urlopen(url, timeout=300) as response:
        return response.headers.get("ETag", "")


def serve(seed_dir: Path, db: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "SEED_DIR": str(seed_dir),
           "ACCESS_LOG": "false"}  # fmt: skip
    command = [str(Path(sys.executable).parent / "inference-atlas"), "serve", "--port", str(port)]
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).close()
            return server
        except OSError:
            if time.monotonic() > deadline:
                server.kill()
                raise
            time.sleep(0.3)


Row = tuple[str, float, str, float]  # name, median req/s, p99 of the median run, median ratio


def run_scale(scale: int, duration: int, connections: int, rounds: int) -> list[Row]:
    with tempfile.TemporaryDirectory() as tmp:
        seed_dir = ROOT / "seed"
        if scale > 1:
            seed_dir = Path(tmp) / "seed"
            write_synthetic(seed_dir, scale)
        port = free_port()
        server = serve(seed_dir, Path(tmp) / "bench.db", port)
        try:
            return measure(port, duration, connections, rounds)
        finally:
            server.terminate()
            server.wait(timeout=20)


def measure(port: int, duration: int, connections: int, rounds: int) -> list[Row]:
    """Every variant run is paired with a floor run just before it; the median ratio wins.

    This machine's speed drifts from second to second, so one long run per variant would
    compare a variant measured in a slow moment with a floor measured in a fast one.
    """
    variants = []
    for name, path, headers in VARIANTS:
        url = f"http://127.0.0.1:{port}{path}"
        headers = tuple(h.replace("ETAG", etag_of(url)) for h in headers)
        # Warm up: the first render fills the caches and may take a while at scale.
        warm = dict(h.split(": ", 1) for h in headers if not h.startswith("If-None"))
        urllib.request.urlopen(urllib.request.Request(url, headers=warm), timeout=300).close()
        variants.append((name, url, headers))
    runs: dict[str, list[tuple[float, str, float]]] = {name: [] for name, _, _ in variants}
    floor_name, floor_url, floor_headers = variants[0]
    for _ in range(rounds):
        for name, url, headers in variants:
            floor, floor_p99 = wrk(floor_url, floor_headers, duration, connections)
            if name == floor_name:
                runs[name].append((floor, floor_p99, 1.0))
                continue
            # Paired with the floor run just before it, so drift cancels out.
            rps, p99 = wrk(url, headers, duration, connections)
            runs[name].append((rps, p99, rps / floor))
    rows = []
    for name, results in runs.items():
        results.sort(key=lambda r: r[2])
        rps, p99, ratio = results[len(results) // 2]
        rows.append((name, rps, p99, ratio))
    return rows


def report(scale: int, rows: list[Row]) -> str:
    lines = [
        f"### Data set x{scale}",
        "",
        "| variant | requests/s | p99 | ratio to floor (median of rounds) |",
        "|---|---:|---:|---:|",
    ]
    for name, rps, p99, ratio in rows:
        lines.append(f"| {name} | {rps:,.0f} | {p99} | {ratio:.2f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=int, action="append")
    parser.add_argument("--duration", type=int, default=5)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed: apt-get install wrk")
    print(f"Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {platform.node()}: "
          f"{os.cpu_count()} cores, Python {platform.python_version()}, one uvicorn worker, "
          f"wrk -t2 -c{args.connections} -d{args.duration}s, {args.rounds} rounds\n")  # fmt: skip
    for scale in args.scale or [1, 10]:
        rows = run_scale(scale, args.duration, args.connections, args.rounds)
        print(report(scale, rows), "\n", flush=True)


if __name__ == "__main__":
    main()
