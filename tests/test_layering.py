"""The layer rules import-linter cannot check (pyproject's [tool.importlinter] holds the
rest): no two of app's modules import each other, even through others, and only writes/
(and the migrations) change data."""

import ast
import functools
from pathlib import Path

import grimp
import pytest


@functools.cache
def app_graph() -> grimp.ImportGraph:
    # Imports under `if TYPE_CHECKING:` count: a circle mypy has to follow is still a circle,
    # and one hidden that way is how the seeding modules' circle went unseen.
    return grimp.build_graph("app", cache_dir=None)


def import_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Every set of modules that import each other (directly or through the others), each
    sorted, largest first: the strongly connected components of the import graph that hold
    more than one module (Tarjan's algorithm, iterative so a deep chain cannot overflow)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, imported = work[-1]
            following = next(imported, None)
            if following is not None:
                if following not in index:
                    index[following] = low[following] = len(index)
                    stack.append(following)
                    on_stack.add(following)
                    found = graph.find_modules_directly_imported_by(following)
                    work.append((following, iter(sorted(found))))
                elif following in on_stack:
                    low[module] = min(low[module], index[following])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                if len(component) > 1:
                    cycles.append(sorted(component))
    return sorted(cycles, key=lambda c: (-len(c), c))


def test_no_module_of_app_imports_itself_back():
    cycles = import_cycles(app_graph())
    assert not cycles, "modules that import each other:\n" + "\n".join(
        " <-> ".join(cycle) for cycle in cycles
    )


def synthetic(*imports: tuple[str, str]) -> grimp.ImportGraph:
    graph = grimp.ImportGraph()
    for importer, imported in imports:
        graph.add_import(importer=importer, imported=imported)
    return graph


@pytest.mark.parametrize(
    ("imports", "expected"),
    [
        ((("a.x", "a.y"), ("a.y", "a.z")), []),
        ((("a.x", "a.y"), ("a.y", "a.x")), [["a.x", "a.y"]]),
        (
            # the queries' circle this test was written for, and an unrelated chain beside it
            (
                ("q.benchmark_page", "q.benchmarks"),
                ("q.benchmarks", "q.entries"),
                ("q.entries", "q.benchmark_page"),
                ("q.common", "q.models"),
            ),
            [["q.benchmark_page", "q.benchmarks", "q.entries"]],
        ),
        (
            (("a.p", "a.q"), ("a.q", "a.p"), ("a.r", "a.s"), ("a.s", "a.t"), ("a.t", "a.r")),
            [["a.r", "a.s", "a.t"], ["a.p", "a.q"]],
        ),
    ],
)
def test_import_cycles_finds_every_circle_and_names_its_modules(imports, expected):
    assert import_cycles(synthetic(*imports)) == expected


APP = Path(__file__).resolve().parent.parent / "app"
# Packages whose job is to change data: every change goes through writes/ (revision, data
# version, the write transaction); the migrations change the schema and the rows with it.
WRITERS = ("writes", "migrations")
SESSION_CHANGES = {"add", "add_all", "merge", "delete", "commit"}
STATEMENTS = {"insert", "update", "delete"}
# Changes made outside writes/ on purpose, each with its reason.
ALLOWED = {
    # bump_data_version writes the data version's own row; every write in writes/ calls it,
    # and data_version/ is its one home (docs/architecture.md).
    ("data_version/version.py", "session.merge"),
}


def data_changes(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, what) for each change of data in a module: a session's add/add_all/merge/
    delete/commit, and SQLAlchemy's insert()/update()/delete() statements (however imported:
    `from sqlalchemy import delete as d` too, or `sqlalchemy.delete`)."""
    statements = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and (node.module or "").split(".")[0] in ("sqlalchemy", "sqlmodel")
        for alias in node.names
        if alias.name in STATEMENTS
    }
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id in statements:
            found.append((node.lineno, f"{func.id}("))
        elif isinstance(func, ast.Attribute):
            owner = ast.unparse(func.value)
            if func.attr in SESSION_CHANGES and owner.split(".")[-1].endswith("session"):
                found.append((node.lineno, f"session.{func.attr}"))
            elif func.attr in STATEMENTS and owner in ("sqlalchemy", "sa", "sqlmodel"):
                found.append((node.lineno, f"{owner}.{func.attr}("))
    return sorted(found)


def test_only_writes_change_data():
    outside, allowed_seen = [], set()
    for path in sorted(APP.rglob("*.py")):
        module = path.relative_to(APP).as_posix()
        if module.split("/")[0] in WRITERS:
            continue
        for line, what in data_changes(ast.parse(path.read_text(), str(path))):
            if (module, what) in ALLOWED:
                allowed_seen.add((module, what))
            else:
                outside.append(f"app/{module}:{line}: {what}")
    assert not outside, "data changed outside app/writes/:\n" + "\n".join(outside)
    # An exception nothing needs any more would let the next one in unseen.
    assert allowed_seen == ALLOWED, f"no longer needed: {ALLOWED - allowed_seen}"


def test_data_changes_sees_each_way_of_changing_data():
    source = """
from sqlalchemy import delete as remove, insert
import sqlalchemy

def change(session, self, rows):
    session.add(rows[0])
    self.session.merge(rows[1])
    session.exec(remove(rows))
    session.execute(insert(rows), [])
    sqlalchemy.update(rows)
    session.commit()
    rows.add(1)  # a set, not a session
    {}.update(a=1)  # a dict
"""
    assert data_changes(ast.parse(source)) == [
        (6, "session.add"),
        (7, "session.merge"),
        (8, "remove("),
        (9, "insert("),
        (10, "sqlalchemy.update("),
        (11, "session.commit"),
    ]
