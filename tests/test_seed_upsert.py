"""Reseeding is an upsert by stable keys: unchanged rows keep their ids and are not written,
changes are made in place and recorded as revisions, team rows are never touched, and a
published row that something still points at is withdrawn rather than deleted."""

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Column, Engine, ForeignKey, Integer, Table, event, func
from sqlmodel import Session, SQLModel, select

from app.models import (
    BenchmarkResult,
    Capability,
    Claim,
    Metric,
    Revision,
    Source,
    System,
    SystemFact,
    SystemNote,
)
from app.queries.revisions import list_revisions
from app.seeding.errors import SeedError
from app.seeding.export import export_seed
from app.seeding.load import load_seed
from app.seeding.prepare import seed, seed_with_report
from app.seeding.yamlio import dump_yaml, read_yaml
from app.writes import revisions
from app.writes.seed import apply_seed
from app.writes.seed_rows import pair_up
from tests.conftest import REAL_SEED_DIR
from tests.test_seed_roundtrip import data_files

# Whole databases built, migrated and reseeded per test: the slow tier (and PostgreSQL too).
pytestmark = [pytest.mark.database, pytest.mark.slow]

OLLA = "olla-servers-compared"


def ids(engine: Engine, model: Any, key: Any) -> dict[Any, int]:
    with Session(engine) as session:
        return {key(row): row.id for row in session.exec(select(model))}


def claim_key(claim: Claim) -> tuple[int, int, int, str | None]:
    return (claim.system_id, claim.capability_id, claim.source_id, claim.note)


def all_ids(engine: Engine) -> dict[str, dict[Any, int]]:
    return {
        "source": ids(engine, Source, lambda r: r.slug),
        "system": ids(engine, System, lambda r: r.slug),
        "claim": ids(engine, Claim, claim_key),
        "result": ids(engine, BenchmarkResult, lambda r: r.slug),
        "note": ids(engine, SystemNote, lambda r: (r.system_id, r.kind, r.text)),
        "fact": ids(engine, SystemFact, lambda r: (r.system_id, r.attribute, r.value, r.source_id)),
    }


def history(engine: Engine, **filters: Any) -> list[Any]:
    with Session(engine) as session:
        return list_revisions(session, limit=500, **filters)


def edit_yaml(path: Path, change: Any) -> None:
    data = read_yaml(path)
    change(data)
    path.write_text(dump_yaml(data))


