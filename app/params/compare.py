"""/compare and /api/v1/compare: the systems to compare, in the user's order."""

from typing import Annotated

from pydantic import Field
from starlette.datastructures import QueryParams

from app.params.level import LevelParams
from app.params.reader import MAX_VALUES, SPLIT, ParamProblem, Vocabulary, encode


class CompareParams(LevelParams):
    s: Annotated[
        tuple[str, ...],
        Field(description="two to four system slugs, in display order", max_length=MAX_VALUES),
        Vocabulary("system"),
        SPLIT,
    ] = ()
    diff: Annotated[bool, Field(description="show only the rows where the systems differ")] = False
    q: Annotated[str, Field(description="find a system to add", max_length=100)] = ""
    # The Find button: add the system `q` names (exactly, or as the only match) at once.
    # Never part of a canonical URL.
    find: Annotated[bool, Field(description="add the system `q` names, if one is clear")] = False

    def query_string(self, **changes: object) -> str:
        p = self.replace(**changes) if changes else self
        pairs = [("s", slug) for slug in p.s]
        if p.diff:
            pairs.append(("diff", "1"))
        pairs += p.level_pairs()
        if p.q:
            pairs.append(("q", p.q))
        return encode(pairs)


class CompareApiParams(LevelParams):
    s: Annotated[
        tuple[str, ...],
        Field(
            description="two to four system slugs, in display order",
            min_length=2,
            max_length=4,
            json_schema_extra={"uniqueItems": True},
        ),
        Vocabulary("system"),
        SPLIT,
    ] = ()
    diff: Annotated[bool, Field(description="only the rows where the systems differ")] = False


def compare_problems(query: QueryParams) -> list[ParamProblem]:
    """Systems listed twice: each may appear once."""
    given = [v.strip() for raw in query.getlist("s") for v in raw.split(",") if v.strip()]
    return [
        ParamProblem("s", slug, (), "is listed twice; each system can appear once")
        for slug in dict.fromkeys(x for x in given if given.count(x) > 1)
    ][:MAX_VALUES]
