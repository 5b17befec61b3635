"""The four parts of one scale's run: repeated views, distinct URLs, hostile requests, reseed."""

import http.client
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from scripts.benchkit import fit_refusals, wrk
from scripts.benchkit.report import HostileStats, SpecialRun, ViewStats
from scripts.benchkit.server import BIN, ROOT, Server
from scripts.benchkit.urls import FLOOR, RESEED_VIEWS, VIEWS, distinct_urls, hostile_requests

DISTINCT_CONNECTIONS = 16
RESEED_CONNECTIONS = 64
HOSTILE_WORKERS = 8
DISTINCT_CAP_S = 120  # a healthy server answers the whole list in seconds
SEED_LIMIT_S = 300  # one seed of the x10 data takes well under a minute when nothing blocks it


def progress(message: str) -> None:
    """One line on stderr per step, so a ten-minute run shows it is alive."""
    print(message, file=sys.stderr, flush=True)


def settle(server: Server) -> None:
    """Let the server finish what the last run left behind; say so if it could not."""
    if not server.settle():
        progress("  warning: the server was still busy 90 s after the run; measuring anyway")


def get(server: Server, path: str, timeout: float = 300) -> tuple[int, bytes]:
    """One GET without following redirects: (status, body)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
    try:
        connection.request("GET", path, headers={"Accept-Encoding": "identity"})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def get_json(server: Server, path: str) -> Any:
    status, body = get(server, path)
    if status != 200:
        raise RuntimeError(f"{path} answered {status}")
    return json.loads(body)


def measure_views(
    server: Server, floor_base: str, connections: list[int], seconds: int, rounds: int
) -> list[ViewStats]:
    """Every view at every connection count, each run paired with a run of the bare FastAPI
    app (`floor_base`, a process of its own) just before it.

    This machine's speed drifts from second to second, so one long run per view would
    compare a view measured in a slow moment with a floor measured in a fast one.
    """
    for path in VIEWS:  # the first render fills caches and may take a while at scale
        status, _ = get(server, path)
        if status != 200:
            progress(f"  warning: {path} answered {status} before the run")
    stats = {(path, c): ViewStats(path, c) for c in connections for path in VIEWS}
    for round_number in range(1, rounds + 1):
        for (path, c), view in stats.items():
            offset = server.log_size()
            floor = wrk.run(floor_base + FLOOR, c, seconds)
            result = wrk.run(server.base + path, c, seconds)
            settle(server)
            view.pairs.append((floor, result))
            view.exceptions += server.exceptions_since(offset)
            progress(
                f"  round {round_number}/{rounds} c{c} {path}: "
                f"{result.rps / floor.rps if floor.rps else 0:.2f}× floor"
            )
    return list(stats.values())


def measure_distinct(server: Server, folder: Path) -> SpecialRun:
    """Several hundred URLs no cache has seen, each requested once."""
    urls = distinct_urls(lambda path: get_json(server, path))
    paths = folder / "distinct.txt"
    paths.write_text("\n".join(urls) + "\n")
    offset = server.log_size()
    result = wrk.run_paths(server.base, paths, DISTINCT_CONNECTIONS, DISTINCT_CAP_S)
    settle(server)
    label = f"{len(urls)} distinct URLs, once each"
    return SpecialRun(
        label, DISTINCT_CONNECTIONS, result, server.exceptions_since(offset), len(urls)
    )


def measure_hostile(server: Server) -> HostileStats:
    """Oversized, repeated, unknown and odd parameters: the status code each one gets."""
    requests = list(hostile_requests())
    offset = server.log_size()
    with ThreadPoolExecutor(HOSTILE_WORKERS) as pool:
        answers = list(pool.map(lambda kind_path: _status(server, kind_path[1]), requests))
    statuses: dict[str, Counter[str]] = {}
    for (kind, _), status in zip(requests, answers, strict=True):
        statuses.setdefault(kind, Counter())[status] += 1
    settle(server)
    return HostileStats(statuses, server.exceptions_since(offset))


def _status(server: Server, path: str) -> str:
    try:
        return str(get(server, path, timeout=30)[0])
    except (OSError, http.client.HTTPException):
        return "no answer"


def measure_reseed(server: Server, folder: Path, reseeds: int) -> SpecialRun:
    """A few views at 64 connections while `inference-atlas seed` reloads the same database."""
    paths = folder / "reseed.txt"
    paths.write_text("\n".join(RESEED_VIEWS) + "\n")
    failures: list[str] = []

    def reseed() -> None:
        time.sleep(1)  # let wrk's connections open first
        for _ in range(reseeds):
            failures.extend(_seed(server))
        time.sleep(1.5)  # the server notices a new data version within a second

    offset = server.log_size()
    result = wrk.run_during(server.base, paths, RESEED_CONNECTIONS, reseed, cap_seconds=900)
    settle(server)
    views = ", ".join(urlsplit(p).path for p in RESEED_VIEWS)
    label = f"{views} during {reseeds} reseed{'s' if reseeds != 1 else ''}"
    return SpecialRun(
        label, RESEED_CONNECTIONS, result, server.exceptions_since(offset), failures=failures
    )


def _seed(server: Server) -> list[str]:
    """Run `inference-atlas seed` against the server's database; a failure as one line."""
    command = [str(BIN / "inference-atlas"), "seed"]
    try:
        done = subprocess.run(
            command,
            env=server.env,
            capture_output=True,
            text=True,
            check=False,
            timeout=SEED_LIMIT_S,
        )
    except subprocess.TimeoutExpired:
        return [f"seed still running after {SEED_LIMIT_S} s (stopped)"]
    if done.returncode == 0:
        return []
    last = (done.stderr.strip().splitlines() or ["no output"])[-1]
    return [f"seed exited {done.returncode}: {last[:120]}"]