def edit_csv(path: Path, change: Any) -> None:
    rows = list(csv.DictReader(io.StringIO(path.read_text())))
    fields = list(rows[0])
    rows = [r for r in (change(row) for row in rows) if r is not None]
    out = io.StringIO()
    writer = csv.DictWriter(out, fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(out.getvalue())


def drop_system(seed_dir: Path, slug: str) -> None:
    """Take a system out of the seed: its file, claims, figures and mentions in rules."""
    (seed_dir / "systems" / f"{slug}.yaml").unlink()
    for path in (seed_dir / "claims").glob("*.yaml"):
        edit_yaml(path, lambda claims: claims.pop(slug, None))
    for path in (seed_dir / "benchmarks").glob("*.csv"):
        edit_csv(path, lambda row: None if row["system"] == slug else row)

    def forget(rules: dict[str, Any]) -> None:
        for name in [n for n, r in rules.items() if slug in r.get("systems", [])]:
            rules[name]["systems"].remove(slug)
            if not rules[name]["systems"]:
                del rules[name]

    edit_yaml(seed_dir / "rules.yaml", forget)


@pytest.fixture
def seeded(empty_engine: Engine, seed_copy: Path) -> Engine:
    seed(empty_engine, seed_copy)
    return empty_engine


@pytest.mark.data
def test_the_first_seed_writes_one_summary_revision(real_engine: Engine) -> None:
    [first] = history(real_engine)
    assert (first.actor, first.entity, first.action) == ("seed", "dataset", "create")
    # The summary counts what seed/ holds, each reading of a disputed cell as a claim.
    data = load_seed(REAL_SEED_DIR)
    claims = sum(
        len(entries) if isinstance(entries, list) else 1
        for by_system in data.claims.values()
        for by_capability in by_system.values()
        for entries in by_capability.values()
    )
    figures = sum(len(rows) for rows in data.benchmarks.values())
    assert first.after == {
        "sources": len(data.sources),
        "systems": len(data.systems),
        "capabilities": len(data.capabilities),
        "claims": claims,
        "benchmark_results": figures,
        "rules": len(data.rules),
    }
    assert first.at.tzinfo is not None


def test_an_unchanged_reseed_keeps_every_id_and_writes_no_row(
    seeded: Engine, seed_copy: Path
) -> None:
    before = all_ids(seeded)
    writes: list[str] = []

    def watch(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        verb = statement.lstrip().split(" ", 1)[0].upper()
        if verb in ("INSERT", "UPDATE", "DELETE"):
            writes.append(statement)

    event.listen(seeded, "before_cursor_execute", watch)
    try:
        _, report = seed_with_report(seeded, seed_copy)
    finally:
        event.remove(seeded, "before_cursor_execute", watch)
    assert not report.changed and report.revisions == 0
    assert all_ids(seeded) == before
    # Only the data version (what caches key on) is written.
    assert writes and all(" meta " in w.replace('"', " ") + " " for w in writes), writes
    assert len(history(seeded)) == 1


def test_edits_update_rows_in_place_with_one_revision_each(seeded: Engine, seed_copy: Path) -> None:
    before = all_ids(seeded)
    edit_yaml(seed_copy / "systems" / "vllm.yaml", lambda d: d.update(summary="A new summary."))

    def move_line(d: dict[str, Any]) -> None:  # a new first line; the others only move down
        d["best_for"].insert(0, {"text": "Brand-new advice", "source": OLLA})
        d["best_for"][2]["text"] += " (edited)"

    edit_yaml(seed_copy / "systems" / "sglang.yaml", move_line)
    edit_yaml(
        seed_copy / "claims" / f"{OLLA}.yaml",
        lambda d: d["vllm"]["prefix-caching"].update(level="partial"),
    )

    def double(row: dict[str, str]) -> dict[str, str]:
        if row["id"] == "ov-vllm-h100-peak":
            row["value"] = str(float(row["value"]) * 2)
        return row

    edit_csv(seed_copy / "benchmarks" / "overview-early-2026.csv", double)

    _, report = seed_with_report(seeded, seed_copy)

    after = all_ids(seeded)
    for table in ("source", "system", "claim", "result", "fact"):
        assert after[table] == before[table], f"{table} ids changed"
    new_notes = set(after["note"]) - set(before["note"])
    assert len(new_notes) == 2, "one added line and one edited line"
    edited = [k for k in new_notes if k[2].endswith("(edited)")]
    assert len(edited) == 1
    old_text = edited[0][2].removesuffix(" (edited)")
    assert after["note"][edited[0]] == before["note"][(edited[0][0], "best_for", old_text)]

    changes = {(r.entity, r.key): r for r in history(seeded, user="seed") if r.entity != "dataset"}
    assert set(changes) == {
        ("system", "vllm"),
        ("system", "sglang"),
        ("claim", f"vllm/prefix-caching/{OLLA}"),
        ("benchmark_result", "ov-vllm-h100-peak"),
    }
    vllm = changes[("system", "vllm")]
    assert vllm.action == "update" and vllm.system == "vllm"
    assert vllm.after is not None and vllm.after["summary"] == "A new summary."
    assert vllm.before is not None and vllm.before["summary"].startswith("vLLM is")
    claim = changes[("claim", f"vllm/prefix-caching/{OLLA}")]
    assert (claim.before or {})["level"] == "yes" and (claim.after or {})["level"] == "partial"
    result = changes[("benchmark_result", "ov-vllm-h100-peak")]
    assert (result.after or {})["value"] == 2 * (result.before or {})["value"]
    assert report.revisions == 4


def add_team_rows(engine: Engine) -> dict[str, int]:
    """A team's own source with a claim on litellm and a result for vllm, as the team
    instance will write them."""
    with Session(engine) as session:
        team = Source(
            slug="our-lab",
            short="Our lab",
            title="Our measurements",
            date="2026-11",
            kind="team-measurement",
        )
        session.add(team)
        session.flush()
        litellm = session.exec(select(System).where(System.slug == "litellm")).one()
        vllm = session.exec(select(System).where(System.slug == "vllm")).one()
        capability = session.exec(select(Capability).where(Capability.slug == "nvidia-cuda")).one()
        metric = session.exec(select(Metric)).first()
        assert team.id and litellm.id and vllm.id and capability.id and metric and metric.id
        claim = Claim(
            system_id=litellm.id,
            capability_id=capability.id,
            source_id=team.id,
            level="yes",
            note="our own check",
        )
        result = BenchmarkResult(
            slug="team-vllm-1",
            system_id=vllm.id,
            metric_id=metric.id,
            source_id=team.id,
            value=123.0,
            unit=metric.units[0],
        )
        session.add_all([claim, result])
        session.commit()
        return {"source": team.id, "claim": claim.id, "result": result.id}  # type: ignore[dict-item]


def test_team_rows_are_kept_and_a_system_they_use_is_withdrawn(
    seeded: Engine, seed_copy: Path
) -> None:
    team = add_team_rows(seeded)
    litellm_id = ids(seeded, System, lambda r: r.slug)["litellm"]
    drop_system(seed_copy, "litellm")
    drop_system(seed_copy, "olla")  # nothing but its own published rows refers to it

    _, report = seed_with_report(seeded, seed_copy)

    with Session(seeded) as session:
        assert session.get(Source, team["source"]) is not None
        assert session.get(Claim, team["claim"]) is not None
        assert session.get(BenchmarkResult, team["result"]) is not None
        litellm = session.get(System, litellm_id)
        assert litellm is not None and litellm.withdrawn
        assert session.exec(select(System).where(System.slug == "olla")).first() is None
    assert report.withdrawn == 1 and report.deleted >= 1
    actions = {r.key: r.action for r in history(seeded, entity="system")}
    assert actions == {"litellm": "withdraw", "olla": "delete"}
    assert [r.key for r in history(seeded, system="litellm")] == ["litellm"]
    # The export is the seed's data only: no team rows, nothing withdrawn.
    export_seed(seeded, seed_copy.parent / "out")
    assert data_files(seed_copy.parent / "out") == data_files(seed_copy)

    # Back in the seed, it is the same row again.
    (seed_copy / "systems" / "litellm.yaml").write_text(
        (Path(__file__).parent.parent / "seed" / "systems" / "litellm.yaml").read_text()
    )
    seed(seeded, seed_copy)
    with Session(seeded) as session:
        litellm = session.get(System, litellm_id)
        assert litellm is not None and not litellm.withdrawn
    assert history(seeded, system="litellm")[0].action == "update"


@pytest.fixture
def annotations(seeded: Engine) -> Iterator[Table]:
    """A table added later (as team tables will be) pointing at published claims and results."""
    table = Table(
        "test_annotation",
        SQLModel.metadata,
        Column("id", Integer, primary_key=True),
        Column("claim_id", ForeignKey("claim.id"), nullable=True),
        Column("result_id", ForeignKey("benchmarkresult.id"), nullable=True),
    )
    table.create(seeded)
    try:
        yield table
    finally:
        SQLModel.metadata.remove(table)
        table.drop(seeded)


def test_any_foreign_key_keeps_a_published_row_as_withdrawn(
    seeded: Engine, seed_copy: Path, annotations: Table
) -> None:
    with Session(seeded) as session:
        source = session.exec(select(Source).where(Source.slug == OLLA)).one()
        vllm = session.exec(select(System).where(System.slug == "vllm")).one()
        claims = session.exec(
            select(Claim).where(Claim.source_id == source.id, Claim.system_id == vllm.id)
        ).all()
        by_capability = {session.get(Capability, c.capability_id).slug: c for c in claims}  # type: ignore[union-attr]
        result = session.exec(
            select(BenchmarkResult).where(BenchmarkResult.slug == "ov-vllm-h100-peak")
        ).one()
        kept_claim = by_capability["prefix-caching"].id
        lost_claim = by_capability["tensor-parallelism"].id
        result_id = result.id
        rows = [
            {"claim_id": kept_claim, "result_id": None},
            {"claim_id": None, "result_id": result.id},
        ]
        session.execute(annotations.insert(), rows)
        session.commit()

    def drop_claims(d: dict[str, Any]) -> None:
        del d["vllm"]["prefix-caching"], d["vllm"]["tensor-parallelism"]

    edit_yaml(seed_copy / "claims" / f"{OLLA}.yaml", drop_claims)
    edit_csv(
        seed_copy / "benchmarks" / "overview-early-2026.csv",
        lambda row: None if row["id"] == "ov-vllm-h100-peak" else row,
    )
    seed(seeded, seed_copy)

    with Session(seeded) as session:
        assert session.get(Claim, kept_claim).withdrawn  # type: ignore[union-attr]
        assert session.get(Claim, lost_claim) is None
        assert session.get(BenchmarkResult, result_id).withdrawn  # type: ignore[union-attr]
    actions = {(r.entity, r.key): r.action for r in history(seeded) if r.entity != "dataset"}
    assert actions == {
        ("claim", f"vllm/prefix-caching/{OLLA}"): "withdraw",
        ("claim", f"vllm/tensor-parallelism/{OLLA}"): "delete",
        ("benchmark_result", "ov-vllm-h100-peak"): "withdraw",
    }
    # Unchanged and still absent: no new revision on the next seed.
    seed(seeded, seed_copy)
    assert len(history(seeded)) == 4


def test_a_seed_source_with_a_team_source_slug_is_refused(seeded: Engine, seed_copy: Path) -> None:
    add_team_rows(seeded)
    data = load_seed(seed_copy)
    data.sources["our-lab"] = data.sources[OLLA]
    with Session(seeded) as session:
        count = session.exec(select(func.count()).select_from(Revision)).one()
    with pytest.raises(SeedError, match="our-lab: a team's own source already has this slug"):
        apply_seed(seeded, data)
    with Session(seeded) as session:
        assert session.exec(select(func.count()).select_from(Revision)).one() == count


class Line:
    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def pairs(old: str, new: str) -> tuple[str, str]:
    """pair_up on one-letter lines: which old line each new one updates ('.' = insert)."""
    rows = [Line(c) for c in old]
    matched, unused = pair_up(rows, [{"text": c} for c in new], ("text",))
    return "".join("." if r is None else r.text for r in matched), "".join(r.text for r in unused)


def test_list_entries_are_paired_as_a_diff_would() -> None:
    assert pairs("abc", "abc") == ("abc", "")
    assert pairs("abc", "cab") == ("cab", ""), "moved lines keep their rows"
    assert pairs("abc", "nabc") == (".abc", ""), "an insert at the top moves nothing"
    assert pairs("abc", "nXbc") == ("a.bc", ""), "a replaced run pairs in order"
    assert pairs("abc", "aXc") == ("abc", ""), "an edited line takes the row it replaced"
    assert pairs("abc", "ac") == ("ac", "b")
    assert pairs("abc", "") == ("", "abc")


def test_record_refuses_what_it_cannot_store(empty_engine: Engine) -> None:
    with Session(empty_engine) as session:
        with pytest.raises(ValueError, match="unknown revision action 'edit'"):
            revisions.record(session, actor="ann", entity="claim", key="k", action="edit", after={})  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="neither a before nor an after"):
            revisions.record(session, actor="ann", entity="claim", key="k", action="delete")
        with pytest.raises(ValueError, match="needs an actor"):
            revisions.record(session, actor=" ", entity="claim", key="k", action="create", after={})


def test_revisions_list_by_user_system_entity_and_page(empty_engine: Engine) -> None:
    from app.accounts.users import add_user

    with Session(empty_engine) as session:
        ids = {
            name: add_user(session, name, "editor", "correct horse battery").id
            for name in ("ann", "bob")
        }
        for i in range(5):
            actor = "ann" if i % 2 else "bob"
            revisions.record(
                session,
                actor=actor,
                entity="claim",
                key=f"vllm/cap-{i}/our-lab",
                action="create",
                after={"i": i},
                user_id=ids[actor],
                system_slug="vllm" if i < 3 else "sglang",
            )
        session.commit()
    everything = history(empty_engine)
    assert [r.after for r in everything] == [{"i": i} for i in (4, 3, 2, 1, 0)]
    assert [r.key for r in history(empty_engine, user="ann")] == [
        "vllm/cap-3/our-lab",
        "vllm/cap-1/our-lab",
    ]
    assert len(history(empty_engine, system="vllm")) == 3
    assert history(empty_engine, entity="system") == []
    with Session(empty_engine) as session:
        page = list_revisions(session, limit=2, before_id=everything[1].id)
        assert [r.id for r in page] == [everything[2].id, everything[3].id]
        with pytest.raises(ValueError, match="limit must be between 1 and 500"):
            list_revisions(session, limit=0)
