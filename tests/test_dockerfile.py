"""The Dockerfile's steps run (without Docker) and the result serves a seeded dashboard."""

import subprocess
import sys

import pytest

from app.settings import PROJECT_ROOT


@pytest.mark.slow
def test_dockerfile_steps_build_seed_and_serve() -> None:
    script = PROJECT_ROOT / "scripts" / "dockerfile_dry_run.py"
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=600, check=False
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    assert "served /systems/vllm" in result.stdout
    assert "HEALTHCHECK passed while serving and failed once stopped" in result.stdout


def test_dockerfile_runs_as_a_non_root_user_and_listens_on_all_interfaces() -> None:
    lines = (PROJECT_ROOT / "Dockerfile").read_text().splitlines()
    instructions = [line.split(" ", 1) for line in lines if line and not line.startswith("#")]
    users = [args for name, args in instructions if name == "USER"]
    assert users and users[-1] != "root"
    cmd = next(args for name, args in reversed(instructions) if name == "CMD")
    assert '"--host", "0.0.0.0", "--port", "8000"' in cmd


def test_dockerfile_checks_health_with_python_alone() -> None:
    lines = (PROJECT_ROOT / "Dockerfile").read_text().splitlines()
    [check] = [line for line in lines if line.startswith("HEALTHCHECK ")]
    options, command = check.split(" CMD ", 1)
    assert command == '["python", "-m", "app.ops.healthcheck"]'  # exec form: no shell, no curl
    assert "--start-period=" in options  # the first start migrates and seeds
