"""A restore that cannot be done writes nothing, and says which file and item is wrong."""

import json
import shutil
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, inspect
from sqlmodel import Session, select

from app.backup.document import BackupError
from app.backup.dump import export_backup
from app.backup.restore import NotEmptyError, restore_backup
from app.db import make_engine
from app.models import Source, System, SystemNote
from app.queries.benchmarks import benchmark_views
from app.seeding.errors import SeedError
from app.writes import claims
from app.writes import restore as restore_writes
from app.writes.inputs import TeamClaimIn
from app.writes.transaction import write_transaction
from tests.accounts.conftest import add_users
from tests.backup.conftest import Instance, as_user, files
from tests.conftest import SEED_DIR
from tests.databases import copy_of, new_database_url

# A database built and restored per test: the slow tier (and again on PostgreSQL).
pytestmark = [pytest.mark.slow, pytest.mark.database]


def broken_copy(instance: Instance, folder: Path, change: Callable[[dict[str, Any]], Any]) -> Path:
    """A copy of the backup whose team.json `change` has edited."""
    target = folder / "broken"
    shutil.copytree(instance.backup, target)
    path = target / "team.json"
    document = json.loads(path.read_text())
    change(document)
    path.write_text(json.dumps(document, indent=2))
    return target


def index_of(items: list[dict[str, Any]], **match: Any) -> int:
    return next(i for i, item in enumerate(items) if item.items() >= match.items())


def unknown_system(d: dict[str, Any]) -> str:
    i = index_of(d["claims"], system="vllm", capability="anthropic-api")
    d["claims"][i]["system"] = "vlm"
    return f"claims[{i}] (vlm/anthropic-api/team): system: no system 'vlm'"


def not_a_number(d: dict[str, Any]) -> str:
    i = index_of(d["results"], system="vllm")
    d["results"][i]["value"] = "fast"
    return f"results[{i}] ({d['results'][i]['id']}): field 'value':"


def unknown_user(d: dict[str, Any]) -> str:
    i = index_of(d["revisions"], actor="ada")
    d["revisions"][i]["user"] = "mallory"
    return f"revisions[{i}] (#{d['revisions'][i]['id']}): user: no user 'mallory'"


def seed_result_id(d: dict[str, Any]) -> str:
    d["results"][0]["id"] = "ov-vllm-h100-peak"
    return "results[0] (ov-vllm-h100-peak): the seed files have a result 'ov-vllm-h100-peak'"


def script_link(d: dict[str, Any]) -> str:
    i = index_of(d["notes"], text="We use it daily.")
    d["notes"][i]["link"] = "javascript:alert(1)"  # restored notes' links become hrefs
    return f"notes[{i}] ({d['notes'][i]['id']}): field 'link':"


def note_on_no_claim(d: dict[str, Any]) -> str:
    i = index_of(d["notes"], text="We use it daily.")
    d["notes"][i]["claim"]["note"] = "a reading the source never gave"
    return f"notes[{i}] ({d['notes'][i]['id']}): claim: no such claim in the seed files"


def newer_format(d: dict[str, Any]) -> str:
    d["format_version"] = 3
    return "format_version: the file is in format 3, newer than this version"


def unknown_hardware(d: dict[str, Any]) -> str:
    i = index_of(d["results"], system="vllm")
    d["results"][i]["hardware"] = "H100 SMX"
    return (
        f"results[{i}] ({d['results'][i]['id']}): hardware: no hardware 'H100 SMX'; "
        "did you mean nvidia-h100-sxm5-80gb"
    )


def unknown_schema(d: dict[str, Any]) -> str:
    d["schema_revision"] = "9999"
    return "schema_revision: the data was taken at schema revision '9999'"


def another_file(d: dict[str, Any]) -> str:
    d["format"] = "something-else"
    return "format: not an Inference Atlas team backup"


