"""docker-compose.yml and deploy/Caddyfile wired for a team (no Docker runs here, so read)."""

import ipaddress
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from app.routes.api.imports import ENVELOPE_BYTES, MAX_UPLOAD_BYTES
from app.settings import PROJECT_ROOT
from app.web.http_basics import DEFAULT_MAX_BODY_BYTES

COMPOSE = PROJECT_ROOT / "docker-compose.yml"
CADDYFILE = PROJECT_ROOT / "deploy" / "Caddyfile"
REPLICAS = ("app1", "app2")


@pytest.fixture(scope="module")
def compose() -> dict:
    return YAML(typ="safe").load(COMPOSE.read_text())  # resolves the x-app anchor and `<<`


@pytest.fixture(scope="module")
def services(compose: dict) -> dict:
    return compose["services"]


def env_file_values(path: Path) -> dict[str, str]:
    lines = [line for line in path.read_text().splitlines() if line and not line.startswith("#")]
    return dict(line.split("=", 1) for line in lines)


def test_one_database_two_replicas_one_proxy(services: dict) -> None:
    assert set(services) == {"db", *REPLICAS, "proxy"}
    app1, app2 = (services[name] for name in REPLICAS)
    assert app1 == app2  # the same image, settings and secret file: replicas of one app
    assert app1["image"] and app1["build"] == "."
    # The image's CMD is `serve`, which migrates first (under a lock) before serving.
    assert "command" not in app1 or "serve" in app1["command"]


def test_the_proxy_is_the_only_published_port(services: dict) -> None:
    published = {name: s["ports"] for name, s in services.items() if "ports" in s}
    assert list(published) == ["proxy"]
    [mapping] = published["proxy"]
    assert mapping.endswith(":443")


def test_both_replicas_share_one_secret_from_one_file(services: dict) -> None:
    files = [services[name]["env_file"] for name in REPLICAS]
    assert files[0] == files[1] == ["deploy/atlas.env"]
    for name in REPLICAS:
        environment = services[name]["environment"]
        assert "ATLAS_SECRET_KEY" not in environment and "DATABASE_URL" not in environment
        assert environment["ATLAS_ENV"] == "production"
    example = env_file_values(PROJECT_ROOT / "deploy" / "atlas.env.example")
    assert {"ATLAS_SECRET_KEY", "DATABASE_URL", "ATLAS_METRICS_TOKEN"} <= set(example)
    assert re.fullmatch(r"postgresql\+psycopg://atlas:[^@]+@db:5432/atlas", example["DATABASE_URL"])
    assert "POSTGRES_PASSWORD" in env_file_values(PROJECT_ROOT / "deploy" / "postgres.env.example")


def test_the_filled_in_env_files_stay_out_of_git_and_the_image() -> None:
    for ignore in (".gitignore", ".dockerignore"):
        assert "deploy/*.env" in (PROJECT_ROOT / ignore).read_text().splitlines(), ignore


def test_replicas_wait_for_a_healthy_database_on_a_named_volume(
    compose: dict, services: dict
) -> None:
    for name in REPLICAS:
        assert services[name]["depends_on"]["db"] == {"condition": "service_healthy"}
    db = services["db"]
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    volume, _, target = db["volumes"][0].partition(":")
    assert volume in compose["volumes"]  # named, so it outlives the container
    major = int(db["image"].split(":")[1])
    # PostgreSQL 18+ images keep data under /var/lib/postgresql/<major>/docker.
    assert target == ("/var/lib/postgresql" if major >= 18 else "/var/lib/postgresql/data")


def test_only_the_proxy_is_believed_about_forwarded_headers(compose: dict, services: dict) -> None:
    proxy_address = services["proxy"]["networks"]["front"]["ipv4_address"]
    subnet = compose["networks"]["front"]["ipam"]["config"][0]["subnet"]
    assert ipaddress.ip_address(proxy_address) in ipaddress.ip_network(subnet)
    for name in REPLICAS:
        assert services[name]["environment"]["FORWARDED_ALLOW_IPS"] == proxy_address
        assert services[name]["environment"]["TRUSTED_HOSTS"].startswith("${ATLAS_HOSTNAME")
    # The database is reachable from the replicas only.
    assert services["db"]["networks"] == ["back"] and compose["networks"]["back"]["internal"]


def test_the_proxy_config_balances_both_replicas() -> None:
    caddyfile = CADDYFILE.read_text()
    [upstreams] = re.findall(r"^\s*reverse_proxy (.+?) \{$", caddyfile, re.MULTILINE)
    # The replicas by service name, on the port the image serves (CMD --port 8000).
    assert sorted(upstreams.split()) == ["app1:8000", "app2:8000"]
    assert re.search(r"^\s*health_uri /healthz$", caddyfile, re.MULTILINE)
    assert re.search(r"^\{\$ATLAS_HOSTNAME\} \{$", caddyfile, re.MULTILINE)
    # /metrics never leaves the internal network through the proxy.
    assert re.search(r"handle /metrics\* \{\s*respond 404\s*\}", caddyfile)
    assert caddyfile.count("{") == caddyfile.count("}")


def test_the_proxy_gets_its_config_and_the_site_name(services: dict) -> None:
    proxy = services["proxy"]
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    assert "ATLAS_HOSTNAME" in proxy["environment"]
    for name in REPLICAS:
        assert proxy["depends_on"][name] == {"condition": "service_healthy"}


# Skipped only outside CI: `make test` installs Debian's caddy (scripts/system-deps.sh).
@pytest.mark.skipif(
    shutil.which("caddy") is None and os.environ.get("CI", "").lower() not in ("1", "true"),
    reason="needs Debian's caddy to parse the file",
)
def test_caddy_reads_the_config() -> None:
    assert shutil.which("caddy"), "CI runs this with Debian's caddy: see scripts/system-deps.sh"
    adapted = subprocess.run(
        ["caddy", "adapt", "--adapter", "caddyfile", "--config", str(CADDYFILE)],
        env={**os.environ, "ATLAS_HOSTNAME": "atlas.example.com"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert adapted.returncode == 0, adapted.stderr
    config = json.loads(adapted.stdout)
    [server] = config["apps"]["http"]["servers"].values()
    assert server["listen"] == [":443"]
    dials = re.findall(r'"dial":\s*"([^"]+)"', adapted.stdout)
    assert sorted(dials) == ["app1:8000", "app2:8000"]
    # The app's limits, held by the proxy too: slow headers and bodies cut off, bodies bounded.
    assert server["read_header_timeout"] == 10 * 10**9
    assert server["read_timeout"] > 0
    limits = re.findall(r'"handler":\s*"request_body",\s*"max_size":\s*(\d+)', adapted.stdout)
    assert sorted(int(n) for n in limits) == [DEFAULT_MAX_BODY_BYTES, 51 * 1024 * 1024]
    assert MAX_UPLOAD_BYTES + ENVELOPE_BYTES <= 51 * 1024 * 1024
