"""A team's own catalogue: hardware, models, workloads and systems the published data lacks.

A team entry is a row of the same table as the published ones, marked `team` (never in the
seed files; reseeding leaves it alone; backups carry it in team.json), attributed to the user
who saved it last and versioned like team results. Published entries stay as the seed has
them, but a team may give them more names (aliases marked `team`, also kept across reseeds).

Names are one namespace per kind: a name or alias already used by any entry (published or
the team's, its slug, display name or an alias, compared as app/vocabulary/names.py does) is
refused with NameTakenError naming its holder. Call these inside
`app.writes.transaction.write_transaction`, like app/writes/team.py.
"""

import re
from collections.abc import Iterable, Mapping
from typing import Any, cast

from sqlalchemy import func
from sqlmodel import Session, col, select

from app.accounts.identity import SignedIn
from app.data_version.version import bump_data_version
from app.db import lock_writes
from app.models import VOCABULARY_TABLES, BenchmarkResult, Claim, System, TeamNote
from app.vocabulary.names import alias_key
from app.writes.common import TeamError, UnknownItemError, author, check_version, now
from app.writes.config_json import ConfigJson, config_doc, drop_config, store_config
from app.writes.revisions import record

FIELDS: dict[str, tuple[str, ...]] = {
    "hardware": ("name", "vendor", "memory_gb", "form_factor", "note"),
    "model": ("name", "family", "parameters_b", "kind", "active_parameters_b", "note"),
    "workload": ("name", "description", "input_tokens", "output_tokens", "shape"),
}
"""kind -> the fields a team sets on its own entries (besides slug and aliases)."""
SYSTEM_FIELDS = ("name", "kind", "licence", "status", "language", "repository", "summary")
NOUNS = {"hardware": "hardware entry", "model": "model", "workload": "workload"}


class NameTakenError(Exception):
    """A name, alias or slug another entry already holds (a 409 naming the holder)."""

    def __init__(self, field: str, name: str, holder: str, kind: str) -> None:
        self.field, self.name, self.holder = field, name, holder
        super().__init__(
            f"{name!r} is already a name of the {NOUNS.get(kind, kind)} {holder!r}; "
            f"use that entry, or give {holder!r} the alias instead"
        )


class InUseError(Exception):
    """A team entry that rows still point at: it cannot be deleted (withdraw it instead)."""

    def __init__(self, what: str, uses: list[str], total: int) -> None:
        self.uses, self.total = uses, total
        more = f" and {total - len(uses)} more" if total > len(uses) else ""
        super().__init__(
            f"{what} is in use by {total} row(s): {', '.join(uses)}{more}; remove or move "
            'those first, or withdraw the entry (PATCH {"withdrawn": true}) to hide it'
        )


def slugify(name: str) -> str:
    """A slug made from a name: 'NVIDIA H200 NVL' -> 'nvidia-h200-nvl'."""
    slug = re.sub(r"[^a-z0-9.]+", "-", name.casefold()).strip("-.")
    return re.sub(r"-*\.-*", ".", slug)[:100].strip("-.") or "entry"


# Vocabulary entries --------------------------------------------------------------------------


def add_entry(
    session: Session,
    who: SignedIn,
    kind: str,
    fields: Mapping[str, Any],
    aliases: list[str],
    slug: str | None = None,
    config: ConfigJson | None = None,
    team_name: str = "Team",
) -> dict[str, Any]:
    """Add the team's own entry of `kind`; return its document (with `slug` and `version`).
    A model may come with its config.json: its class, precision and facts are kept too."""
    lock_writes(session)
    model = VOCABULARY_TABLES[kind][0]
    slug = slug or slugify(fields["name"])
    _check_names(session, kind, {"name": [fields["name"]], "aliases": aliases, "slug": [slug]})
    position = int(session.exec(select(func.coalesce(func.max(model.position), 0))).one()) + 1
    values = dict(fields)
    if config is not None:
        values["architecture"] = config.architectures[0]
        values["precision"] = config.precision()
    if kind == "workload" and not values.get("description"):
        values["description"] = _workload_description(values)
    row = model(
        **values,
        slug=slug,
        team=True,
        position=position,
        sources=[],
        user_id=who.user_id,
        version=1,
        updated_at=now(),
    )
    session.add(row)
    session.flush()
    if config is not None:
        hf_id = next((a for a in aliases if "/" in a), None)
        page = f"https://huggingface.co/{hf_id}/blob/main/config.json" if hf_id else ""
        store_config(session, row.id, config, team_name, page)
    _put_aliases(session, who, kind, row, aliases)
    doc = entry_doc(session, kind, row)
    _revise(session, who, kind, slug, "create", None, doc)
    bump_data_version(session)
    return doc | {"version": 1, "by": who.name}


