"""The layer rules import-linter cannot check (pyproject's [tool.importlinter] holds the
rest): no two of app's modules import each other, even through others, and only writes/
(and the migrations) change data."""

import functools

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
