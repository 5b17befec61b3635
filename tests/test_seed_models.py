"""The model data of issue 35 in the seed: architectures.yaml, support/<source>.yaml and each
model's kind, class, base, precision and config facts; checked, stored, exported, served."""

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlmodel import Session, col, select

from app.models import Architecture, LanguageModel, ModelConfig, ModelSupport
from app.seeding.export import export_seed
from app.seeding.load import load_seed
from app.seeding.prepare import seed
from tests.conftest import SEED_DIR
from tests.test_seed_errors import line_number, problems_for, replace_in

SUPPORT = "support/tgi-model-registry.yaml"
TGI_PAGE = "https://github.com/huggingface/text-generation-inference/blob/v0.9.0/"


# -- what the fixture seed holds --------------------------------------------------------
def test_the_fixture_seed_loads_classes_support_rows_and_config_facts() -> None:
    data = load_seed(SEED_DIR)
    assert list(data.architectures) == [
        "LlamaForCausalLM",
        "DeepseekV3ForCausalLM",
        "Qwen2ForCausalLM",
    ]
    rows = data.support["tgi-model-registry"]["tgi"]
    assert rows["LlamaForCausalLM"].since_exact is True  # the default
    assert rows["DeepseekV3ForCausalLM"].since_exact is False
    assert rows["GPTNeoXForCausalLM"].until == "v3.0.0"  # a class the file does not list
    assert rows["LlamaForCausalLM"].level == "yes"  # YAML 1.2: a bare yes is text
    deepseek = data.models["deepseek-v3"]
    assert (deepseek.kind, deepseek.architecture) == ("moe", "DeepseekV3ForCausalLM")
    assert deepseek.config is not None and deepseek.config.kv_lora_rank == 512
    assert data.models["llama-3.1-8b-fp8"].base == "llama-3.1-8b"


# -- refusals: each names the file, the line, the field and what is allowed -------------
def _one(seed_dir: Path) -> str:
    [problem] = problems_for(seed_dir)
    return problem


def test_a_support_page_at_a_repository_root_is_refused(seed_copy: Path) -> None:
    path = seed_copy / SUPPORT
    root = "https://github.com/huggingface/text-generation-inference"
    replace_in(path, TGI_PAGE + "server/text_generation_server/models/__init__.py#L120", root)
    line = line_number(path, f"page: {root}\n".strip())
    assert _one(seed_copy).startswith(
        f"{SUPPORT}:{line}: tgi.LlamaForCausalLM: field 'page': is a repository root; "
        "allowed: a file at a tag or commit"
    )


@pytest.mark.parametrize(
    ("old", "new", "field", "allowed"),
    [
        (
            "    level: yes\n    since: v0.9.0",
            "    level: maybe\n    since: v0.9.0",
            "level",
            "'yes', 'partial', 'experimental', 'via', 'no' or 'unknown'",
        ),
        ("    since_exact: false", "    since_exact: yes", "since_exact", "valid boolean"),
        ("    since: v0.9.0", "    since: 0.9", "since", "quote it: '0.9'"),
        ("    since: v0.9.0", "    since: soon", "since", "a version such as v0.4.0"),
    ],
)
def test_a_support_field_outside_its_values_is_refused(
    seed_copy: Path, old: str, new: str, field: str, allowed: str
) -> None:
    path = seed_copy / SUPPORT
    replace_in(path, old, new)
    line = line_number(path, new.splitlines()[0])
    problem = _one(seed_copy)
    assert problem.startswith(f"{SUPPORT}:{line}: tgi.") and f"field '{field}'" in problem
    assert allowed in problem


def test_a_via_row_without_a_note_is_refused(seed_copy: Path) -> None:
    path = seed_copy / SUPPORT
    replace_in(
        path,
        "    note: Not in the optimised list; served through the Transformers implementation.\n",
        "",
    )
    line = line_number(path, "level: via")
    assert _one(seed_copy) == (
        f"{SUPPORT}:{line}: tgi.Qwen2ForCausalLM: field 'note': a 'via' row needs a note "
        "(required for no, via, partial and when since_exact is false)"
    )


