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
    ("floor: /healthz", "/healthz", GZIP),
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


def run_scale(scale: int, duration: int, connections: int) -> list[tuple[str, float, str]]:
    with tempfile.TemporaryDirectory() as tmp:
        seed_dir = ROOT / "seed"
        if scale > 1:
            seed_dir = Path(tmp) / "seed"
            write_synthetic(seed_dir, scale)
        port = free_port()
        server = serve(seed_dir, Path(tmp) / "bench.db", port)
        try:
            results = []
            for name, path, headers in VARIANTS:
                url = f"http://127.0.0.1:{port}{path}"
                headers = tuple(h.replace("ETAG", etag_of(url)) for h in headers)
                # Warm up: the first render fills the caches and may take a while at scale.
                warm = dict(h.split(": ", 1) for h in headers if not h.startswith("If-None"))
                urllib.request.urlopen(
                    urllib.request.Request(url, headers=warm), timeout=300
                ).close()
                rps, p99 = wrk(url, headers, duration, connections)
                results.append((name, rps, p99))
            # The floor again at the end: its average absorbs drift in the machine's load.
            again, _ = wrk(f"http://127.0.0.1:{port}/healthz", GZIP, duration, connections)
            name, first, p99 = results[0]
            results[0] = (f"{name} (mean of first and last run)", (first + again) / 2, p99)
            return results
        finally:
            server.terminate()
            server.wait(timeout=20)


def report(scale: int, results: list[tuple[str, float, str]]) -> str:
    floor = results[0][1]
    lines = [
        f"### Data set x{scale}",
        "",
        "| variant | requests/s | p99 | ratio to floor |",
        "|---|---:|---:|---:|",
    ]
    for name, rps, p99 in results:
        lines.append(f"| {name} | {rps:,.0f} | {p99} | {rps / floor:.2f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=int, action="append")
    parser.add_argument("--duration", type=int, default=5)
    parser.add_argument("--connections", type=int, default=16)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed: apt-get install wrk")
    print(f"Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {platform.node()}: "
          f"{os.cpu_count()} cores, Python {platform.python_version()}, one uvicorn worker, "
          f"wrk -t2 -c{args.connections} -d{args.duration}s\n")  # fmt: skip
    for scale in args.scale or [1, 10]:
        print(report(scale, run_scale(scale, args.duration, args.connections)), "\n", flush=True)


if __name__ == "__main__":
    main()
