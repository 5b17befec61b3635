"""Each project's model registry at one revision of a local clone, as {key: native name}.

One reader per project; the parsers (app/registries/) turn one file's text into keys, the
readers here know which files a project kept its registry in over its history. Keys are the HF
class where the project registers classes, the `model_type` where it registers those (TGI,
MLC-LLM, mlx-lm); `key_kind` says which. A reader answers None where the revision has no
registry to read (before the file existed), so that revision does not count as read.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from app.registries import (
    exllamav2_arch,
    gguf_constants,
    llama_cpp_arch,
    llama_cpp_convert,
    lmdeploy_module_map,
    lmdeploy_supported_archs,
    mlc_models,
    mlx_lm_models,
    ollama_convert,
    sglang_entryclass,
    tgi_models,
    trtllm_arch_index,
    trtllm_auto_model,
    vllm_registry,
)
from scripts.registries.history import Registry
from scripts.registries.repo import Repo


def _first_file(repo: Repo, rev: str, paths: tuple[str, ...]) -> str | None:
    return next((t for p in paths if (t := repo.show(rev, p)) is not None), None)


def _line(text: str, needle: str) -> int:
    return next((n for n, s in enumerate(text.splitlines(), 1) if needle in s), 0)


# vLLM: registry.py from v0.6.3, models/__init__.py (_MODELS) before, model_loader.py in v0.1.x.
VLLM_PATHS = (
    "vllm/model_executor/models/registry.py",
    "vllm/model_executor/models/__init__.py",
    "vllm/model_executor/model_loader.py",
)


def vllm(repo: Repo, rev: str) -> Registry | None:
    for path in VLLM_PATHS:
        text = repo.show(rev, path)
        found = vllm_registry.parse(text) if text else {}
        if found:
            lines = {a: _line(text or "", '"' + a + '"') for a in found}
            return {a: f"{n} {path}#L{lines[a]}" for a, n in found.items()}
    return None


SGLANG_MODELS = "python/sglang/srt/models"


def sglang(repo: Repo, rev: str) -> Registry | None:
    # The registry's pkgutil scan reads top-level modules only, so sub-packages are skipped too.
    found: Registry = {}
    for path in repo.files(rev, SGLANG_MODELS):
        name = path.rsplit("/", 1)[-1]
        if not name.endswith(".py") or name.startswith("__"):
            continue
        text = repo.show(rev, path) or ""
        try:
            classes = sglang_entryclass.parse(text)
        except (SyntaxError, ValueError):
            continue  # a module without EntryClass or one that does not parse registers nothing
        for arch in classes:
            found.setdefault(arch, f"{path}#L{_line(text, 'EntryClass')}")
    return found or None


TGI_PATH = "server/text_generation_server/models/__init__.py"


def tgi(repo: Repo, rev: str) -> Registry | None:
    text = repo.show(rev, TGI_PATH)
    if text is None:
        return None
    try:
        return tgi_models.parse(text)
    except ValueError:  # v0.2/v0.3 chose the model by name, not by model_type
        return None


LMDEPLOY_MODULE_MAP = "lmdeploy/pytorch/models/module_map.py"
LMDEPLOY_TORCH_ARCHS = "lmdeploy/pytorch/supported_models.py"
LMDEPLOY_TURBOMIND_ARCHS = "lmdeploy/turbomind/supported_models.py"


def lmdeploy_torch(repo: Repo, rev: str) -> Registry | None:
    text = repo.show(rev, LMDEPLOY_MODULE_MAP)
    if text is not None:
        mapped = lmdeploy_module_map.parse(text)
        if all("." not in key for key in mapped):  # v0.6.0 on: keyed by HF class
            return mapped
    text = repo.show(rev, LMDEPLOY_TORCH_ARCHS)  # v0.2.5 to v0.5.3: the engine's own check
    return None if text is None else lmdeploy_supported_archs.parse(text)


def lmdeploy_turbomind(repo: Repo, rev: str) -> Registry | None:
    text = repo.show(rev, LMDEPLOY_TURBOMIND_ARCHS)
    return None if text is None else lmdeploy_supported_archs.parse(text)


def lmdeploy(repo: Repo, rev: str) -> Registry | None:
    """Either engine loads the class: the union, with each engine's own name."""
    torch, turbo = lmdeploy_torch(repo, rev), lmdeploy_turbomind(repo, rev)
    if torch is None and turbo is None:
        return None
    keys = sorted(set(torch or {}) | set(turbo or {}))
    named = [
        (k, [f"{e}: {r[k]}" for e, r in (("TurboMind", turbo), ("PyTorch", torch)) if r and k in r])
        for k in keys
    ]
    return {k: "; ".join(parts) for k, parts in named}


MLC_PATH = "python/mlc_llm/model/model.py"


def mlc_llm(repo: Repo, rev: str) -> Registry | None:
    text = repo.show(rev, MLC_PATH)
    return None if text is None else mlc_models.parse(text)


def mlx_lm(repo: Repo, rev: str) -> Registry | None:
    paths = [p for p in repo.files(rev, "mlx_lm/models") if p.endswith(".py")]
    if not paths:
        return None
    modules = {p: repo.show(rev, p) or "" for p in paths}
    return mlx_lm_models.registry(modules, repo.show(rev, "mlx_lm/utils.py") or "")


EXLLAMAV2_PATHS = ("exllamav2/architecture.py", "exllamav2/config.py")


