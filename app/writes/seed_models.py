"""Seed the model data of issue 35: each model's base and config facts, the architecture
classes, and which system serves which class (support rows).

The seeder (app/writes/seed.py) calls `sync_model_support` once, after the models, systems
and sources have their ids. Upserts
keep the ids of unchanged rows as the rest of the seed does: architectures by class name,
support rows by (source, system, class), config rows by model; rows no longer in the seed are
left to the seeder's removal pass (`leave`).
"""

from typing import Any

from sqlmodel import select

from app.models import Architecture, LanguageModel, ModelConfig, ModelSupport
from app.writes.seed_rows import SeedRows

# ModelEntry fields that are not languagemodel columns: written here, not by the vocabulary
# upsert (the base is an id once every model has one; the config is a row of its own).
APPLIED_APART = frozenset({"base", "config"})
# Children before parents, for the seeder's removal pass.
REMOVAL_ORDER = (ModelSupport, ModelConfig, Architecture)


def sync_model_support(seeder: SeedRows) -> None:
    """Bases, config facts, architectures and support rows, from seeder.data."""
    _bases_and_configs(seeder)
    _architectures(seeder)
    _support(seeder)


def _bases_and_configs(seeder: SeedRows) -> None:
    ids = seeder.ids.vocabulary["model"]
    models = {
        row.id: row
        for row in seeder.session.exec(select(LanguageModel))
        if not row.team  # a team's own model is never the seed's
    }
    configs = {row.languagemodel_id: row for row in seeder.session.exec(select(ModelConfig))}
    for slug, entry in seeder.data.models.items():
        model_id = ids[slug]
        base = ids[entry.base] if entry.base else None
        if seeder.report.first:
            # Every model was added a moment ago: its base is part of adding it, not an update.
            models[model_id].base_id = base
        else:
            seeder.put(LanguageModel, models[model_id], {"base_id": base})
        existing = configs.pop(model_id, None)
        if entry.config is None:
            if existing is not None:
                seeder.leave(ModelConfig, [existing])
            continue
        fields: dict[str, Any] = entry.config.model_dump(exclude={"source"})
        fields.update(languagemodel_id=model_id, source_id=seeder.ids.sources[entry.config.source])
        seeder.put(ModelConfig, existing, fields)
    # Configs of models that left the seed (a team model never has one from the seed).
    seeder.leave(ModelConfig, (row for key, row in configs.items() if key in models))


def _architectures(seeder: SeedRows) -> None:
    existing = {row.name: row for row in seeder.session.exec(select(Architecture))}
    for position, (name, entry) in enumerate(seeder.data.architectures.items()):
        fields = entry.model_dump(exclude={"source"})
        fields.update(name=name, position=position, source_id=seeder.ids.sources[entry.source])
        seeder.put(Architecture, existing.pop(name, None), fields)
    seeder.leave(Architecture, existing.values())


def _support(seeder: SeedRows) -> None:
    existing = {
        (row.source_id, row.system_id, row.architecture): row
        for row in seeder.session.exec(select(ModelSupport))
    }
    position = 0
    for source, by_system in seeder.data.support.items():
        source_id = seeder.ids.sources[source]
        for system, rows in by_system.items():
            system_id = seeder.ids.systems[system]
            for name, entry in rows.items():
                fields = entry.model_dump()
                fields.update(
                    source_id=source_id, system_id=system_id, architecture=name, position=position
                )
                seeder.put(ModelSupport, existing.pop((source_id, system_id, name), None), fields)
                position += 1
    seeder.leave(ModelSupport, existing.values())
