"""Many readers at once against a real server process: no failures, no mixed data.

The load figures themselves belong to `make bench`; these tests only pin behaviour.
"""

import json
import os
import re
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from sqlalchemy import text

from app.db import make_engine
from app.settings import PROJECT_ROOT
from scripts.benchkit import fit_refusals
from tests.conftest import SEED_DIR
from tests.databases import new_database_url

pytestmark = pytest.mark.slow

CLI = str(Path(sys.executable).parent / "inference-atlas")
VIEWS = [
    "/",
    "/matrix?kind=engine",
    "/hardware",
    "/benchmarks",
    "/compare?s=vllm&s=sglang",
    "/decide?hardware=nvidia-datacenter&scale=production",
    "/systems/vllm",
    "/sources",
    "/api/v1/recommend?hardware=apple-silicon",
    "/api/v1/benchmarks",
]


def fetch(url: str, timeout: float = 20) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    """A server process on its own database, as `inference-atlas serve` runs it."""
    folder = tmp_path_factory.mktemp("live")
    url = new_database_url(folder, "live")
    env = {**os.environ, "DATABASE_URL": url, "SEED_DIR": str(SEED_DIR), "ACCESS_LOG": "false"}
    port = 8600 + os.getpid() % 300
    log = (folder / "serve.log").open("w")
    server = subprocess.Popen(
        [CLI, "serve", "--port", str(port)], env=env, stdout=log, stderr=subprocess.STDOUT
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                if fetch(f"{base}/healthz", timeout=1)[0] == 200:
                    break
            except OSError:
                threading.Event().wait(0.25)
        yield base, env
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()
        traceback = (folder / "serve.log").read_text()
        assert "Traceback" not in traceback, traceback[-3000:]


@pytest.mark.parametrize("view", VIEWS)
def test_32_concurrent_uncached_requests_all_succeed(
    live: tuple[str, dict[str, str]], view: str
) -> None:
    base, _ = live
    joiner = "&" if "?" in view else "?"
    # A distinct unknown parameter per request: every one misses the render cache.
    urls = [f"{base}{view}{joiner}n{i}=1" for i in range(32)]
    with ThreadPoolExecutor(32) as pool:
        results = list(pool.map(fetch, urls))
    assert [status for status, _ in results] == [200] * 32


@pytest.mark.database
def test_a_reseed_under_load_never_mixes_versions(live: tuple[str, dict[str, str]]) -> None:
    base, env = live
    slugs = ["vllm", "sglang", "llama-cpp", "ollama", "tgi", "lmdeploy"]
    stop = threading.Event()
    failures: list[str] = []

    def read_system(slug: str) -> None:
        while not stop.is_set():
            status, body = fetch(f"{base}/api/v1/systems/{slug}?fresh={threading.get_ident()}")
            data = json.loads(body)
            if status != 200 or data["slug"] != slug:
                failures.append(f"{slug}: {status} {str(data)[:200]}")
            elif any(b["system"] != slug for b in data["benchmarks"]):
                failures.append(f"{slug}: another system's figures")

    def read_overview() -> None:
        while not stop.is_set():
            status, body = fetch(f"{base}/?fresh={threading.get_ident()}")
            soup = BeautifulSoup(body, "html.parser")
            listed = len({a["href"] for a in soup.select("a[href^='/systems/']")})
            footer = re.search(r"(\d+) systems", soup.select_one("footer").get_text())
            if status != 200 or footer is None or int(footer.group(1)) != listed:
                failures.append(f"overview: {status}, footer {footer}, {listed} listed")

    readers = [threading.Thread(target=read_system, args=(s,)) for s in slugs]
    readers.append(threading.Thread(target=read_overview))
    for thread in readers:
        thread.start()
    try:
        for _ in range(2):
            seed = subprocess.run([CLI, "seed"], env=env, capture_output=True, text=True)
            assert seed.returncode == 0, seed.stderr
    finally:
        stop.set()
        for thread in readers:
            thread.join()
    assert failures == []


@pytest.mark.database
def test_processes_starting_at_once_on_an_empty_database(tmp_path: Path) -> None:
    script = (
        "from app.db import make_engine; from app.seeding.prepare import prepare_database; "
        "from app.settings import Settings; import sys; e = make_engine(sys.argv[1]); "
        "prepare_database(e, Settings().seed_dir)"
    )
    url = new_database_url(tmp_path, "race")
    starts = [
        subprocess.Popen(
            [sys.executable, "-c", script, url],
            cwd=PROJECT_ROOT,
            env={**os.environ, "SEED_DIR": str(SEED_DIR)},
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    errors = [p.communicate()[1] for p in starts]
    assert [p.returncode for p in starts] == [0] * 4, errors
    engine = make_engine(url)
    with engine.connect() as db:
        version = db.execute(text("SELECT value FROM meta WHERE key = 'data_version'")).scalar()
        systems = db.execute(text("SELECT count(*) FROM system")).scalar()
        loads = db.execute(text("SELECT count(*) FROM revision WHERE entity = 'dataset'")).scalar()
    engine.dispose()
    assert version is not None and version.startswith("1."), "seeded exactly once"
    assert loads == 1, "one first-load revision"
    assert systems == len(list((SEED_DIR / "systems").glob("*.yaml")))


def test_schema_fuzzer_finds_no_5xx_and_no_valid_request_refused(
    live: tuple[str, dict[str, str]], tmp_path: Path
) -> None:
    base, env = live
    (tmp_path / "schemathesis.toml").write_text(fit_refusals.CONFIG)
    checks = (
        "not_a_server_error,status_code_conformance,content_type_conformance,"
        "response_schema_conformance,positive_data_acceptance,"
        f"{fit_refusals.CHECK}"
    )
    run = subprocess.run(
        [
            str(Path(sys.executable).parent / "schemathesis"),
            "--config-file",
            str(tmp_path / "schemathesis.toml"),
            "run",
            f"{base}/openapi.json",
            "--checks",
            checks,
            "--mode",
            "positive",
            "--max-examples",
            "15",
            "--phases",
            "examples,coverage,fuzzing",
            "--no-color",
            "--report",
            "junit",
            "--report-junit-path",
            str(tmp_path / "junit.xml"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,  # it keeps a cache in cwd
        env={
            **env,
            "SCHEMATHESIS_HOOKS": fit_refusals.HOOKS,
            "PYTHONPATH": str(PROJECT_ROOT),
        },
    )
    assert run.returncode == 0, run.stdout[-4000:]
    # The console names an operation only when something about it is worth saying; the JUnit
    # report has one test case per operation that ran.
    report = (tmp_path / "junit.xml").read_text()
    assert "GET /api/v1/fit" in report, "the fit API is fuzzed too"