def update_entry(
    session: Session,
    who: SignedIn,
    kind: str,
    slug: str,
    changes: Mapping[str, Any],
    version: int | None,
) -> dict[str, Any]:
    """Change a team entry's fields or aliases; on a published entry only `aliases` (the
    team's own names for it; the published ones stay)."""
    lock_writes(session)
    row = _entry(session, kind, slug)
    before = entry_doc(session, kind, row)
    _check(f"the {NOUNS[kind]} {slug}", row.version, version, _shown(session, before, row))
    if not row.team:
        fixed = sorted(set(changes) - {"aliases"})
        if fixed:
            raise TeamError(
                {
                    name: f"{slug!r} is published data, read-only here; a team may "
                    'add aliases to it (PATCH {"aliases": [...]})'
                    for name in fixed
                }
            )
    own = {k: v for k, v in changes.items() if k != "aliases"}
    if "name" in own:
        if not own["name"]:
            raise TeamError({"name": "an entry needs a name"})
        _check_names(session, kind, {"name": [own["name"]]}, exclude=row.id)
    if "aliases" in changes:
        _check_names(session, kind, {"aliases": changes["aliases"]}, exclude=row.id)
    for name, value in own.items():
        setattr(row, name, value)
    if "aliases" in changes:
        _replace_aliases(session, who, kind, row, changes["aliases"])
    session.flush()
    after = entry_doc(session, kind, row)
    if after == before:
        return _shown(session, after, row)
    row.version += 1
    row.user_id, row.updated_at = who.user_id, now()
    session.add(row)
    session.flush()
    _revise(session, who, kind, slug, "update", before, after)
    bump_data_version(session)
    return after | {"version": row.version, "by": who.name}


def delete_entry(
    session: Session, who: SignedIn, kind: str, slug: str, version: int | None
) -> None:
    """Remove a team entry nothing points at (a result on it: InUseError listing them)."""
    lock_writes(session)
    _, alias_model, parent = VOCABULARY_TABLES[kind]
    row = _entry(session, kind, slug)
    before = entry_doc(session, kind, row)
    _check(f"the {NOUNS[kind]} {slug}", row.version, version, _shown(session, before, row))
    if not row.team:
        raise TeamError(
            {
                "slug": f"{slug!r} is published data and stays; a team can remove only "
                "its own entries (or its aliases, by PATCH)"
            }
        )
    column = getattr(BenchmarkResult, f"{kind}_id")
    used = list(session.exec(select(BenchmarkResult.slug).where(column == row.id).limit(10)))
    if used:
        total = session.exec(select(func.count()).where(column == row.id)).one()
        raise InUseError(f"the {NOUNS[kind]} {slug}", [f"result {u}" for u in used], total)
    for alias in session.exec(select(alias_model).where(getattr(alias_model, parent) == row.id)):
        session.delete(alias)
    if kind == "model":
        drop_config(session, row.id)
        session.flush()  # the facts go before the model they point at
    session.delete(row)
    session.flush()
    _revise(session, who, kind, slug, "delete", before, None)
    bump_data_version(session)


def team_entry(session: Session, kind: str, slug: str) -> dict[str, Any]:
    """An entry's document with its version and author (for PATCH and the forms)."""
    row = _entry(session, kind, slug)
    return _shown(session, entry_doc(session, kind, row), row)


