"""What the benchmark requests: the main views, distinct never-cached URLs, hostile requests."""

import random
from collections.abc import Callable, Iterator
from itertools import permutations
from typing import Any
from urllib.parse import urlencode

from app.decision.questions import QUESTIONS

FLOOR = "/"  # on the bare FastAPI app (scripts/benchkit/bare.py), not on the Atlas
VIEWS = (
    "/healthz",  # no database, no template: what the Atlas's middleware alone costs
    "/",
    "/matrix",
    "/hardware",
    "/benchmarks",
    "/compare?s=vllm&s=sglang",
    "/compare?s=vllm&s=sglang&s=llama-cpp",
    "/decide?hardware=nvidia-datacenter&scale=production&workload=rag",
    "/systems/vllm",
    "/sources",
    "/api/v1/recommend?hardware=apple-silicon&scale=single-user",
    "/api/v1/benchmarks",
    # At a service level: every team sweep read at it, costs, timelines, measured evidence.
    "/benchmarks?per_user=50",
    "/api/v1/sweeps?per_user=50",
    "/decide?hardware=nvidia-datacenter&priority=throughput&per_user=50",
    # The fit: arithmetic over cached facts (issue 36), as JSON and as the page.
    "/api/v1/fit?model=llama-3.1-70b&hardware=H100&gpus=2&context=32768&concurrency=8",
    "/fit?model=gpt-oss-120b&hardware=nvidia-h100-sxm5-80gb&system=vllm",
)
# Hit while `inference-atlas seed` reloads the data: each of them reads every table.
RESEED_VIEWS = ("/matrix", "/compare?s=vllm&s=sglang", "/benchmarks", "/systems/vllm")

GetJson = Callable[[str], Any]
Query = list[tuple[str, str]]


def distinct_urls(get_json: GetJson, seed: int = 9) -> list[str]:
    """Several hundred page URLs, each different, built from the live API's own vocabulary.

    Parameters come in each page's canonical order, so a URL is answered, not redirected.
    """
    rng = random.Random(seed)  # the same list for the same data, run after run
    systems = get_json("/api/v1/systems")
    slugs = sorted(s["slug"] for s in systems)
    urls = [f"/systems/{slug}" for slug in slugs][:150]
    urls += _compare(rng, slugs, size=2, count=150)
    urls += _compare(rng, slugs, size=3, count=100)
    capabilities = get_json("/api/v1/capabilities")
    urls += _take(rng, 120, lambda: _matrix(rng, systems, capabilities))
    results = get_json("/api/v1/benchmarks")["results"]
    urls += _take(rng, 80, lambda: _benchmarks(rng, results))
    urls += _take(rng, 100, lambda: _decide(rng))
    unique = [url for url in dict.fromkeys(urls) if url not in VIEWS]
    rng.shuffle(unique)  # mixed, as real traffic would be, not one page type at a time
    return unique


def _take(rng: random.Random, count: int, make: Callable[[], str]) -> list[str]:
    """`count` different URLs from `make`, or as many as it can make in 50x the tries."""
    found: dict[str, None] = {}
    for _ in range(count * 50):
        found[make()] = None
        if len(found) == count:
            break
    return list(found)


def _compare(rng: random.Random, slugs: list[str], size: int, count: int) -> list[str]:
    """Ordered picks of `size` systems (order matters: it is the column order)."""
    if size == 2 or len(slugs) < 12:
        combos = list(permutations(slugs, size))
        chosen = rng.sample(combos, min(count, len(combos)))
    else:  # 27 slugs already give 17,550 ordered triples; sample without listing them
        chosen = list(dict.fromkeys(tuple(rng.sample(slugs, size)) for _ in range(count * 2)))
    return [f"/compare?{urlencode([('s', s) for s in combo])}" for combo in chosen[:count]]


def _matrix(rng: random.Random, systems: list[dict[str, Any]], capabilities: list[Any]) -> str:
    """/matrix or /hardware with a random mix of filters, in the canonical order."""
    view = rng.choice(("feature", "hardware"))
    path = "/matrix" if view == "feature" else "/hardware"
    hardware = [c["slug"] for c in capabilities if c["kind"] == "hardware"]
    groups = sorted({c["category"] for c in capabilities if c["kind"] == view})
    needs = [c["slug"] for c in capabilities if c["kind"] == view]
    query: Query = [("need", _need(rng, slug)) for slug in rng.sample(needs, rng.randint(0, 2))]
    query += _maybe(rng, "hw", hardware)
    for name, key in (("licence", "licence_family"), ("kind", "kind"), ("status", "status")):
        query += _maybe(rng, name, sorted({s[key] for s in systems}))
    query += _maybe(rng, "sort", ["matches", "coverage"])
    query += [("diff", "1")] if rng.random() < 0.3 else []
    query += _maybe(rng, "group", groups)
    return f"{path}?{urlencode(query, safe=':')}" if query else path


