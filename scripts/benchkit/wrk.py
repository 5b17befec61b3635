"""Run wrk with atlas.lua and read the one machine-readable line it prints at the end."""

import json
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

LUA = Path(__file__).with_name("atlas.lua")
THREADS = 2  # the machine has two cores; more wrk threads would only fight the server
# A request slower than this counts as a socket error (timeout) and is left out of the
# percentiles. wrk's default is 2 s; 10 s lets a slow page show its real p99 instead.
TIMEOUT_S = 10
# Browsers always send Accept-Encoding; wrk sends nothing unless told.
HEADERS = ("Accept-Encoding: gzip, deflate, br",)
DONE_MARK = "ATLAS-THREAD-DONE"


@dataclass(frozen=True)
class WrkResult:
    """One wrk run: throughput, latency percentiles, errors and every status code seen."""

    requests: int
    seconds: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    connect: int = 0
    read: int = 0
    write: int = 0
    timeout: int = 0
    statuses: dict[int, int] = field(default_factory=dict)

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    @property
    def socket_errors(self) -> int:
        return self.connect + self.read + self.write + self.timeout

    @property
    def non_2xx(self) -> int:
        """Every answer outside 200-299 (wrk itself only counts those above 399)."""
        return sum(n for status, n in self.statuses.items() if not 200 <= status < 300)

    @property
    def p99_censored(self) -> bool:
        """Whether over 1% timed out, so the true p99 is beyond the timeout, not p99_ms."""
        return self.timeout * 100 > self.requests + self.timeout


def parse_summary(line: str) -> WrkResult:
    """Read atlas.lua's `ATLAS {...}` line."""
    data = json.loads(line.removeprefix("ATLAS "))
    return WrkResult(
        requests=data["requests"],
        seconds=data["duration_us"] / 1e6,
        p50_ms=data["p50_us"] / 1000,
        p99_ms=data["p99_us"] / 1000,
        max_ms=data["max_us"] / 1000,
        connect=data["connect"],
        read=data["read"],
        write=data["write"],
        timeout=data["timeout"],
        statuses={int(status): n for status, n in data["statuses"].items()},
    )


def command(
    url: str, connections: int, seconds: int, script_args: tuple[str, ...] = ()
) -> list[str]:
    """The wrk command line; script_args go to atlas.lua (a paths file and a mode)."""
    threads = min(THREADS, connections)
    args = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", f"--timeout={TIMEOUT_S}s"]
    for header in HEADERS:
        args += ["-H", header]
    args += ["-s", str(LUA), url]
    return [*args, "--", *script_args, str(threads)] if script_args else args


def run(url: str, connections: int, seconds: int) -> WrkResult:
    """Hammer one URL for `seconds`."""
    return _collect(command(url, connections, seconds))


def run_paths(base: str, paths_file: Path, connections: int, cap_seconds: int) -> WrkResult:
    """Request every path in `paths_file` exactly once; `cap_seconds` bounds a stuck run."""
    args = command(base, connections, cap_seconds, (str(paths_file), "once"))
    return _collect(args, threads_to_finish=min(THREADS, connections))


def run_during(
    base: str, paths_file: Path, connections: int, work: Callable[[], None], cap_seconds: int
) -> WrkResult:
    """Cycle through the paths in `paths_file` for as long as `work()` takes."""
    args = command(base, connections, cap_seconds, (str(paths_file), "cycle"))
    return _collect(args, work=work)


def _collect(
    args: list[str], threads_to_finish: int = 0, work: Callable[[], None] | None = None
) -> WrkResult:
    """Run wrk; end it early once its threads have finished or work() has returned."""
    with subprocess.Popen(args, stdout=subprocess.PIPE, text=True) as process:
        assert process.stdout is not None
        lines: list[str] = []
        finished = threading.Event()
        reader = threading.Thread(
            target=_read, args=(process.stdout, lines, threads_to_finish, finished), daemon=True
        )
        reader.start()
        try:
            if work is not None:
                work()
                finished.set()
            if threads_to_finish or work is not None:
                _interrupt_when(finished, process)
            reader.join()
        except BaseException:
            process.kill()  # Ctrl-C, SIGTERM or a failed work(): nothing left to report
            raise
    summary = next((line for line in lines if line.startswith("ATLAS {")), None)
    if process.returncode != 0 or summary is None:
        raise RuntimeError(f"wrk failed ({process.returncode}): {' '.join(args)}\n{''.join(lines)}")
    return parse_summary(summary)


def _read(stream: IO[str], lines: list[str], threads: int, finished: threading.Event) -> None:
    """Keep wrk's output; note when every thread has printed that it is done."""
    done = 0
    for line in stream:
        lines.append(line)
        done += line.startswith(DONE_MARK)
        if threads and done == threads:
            finished.set()


def _interrupt_when(finished: threading.Event, process: subprocess.Popen[str]) -> None:
    """SIGINT ends wrk's sleep early, and wrk still prints its summary.

    wrk ignores SIGINT until its threads have started, so keep asking until it exits.
    """
    while process.poll() is None:
        if finished.wait(timeout=0.2):
            process.send_signal(signal.SIGINT)
            time.sleep(0.3)
