"""The text forms that read models carry as well as pages show: a number, a benchmark
figure, a source's date, and the labels of levels, caveat kinds and kinds of item.

Pure, and below queries/ and present/ both: the read side writes sentences into its read
models (a cell's reason, a note's label, a line's caution) with these, and must not import
present/ to do it; present/formatting.py hands them on to the templates.
"""

from app.schemas import BenchmarkView

LEVEL_LABELS = {
    "yes": "Yes",
    "partial": "Partial",
    "experimental": "Experimental",
    "via": "Via another project",
    "no": "No",
    "unknown": "Unknown",
    "none": "No claim",
    "no-claim": "No current claim",  # every claim left on the cell is withdrawn
}
QUALIFIER_PREFIX = {
    "approx": "~",
    "up-to": "up to ",
    "at-least": "≥ ",
    "less-than": "< ",
    "average": "avg ",
    "max": "max ",
    "exact": "",
}
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def level_label(level: str) -> str:
    return LEVEL_LABELS.get(level, level)


def number(value: float) -> str:
    """1234.0 -> '1,234'; 13.2 -> '13.2'."""
    if value.is_integer():
        return f"{int(value):,}"
    return f"{value:,.2f}".rstrip("0").rstrip(".")


def figure(result: BenchmarkView) -> str:
    """A benchmark figure as a person writes it: '~2,300–2,500 tok/s'; '2.35 s' for 2,350 ms."""
    # A range may start at 0: `low or 0` turned that into the int 0, which number() rejects.
    values = (
        [result.value]
        if result.value is not None
        else [0.0 if v is None else v for v in (result.low, result.high)]
    )
    unit = result.unit
    if unit == "ms" and max(values) >= 1000:
        # "12,400 ms" makes a reader count digits; past a second, seconds read at a glance.
        values, unit = [round(v / 1000, 2) for v in values], "s"
    amount = "–".join(number(float(v)) for v in values)
    spacer = "" if unit in ("%", "x") else " "
    unit_text = "×" if unit == "x" else unit
    return f"{QUALIFIER_PREFIX.get(result.qualifier, '')}{amount}{spacer}{unit_text}"


def source_date(date: str | None) -> str:
    """'2026-04-17' -> '17 Apr 2026'; '2026-06' -> 'Jun 2026'."""
    if not date:
        return ""
    parts = date.split("-")
    if len(parts) == 1:
        return parts[0]
    month = MONTHS[int(parts[1]) - 1]
    return f"{int(parts[2])} {month} {parts[0]}" if len(parts) == 3 else f"{month} {parts[0]}"


CAVEAT_LABELS = {
    "machine-written": "probably machine-written",
    "vendor-interest": "written by a vendor with a stake",
    "estimates": "some figures are estimates",
    "vague-date": "dated only roughly",
}


def caveat_label(kind: str) -> str:
    """A caveat's kind in a few words, for marks read out by screen readers and on /sources."""
    return CAVEAT_LABELS.get(kind, kind.replace("-", " "))


ENTITY_LABELS = {
    "dataset": "Data set",
    "capability_category": "Capability category",
    "benchmark_result": "Benchmark result",
    "rule": "Decision rule",
    "note": "Team note",
}


def entity_label(entity: str) -> str:
    """How the history names a kind of item: 'benchmark_result' -> 'Benchmark result'."""
    return ENTITY_LABELS.get(entity) or entity.replace("_", " ").replace("-", " ").capitalize()


# Pydantic's messages name types ("a valid number, unable to parse string as a number"); a
# person wants to know what to type instead. Shared by the forms and the query parameters.
VALIDATION_WORDS = {
    "float_parsing": "Not a number; type a figure such as 2450 or 12.5.",
    "float_type": "Not a number; type a figure such as 2450 or 12.5.",
    "finite_number": "Not a number; type a figure such as 2450 or 12.5.",
    "int_parsing": "Not a whole number; type one such as 1, 8 or 32.",
    "int_type": "Not a whole number; type one such as 1, 8 or 32.",
    "int_from_float": "Not a whole number; type one such as 1, 8 or 32.",
    "bool_parsing": "Not yes or no; type true or false.",
    "missing": "Required.",
    "literal_error": "Choose one of the listed values.",
    "string_pattern_mismatch": "Choose one from the list.",
    "date_from_datetime_parsing": "Not a date; type it as YYYY-MM-DD.",
    "date_parsing": "Not a date; type it as YYYY-MM-DD.",
}


def validation_words(kind: str, ctx: dict[str, object], message: str) -> str:
    """A validation error (pydantic's type, context and message) as a sentence a person can
    act on: what is wrong and what to type instead."""
    if kind in ("greater_than_equal", "greater_than"):
        bound = float(str(ctx.get("ge", ctx.get("gt", 0))))
        lowest = "the lowest allowed is" if kind == "greater_than_equal" else "it must be over"
        return f"Too low: {lowest} {number(bound)}."
    if kind in ("less_than_equal", "less_than"):
        bound = float(str(ctx.get("le", ctx.get("lt", 0))))
        highest = "the highest allowed is" if kind == "less_than_equal" else "it must be under"
        return f"Too high: {highest} {number(bound)}."
    if kind == "string_too_long":
        return f"Too long: at most {ctx.get('max_length')} characters."
    if kind in VALIDATION_WORDS:
        return VALIDATION_WORDS[kind]
    text = message.removeprefix("Value error, ")
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?")) else ".")


CONFIG_LABELS = {
    "layers": "layers",
    "hidden_size": "hidden size",
    "attention_heads": "attention heads",
    "kv_heads": "KV heads",
    "head_dim": "head dim",
    "v_head_dim": "V head dim",
    "kv_lora_rank": "KV LoRA rank",
    "qk_rope_head_dim": "QK RoPE head dim",
    "sliding_window": "sliding window",
    "experts": "experts",
    "experts_per_token": "experts per token",
    "shared_experts": "shared experts",
    "context": "native context",
    "vocab_size": "vocabulary",
    "torch_dtype": "weight dtype",
    "quantization": "quantisation",
}
"""How a model's config.json fact is named where people read it (the history in /changes)."""
