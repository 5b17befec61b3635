"""Print, per Ollama release tag, the bundled llama.cpp build and the HF classes it serves.

Usage: python -m scripts.registries.ollama_since OLLAMA_GIT_DIR LLAMA_CPP_GIT_DIR [TAG ...]
For each tag: the llama.cpp commit Ollama builds (submodule llm/llama.cpp, llama/vendoring,
Makefile.sync FETCH_HEAD or LLAMA_CPP_VERSION), read in a llama.cpp clone whose master is
upstream; the engine names under model/models/ (`model.Register("name"`); the classes of
convert/convert.go. Prints tab-separated rows: tag, kind (gguf|engine|import), key, detail.
"""

import re
import subprocess
import sys

from app.registries import ollama_convert
from scripts.registries.llama_cpp_since import Reader, state

_REGISTER = re.compile(r"model\.Register\(\"([^\"]+)\"")
_PIN = (
    re.compile(r"LLAMACPP_BASE_COMMIT=([0-9a-f]{7,40})"),
    re.compile(r"FETCH_HEAD=([0-9a-f]{7,40})"),
)


def git(git_dir: str, *args: str) -> str:
    out = subprocess.run(["git", "-C", git_dir, *args], capture_output=True, text=True)
    return out.stdout.strip()


def pinned(ollama: Reader, tag: str, order: list[str]) -> str | None:
    """The llama.cpp commit an Ollama tag builds, or None."""
    for path in ("llm/llama.cpp", "llm/llama.cpp/gguf"):
        sub = git(ollama.git_dir, "ls-tree", tag, path).split()
        if len(sub) >= 3 and sub[1] == "commit":
            return sub[2]
    version = ollama.show(f"{tag}:LLAMA_CPP_VERSION")
    if version and re.fullmatch(r"b\d+", version.strip()):
        number = int(version.strip()[1:])
        return order[number - 1] if number <= len(order) else None
    for path, pattern in (("llama/vendoring", _PIN[0]), ("Makefile.sync", _PIN[1])):
        text = ollama.show(f"{tag}:{path}")
        found = pattern.search(text or "")
        if found:
            return found.group(1)
    return None


def main() -> None:
    ollama_dir, llama_dir, *tags = sys.argv[1:]
    order = git(llama_dir, "rev-list", "--reverse", "master").split()
    build = {c: i + 1 for i, c in enumerate(order)}
    ollama = Reader(ollama_dir)
    llama = Reader(llama_dir)
    for tag in tags:
        commit = pinned(ollama, tag, order)
        full = (
            git(llama_dir, "rev-parse", "--verify", "-q", f"{commit}^{{commit}}") if commit else ""
        )
        number = build.get(full)
        print(f"{tag}\tpin\t{commit or '-'}\t{'b' + str(number) if number else '-'}")
        classes: dict[str, str] = {}
        if full:
            classes, _ = state(llama, full)
            for hf_class, gguf in sorted(classes.items()):
                print(f"{tag}\tgguf\t{hf_class}\t{gguf}")
        engine: set[str] = set()
        for path in git(ollama_dir, "ls-tree", "-r", "--name-only", tag, "model/models").split():
            if path.endswith(".go"):
                engine |= set(_REGISTER.findall(ollama.show(f"{tag}:{path}") or ""))
        for name in sorted(engine):
            print(f"{tag}\tengine\t{name}\t")
        text = ollama.show(f"{tag}:convert/convert.go") or ""
        for hf_class, conv in sorted(ollama_convert.parse(text).items()):
            print(f"{tag}\timport\t{hf_class}\t{conv}")


if __name__ == "__main__":
    main()
