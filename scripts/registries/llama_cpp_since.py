"""Print the first llama.cpp build per HF class (converter + runtime arch) and per GGUF arch.

Usage: python -m scripts.registries.llama_cpp_since BARE_GIT_DIR [REF]
The build number of a master commit is its position on master (bNNNN = `git rev-list --count`).
Prints tab-separated rows: kind, key, gguf arch, first build, first commit, removed-at build.
"""

import subprocess
import sys

from app.registries import gguf_constants, llama_cpp_arch, llama_cpp_convert

ARCH_FILES = ("src/llama-arch.cpp", "src/llama.cpp", "llama.cpp")
CONST_FILES = ("gguf-py/gguf/constants.py", "gguf-py/gguf/gguf.py")
CONVERTERS = ("convert_hf_to_gguf.py", "convert-hf-to-gguf.py")
WATCHED = (*ARCH_FILES, *CONST_FILES, *CONVERTERS, "conversion")


class Reader:
    """Reads blobs through one `git cat-file --batch` process."""

    def __init__(self, git_dir: str) -> None:
        self.git_dir = git_dir
        self.proc = subprocess.Popen(
            ["git", "-C", git_dir, "cat-file", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    def show(self, spec: str) -> str | None:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(spec.encode() + b"\n")
        self.proc.stdin.flush()
        header = self.proc.stdout.readline().split()
        if len(header) < 3 or header[1] != b"blob":
            if len(header) >= 3:
                self.proc.stdout.read(int(header[2]) + 1)
            return None
        data = self.proc.stdout.read(int(header[2]) + 1)
        return data[:-1].decode("utf-8", "replace")

    def ls(self, commit: str, folder: str) -> list[str]:
        out = subprocess.run(
            ["git", "-C", self.git_dir, "ls-tree", "--name-only", f"{commit}:{folder}"],
            capture_output=True,
            text=True,
        )
        return [f"{folder}/{n}" for n in out.stdout.split() if n.endswith(".py")]


def state(reader: Reader, commit: str) -> tuple[dict[str, str], set[str]]:
    """HF class -> GGUF arch for classes the converter maps to an arch the runtime knows."""
    runtime: set[str] = set()
    for path in ARCH_FILES:
        text = reader.show(f"{commit}:{path}")
        if text and "LLM_ARCH_NAMES" in text:
            runtime = set(llama_cpp_arch.parse(text).values())
            break
    names: dict[str, str] = {}
    for path in CONST_FILES:
        text = reader.show(f"{commit}:{path}")
        if text and "MODEL_ARCH_NAMES" in text:
            names = gguf_constants.parse(text)
            break
    parts = [t for p in CONVERTERS if (t := reader.show(f"{commit}:{p}"))]
    parts += [t for p in reader.ls(commit, "conversion") if (t := reader.show(f"{commit}:{p}"))]
    classes: dict[str, str] = {}
    if parts:
        try:
            mapped = llama_cpp_convert.parse("\n".join(parts))
        except SyntaxError:
            mapped = {}
        for hf_class, member in mapped.items():
            gguf = names.get(member)
            if gguf is not None and gguf in runtime and gguf != "clip":
                classes[hf_class] = gguf
    return classes, runtime


def main() -> None:
    git_dir = sys.argv[1]
    ref = sys.argv[2] if len(sys.argv) > 2 else "HEAD"
    order = subprocess.run(
        ["git", "-C", git_dir, "rev-list", "--reverse", ref],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    build = {c: i + 1 for i, c in enumerate(order)}
    touched = subprocess.run(
        ["git", "-C", git_dir, "log", "--reverse", "--format=%H", ref, "--", *WATCHED],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    reader = Reader(git_dir)
    first: dict[tuple[str, str], tuple[int, str, str]] = {}
    gone: dict[tuple[str, str], int] = {}
    for commit in touched:
        classes, runtime = state(reader, commit)
        present = {("class", k): v for k, v in classes.items()}
        present |= {("arch", a): a for a in runtime}
        for key, gguf in present.items():
            first.setdefault(key, (build[commit], commit, gguf))
            gone.pop(key, None)
        for key in first:
            if key not in present and key not in gone:
                gone[key] = build[commit]
    last_classes, _ = state(reader, order[-1])
    for (kind, name), (num, commit, gguf) in sorted(first.items()):
        now = last_classes.get(name, gguf) if kind == "class" else gguf
        print(f"{kind}\t{name}\t{now}\tb{num}\t{commit}\t{gone.get((kind, name), '')}")


if __name__ == "__main__":
    main()