@pytest.mark.parametrize(
    "change",
    [
        unknown_system,
        not_a_number,
        unknown_user,
        seed_result_id,
        script_link,
        note_on_no_claim,
        unknown_hardware,
        newer_format,
        unknown_schema,
        another_file,
    ],
)
def test_a_bad_team_file_is_refused_naming_the_item_and_nothing_is_written(
    instance: Instance, tmp_path: Path, engine_of: Callable[[str], Engine], change: Any
) -> None:
    expected: list[str] = []
    backup = broken_copy(instance, tmp_path, lambda d: expected.append(change(d)))
    engine = engine_of(new_database_url(tmp_path, "target"))
    with pytest.raises(BackupError) as refused:
        restore_backup(engine, backup, SEED_DIR)
    message = str(refused.value)
    assert f"in {backup / 'team.json'}:" in message
    assert expected[0] in message
    assert inspect(engine).get_table_names() == []  # not even migrated


@pytest.mark.parametrize(
    ("damage", "expected"),
    [
        (lambda text: text[: len(text) // 2], "not JSON"),
        (
            lambda text: text.replace(
                '"format_version": 2,', '"format_version": 2,\n  "format_version": 2,'
            ),
            "'format_version' appears twice",
        ),
    ],
)
def test_a_damaged_team_file_is_refused(
    instance: Instance,
    tmp_path: Path,
    engine_of: Callable[[str], Engine],
    damage: Any,
    expected: str,
) -> None:
    backup = tmp_path / "damaged"
    shutil.copytree(instance.backup, backup)
    path = backup / "team.json"
    path.write_text(damage(path.read_text()))
    engine = engine_of(new_database_url(tmp_path, "target"))
    with pytest.raises(BackupError, match=expected):
        restore_backup(engine, backup, SEED_DIR)
    assert inspect(engine).get_table_names() == []


def test_bad_seed_files_in_the_backup_are_refused(
    instance: Instance, tmp_path: Path, engine_of: Callable[[str], Engine]
) -> None:
    backup = tmp_path / "backup"
    shutil.copytree(instance.backup, backup)
    (backup / "systems" / "vllm.yaml").write_text("name: [\n")
    engine = engine_of(new_database_url(tmp_path, "target"))
    with pytest.raises(SeedError, match=r"systems/vllm\.yaml"):
        restore_backup(engine, backup, SEED_DIR)
    assert inspect(engine).get_table_names() == []


def test_a_database_with_team_data_is_refused_without_replace(
    instance: Instance, tmp_path: Path, engine_of: Callable[[str], Engine]
) -> None:
    engine = engine_of(instance.url)
    with pytest.raises(NotEmptyError) as refused:
        restore_backup(engine, instance.backup, SEED_DIR)
    assert refused.value.held["users"] == 3 and refused.value.held["team claims"] == 2
    assert "--replace" in str(refused.value) and "export it first" in str(refused.value)
    export_backup(engine, tmp_path / "after")
    assert files(tmp_path / "after") == files(instance.backup)


@pytest.fixture
def other_instance(database_url: str, tmp_path: Path) -> str:
    """A seeded database with team data of its own: a user, zed, and zed's claim."""
    url = copy_of(database_url, tmp_path, SEED_DIR, "other")
    add_users(url, {"zed": "editor"})
    engine = make_engine(url)
    body = TeamClaimIn(level="yes")
    as_user(
        engine, "zed", lambda s, who: claims.put_claim(s, who, "tgi", "amd-rocm", body, None, "Zed")
    )
    engine.dispose()
    return url


def test_replace_restores_the_backup_over_other_team_data(
    instance: Instance, other_instance: str, tmp_path: Path, engine_of: Callable[[str], Engine]
) -> None:
    engine = engine_of(other_instance)
    done = restore_backup(engine, instance.backup, SEED_DIR, replace=True)
    assert done.replaced["users"] == 1 and done.replaced["team claims"] == 1
    export_backup(engine, tmp_path / "after")
    assert files(tmp_path / "after") == files(instance.backup)


def test_a_failure_half_way_through_leaves_the_database_as_it_was(
    instance: Instance,
    other_instance: str,
    tmp_path: Path,
    engine_of: Callable[[str], Engine],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    engine = engine_of(other_instance)
    export_backup(engine, tmp_path / "before")
    insert = restore_writes._Restorer.insert

    def fail_after_the_users(self: Any, model: Any, items: Any, *args: Any, **kw: Any) -> Any:
        if model is System:
            raise RuntimeError("the disk is full")
        return insert(self, model, items, *args, **kw)

    monkeypatch.setattr(restore_writes._Restorer, "insert", fail_after_the_users)
    with pytest.raises(RuntimeError, match="disk is full"):
        restore_backup(engine, instance.backup, SEED_DIR, replace=True)
    export_backup(engine, tmp_path / "after")
    assert files(tmp_path / "after") == files(tmp_path / "before")


def test_export_refuses_rows_a_backup_cannot_hold_yet(
    other_instance: str, tmp_path: Path, engine_of: Callable[[str], Engine]
) -> None:
    engine = engine_of(other_instance)
    with Session(engine) as session, write_transaction(session):
        source = session.exec(select(Source).where(Source.slug == "team")).one()
        vllm = session.exec(select(System).where(System.slug == "vllm")).one()
        session.add(
            SystemNote(
                system_id=vllm.id or 0, kind="best_for", text="ours", source_id=source.id or 0
            )
        )
    with pytest.raises(BackupError, match="systemnote of vllm citing team: a backup cannot hold"):
        export_backup(engine, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_export_is_atomic_secret_and_leaves_no_stale_seed_files(
    instance: Instance, tmp_path: Path, engine_of: Callable[[str], Engine]
) -> None:
    out = tmp_path / "out"
    (out / "systems").mkdir(parents=True)
    (out / "systems" / "left-the-seed.yaml").write_text("name: Gone\n")
    (out / "NOTES.txt").write_text("ours")
    export_backup(engine_of(instance.url), out)
    assert not (out / "systems" / "left-the-seed.yaml").exists()
    assert (out / "NOTES.txt").read_text() == "ours"
    assert stat.S_IMODE((out / "team.json").stat().st_mode) == 0o600
    assert not [p for p in out.rglob(".*")], "a temporary file was left behind"
    assert files(out) == files(instance.backup) | {"NOTES.txt": b"ours"}


def test_a_format_1_backup_is_matched_to_the_vocabulary_as_the_migration_does(
    instance: Instance, tmp_path: Path, engine_of: Callable[[str], Engine]
) -> None:
    """A backup taken before the vocabulary: results carry free text, no gpus or setup."""

    def as_format_1(d: dict[str, Any]) -> None:
        d["format_version"], d["schema_revision"] = 1, "0004"
        for key in (
            "withdrawn_hardware",
            "withdrawn_models",
            "withdrawn_workloads",
            "team_aliases",
            "model_configs",
        ):
            del d[key]
        for result in d["results"]:
            for key in ("gpus", "setup", "hardware_text", "model_text"):
                result.pop(key, None)
        i = index_of(d["results"], system="vllm")
        d["results"][i] |= {
            "hardware": "1x H100 SXM",
            "model": "Llama 3.1 8B",
            "workload": "nightly chat run",
            "precision": "fp16",
        }

    backup = broken_copy(instance, tmp_path, as_format_1)
    url = new_database_url(tmp_path, "target")
    restore_backup(engine_of(url), backup, SEED_DIR)
    with Session(engine_of(url)) as session:
        [view] = [
            v for v in benchmark_views(session) if v.system == "vllm" and v.source.slug == "team"
        ]
    assert (view.hardware, view.hardware_text, view.model, view.model_text) == (
        "unlisted-hardware",
        "1x H100 SXM",
        "llama-3.1-8b",
        "Llama 3.1 8B",
    )
    assert (view.workload, view.setup, view.precision) == (
        "unspecified",
        "nightly chat run",
        "FP16",
    )
