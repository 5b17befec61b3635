"""A team instance with every kind of row a backup holds, its backup, and one restore of it.

The instance is seeded from a copy of seed/ with one more system, capability and metric, and
a published claim and figure on that system. Users (one disabled), API tokens (one revoked),
team claims, results and notes are made, edited (versions 2 and 3) and deleted through
app/team, the way the API makes them; then the instance is reseeded from seed/ itself, so the
extra rows are withdrawn but kept (team rows and notes point at them) and the reseed writes
revisions of its own; one more edit follows.
Built once per session: seeding and password hashing take seconds.
"""

import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from app.accounts import users as accounts
from app.accounts.models import Role
from app.accounts.users import SignedIn
from app.backup.dump import export_backup
from app.backup.restore import restore_backup
from app.db import make_engine
from app.seeding.prepare import prepare_database, seed
from app.writes import claims, entries, imports, notes, prices, team
from app.writes.config_json import ConfigJson
from app.writes.imports import ImportContext
from app.writes.inputs import TeamClaimIn, TeamNoteIn, TeamResultIn
from app.writes.transaction import write_transaction
from tests.accounts.conftest import PASSWORD
from tests.conftest import SEED_DIR
from tests.databases import new_database_url

TEAM = "Our lab"


@dataclass
class Instance:
    url: str
    backup: Path  # what `export` wrote
    tokens: dict[str, str]  # the raw API token of each user who has a working one
    results: list[str] = field(default_factory=list)  # ids of the team results made


IMPORT_FILE = Path(__file__).parents[1] / "imports/fixtures/vllm-bench/sweep-append-result.json"


def extended_seed(folder: Path) -> Path:
    """seed/ plus a system, a capability and a metric that the real seed does not have."""
    target = folder / "extended-seed"
    shutil.copytree(SEED_DIR, target)
    olla = (target / "systems" / "olla.yaml").read_text()
    (target / "systems" / "gone-engine.yaml").write_text(olla.replace("name: Olla", "name: Gone"))
    with (target / "capabilities.yaml").open("a") as capabilities:
        capabilities.write(
            "  gone-feature:\n    name: Gone feature\n    category: batching\n"
            "    description: A feature the sources stopped describing.\n"
        )
    with (target / "metrics.yaml").open("a") as metrics:
        metrics.write(
            "gone-metric:\n  name: Gone metric\n  units:\n    - ms\n  better: lower\n"
            "  kind: absolute\n"
        )
    # A published claim and figure that the team annotates before they leave the seed.
    with (target / "claims" / "overview-early-2026.yaml").open("a") as claims:
        claims.write("gone-engine:\n  openai-api:\n    level: yes\n    note: Said once.\n")
    with (target / "benchmarks" / "overview-early-2026.csv").open("a") as figures:
        figures.write(
            "ov-gone-peak,gone-engine,throughput,900,,,approx,tok/s,"
            "nvidia-h100-unspecified,,,,,unspecified,peak,,,,,Once.\n"
        )
    with (target / "hardware.yaml").open("a") as hardware:
        hardware.write("gone-gpu:\n  name: Gone GPU\n  vague: true\n  aliases:\n    - GPU of old\n")
    return target


def as_user(engine: Engine, name: str, action: Callable[[Session, SignedIn], Any]) -> Any:
    """Run `action` as user `name` in one write transaction, as a request would."""
    with Session(engine) as session, write_transaction(session):
        user = accounts.get_user(session, name)
        assert user is not None and user.id is not None
        return action(session, SignedIn(user.id, user.name, Role(user.role), "token", 0))


def result(system: str, metric: str, unit: str, **fields: Any) -> TeamResultIn:
    return TeamResultIn(system=system, metric=metric, unit=unit, **fields)


