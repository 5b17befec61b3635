"""Run the Dockerfile's steps without Docker (none runs here), then check the server answers.

Each FROM stage gets its own folder; paths in COPY/WORKDIR/ENV are mapped into it, RUN lines
run in a shell there, and the final CMD is started and probed over HTTP. The python stage's
interpreter is a fresh virtualenv, standing in for the python image.
"""

import json
import os
import shlex
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.migrations.migrate import head_revision  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]  # (host, port) for AF_INET; typeshed says Any
        return port


class DryRun:
    def __init__(self, base: Path) -> None:
        self.base = base
        self.stages: dict[str, Path] = {}
        self.root = base
        self.workdir = base
        self.env = dict(os.environ)
        self.cmd: list[str] = []
        self.healthcheck: list[str] = []

    def path(self, inside: str) -> Path:
        """Map an absolute image path into the current stage's folder."""
        return self.root / inside.lstrip("/") if inside.startswith("/") else self.workdir / inside

    def step(self, instruction: str, args: str) -> None:
        getattr(self, f"do_{instruction.lower()}", self.ignore)(args)

    def ignore(self, args: str) -> None:
        pass

    def do_from(self, args: str) -> None:
        words = args.split()
        name = words[2] if len(words) > 2 else f"stage{len(self.stages)}"
        self.root = self.base / name
        self.root.mkdir()
        self.stages[name] = self.root
        self.workdir = self.root
        self.env = dict(os.environ)
        if words[0].startswith("python"):
            venv = self.root / "venv"
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            self.env["PATH"] = f"{venv / 'bin'}:{self.env['PATH']}"

    def do_workdir(self, args: str) -> None:
        self.workdir = self.path(args)
        self.workdir.mkdir(parents=True, exist_ok=True)

    def do_env(self, args: str) -> None:
        for pair in shlex.split(args):
            key, value = pair.split("=", 1)
            if key == "DATABASE_URL":
                value = "sqlite:///" + str(self.path(value.removeprefix("sqlite:///")))
            self.env[key] = value

    def do_copy(self, args: str) -> None:
        words = args.split()
        source_root = ROOT
        if words[0].startswith("--from="):
            source_root = self.stages[words.pop(0).split("=", 1)[1]]
        *sources, dest = words
        for source in sources:
            origin = source_root / source.lstrip("/")
            target = self.path(dest)
            if dest.endswith("/") or len(sources) > 1:
                target = target / origin.name
            target.parent.mkdir(parents=True, exist_ok=True)
            if origin.is_dir():
                shutil.copytree(origin, target, dirs_exist_ok=True)
            else:
                shutil.copy2(origin, target)

    def do_run(self, args: str) -> None:
        if args.startswith("useradd") or "chown" in args:
            # Users and /data belong to the image; here only the data folder matters.
            (self.root / "data").mkdir(exist_ok=True)
            return
        subprocess.run(args, shell=True, check=True, cwd=self.workdir, env=self.env)

    def do_cmd(self, args: str) -> None:
        self.cmd = json.loads(args)

    def do_healthcheck(self, args: str) -> None:
        # HEALTHCHECK [--option=value ...] CMD ["exec", "form"]
        self.healthcheck = json.loads(args.split(" CMD ", 1)[1])

    def probe_health(self, port: int) -> int:
        """Run the HEALTHCHECK command as Docker would, aimed at this dry run's port."""
        env = {**self.env, "HEALTHCHECK_URL": f"http://127.0.0.1:{port}/healthz"}
        done = subprocess.run(self.healthcheck, cwd=self.workdir, env=env, check=False, timeout=30)
        return done.returncode


def main() -> None:
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    with tempfile.TemporaryDirectory() as tmp:
        run = DryRun(Path(tmp))
        for line in lines:
            if line.strip() and not line.lstrip().startswith("#"):
                instruction, _, args = line.strip().partition(" ")
                run.step(instruction, args)
        port = free_port()
        command = [*run.cmd[:-1], str(port)] if run.cmd[-2] == "--port" else run.cmd
        server = subprocess.Popen(command, cwd=run.workdir, env=run.env)
        try:
            check(port)
            database = run.root / "data" / "inference_atlas.db"
            assert database.exists(), "database not in /data"
            with sqlite3.connect(database) as db:
                [(revision,)] = db.execute("SELECT version_num FROM alembic_version")
            assert revision == head_revision(), f"migrated to {revision}, not the newest"
            assert run.healthcheck, "no HEALTHCHECK"
            assert run.probe_health(port) == 0, "HEALTHCHECK failed on a healthy server"
        finally:
            server.terminate()
            server.wait(timeout=20)
        assert run.probe_health(port) != 0, "HEALTHCHECK passed with the server stopped"
    print(
        "Dockerfile dry run: built, migrated and seeded on first start, served /systems/vllm; "
        "HEALTHCHECK passed while serving and failed once stopped."
    )


def check(port: int) -> None:
    deadline = time.monotonic() + 90
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/systems/vllm", timeout=5) as r:
                body = r.read().decode()
                assert r.status == 200 and "<h1>vLLM</h1>" in body
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


if __name__ == "__main__":
    main()