def test_a_support_row_names_a_known_system(seed_copy: Path) -> None:
    path = seed_copy / SUPPORT
    replace_in(path, "tgi:\n", "tgl:\n")
    assert _one(seed_copy) == f"{SUPPORT}:1: tgl: unknown system 'tgl'; did you mean tgi?"


def test_a_support_file_comes_from_a_first_party_source(seed_copy: Path) -> None:
    (seed_copy / SUPPORT).rename(seed_copy / "support/olla-servers-compared.yaml")
    assert _one(seed_copy) == (
        "support/olla-servers-compared.yaml: file name: source 'olla-servers-compared' is of "
        "kind article; support rows come from a project's own registry or pages, allowed "
        "kinds: project-docs, release-notes, official-blog"
    )


def test_a_model_class_must_be_listed_when_architectures_yaml_lists_classes(
    seed_copy: Path,
) -> None:
    path = seed_copy / "models.yaml"
    replace_in(path, "  architecture: DeepseekV3ForCausalLM", "  architecture: DeepseekV3ForCausal")
    line = line_number(path, "DeepseekV3ForCausal\n".strip())
    assert _one(seed_copy) == (
        f"models.yaml:{line}: deepseek-v3: unknown architecture 'DeepseekV3ForCausal'; "
        "did you mean DeepseekV3ForCausalLM?"
    )


def test_the_old_dense_or_moe_architecture_points_at_kind(seed_copy: Path) -> None:
    path = seed_copy / "models.yaml"
    replace_in(path, "  kind: moe\n  architecture: DeepseekV3ForCausalLM", "  architecture: moe")
    problem = _one(seed_copy)
    assert problem.startswith(f"models.yaml:{line_number(path, '  architecture: moe')}: ")
    assert "'moe' is a kind, not a class; write `kind: moe`" in problem


def test_a_base_names_another_model(seed_copy: Path) -> None:
    path = seed_copy / "models.yaml"
    replace_in(path, "  base: llama-3.1-8b\n", "  base: llama-3.1-8c\n")
    line = line_number(path, "base: llama-3.1-8c")
    problem = _one(seed_copy)
    assert problem.startswith(
        f"models.yaml:{line}: llama-3.1-8b-fp8: field 'base': unknown model 'llama-3.1-8c'"
    )
    assert "did you mean llama-3.1-8b" in problem


@pytest.mark.parametrize("value", ["'32'", "0", "32.5", "yes"])
def test_a_config_count_is_a_whole_number_above_zero(seed_copy: Path, value: str) -> None:
    path = seed_copy / "models.yaml"
    replace_in(path, "    layers: 32\n", f"    layers: {value}\n")
    line = line_number(path, f"    layers: {value}")
    # The entry is left out, so figures naming the model are reported after it.
    problem = problems_for(seed_copy)[0]
    assert problem.startswith(f"models.yaml:{line}: llama-3.1-8b: field 'config.layers': ")


def test_an_attention_kind_outside_the_list_is_refused(seed_copy: Path) -> None:
    path = seed_copy / "architectures.yaml"
    replace_in(path, "    - mla\n", "    - mqa\n")
    line = line_number(path, "    - mqa")
    problem = _one(seed_copy)
    assert problem.startswith(
        f"architectures.yaml:{line}: DeepseekV3ForCausalLM: field 'attention.0': "
    )
    assert "'gqa', 'mha', 'mla'" in problem


def test_a_class_name_key_must_look_like_one(seed_copy: Path) -> None:
    path = seed_copy / "architectures.yaml"
    replace_in(path, "Qwen2ForCausalLM:", "qwen2-for-causal-lm:")
    line = line_number(path, "qwen2-for-causal-lm:")
    assert _one(seed_copy).startswith(
        f"architectures.yaml:{line}: qwen2-for-causal-lm: is not a valid key; allowed: a "
        "Hugging Face class name"
    )


def test_a_seed_without_architectures_names_classes_freely(seed_copy: Path) -> None:
    (seed_copy / "architectures.yaml").unlink()
    data = load_seed(seed_copy)
    assert data.architectures == {}
    assert data.models["deepseek-v3"].architecture == "DeepseekV3ForCausalLM"


# -- stored, reseeded, exported ----------------------------------------------------------
def _ids(engine: Engine) -> dict[str, dict[object, int | None]]:
    with Session(engine) as session:
        return {
            "support": {
                (r.system_id, r.architecture, r.source_id): r.id
                for r in session.exec(select(ModelSupport))
            },
            "architecture": {r.name: r.id for r in session.exec(select(Architecture))},
            "config": {r.languagemodel_id: r.id for r in session.exec(select(ModelConfig))},
        }


@pytest.mark.database
@pytest.mark.slow
def test_reseeding_keeps_ids_updates_in_place_and_removes_what_left(
    empty_engine: Engine, seed_copy: Path, tmp_path: Path
) -> None:
    seed(empty_engine, seed_copy)
    first = _ids(empty_engine)
    assert (len(first["support"]), len(first["architecture"]), len(first["config"])) == (4, 3, 2)
    with Session(empty_engine) as session:
        fp8 = session.exec(select(LanguageModel).where(col(LanguageModel.slug).endswith("-fp8")))
        [derivative] = fp8.all()
        base = session.get(LanguageModel, derivative.base_id)
        assert base is not None and base.slug == "llama-3.1-8b"
        assert (derivative.kind, derivative.precision) == ("dense", "FP8")

    path = seed_copy / SUPPORT
    replace_in(path, "    since: v0.9.0\n", "    since: v0.9.1\n")  # an edit
    text = path.read_text()
    path.write_text(text[: text.index("  GPTNeoXForCausalLM:")])  # a row leaves
    seed(empty_engine, seed_copy)

    second = _ids(empty_engine)
    assert len(second["support"]) == 3
    assert all(first["support"][key] == row_id for key, row_id in second["support"].items())
    assert second["architecture"] == first["architecture"]
    assert second["config"] == first["config"]
    with Session(empty_engine) as session:
        llama = session.exec(
            select(ModelSupport).where(ModelSupport.architecture == "LlamaForCausalLM")
        ).one()
        assert llama.since == "v0.9.1"
    export_seed(empty_engine, tmp_path / "out")
    assert (tmp_path / "out" / SUPPORT).read_text() == path.read_text()


# -- the API ----------------------------------------------------------------------------
def test_a_model_in_the_api_has_its_kind_class_base_precision_and_config(
    client: TestClient,
) -> None:
    body = client.get("/api/v1/models/deepseek-v3").json()
    entry = body["entry"]
    assert (entry["kind"], entry["architecture"], entry["precision"]) == (
        "moe",
        "DeepseekV3ForCausalLM",
        "FP8",
    )
    config = entry["config"]
    assert (config["layers"], config["kv_lora_rank"], config["experts"]) == (61, 512, 256)
    assert config["source"] == "deepseek-hf" and config["sliding_window"] is None
    # The config's own source is cited with the entry's.
    assert "deepseek-hf" in {s["slug"] for s in body["sources"]}
    derivative = client.get("/api/v1/models/llama-3.1-8b-fp8").json()["entry"]
    assert (derivative["base"], derivative["config"]) == ("llama-3.1-8b", None)


def test_a_remote_code_class_may_carry_its_module(seed_copy: Path) -> None:
    # llama.cpp and Ollama key remote-code models as their auto_map writes them.
    replace_in(
        seed_copy / SUPPORT, "  GPTNeoXForCausalLM:", "  modeling_grove_moe.GroveMoeForCausalLM:"
    )
    rows = load_seed(seed_copy).support["tgi-model-registry"]["tgi"]
    assert "modeling_grove_moe.GroveMoeForCausalLM" in rows