def make_team_data(engine: Engine) -> tuple[dict[str, str], list[str]]:
    """Users, tokens, claims and results with edits and deletions; returns tokens, result ids."""
    with Session(engine) as session, write_transaction(session):
        for name, role in {"ada": "admin", "eddie": "editor", "vera": "viewer"}.items():
            accounts.add_user(session, name, role, PASSWORD)
        tokens = {
            name: accounts.add_token(session, name, 30, f"{name}'s CI")[1]
            for name in ("ada", "eddie", "vera")
        }
        revoked, _ = accounts.add_token(session, "ada", None, "old laptop")
        accounts.revoke_token(session, revoked.id or 0)
        accounts.disable_user(session, "vera")  # also revokes her token
    del tokens["vera"]
    results = [
        result(
            "vllm",
            "throughput",
            "tok/s",
            value=2450,
            hardware="H100 SXM",
            gpus=1,
            model="Llama 3.1 8B",
            precision="FP16",
            concurrency=32,
            date="2026-11-20",
            workload="online-serving",
            setup="chat, 1k in / 256 out",
        ),
        result(
            "gone-engine",
            "gone-metric",
            "ms",
            value=12.5,
            note="measured by hand",
            hardware="GPU of old",
        ),
        result("sglang", "throughput", "tok/s", low=1800, high=2100.25, qualifier="approx"),
    ]
    added = as_user(engine, "eddie", lambda s, who: team.add_results(s, who, results, TEAM))
    ids = [item["id"] for item in added.items]
    as_user(engine, "eddie", lambda s, who: team.update_result(s, who, ids[0], {"value": 2500}, 1))
    as_user(engine, "ada", lambda s, who: team.update_result(s, who, ids[0], {"note": "ré-run"}, 2))
    as_user(engine, "eddie", lambda s, who: team.delete_result(s, who, ids[2], 1))

    def claim(system: str, capability: str, level: str, version: int | None = None) -> Any:
        body = TeamClaimIn(level=level, note=f"{system} checked by us")  # type: ignore[arg-type]
        return lambda s, who: claims.put_claim(s, who, system, capability, body, version, TEAM)

    # A result file imported (its runs and raw metrics carried) and one left as a preview.
    sweep = IMPORT_FILE.read_bytes()
    context = ImportContext(
        system="vllm", hardware="NVIDIA H100 SXM5 80GB", precision="FP8", model="llama-3.1-8b"
    )

    def preview(s: Session, who: SignedIn) -> str:
        return imports.preview_import(s, who, IMPORT_FILE.name, sweep, context).key

    key = as_user(engine, "eddie", preview)
    as_user(engine, "eddie", lambda s, who: imports.confirm_import(s, who, key, TEAM))
    as_user(engine, "eddie", preview)  # pending: a backup leaves it out

    as_user(engine, "eddie", claim("vllm", "anthropic-api", "no"))
    as_user(engine, "ada", claim("vllm", "anthropic-api", "partial", version=1))
    as_user(engine, "eddie", claim("gone-engine", "gone-feature", "yes"))
    as_user(engine, "eddie", claim("sglang", "prefix-caching", "no"))
    as_user(
        engine, "eddie", lambda s, who: claims.delete_claim(s, who, "sglang", "prefix-caching", 1)
    )
    make_notes(engine)
    make_catalogue(engine)
    return tokens, ids


H200_NVL = {
    "name": "NVIDIA H200 NVL",
    "vendor": "NVIDIA",
    "memory_gb": 141.0,
    "form_factor": "pcie",
}
FORK = {
    "name": "Our vLLM fork",
    "kind": "engine",
    "licence": "unknown",
    "status": "active",
    "summary": "vLLM with our patches.",
}
HF_LLAMA = "meta-llama/Llama-3.1-8B-Instruct"


PASTED_CONFIG = {"architectures": ["LlamaForCausalLM"], "num_hidden_layers": 32, "vocab_size": 7}


def make_catalogue(engine: Engine) -> None:
    """A team hardware entry (edited once), a team alias on a published model, a team system,
    a team model from a pasted config.json, and a result on the first three."""
    add = lambda s, who: entries.add_entry(s, who, "hardware", H200_NVL, ["H200 NVL"])  # noqa: E731
    as_user(engine, "eddie", add)
    change = {"aliases": ["H200 NVL", "H200 NVL 141GB"]}
    h200 = "nvidia-h200-nvl"
    as_user(engine, "ada", lambda s, who: entries.update_entry(s, who, "hardware", h200, change, 1))
    alias = {"aliases": [HF_LLAMA]}
    as_user(
        engine,
        "eddie",
        lambda s, who: entries.update_entry(s, who, "model", "llama-3.1-8b", alias, 1),
    )
    as_user(engine, "eddie", lambda s, who: entries.add_system(s, who, FORK, None))
    pasted = ConfigJson.model_validate(PASTED_CONFIG)
    as_user(
        engine,
        "eddie",
        lambda s, who: entries.add_entry(
            s, who, "model", {"name": "Team Pasted Model"}, [], config=pasted, team_name=TEAM
        ),
    )
    on_them = [
        result(
            "our-vllm-fork", "throughput", "tok/s", value=3100, hardware="h200-nvl", model=HF_LLAMA
        )
    ]
    as_user(engine, "eddie", lambda s, who: team.add_results(s, who, on_them, TEAM))


