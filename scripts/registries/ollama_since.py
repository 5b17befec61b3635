"""Per Ollama release tag: the llama.cpp build it bundles and the HF classes it serves.

    python -m scripts.registries.ollama_since OLLAMA_GIT_DIR LLAMA_CPP_GIT_DIR [TAG ...]

For each tag: the llama.cpp commit Ollama builds (submodule llm/llama.cpp, llama/vendoring,
Makefile.sync FETCH_HEAD or LLAMA_CPP_VERSION), read in a llama.cpp clone whose master is
upstream; the engine names under model/models/ (`model.Register("name"`); the classes of
convert/convert.go. Prints tab-separated rows: tag, kind (pin|gguf|engine|import), key, detail.
"""

from __future__ import annotations

import re
import sys

from scripts.registries import readers
from scripts.registries.repo import Repo

_REGISTER = re.compile(r"model\.Register\(\"([^\"]+)\"")


def engine_names(ollama: Repo, tag: str) -> set[str]:
    names: set[str] = set()
    for path in ollama.files(tag, "model/models", recursive=True):
        if path.endswith(".go"):
            names |= set(_REGISTER.findall(ollama.show(tag, path) or ""))
    return names


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    ollama, llama = Repo(argv[0]), Repo(argv[1])
    tags = argv[2:] or ollama.release_tags()
    order = llama.git("rev-list", "--reverse", "master").split()
    build = {c: i + 1 for i, c in enumerate(order)}
    for tag in tags:
        commit = readers.ollama_pinned_llama_cpp(ollama, tag, order)
        full = ""
        if commit:
            full = llama.git("rev-parse", "--verify", "-q", f"{commit}^{{commit}}", check=False)
            full = full.strip()
        number = build.get(full)
        print(f"{tag}\tpin\t{commit or '-'}\t{'b' + str(number) if number else '-'}")
        for hf_class, gguf in sorted(((full and readers.llama_cpp(llama, full)) or {}).items()):
            print(f"{tag}\tgguf\t{hf_class}\t{gguf}")
        for name in sorted(engine_names(ollama, tag)):
            print(f"{tag}\tengine\t{name}\t")
        for hf_class, conv in sorted((readers.ollama_import(ollama, tag) or {}).items()):
            print(f"{tag}\timport\t{hf_class}\t{conv}")
    ollama.close()
    llama.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
