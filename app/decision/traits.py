"""What a named model's facts say about the question "Anything particular about the model?".
Pure.

The family comes from the catalogue's `family` field ("DeepSeek-V2" is a DeepSeek model,
"InternLM3" an InternLM one); multi-head latent attention from the config's `kv_lora_rank`
(only MLA models compress keys and values into a latent of that rank). A fact the catalogue
does not hold settles nothing: the option stays unticked, as it would for a person who did
not tick it (these conditions are opt-in).
"""

from app.decision.questions import QUESTIONS_BY_ID, option_label

# option -> how the family name starts (compared without case)
FAMILIES: dict[str, str] = {"deepseek": "deepseek", "internlm": "internlm"}


def model_traits(family: str | None, kv_lora_rank: int | None) -> list[tuple[str, str]]:
    """(option, the fact that settles it) for each option a model's facts tick."""
    out = []
    name = (family or "").strip().lower()
    for option, prefix in FAMILIES.items():
        if name.startswith(prefix):
            out.append((option, f"is of the {family} family"))
    if kv_lora_rank:
        out.append(("mla", f"has kv_lora_rank {kv_lora_rank} in its config (latent attention)"))
    return out


def fill_traits(
    given: tuple[str, ...], name: str, family: str | None, kv_lora_rank: int | None
) -> tuple[tuple[str, ...], str | None]:
    """The traits answer with what a named model's facts tick added to what was ticked, in
    the question's order, and the assumption to print (None when the facts tick nothing)."""
    found = model_traits(family, kv_lora_rank)
    if not found:
        return given, None
    ticked = {option for option, _ in found} | set(given)
    answer = tuple(o for o in QUESTIONS_BY_ID["traits"].option_ids() if o in ticked)
    labels = " and ".join(f"“{option_label('traits', option)}”" for option, _ in found)
    facts = " and ".join(fact for _, fact in found)
    prompt = QUESTIONS_BY_ID["traits"].prompt
    return answer, f"{name} {facts}, so “{prompt}” reads {labels}"
