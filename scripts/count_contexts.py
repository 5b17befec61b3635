"""Count benchmark contexts the way /benchmarks groups them: load a seed folder into a
throwaway SQLite database, read every figure as the pages do and group with group_contexts.

    .venv/bin/python -m scripts.count_contexts [SEED_DIR]

Prints the number of contexts, how many compare two systems or more (and how many of those
are ranked), and which of those run on AMD Instinct hardware.
"""

import sys
import tempfile
from pathlib import Path

from sqlmodel import Session, create_engine, select

from app.models import Metric
from app.queries.benchmarks import benchmark_views
from app.queries.contexts import group_contexts
from app.seeding.prepare import migrate_and_seed


def main(seed_dir: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        engine = create_engine(f"sqlite:///{tmp}/atlas.db")
        migrate_and_seed(engine, seed_dir)
        with Session(engine) as session:
            units = {m.slug: m.units[0] for m in session.exec(select(Metric))}
            contexts = group_contexts(benchmark_views(session), units)
        engine.dispose()
    shared = [c for c in contexts if len({r.result.system for r in c.results}) >= 2]
    amd = [c for c in shared if (c.hardware or "").startswith("amd-instinct")]
    print(f"contexts: {len(contexts)}")
    print(f"comparing two systems or more: {len(shared)} ({sum(c.ranked for c in shared)} ranked)")
    print(f"of those on AMD Instinct: {len(amd)}")
    for c in amd:
        print(f"  {c.metric} · {c.label()}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("seed"))
