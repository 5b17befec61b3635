"""How a query string is read against a parameter model (app/params/reader.py)."""

from starlette.datastructures import QueryParams

from app.params.models import ModelMatrixParams
from app.params.reader import read_query

FAMILIES = {"arch-family": ["Llama 3.x", "Mistral, Mistral Nemo, Ministral", "Qwen3"]}


def test_a_name_with_a_comma_in_it_is_read_whole_and_others_still_split() -> None:
    query = QueryParams(
        [
            ("view", "models"),
            ("family", "Mistral, Mistral Nemo, Ministral"),
            ("family", "Llama 3.x,Qwen3"),
        ]
    )
    reading = read_query(ModelMatrixParams, query, FAMILIES)
    assert reading.problems == []
    assert reading.params.family == ("Mistral, Mistral Nemo, Ministral", "Llama 3.x", "Qwen3")
    # Its canonical query keeps it one value, so the link reads back the same.
    again = read_query(ModelMatrixParams, QueryParams(reading.params.query_string()), FAMILIES)
    assert again.params.family == reading.params.family


def test_parts_of_a_comma_name_are_not_a_match() -> None:
    reading = read_query(
        ModelMatrixParams, QueryParams("view=models&family=Mistral,Qwen3"), FAMILIES
    )
    assert [p.value for p in reading.problems] == ["Mistral"]
    assert reading.params.family == ("Qwen3",)