def _need(rng: random.Random, slug: str) -> str:
    level = rng.choice(("any", "partial", "yes"))
    return slug if level == "any" else f"{slug}:{level}"


def _maybe(rng: random.Random, name: str, values: list[str], chance: float = 0.35) -> Query:
    return [(name, rng.choice(values))] if values and rng.random() < chance else []


def _benchmarks(rng: random.Random, results: list[dict[str, Any]]) -> str:
    """/benchmarks narrowed to some of one real result's context, so it is never empty."""
    row = rng.choice(results)
    values = {**row, "source": row["source"]["slug"]}
    fields = ("system", "metric", "hardware", "model", "precision", "source")
    query: Query = [(f, values[f]) for f in fields if values[f] and rng.random() < 0.4]
    query += _maybe(rng, "origin", ["published", "team"], chance=0.2)
    query += _maybe(rng, "sort", ["value", "-value", "date", "-date", "system", "-concurrency"])
    return f"/benchmarks?{urlencode(query)}" if query else "/benchmarks"


def _decide(rng: random.Random) -> str:
    """/decide with one to all of the questions answered, in the flow's order."""
    query: Query = []
    for question in QUESTIONS:
        if rng.random() < 0.55:
            options = list(question.option_ids())
            picked = rng.sample(options, rng.randint(1, 2) if question.multiple else 1)
            query += [(question.id, o) for o in sorted(picked, key=options.index)]
    return f"/decide?{urlencode(query)}" if query else "/decide?scale=small-team"


# Where hostile query strings are appended: every view and API with parameters.
HOSTILE_BASES = (
    "/",
    "/matrix",
    "/hardware",
    "/benchmarks",
    "/compare?s=vllm&s=sglang",
    "/decide?hardware=apple-silicon",
    "/systems/vllm",
    "/sources",
    "/api/v1/matrix",
    "/api/v1/benchmarks",
    "/api/v1/compare?s=vllm&s=sglang",
    "/api/v1/recommend?scale=production",
)
BIG = "a," * 30_000  # 60 KB: past our 8 KB limit, short of the HTTP parser's own 64 KB one
UNKNOWN_VALUES = (
    "need=nope",
    "need=paged-kv-cache:maybe",
    "hw=quantum",
    "kind=rocket",
    "sort=sideways",
    "s=nope",
    "system=nope",
    "metric=nope",
    "scale=galactic",
    "needs=nope",
    "diff=maybe",
    "origin=moon",
    "cmin=abc",
    "cmin=-1",
    "cmax=1e9",
    "cmin=99999999999999999999999999",
)
# Characters that str.isdigit() accepts but int() may not, bytes that are not UTF-8, controls.
ODD_CHARACTERS = (
    "cmin=%C2%B2",
    "cmax=%E2%91%A0",
    "cmin=%D9%A3",
    "cmin=%EF%BC%91",
    "q=%FF%FE",
    "q=%00",
    "q=%0D%0ASet-Cookie:%20x=1",
    "s=%F0%9F%98%80",
    "need=%2e%2e%2f",
    "q=" + "%F0%9F%98%80" * 500,
)
HOSTILE_QUERIES: dict[str, tuple[str, ...]] = {
    "tracking parameters": ("utm_source=x&fbclid=y", "gclid=abc", "utm_medium=email&ref=hn"),
    "oversized (60 KB)": tuple(f"{n}={BIG}" for n in ("need", "hw", "system", "s", "needs", "q")),
    "repeated parameters": tuple(
        "&".join([pair] * 1000)
        for pair in ("kind=engine", "s=vllm", "system=vllm", "needs=multi-gpu", "sort=name")
    ),
    "unknown values": UNKNOWN_VALUES,
    "odd characters": ODD_CHARACTERS,
}
HOSTILE_PATHS = (
    "/systems/%2e%2e",
    "/systems/" + "a" * 5000,
    "/static/../app/main.py",
    "/compare",
    "/compare?s=vllm",
    "/api/v1/systems/nope",
    "//matrix",
    "/matrix/cell?system=nope",
)


def hostile_requests() -> Iterator[tuple[str, str]]:
    """(kind, path) for a few hundred requests a server must refuse politely (4xx), not 5xx."""
    for kind, queries in HOSTILE_QUERIES.items():
        for base in HOSTILE_BASES:
            for query in queries:
                yield kind, f"{base}{'&' if '?' in base else '?'}{query}"
    for path in HOSTILE_PATHS:
        yield "odd paths", path