def entry_doc(session: Session, kind: str, row: Any) -> dict[str, Any]:
    """An entry as the write API shows it and its revisions record it."""
    _, alias_model, parent = VOCABULARY_TABLES[kind]
    aliases = list(
        session.exec(
            select(alias_model)
            .where(getattr(alias_model, parent) == row.id)
            .order_by(col(alias_model.position), col(alias_model.id))
        )
    )
    doc: dict[str, Any] = {"kind": kind, "slug": row.slug, "team": bool(row.team)}
    doc |= {name: getattr(row, name) for name in FIELDS[kind] if getattr(row, name) is not None}
    if kind == "model":
        doc |= {n: getattr(row, n) for n in ("architecture", "precision") if getattr(row, n)}
        if (facts := config_doc(session, row.id)) is not None:
            doc["config"] = facts
    doc["aliases"] = [a.alias for a in aliases]
    doc["team_aliases"] = [a.alias for a in aliases if a.team]
    if row.withdrawn:
        doc["withdrawn"] = True
    return doc


def _check(what: str, current: int, given: int | None, doc: dict[str, Any]) -> None:
    """check_version for a catalogue document (a plain dict, not a team row's TypedDict)."""
    check_version(what, current, given, cast(Any, doc))


def _shown(session: Session, doc: dict[str, Any], row: Any) -> dict[str, Any]:
    return doc | {"version": row.version, "by": author(session, row)}


def _entry(session: Session, kind: str, slug: str) -> Any:
    model = VOCABULARY_TABLES[kind][0]
    row = session.exec(select(model).where(model.slug == slug)).first()
    if row is None:
        raise UnknownItemError(f"no {NOUNS[kind]} has the slug {slug!r}")
    return row


def _holders(session: Session, kind: str, exclude: int | None) -> dict[str, str]:
    """alias_key(name) -> the slug of the entry holding it, over every entry of `kind`
    (withdrawn ones too: their names still point at their figures)."""
    model, alias_model, parent = VOCABULARY_TABLES[kind]
    held: dict[str, str] = {}
    slugs: dict[int, str] = {}
    for entry_id, slug, name in session.exec(select(model.id, model.slug, model.name)):
        slugs[entry_id] = slug
        if entry_id != exclude:
            held.setdefault(alias_key(slug), slug)
            held.setdefault(alias_key(name), slug)
    for entry_id, alias in session.exec(select(getattr(alias_model, parent), alias_model.alias)):
        if entry_id != exclude:
            held.setdefault(alias_key(alias), slugs[entry_id])
    return held


def _check_names(
    session: Session, kind: str, names: Mapping[str, Iterable[str]], exclude: int | None = None
) -> None:
    held = _holders(session, kind, exclude)
    for field, values in names.items():
        for value in values:
            holder = held.get(alias_key(value))
            if holder is not None:
                raise NameTakenError(field, value, holder, kind)


def _put_aliases(
    session: Session, who: SignedIn, kind: str, row: Any, aliases: Iterable[str]
) -> None:
    _, alias_model, parent = VOCABULARY_TABLES[kind]
    taken = {alias_key(row.slug), alias_key(row.name)}
    start = (
        int(
            session.exec(
                select(func.coalesce(func.max(alias_model.position), -1)).where(
                    getattr(alias_model, parent) == row.id
                )
            ).one()
        )
        + 1
    )
    new = [a for a in dict.fromkeys(aliases) if alias_key(a) not in taken]
    for offset, alias in enumerate(new):
        named = {parent: row.id, "alias": alias, "key": alias_key(alias)}
        session.add(alias_model(**named, position=start + offset, team=True, user_id=who.user_id))


def _replace_aliases(
    session: Session, who: SignedIn, kind: str, row: Any, aliases: list[str]
) -> None:
    """The team's aliases of `row` become `aliases` (published aliases stay as they are)."""
    _, alias_model, parent = VOCABULARY_TABLES[kind]
    current = list(session.exec(select(alias_model).where(getattr(alias_model, parent) == row.id)))
    published = {alias_key(a.alias) for a in current if not a.team}
    wanted = {alias_key(a) for a in aliases}
    kept = set()
    for alias in current:
        if alias.team and alias.key not in wanted:
            session.delete(alias)
        elif alias.team:
            kept.add(alias.key)
    session.flush()
    new = [a for a in aliases if alias_key(a) not in kept | published]
    _put_aliases(session, who, kind, row, new)


def _workload_description(values: Mapping[str, Any]) -> str:
    shape = values.get("shape")
    tokens = [
        f"{values[k]:,} {w}"
        for k, w in (("input_tokens", "in"), ("output_tokens", "out"))
        if values.get(k)
    ]
    parts = [
        f"{shape} traffic" if shape else "Traffic",
        *(["of " + " / ".join(tokens)] if tokens else []),
    ]
    return " ".join(parts).capitalize() + ", as the team runs it."


