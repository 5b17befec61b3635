"""Read hardware.yaml, models.yaml and workloads.yaml; resolve the names benchmark rows use."""

from pathlib import Path
from typing import Any

from app.seeding.reader import SeedReader
from app.seeding.schema import (
    MOE_KINDS,
    BenchmarkRow,
    HardwareEntry,
    ModelEntry,
    VocabularyEntry,
    WorkloadEntry,
)
from app.seeding.yamlio import line_of
from app.vocabulary.names import Names, alias_key, canonical_precision

# kind -> (file, entry model, the SeedData attribute holding its entries)
VOCABULARY_FILES: dict[str, tuple[str, type[VocabularyEntry], str]] = {
    "hardware": ("hardware.yaml", HardwareEntry, "hardware"),
    "model": ("models.yaml", ModelEntry, "models"),
    "workload": ("workloads.yaml", WorkloadEntry, "workloads"),
}


def read_vocabularies(reader: SeedReader) -> None:
    """Validate each vocabulary file: entries, their sources, and names used only once."""
    for kind, (file_name, model, attribute) in VOCABULARY_FILES.items():
        path = reader.root / file_name
        raw = reader.read(path)
        entries = reader.keyed_entries(model, raw, path, raw)
        for slug, entry in entries.items():
            for i, source in enumerate(entry.sources):
                reader.check_source(path, line_of(raw, (slug, "sources", i)), slug, source)
            if isinstance(entry, ModelEntry):
                _check_active(reader, path, raw, slug, entry)
                _check_model(reader, path, raw, slug, entry, entries)
            if isinstance(entry, HardwareEntry):
                _check_reported(reader, path, raw, slug, entry)
        setattr(reader.data, attribute, entries)
        reader.data.names[kind] = _names(reader, kind, path, raw, entries)


def _check_active(reader: SeedReader, path: Path, raw: Any, slug: str, entry: ModelEntry) -> None:
    """Active parameters belong to a mixture of experts and cannot exceed its total."""
    active = entry.active_parameters_b
    if active is None:
        return
    line = line_of(raw, (slug, "active_parameters_b"))
    if entry.kind not in MOE_KINDS:
        kinds = ", ".join(MOE_KINDS)
        msg = f"field 'active_parameters_b': only a mixture of experts has one (kind: {kinds})"
        reader.problem(path, line, slug, msg)
    elif entry.parameters_b is not None and active > entry.parameters_b:
        msg = (
            f"field 'active_parameters_b': {active:g} is more than the model's "
            f"{entry.parameters_b:g} billion parameters"
        )
        reader.problem(path, line, slug, msg)


def _check_reported(
    reader: SeedReader, path: Path, raw: Any, slug: str, entry: HardwareEntry
) -> None:
    """A reported figure names its source, a share belongs to unified memory, and neither
    source is given without its figure."""
    pairs = (
        ("reported_memory_gb", "reported_memory_source"),
        ("gpu_share", "gpu_share_source"),
    )
    for figure, source in pairs:
        value, cited = getattr(entry, figure), getattr(entry, source)
        if value is not None and cited is None:
            msg = f"field {source!r}: required with {figure} (the source that gives it)"
            reader.problem(path, line_of(raw, (slug, figure)), slug, msg)
        elif value is None and cited is not None:
            msg = f"field {source!r}: given without {figure}; set the figure or remove it"
            reader.problem(path, line_of(raw, (slug, source)), slug, msg)
        elif cited is not None:
            reader.check_source(path, line_of(raw, (slug, source)), slug, cited)
    if entry.gpu_share is not None and not entry.unified_memory:
        msg = "field 'gpu_share': only unified memory has one (set unified_memory: true)"
        reader.problem(path, line_of(raw, (slug, "gpu_share")), slug, msg)


def _check_model(
    reader: SeedReader,
    path: Path,
    raw: Any,
    slug: str,
    entry: ModelEntry,
    entries: dict[str, VocabularyEntry],
) -> None:
    """The class is a known one, the base another entry, the config's source a source."""

    def at(*keys: str) -> int | None:
        return line_of(raw, (slug, *keys))

    name = entry.architecture
    if name in ("dense", "moe"):
        # Before migration 0011 `architecture` held dense or moe; that is `kind` now.
        msg = (
            f"field 'architecture': {name!r} is a kind, not a class; write `kind: {name}` and "
            "give the Hugging Face class here (LlamaForCausalLM)"
        )
        reader.problem(path, at("architecture"), slug, msg)
    elif name is not None and reader.architecture_keys:
        # Only when architectures.yaml lists classes: a seed without it names them freely.
        reader.check_ref(path, at("architecture"), slug, "architecture", name)
    if entry.base is not None:
        if entry.base == slug:
            reader.problem(path, at("base"), slug, "field 'base': a model is not its own base")
        elif entry.base not in entries:
            close = reader._hint("model", entry.base, entries)
            msg = f"field 'base': unknown model {entry.base!r} (not in models.yaml){close}"
            reader.problem(path, at("base"), slug, msg)
    if entry.config is not None:
        reader.check_source(path, at("config", "source"), slug, entry.config.source)


def _names(
    reader: SeedReader, kind: str, path: Path, raw: Any, entries: dict[str, VocabularyEntry]
) -> Names:
    """The entries' names; a name that two entries claim is reported (it would be a guess)."""
    owner: dict[str, str] = {}
    for slug, entry in entries.items():
        names: list[tuple[str, tuple[Any, ...]]] = [(slug, (slug,)), (entry.name, (slug, "name"))]
        names += [(alias, (slug, "aliases", i)) for i, alias in enumerate(entry.aliases)]
        own: set[str] = set()
        for name, where in names:
            key = alias_key(name)
            other = owner.setdefault(key, slug)
            if other != slug:
                msg = f"the name {name!r} already belongs to {other!r}; a name may name one entry"
                reader.problem(path, line_of(raw, where), slug, msg)
            elif key in own and where[-2:-1] == ("aliases",):
                # Names match ignoring case, spacing and dashes, so this alias adds nothing.
                msg = f"alias {name!r} repeats a name the entry already answers to; remove it"
                reader.problem(path, line_of(raw, where), slug, msg)
            own.add(key)
    return Names.of(
        kind,
        ((slug, [e.name, *e.aliases]) for slug, e in entries.items()),
        vague=(slug for slug, e in entries.items() if e.vague),
    )


def resolve_row(reader: SeedReader, path: Path, line: int, row: BenchmarkRow) -> bool:
    """Replace the row's hardware, model and workload names by slugs; report unknown ones."""
    ok = True
    for kind in VOCABULARY_FILES:
        text = getattr(row, kind)
        if text is None:
            continue
        names = reader.data.names[kind]
        slug = names.resolve(text)
        if slug is None:
            listed = f"a slug or alias in {VOCABULARY_FILES[kind][0]}"
            message = f"column '{kind}': {names.unknown(text, listed)}"
            reader.problem(path, line, f"row {line} ({row.id})", message)
            ok = False
        else:
            setattr(row, kind, slug)
    if row.precision is not None:
        row.precision = canonical_precision(row.precision)
    return ok
