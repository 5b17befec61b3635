"""The server under test: one uvicorn worker on a throwaway database, its log and its memory."""

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import IO

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parents[2]
SETTLE_PROBE = "/api/v1/sources"  # small, uncached, and it needs a database connection
CHAIN_MARKS = ("During handling of the above exception", "The above exception was the direct cause")


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]  # (host, port) for AF_INET; typeshed says Any
        return port


class Server:
    """`inference-atlas serve` on its own database, with stdout and stderr in a log file."""

    def __init__(self, seed_dir: Path, db: Path, log: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        # The access log on, as in production (its lines go to the log file); PYTHONPATH so
        # that the checkout this script lives in is measured, whatever the venv points to.
        self.env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{db}",
            "SEED_DIR": str(seed_dir),
            "ACCESS_LOG": "true",
            "PYTHONPATH": str(ROOT),
        }
        self._log_file: IO[bytes] | None = None
        self.process: subprocess.Popen[bytes] | None = None

    def launch(self) -> None:
        """Start the server; wait_ready() waits for it to answer."""
        self._log_file = self.log.open("wb")
        command = [
            sys.executable,
            "-c",
            "from app.cli import main; main()",
            "serve",
            "--port",
            str(self.port),
        ]
        self.process = subprocess.Popen(
            command, env=self.env, stdout=self._log_file, stderr=subprocess.STDOUT
        )

    def wait_ready(self, limit_s: float = 300) -> None:
        """Wait for /healthz (an empty database is seeded first, which is slow at scale)."""
        deadline = time.monotonic() + limit_s
        while True:
            self.check_alive()
            try:
                urllib.request.urlopen(f"{self.base}/healthz", timeout=2).close()
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.3)

    def stop(self) -> None:
        """Ask the server to stop (SIGTERM: uvicorn shuts down cleanly); kill it if it hangs."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self._log_file is not None:
            self._log_file.close()

    def check_alive(self) -> None:
        """Raise, with the end of the log, if the server has exited."""
        assert self.process is not None
        if self.process.poll() is not None:
            tail = self.log.read_text(errors="replace")[-3000:]
            raise RuntimeError(f"the server exited with code {self.process.returncode}:\n{tail}")

    def editor_token(self) -> str:
        """An editor account and an API token for it, made with the command line."""
        cli = [sys.executable, "-c", "from app.cli import main; main()"]
        subprocess.run(
            [*cli, "user", "add", "bench-editor", "--role", "editor", "--password-stdin"],
            input=b"a bench editor's password\n",
            env=self.env,
            check=True,
            capture_output=True,
        )
        made = subprocess.run(
            [*cli, "token", "add", "--user", "bench-editor"],
            env=self.env,
            check=True,
            capture_output=True,
            text=True,
        )
        return made.stdout.strip().splitlines()[-1]

    def log_size(self) -> int:
        """Where the log ends now; exceptions_since() reads from here."""
        return self.log.stat().st_size

    def exceptions_since(self, offset: int) -> list[str]:
        """The exceptions the server logged after `offset`."""
        with self.log.open("rb") as log:
            log.seek(offset)
            return exceptions_in(log.read().decode(errors="replace"))

    def settle(self, limit_s: float = 90) -> bool:
        """Wait until the server is idle again; False if it is still busy after `limit_s`.

        When wrk stops, requests it gave up on may still be queued or rendering; they would
        slow the next run (often the floor) and their exceptions would be counted against it.
        An idle CPU is not enough: a server whose threads wait for database connections is
        idle and jammed, so first a request that needs the database must get through.
        """
        deadline = time.monotonic() + limit_s
        try:
            probe = f"{self.base}{SETTLE_PROBE}"
            urllib.request.urlopen(probe, timeout=limit_s).close()
        except OSError:
            pass  # an error answer also means the queue ahead of it has drained
        self.check_alive()
        used = self._cpu_seconds()
        while time.monotonic() < deadline:
            time.sleep(0.2)
            now = self._cpu_seconds()
            if now - used <= 0.01:  # under 5% of one core for 200 ms: idle
                return True
            used = now
        return False

    def _cpu_seconds(self) -> float:
        assert self.process is not None
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])  # utime + stime, after the command's name
        return ticks / os.sysconf("SC_CLK_TCK")


def exceptions_in(log: str) -> list[str]:
    """The last line of every traceback in `log`; a chained traceback counts once."""
    found: list[str] = []
    in_traceback = chained = False
    for line in log.splitlines():
        if line.startswith("Traceback (most recent call last)"):
            if chained and found:
                found.pop()  # the chain's final exception stands for the whole chain
            in_traceback, chained = True, False
        elif in_traceback and line and not line[0].isspace():
            found.append(line.strip())
            in_traceback = False
        elif line.startswith(CHAIN_MARKS):
            chained = True
    return found


class MemorySampler(threading.Thread):
    """Samples a process's resident memory (VmRSS) every half second; keeps the peak."""

    def __init__(self, pid: int, interval_s: float = 0.5) -> None:
        super().__init__(daemon=True)
        self.pid, self.interval_s = pid, interval_s
        self.phase = "start"
        self.peak_kb, self.peak_phase = 0, ""
        self._stop_event = threading.Event()

    def run(self) -> None:
        while not self._stop_event.wait(self.interval_s):
            self.sample()

    def sample(self) -> None:
        """Read VmRSS once; a process that has gone is simply not sampled."""
        try:
            status = Path(f"/proc/{self.pid}/status").read_text()
        except OSError:
            return
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                kb = int(line.split()[1])
                if kb > self.peak_kb:
                    self.peak_kb, self.peak_phase = kb, self.phase

    def stop(self) -> None:
        self._stop_event.set()
        self.join()
        self.sample()

    @property
    def peak_mb(self) -> float:
        return self.peak_kb / 1024


class BareServer:
    """The floor: scripts/benchkit/bare.py under uvicorn (one worker, its defaults, no access
    log: the bare app has none), in a process of its own."""

    def __init__(self) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> "BareServer":
        command = [
            sys.executable,
            "-m",
            "uvicorn",
            "scripts.benchkit.bare:app",
            "--port",
            str(self.port),
            "--no-access-log",
            "--log-level",
            "warning",
        ]
        self.process = subprocess.Popen(
            command, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{self.base}/", timeout=2).close()
                return self
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise
                time.sleep(0.2)

    def __exit__(self, *_: object) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
