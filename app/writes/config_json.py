"""A model's config.json as a team pastes it (issue 35): checked key by key, then turned into the
facts the model_config table keeps, in the seed's own names (seed/models.yaml `config:`).

Only the keys the Atlas uses are read; any other key of the file is left alone (a config.json
holds dozens). A vision-language model keeps its language model's numbers in `text_config`:
those fill what the top level leaves out. A key of the wrong type is refused by its own name
(`config.num_hidden_layers`), so a paste with one typo says which.
"""

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr
from sqlmodel import Session, select

from app.models import ModelConfig
from app.text import CONFIG_LABELS
from app.writes.team import team_source

Count = Annotated[StrictInt, Field(gt=0, le=100_000_000)] | None
"""A whole number above 0 (a layer or head count, a window, a context length)."""


class _Numbers(BaseModel):
    # A config.json holds many more keys than these, and they are not the team's mistakes.
    model_config = ConfigDict(extra="ignore")

    num_hidden_layers: Count = None
    hidden_size: Count = None
    num_attention_heads: Count = None
    num_key_value_heads: Count = None
    head_dim: Count = None
    v_head_dim: Count = None
    kv_lora_rank: Count = None
    qk_rope_head_dim: Count = None
    sliding_window: Count = None
    max_position_embeddings: Count = None
    vocab_size: Count = None
    num_local_experts: Count = None  # Mixtral, gpt-oss
    num_experts: Count = None  # Qwen MoE
    n_routed_experts: Count = None  # DeepSeek
    num_experts_per_tok: Count = None
    n_shared_experts: Count = None
    torch_dtype: Annotated[StrictStr, Field(max_length=40)] | None = None
    dtype: Annotated[StrictStr, Field(max_length=40)] | None = None  # newer Transformers
    quantization_config: dict[str, Any] | None = None


class ConfigJson(_Numbers):
    """The keys of a config.json the Atlas reads; `architectures` is required."""

    architectures: Annotated[
        list[Annotated[StrictStr, Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_]+$")]],
        Field(min_length=1, max_length=10),
    ]
    model_type: Annotated[StrictStr, Field(max_length=40)] | None = None
    text_config: _Numbers | None = None

    def facts(self) -> dict[str, Any]:
        """The model_config columns this file gives (None where it is silent)."""
        inner = self.text_config
        pick = (
            {
                name: getattr(self, name)
                if getattr(self, name) is not None
                else getattr(inner, name)
                for name in _Numbers.model_fields
            }
            if inner
            else {name: getattr(self, name) for name in _Numbers.model_fields}
        )
        quant = pick["quantization_config"] or {}
        method = quant.get("quant_method") if isinstance(quant, dict) else None
        return {
            "layers": pick["num_hidden_layers"],
            "hidden_size": pick["hidden_size"],
            "attention_heads": pick["num_attention_heads"],
            "kv_heads": pick["num_key_value_heads"],
            "head_dim": pick["head_dim"],
            "v_head_dim": pick["v_head_dim"],
            "kv_lora_rank": pick["kv_lora_rank"],
            "qk_rope_head_dim": pick["qk_rope_head_dim"],
            "sliding_window": pick["sliding_window"],
            "experts": pick["num_local_experts"] or pick["num_experts"] or pick["n_routed_experts"],
            "experts_per_token": pick["num_experts_per_tok"],
            "shared_experts": pick["n_shared_experts"],
            "context": pick["max_position_embeddings"],
            "vocab_size": pick["vocab_size"],
            "torch_dtype": pick["torch_dtype"] or pick["dtype"],
            "quantization": str(method)[:40] if method else None,
        }

    def precision(self) -> str | None:
        """The native weight precision the file states: its quantisation, else its dtype."""
        facts = self.facts()
        if facts["quantization"]:
            return str(facts["quantization"]).upper()
        return DTYPES.get(facts["torch_dtype"] or "")


DTYPES = {"bfloat16": "BF16", "float16": "FP16", "float32": "FP32"}


def store_config(
    session: Session, model_id: int, config: ConfigJson, team_name: str, page: str
) -> None:
    """Keep a team model's pasted facts, cited to the team's own source."""
    source = team_source(session, team_name)
    session.add(
        ModelConfig(
            languagemodel_id=model_id,
            source_id=source.id,  # type: ignore[arg-type]
            page=page,
            note="Pasted by the team from the model's config.json.",
            **config.facts(),
        )
    )
    session.flush()


def config_doc(session: Session, model_id: int) -> dict[str, Any] | None:
    """A model's config facts as its document and revisions show them (the given ones)."""
    row = session.exec(select(ModelConfig).where(ModelConfig.languagemodel_id == model_id)).first()
    if row is None:
        return None
    return {name: getattr(row, name) for name in FACT_NAMES if getattr(row, name) is not None}


def drop_config(session: Session, model_id: int) -> None:
    """Forget a team model's facts (before the model itself is deleted)."""
    for row in session.exec(select(ModelConfig).where(ModelConfig.languagemodel_id == model_id)):
        session.delete(row)


FACT_NAMES = tuple(CONFIG_LABELS)