def _revise(
    session: Session,
    who: SignedIn,
    entity: str,
    key: str,
    action: Any,
    before: Mapping[str, object] | None,
    after: Mapping[str, object] | None,
    system: str | None = None,
) -> None:
    record(
        session,
        actor=who.name,
        user_id=who.user_id,
        entity=entity,
        key=key,
        action=action,
        before=before,
        after=after,
        system_slug=system,
    )


# Systems -------------------------------------------------------------------------------------


def add_system(
    session: Session, who: SignedIn, fields: Mapping[str, Any], slug: str | None
) -> dict[str, Any]:
    """Add a system the published data lacks, marked as the team's."""
    lock_writes(session)
    slug = slug or slugify(fields["name"])
    existing = session.exec(select(System).where(System.slug == slug)).first()
    if existing is not None:
        raise NameTakenError("slug", slug, slug, "system")
    wanted = alias_key(fields["name"])
    for other_slug, name in session.exec(select(System.slug, System.name)):
        if wanted in (alias_key(name), alias_key(other_slug)):
            raise NameTakenError("name", fields["name"], other_slug, "system")
    row = System(
        **fields,
        slug=slug,
        team=True,
        tags=[],
        summary_sources=[],
        user_id=who.user_id,
        version=1,
        updated_at=now(),
    )
    session.add(row)
    session.flush()
    doc = system_doc(row)
    _revise(session, who, "system", slug, "create", None, doc, slug)
    bump_data_version(session)
    return doc | {"version": 1, "by": who.name}


def update_system(
    session: Session, who: SignedIn, slug: str, changes: Mapping[str, Any], version: int | None
) -> dict[str, Any]:
    """Change a team system's fields, or withdraw it (`withdrawn`: true) / bring it back."""
    lock_writes(session)
    row = _system(session, slug)
    before = system_doc(row)
    _check(f"the system {slug}", row.version, version, _shown(session, before, row))
    for name, value in changes.items():
        setattr(row, name, value)
    after = system_doc(row)
    if after == before:
        return _shown(session, after, row)
    row.version += 1
    row.user_id, row.updated_at = who.user_id, now()
    session.add(row)
    session.flush()
    action = "withdraw" if after.get("withdrawn") and not before.get("withdrawn") else "update"
    _revise(session, who, "system", slug, action, before, after, slug)
    bump_data_version(session)
    return after | {"version": row.version, "by": who.name}


def delete_system(session: Session, who: SignedIn, slug: str, version: int | None) -> None:
    """Remove a team system nothing refers to (else InUseError: withdraw it instead)."""
    lock_writes(session)
    row = _system(session, slug)
    before = system_doc(row)
    _check(f"the system {slug}", row.version, version, _shown(session, before, row))
    uses = []
    total = 0
    for model, what in ((Claim, "claim"), (BenchmarkResult, "result"), (TeamNote, "note")):
        n = session.exec(
            select(func.count()).select_from(model).where(model.system_id == row.id)
        ).one()
        if n:
            uses.append(f"{n} {what}(s)")
            total += n
    if total:
        raise InUseError(f"the system {slug}", uses, len(uses))
    session.delete(row)
    session.flush()
    _revise(session, who, "system", slug, "delete", before, None, slug)
    bump_data_version(session)


def system_doc(row: System) -> dict[str, Any]:
    doc: dict[str, Any] = {"slug": row.slug, "team": True}
    doc |= {name: getattr(row, name) for name in SYSTEM_FIELDS if getattr(row, name) is not None}
    if row.withdrawn:
        doc["withdrawn"] = True
    return doc


def team_system(session: Session, slug: str) -> dict[str, Any]:
    row = _system(session, slug)
    return _shown(session, system_doc(row), row)


def _system(session: Session, slug: str) -> System:
    row = session.exec(select(System).where(System.slug == slug)).first()
    if row is None:
        raise UnknownItemError(f"no system has the slug {slug!r}")
    if not row.team:
        raise TeamError(
            {
                "slug": f"{slug!r} is a published system, read-only here; add team "
                "claims, results or notes to it instead"
            }
        )
    return row
