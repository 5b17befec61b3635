"""Check team.json against the seed files it will be restored with, before any writing.

Every slug must name a row that the restore will make (from the seed files, or from the
backup's own sources and withdrawn rows), every user a user in the file, and no key may be
made twice. All of it is known from the files alone, so a restore that would fail half-way
is refused before the database is touched.
"""

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from app.backup.document import BackupProblem, TeamData, where
from app.seeding.reader import SeedData
from app.vocabulary.names import Names, canonical_precision
from app.writes.inputs import check_value_or_range


def check_against_seed(team: TeamData, seed: SeedData) -> list[BackupProblem]:
    """Every problem that would stop the restore; empty when it can go ahead."""
    checker = _Checker(team, seed)
    checker.run()
    return checker.problems


class _Checker:
    def __init__(self, team: TeamData, seed: SeedData) -> None:
        self.team, self.seed = team, seed
        self.problems: list[BackupProblem] = []
        self.sources = set(seed.sources) | {s.slug for s in team.sources}
        self.systems = set(seed.systems) | {s.slug for s in team.withdrawn_systems}
        self.capabilities = set(seed.capabilities) | {c.slug for c in team.withdrawn_capabilities}
        self.units = {slug: m.units for slug, m in seed.metrics.items()}
        self.units |= {m.slug: m.units for m in team.withdrawn_metrics}
        self.users = {u.name for u in team.users}
        self.names = {
            kind: Names.of(kind, [*((e.slug, ()) for e in withdrawn), *seed.names[kind].entries()])
            for kind, withdrawn in (
                ("hardware", team.withdrawn_hardware),
                ("model", team.withdrawn_models),
                ("workload", team.withdrawn_workloads),
            )
        }

    def add(self, section: str, index: int, item: Any, message: str) -> None:
        raw = item.model_dump(mode="json") if hasattr(item, "model_dump") else item
        self.problems.append(BackupProblem(where(section, index, raw), message))

    def run(self) -> None:
        team, seed = self.team, self.seed
        self.unique("users", team.users, lambda u: u.name, "a user")
        self.unique("tokens", team.tokens, lambda t: t.token_hash, "a token with this hash")
        self.fresh("sources", team.sources, seed.sources, "source")
        self.fresh("withdrawn_systems", team.withdrawn_systems, seed.systems, "system")
        capabilities = team.withdrawn_capabilities
        self.fresh("withdrawn_capabilities", capabilities, seed.capabilities, "capability")
        self.fresh("withdrawn_metrics", team.withdrawn_metrics, seed.metrics, "metric")
        self.fresh("withdrawn_hardware", team.withdrawn_hardware, seed.hardware, "hardware entry")
        self.fresh("withdrawn_models", team.withdrawn_models, seed.models, "model")
        self.fresh("withdrawn_workloads", team.withdrawn_workloads, seed.workloads, "workload")
        for i, alias in enumerate(team.team_aliases):
            known = self.names[alias.kind].resolve(alias.entry) == alias.entry
            if not known:
                self.add(
                    "team_aliases",
                    i,
                    alias,
                    f"entry: no {alias.kind} {alias.entry!r} in "
                    "the seed files or among the backup's own entries",
                )
            self.known_user("team_aliases", i, alias, alias.user)
        for i, capability in enumerate(team.withdrawn_capabilities):
            if capability.category not in seed.categories:
                message = f"category: the seed files have no category {capability.category!r}"
                self.add("withdrawn_capabilities", i, capability, message)
        for i, token in enumerate(team.tokens):
            self.known_user("tokens", i, token, token.user)
        self.claims()
        self.imports()
        self.results()
        self.notes()
        self.revisions()

    def unique(self, section: str, items: list[Any], key: Callable[[Any], Any], what: str) -> None:
        counts = Counter(key(item) for item in items)
        for i, item in enumerate(items):
            if counts[key(item)] > 1:
                self.add(section, i, item, f"{what} with the same key is in the file twice")

    def fresh(self, section: str, items: list[Any], seeded: Iterable[str], what: str) -> None:
        """Rows the backup makes must not clash with each other or with the seed's."""
        self.unique(section, items, lambda item: item.slug, f"a {what}")
        seeded = set(seeded)
        for i, item in enumerate(items):
            if item.slug in seeded:
                self.add(section, i, item, f"the seed files also have a {what} {item.slug!r}")

    def known(self, section: str, i: int, item: Any, field: str, known: set[str]) -> None:
        value = getattr(item, field)
        if value not in known:
            message = f"no {field} {value!r} in the seed files or among the backup's own rows"
            self.add(section, i, item, f"{field}: {message}")

    def known_user(self, section: str, i: int, item: Any, name: str | None) -> None:
        if name is not None and name not in self.users:
            self.add(section, i, item, f"user: no user {name!r} in the file's users")

    def claims(self) -> None:
        claims = self.team.claims
        self.unique("claims", claims, _claim_key, "a claim on this cell from this source")
        seeded = _seed_claim_keys(self.seed)
        for i, claim in enumerate(claims):
            self.known("claims", i, claim, "system", self.systems)
            self.known("claims", i, claim, "capability", self.capabilities)
            self.known("claims", i, claim, "source", self.sources)
            self.known_user("claims", i, claim, claim.user)
            if _claim_key(claim) in seeded:
                self.add("claims", i, claim, "the seed files have the same claim")

    def imports(self) -> None:
        imports = self.team.imports
        self.unique("imports", imports, lambda b: b.key, "an import with this key")
        for i, batch in enumerate(imports):
            self.known("imports", i, batch, "source", self.sources)
            self.known_user("imports", i, batch, batch.user)
            self.unique(f"imports[{i}].runs", batch.runs, lambda r: r.position, "a run")

    def results(self) -> None:
        results = self.team.results
        runs = {f"{b.key}#{r.position}" for b in self.team.imports for r in b.runs}
        self.unique("results", results, lambda r: r.id, "a result with this id")
        seeded = {row.id for rows in self.seed.benchmarks.values() for row in rows}
        for i, result in enumerate(results):
            self.known("results", i, result, "system", self.systems)
            self.known("results", i, result, "source", self.sources)
            self.known_user("results", i, result, result.user)
            if result.import_run is not None and result.import_run not in runs:
                self.add(
                    "results",
                    i,
                    result,
                    f"import_run: no run {result.import_run!r} among the file's imports",
                )
            if result.id in seeded:
                self.add("results", i, result, f"the seed files have a result {result.id!r}")
            units = self.units.get(result.metric)
            if units is None:
                self.known("results", i, result, "metric", set(self.units))
            elif result.unit not in units:
                fit = f"does not fit the metric {result.metric!r}; allowed: {', '.join(units)}"
                self.add("results", i, result, f"unit: {result.unit!r} {fit}")
            try:
                check_value_or_range(result.value, result.low, result.high)
            except ValueError as exc:
                self.add("results", i, result, f"value: {exc}")
            if self.team.format_version == 1:
                _before_the_vocabulary(result)
            self.vocabulary(i, result)

    def vocabulary(self, i: int, result: Any) -> None:
        """Turn the result's hardware, model and workload names into slugs (restore writes
        them by slug). A result kept from before the vocabulary (its free text in
        hardware_text / model_text) that names nothing known points at the unlisted entry,
        as migration 0007 does; any other unknown name is refused."""
        legacy = self.team.format_version == 1
        for kind, fallback in FALLBACKS.items():
            name = getattr(result, kind)
            if name is None:
                continue
            slug = self.names[kind].resolve(name) or (fallback if legacy else None)
            if slug is None:
                hint = self.names[kind].hint(name, f"a slug of the seed files' {kind} entries")
                self.add("results", i, result, f"{kind}: no {kind} {name!r}; {hint}")
            setattr(result, kind, slug)

    def notes(self) -> None:
        """Each note's item must be one the restore makes: a claim by its cell, source and
        note, a figure by its id (on the note's own system)."""
        notes = self.team.notes
        self.unique("notes", notes, lambda n: n.id, "a note with this id")
        claims = _seed_claim_keys(self.seed) | {_claim_key(c) for c in self.team.claims}
        figures = {row.id: row.system for rows in self.seed.benchmarks.values() for row in rows}
        figures |= {r.id: r.system for r in self.team.results}
        for i, note in enumerate(notes):
            self.known("notes", i, note, "system", self.systems)
            self.known_user("notes", i, note, note.user)
            if note.claim is not None and note.result is not None:
                self.add("notes", i, note, "a note is on a claim or on a figure, not on both")
            elif note.claim is not None:
                key = (note.system, note.claim.capability, note.claim.source, note.claim.note)
                if key not in claims:
                    message = "no such claim in the seed files or among the backup's claims"
                    self.add("notes", i, note, f"claim: {message}")
            elif note.result is not None and figures.get(note.result) != note.system:
                where = "in the seed files or among the backup's results"
                message = f"no result {note.result!r} of system {note.system!r} {where}"
                self.add("notes", i, note, f"result: {message}")

    def revisions(self) -> None:
        previous = 0
        for i, revision in enumerate(self.team.revisions):
            self.known_user("revisions", i, revision, revision.user)
            if revision.id <= previous:
                message = f"id: revisions must come in increasing id order (after #{previous})"
                self.add("revisions", i, revision, message)
            previous = max(previous, revision.id)


FALLBACKS = {"hardware": "unlisted-hardware", "model": "unlisted-model", "workload": "unspecified"}
"""What a format-1 result's free text points at when it names no entry (as in 0007)."""


def _before_the_vocabulary(result: Any) -> None:
    """A format-1 result: its workload text is our setup line, and its hardware and model
    text is kept as given beside the entries it is matched to."""
    result.setup, result.hardware_text, result.model_text = (
        result.workload,
        result.hardware,
        result.model,
    )
    if result.precision:
        result.precision = canonical_precision(result.precision)


def _claim_key(claim: Any) -> tuple[str, str, str, str | None]:
    return claim.system, claim.capability, claim.source, claim.note


def _seed_claim_keys(seed: SeedData) -> set[tuple[str, str, str, str | None]]:
    keys = set()
    for source, by_system in seed.claims.items():
        for system, by_capability in by_system.items():
            for capability, entries in by_capability.items():
                for entry in entries if isinstance(entries, list) else [entries]:
                    keys.add((system, capability, source, entry.note))
    return keys