def exllamav2(repo: Repo, rev: str) -> Registry | None:
    text = _first_file(repo, rev, EXLLAMAV2_PATHS)
    if text is None:
        return None
    try:
        return exllamav2_arch.parse(text)
    except ValueError:  # the earliest tags load everything as Llama without naming it
        return None


TRTLLM_MODELS = "tensorrt_llm/_torch/models"


def tensorrt_llm(repo: Repo, rev: str) -> Registry | None:
    index = repo.show(rev, f"{TRTLLM_MODELS}/_arch_index.py")
    if index is not None:
        return trtllm_arch_index.parse(index)
    files = [p for p in repo.files(rev, TRTLLM_MODELS, recursive=True) if p.endswith(".py")]
    if not files:
        return None  # no PyTorch backend at this revision (before 0.17)
    found: Registry = {}
    for path in files:
        text = repo.show(rev, path) or ""
        if "register_auto_model" in text:
            module = path.rsplit("/", 1)[-1].removesuffix(".py")
            found.update({arch: module for arch in trtllm_auto_model.parse(text)})
    return found


LLAMA_CPP_ARCH_FILES = ("src/llama-arch.cpp", "src/llama.cpp", "llama.cpp")
LLAMA_CPP_CONST_FILES = ("gguf-py/gguf/constants.py", "gguf-py/gguf/gguf.py")
LLAMA_CPP_CONVERTERS = ("convert_hf_to_gguf.py", "convert-hf-to-gguf.py")


def llama_cpp_runtime(repo: Repo, rev: str) -> set[str]:
    """The GGUF architectures the runtime knows at `rev`."""
    for path in LLAMA_CPP_ARCH_FILES:
        text = repo.show(rev, path)
        if text and "LLM_ARCH_NAMES" in text:
            return set(llama_cpp_arch.parse(text).values())
    return set()


def llama_cpp(repo: Repo, rev: str) -> Registry | None:
    """HF class -> GGUF arch, for classes the converter maps to an arch the runtime knows: a
    class llama.cpp can both convert and run."""
    runtime = llama_cpp_runtime(repo, rev)
    names: dict[str, str] = {}
    for path in LLAMA_CPP_CONST_FILES:
        text = repo.show(rev, path)
        if text and "MODEL_ARCH_NAMES" in text:
            names = gguf_constants.parse(text)
            break
    parts = [t for p in LLAMA_CPP_CONVERTERS if (t := repo.show(rev, p))]
    parts += [
        t for p in repo.files(rev, "conversion") if p.endswith(".py") and (t := repo.show(rev, p))
    ]
    if not parts or not runtime:
        return None
    try:
        mapped = llama_cpp_convert.parse("\n".join(parts))
    except SyntaxError:
        return None
    found: Registry = {}
    for hf_class, member in mapped.items():
        gguf = names.get(member)
        if gguf is not None and gguf in runtime and gguf != "clip":
            found[hf_class] = gguf
    return found


OLLAMA_CONVERT = "convert/convert.go"


def ollama_import(repo: Repo, rev: str) -> Registry | None:
    """The classes Ollama imports from safetensors (`ollama create` from a HF folder)."""
    text = repo.show(rev, OLLAMA_CONVERT)
    return None if text is None else ollama_convert.parse(text)


_PINS = (
    ("llama/vendoring", re.compile(r"LLAMACPP_BASE_COMMIT=([0-9a-f]{7,40})")),
    ("Makefile.sync", re.compile(r"FETCH_HEAD=([0-9a-f]{7,40})")),
)


def ollama_pinned_llama_cpp(repo: Repo, rev: str, builds: list[str]) -> str | None:
    """The llama.cpp commit an Ollama revision builds (`builds`: llama.cpp master, oldest first,
    so build bN is builds[N-1]), or None."""
    for path in ("llm/llama.cpp", "llm/llama.cpp/gguf"):
        entry = repo.tree_entry(rev, path)
        if entry and entry[0] == "commit":
            return entry[1]
    version = (repo.show(rev, "LLAMA_CPP_VERSION") or "").strip()
    if re.fullmatch(r"b\d+", version):
        number = int(version[1:])
        return builds[number - 1] if number <= len(builds) else None
    for path, pattern in _PINS:
        found = pattern.search(repo.show(rev, path) or "")
        if found:
            return found.group(1)
    return None


RegistryAt = Callable[[Repo, str], Registry | None]


@dataclass(frozen=True)
class Project:
    """Where one system's registry is read, and which seed file holds its rows."""

    system: str
    support_file: str  # seed/support/<name>.yaml
    registry_at: RegistryAt
    key_kind: Literal["class", "model_type"]
    tag_pattern: str = r"v\d+\.\d+\.\d+(\.post\d+)?"


PROJECTS = {
    p.system: p
    for p in (
        Project("vllm", "vllm-model-registry", vllm, "class"),
        Project("sglang", "sglang-model-registry", sglang, "class"),
        Project("tgi", "tgi-model-registry", tgi, "model_type"),
        Project("lmdeploy", "lmdeploy-model-registry", lmdeploy, "class"),
        Project("mlc-llm", "mlc-llm-model-registry", mlc_llm, "model_type"),
        Project("mlx-lm", "mlx-lm-model-registry", mlx_lm, "model_type"),
        Project("exllamav2", "exllamav2-model-registry", exllamav2, "class"),
        Project("tensorrt-llm", "tensorrt-llm-model-registry", tensorrt_llm, "class"),
        Project("llama-cpp", "llama-cpp-model-registry", llama_cpp, "class", r"b\d+"),
        Project("ollama", "ollama-model-registry", ollama_import, "class"),
    )
}
