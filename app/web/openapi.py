"""OpenAPI for the query models: one parameter object per field, allowed values included.

Vocabularies that live in the data (systems, capabilities, …) are filled into the schema
when /openapi.json is served, so the document lists what the server accepts right now.
"""

from typing import Any

from pydantic import BaseModel

from app.params.reader import SPLIT, Vocabulary

VOCABULARY_KEY = "x-vocabulary"


def query_parameters(model: type[BaseModel]) -> dict[str, Any]:
    """`openapi_extra` for a route that reads `model` from the query string."""
    schema = model.model_json_schema()
    properties = schema.get("properties", {})
    parameters = []
    for name, field in model.model_fields.items():
        prop = _without_null(properties[name])
        prop.pop("title", None)
        description = prop.pop("description", field.description or "")
        parameter: dict[str, Any] = {
            "name": name,
            "in": "query",
            "required": bool(prop.get("minItems")),
            "description": description,
            "schema": prop,
            # An empty value counts as absent (`?cell=` reads as no `cell`, as a form's
            # unanswered select sends it).
            "allowEmptyValue": True,
        }
        if prop.get("type") == "array":
            parameter |= {"style": "form", "explode": True}
            if SPLIT in field.metadata:
                parameter["description"] += " (repeat the parameter, or separate with commas)"
        vocabulary = next((m for m in field.metadata if isinstance(m, Vocabulary)), None)
        if vocabulary is not None:
            parameter[VOCABULARY_KEY] = vocabulary.name
        parameters.append(parameter)
    return {"parameters": parameters}


def _without_null(prop: dict[str, Any]) -> dict[str, Any]:
    """A query parameter is absent rather than null: keep the non-null alternative."""
    options = prop.get("anyOf")
    if options:
        kept = [o for o in options if o.get("type") != "null"]
        rest = {k: v for k, v in prop.items() if k != "anyOf"}
        if len(kept) == 1:
            return {**kept[0], **rest}
        return {**rest, "anyOf": kept}
    return dict(prop)


def fill_vocabularies(
    schema: dict[str, Any], vocabularies: dict[str, dict[str, list[str]]]
) -> None:
    """Put each operation's current allowed values into its parameters' schemas."""
    for path, operations in schema.get("paths", {}).items():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                name = parameter.pop(VOCABULARY_KEY, None)
                allowed = vocabularies.get(path, {}).get(name or "")
                if name is None or allowed is None:
                    continue
                target = parameter["schema"]
                target = target["items"] if target.get("type") == "array" else target
                target["enum"] = list(allowed)


# What any operation that takes a body may answer before its own code runs (HttpBasics, the
# body parser), and what any operation may answer when the database is locked.
BODY_ANSWERS: dict[str, dict[str, Any]] = {
    "400": {"description": "The body could not be parsed (not JSON, or a broken form)"},
    "408": {"description": "The body stopped arriving (BODY_TIMEOUT_SECONDS)"},
    "413": {"description": "The body is over the limit: 1 MB, or the import limit for files"},
}
LOCKED_ANSWER: dict[str, Any] = {
    "description": "The database is busy with another change; try again after Retry-After"
}


def add_common_answers(schema: dict[str, Any]) -> None:
    """List the answers every operation of a kind can give, so a client (and the schema
    fuzzer) finds each status it may receive in the schema."""
    for operations in schema.get("paths", {}).values():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            if "requestBody" in operation:
                for status, answer in BODY_ANSWERS.items():
                    responses.setdefault(status, answer)
            if method in ("post", "put", "patch", "delete"):
                responses.setdefault("503", LOCKED_ANSWER)