NOTES = [
    # Published items that stay in the seed: a claim, the second of a source's two readings of
    # one cell (told apart by their notes in the backup), a figure, a system.
    {
        "system": "vllm",
        "capability": "prefix-caching",
        "source": "overview-early-2026",
        "text": "We use it daily.",
        "link": "https://example.com/runs/1",
    },
    {
        "system": "sglang",
        "capability": "cpu-x86",
        "source": "genai-in-depth-serving-frameworks",
        "reading": 2,
        "text": "The ✗ is about the old release.",
    },
    {"result": "ov-vllm-h100-peak", "text": "Peak, not sustained."},
    {"system": "vllm", "text": "Our default engine."},
    # Published items that leave the seed at the reseed: kept, withdrawn, with their notes.
    {
        "system": "gone-engine",
        "capability": "openai-api",
        "source": "overview-early-2026",
        "text": "Checked by hand.",
    },
    {"result": "ov-gone-peak", "text": "Measured on an old driver."},
    {"system": "gone-engine", "text": "Retired here in 2026."},
    {"system": "tgi", "text": "To be deleted."},
]


def make_notes(engine: Engine) -> list[str]:
    """The notes above, one of them edited twice and one deleted; their ids."""
    ids = []
    for body in NOTES:
        saved = as_user(
            engine, "eddie", lambda s, who, b=body: notes.add_note(s, who, TeamNoteIn(**b))
        )
        ids.append(saved.items[0]["id"])
    change = {"text": "Our default engine, since 2025.", "link": "https://example.com/why"}
    as_user(engine, "ada", lambda s, who: notes.update_note(s, who, ids[3], change, 1))
    as_user(engine, "eddie", lambda s, who: notes.update_note(s, who, ids[3], {"link": None}, 2))
    as_user(engine, "eddie", lambda s, who: notes.delete_note(s, who, ids[-1], 1))
    return ids


@pytest.fixture(scope="session")
def instance(tmp_path_factory: pytest.TempPathFactory) -> Instance:
    folder = tmp_path_factory.mktemp("backup-instance")
    url = new_database_url(folder, "team-instance")
    engine = make_engine(url)
    try:
        prepare_database(engine, extended_seed(folder))
        tokens, ids = make_team_data(engine)
        price = prices.PriceIn(usd_per_gpu_hour=2.49, basis="on-demand list price")
        as_user(
            engine, "eddie", lambda s, who: prices.set_price(s, who, "nvidia-h100-sxm5-80gb", price)
        )
        seed(engine, SEED_DIR)  # gone-* leave the seed; team rows keep them, withdrawn
        as_user(engine, "ada", lambda s, who: team.update_result(s, who, ids[1], {"value": 11}, 1))
        export_backup(engine, folder / "backup")
    finally:
        engine.dispose()
    return Instance(url=url, backup=folder / "backup", tokens=tokens, results=ids)


@dataclass
class Restore:
    url: str
    again: Path  # the restored database exported again


@pytest.fixture(scope="session")
def restored(tmp_path_factory: pytest.TempPathFactory, instance: Instance) -> Restore:
    """A new, empty database with the instance's backup imported, then exported again."""
    folder = tmp_path_factory.mktemp("backup-restored")
    url = new_database_url(folder, "restored")
    engine = make_engine(url)
    try:
        restore_backup(engine, instance.backup, SEED_DIR)
        export_backup(engine, folder / "again")
    finally:
        engine.dispose()
    return Restore(url=url, again=folder / "again")


@pytest.fixture
def engine_of() -> Iterator[Callable[[str], Engine]]:
    """Engines for URLs, disposed after the test."""
    made: list[Engine] = []

    def make(url: str) -> Engine:
        made.append(make_engine(url))
        return made[-1]

    yield make
    for engine in made:
        engine.dispose()


def files(root: Path) -> dict[str, bytes]:
    """Every file under root (relative path -> bytes)."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }
