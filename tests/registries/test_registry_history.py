"""The maintainer's registry scripts on a tiny git repository made here: the tag walk
(since/until) and registry_diff against a seed folder. Registry files are our own few-entry
fixtures in each project's format; nothing reaches the network."""

import subprocess
from pathlib import Path

import pytest

from scripts import registry_diff
from scripts.registries import readers
from scripts.registries.history import walk
from scripts.registries.repo import Repo, version_key

VLLM_AT = {
    "v0.1.0": '_TEXT_GENERATION_MODELS = {\n    "ToyForCausalLM": ("toy", "ToyForCausalLM"),\n'
    '    "MoeToyForCausalLM": ("moe_toy", "MoeToyForCausalLM"),\n}\n',
    "v0.2.0": '_TEXT_GENERATION_MODELS = {\n    "ToyForCausalLM": ("toy", "ToyForCausalLM"),\n'
    '    "NewToyForCausalLM": ("new_toy", "NewToyForCausalLM"),\n'
    '    "OtherForCausalLM": ("other", "OtherForCausalLM"),\n}\n',
}
TGI_AT_V1 = """
def get_model(model_id, model_type):
    if model_type == "alpha":
        return FlashCausalLM(model_id)
    if model_type == "zeta":
        return FlashCausalLM(model_id)
    raise ValueError(model_type)
"""

SEED_VLLM = """vllm:
  ToyForCausalLM:
    level: yes
    since: v0.1.0
    page: https://example.org/registry.py
  MoeToyForCausalLM:
    level: yes
    since: v0.1.0
    page: https://example.org/registry.py
  OtherForCausalLM:
    level: via
    scope: Transformers fallback
    page: https://example.org/registry.py
    note: not in the registry
"""
SEED_TGI = """tgi:
  AlphaForCausalLM:
    level: yes
    since: v1.0.0
    native: alpha
    page: https://example.org/__init__.py
"""
ARCHITECTURES = "AlphaForCausalLM:\n  model_type: alpha\n"


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def make_repo(tmp_path: Path, files_at: dict[str, dict[str, str]]) -> Path:
    repo = tmp_path / "project"
    repo.mkdir()
    git(repo, "init", "-q")
    for tag, files in files_at.items():
        for path, text in files.items():
            (repo / path).parent.mkdir(parents=True, exist_ok=True)
            (repo / path).write_text(text)
        git(repo, "add", "-A")
        git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", tag)
        git(repo, "tag", tag)
    return repo


@pytest.fixture
def vllm_repo(tmp_path: Path) -> Path:
    path = readers.VLLM_PATHS[0]
    return make_repo(tmp_path, {tag: {path: text} for tag, text in VLLM_AT.items()})


@pytest.fixture
def seed(tmp_path: Path) -> Path:
    folder = tmp_path / "seed"
    (folder / "support").mkdir(parents=True)
    (folder / "support" / "vllm-model-registry.yaml").write_text(SEED_VLLM)
    (folder / "support" / "tgi-model-registry.yaml").write_text(SEED_TGI)
    (folder / "architectures.yaml").write_text(ARCHITECTURES)
    return folder


def test_release_tags_sort_as_versions() -> None:
    tags = ["v0.10.0", "v0.9.2", "v0.10.1.1", "b999", "b7061"]
    assert sorted(tags[:3], key=version_key) == ["v0.9.2", "v0.10.0", "v0.10.1.1"]
    assert sorted(tags[3:], key=version_key) == ["b999", "b7061"]


def test_the_walk_finds_since_and_until(vllm_repo: Path) -> None:
    repo = Repo(str(vllm_repo))
    assert repo.release_tags() == ["v0.1.0", "v0.2.0"]
    history = walk(["v0.0.9", *repo.release_tags()], lambda rev: readers.vllm(repo, rev))
    repo.close()
    assert history.read == ["v0.1.0", "v0.2.0"]  # v0.0.9 does not exist: not counted as read
    assert history.since == {
        "ToyForCausalLM": "v0.1.0",
        "MoeToyForCausalLM": "v0.1.0",
        "NewToyForCausalLM": "v0.2.0",
        "OtherForCausalLM": "v0.2.0",
    }
    assert history.until("MoeToyForCausalLM") == "v0.2.0"
    assert history.until("ToyForCausalLM") is None
    assert history.native["NewToyForCausalLM"].endswith("registry.py#L3")


def test_a_tag_read_as_a_commit_keeps_its_name(vllm_repo: Path) -> None:
    repo = Repo(str(vllm_repo))
    first = repo.git("rev-list", "--max-parents=0", "HEAD").strip()
    history = walk([f"v0.1.0-mirror={first}"], lambda rev: readers.vllm(repo, rev))
    repo.close()
    assert history.read == ["v0.1.0-mirror"]
    assert set(history.since) == {"ToyForCausalLM", "MoeToyForCausalLM"}


def test_the_diff_names_new_changed_and_removed_rows(
    vllm_repo: Path, seed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = registry_diff.main(["vllm", str(vllm_repo), "v0.2.0", "--seed", str(seed)])
    out = capsys.readouterr().out.splitlines()
    assert status == 1
    assert out[0] == (
        "# vllm at v0.2.0: 3 registry keys; seed/support/vllm-model-registry.yaml: 3 rows; 1 agree"
    )
    assert out[1:] == [
        "+  NewToyForCausalLM (new_toy.NewToyForCausalLM"
        " vllm/model_executor/models/registry.py#L3): listed at v0.2.0, no seed row",
        "~  OtherForCausalLM: listed at v0.2.0, seed says via (Transformers fallback)",
        "-  MoeToyForCausalLM: seed says yes since v0.1.0, not listed at v0.2.0"
        " (removed? set until)",
    ]


def test_the_diff_is_quiet_where_the_seed_agrees(
    vllm_repo: Path, seed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert registry_diff.main(["vllm", str(vllm_repo), "v0.1.0", "--seed", str(seed)]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == ["no differences"]


def test_a_model_type_registry_maps_keys_to_classes(
    tmp_path: Path, seed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo(tmp_path, {"v1.0.0": {readers.TGI_PATH: TGI_AT_V1}})
    assert registry_diff.main(["tgi", str(repo), "v1.0.0", "--seed", str(seed)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1:] == ["?  zeta (zeta): no Hugging Face class known"]


def test_a_model_type_serving_two_classes_matches_both_rows(
    tmp_path: Path, seed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # mlx-lm's `hunyuan` module serves the dense and the MoE class: neither row is "removed".
    two = SEED_TGI + SEED_TGI.split("\n", 1)[1].replace("AlphaForCausalLM", "AlphaMoeForCausalLM")
    (seed / "support" / "tgi-model-registry.yaml").write_text(two)
    repo = make_repo(tmp_path, {"v1.0.0": {readers.TGI_PATH: TGI_AT_V1}})
    registry_diff.main(["tgi", str(repo), "v1.0.0", "--seed", str(seed)])
    out = capsys.readouterr().out.splitlines()
    assert out[1:] == ["?  zeta (zeta): no Hugging Face class known"]


def test_a_tag_without_a_registry_is_an_error(
    vllm_repo: Path, seed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert registry_diff.main(["tgi", str(vllm_repo), "v0.1.0", "--seed", str(seed)]) == 2
    assert "no registry readable at v0.1.0" in capsys.readouterr().err


def test_since_prints_one_line_per_key(vllm_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from scripts.registries import since

    assert since.main(["vllm", str(vllm_repo)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[0] for line in lines] == [
        "MoeToyForCausalLM",
        "NewToyForCausalLM",
        "OtherForCausalLM",
        "ToyForCausalLM",
    ]
    assert lines[0].endswith("since=v0.1.0\tuntil=v0.2.0")