FUZZ_EXAMPLES = 5

SEMANTIC_CHECKS = "positive_data_acceptance"
FUZZ_LIMIT_S = 600
FAILURES = re.compile(r"(\d+) (?:unique )?failures?\b")


def measure_fuzzer(server: Server, folder: Path, headers: dict[str, str] | None = None) -> int:
    """Run the schema fuzzer (schemathesis, every check) against the server's /openapi.json;
    the number of failures it reports (-1: it could not run)."""
    # The fit API's three refusals no schema can state pass through the hook's own check.
    (folder / "schemathesis.toml").write_text(fit_refusals.CONFIG)
    command = [
        str(BIN / "schemathesis"),
        "--config-file",
        str(folder / "schemathesis.toml"),
        "run",
        f"{server.base}/openapi.json",
        "--checks",
        "all",
        "--max-examples",
        str(FUZZ_EXAMPLES),
        "--phases",
        "examples,coverage,fuzzing",
        "--no-color",
    ]
    for name, value in (headers or {}).items():
        command += ["-H", f"{name}: {value}"]
    if headers:
        # Signed in, the writes get past the role check to rules no schema can state (a slug
        # that must exist, a common password, a file that must parse): their 422s are right.
        command += ["--exclude-checks", SEMANTIC_CHECKS]
    try:
        run = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=FUZZ_LIMIT_S,
            cwd=folder,
            check=False,
            env={**os.environ, "SCHEMATHESIS_HOOKS": fit_refusals.HOOKS, "PYTHONPATH": str(ROOT)},
        )
    except (OSError, subprocess.TimeoutExpired):
        return -1
    if run.returncode == 0:
        return 0
    # What failed, on stderr with the progress lines: the run's folder is gone at the end, and
    # a failure that the next run does not repeat (the examples are drawn at random) must
    # still be possible to read.
    label = "with a token" if headers else "anonymously"
    progress(f"schema fuzzer {label} failed; its report:\n{_failures_part(run.stdout)}")
    found = FAILURES.findall(run.stdout.splitlines()[-1] if run.stdout else "")
    return int(found[0]) if found else -1


def _failures_part(report: str) -> str:
    """Schemathesis's report from its failures section on (the whole report if none)."""
    start = report.find("FAILURES")
    return report[start:] if start >= 0 else report[-6000:]
