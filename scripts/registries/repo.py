"""A local git clone read without a work tree: files at a revision, folders, release tags.

Every registry script reads a project's history through this one class, so each reads a blob the
same way (one `git cat-file --batch` process for thousands of reads) and none reaches the network.
"""

from __future__ import annotations

import re
import subprocess


def version_key(tag: str) -> tuple[int, ...]:
    """Sort key for release tags: v0.10.1.1 after v0.9.2, b7061 after b999."""
    return tuple(int(part) for part in re.findall(r"\d+", tag))


class Repo:
    def __init__(self, git_dir: str) -> None:
        self.git_dir = git_dir
        self._batch: subprocess.Popen[bytes] | None = None

    def git(self, *args: str, check: bool = True) -> str:
        done = subprocess.run(
            ["git", "-C", self.git_dir, *args], capture_output=True, text=True, check=False
        )
        if check and done.returncode != 0:
            raise RuntimeError(f"git {' '.join(args)} in {self.git_dir}: {done.stderr.strip()}")
        return done.stdout

    def show(self, rev: str, path: str) -> str | None:
        """The text of `path` at `rev`, or None where the revision has no such file."""
        if self._batch is None:
            self._batch = subprocess.Popen(
                ["git", "-C", self.git_dir, "cat-file", "--batch"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
        assert self._batch.stdin is not None and self._batch.stdout is not None
        self._batch.stdin.write(f"{rev}:{path}\n".encode())
        self._batch.stdin.flush()
        header = self._batch.stdout.readline().split()
        if len(header) < 3:  # "<spec> missing"
            return None
        data = self._batch.stdout.read(int(header[2]) + 1)[:-1]
        return data.decode("utf-8", "replace") if header[1] == b"blob" else None

    def files(self, rev: str, folder: str, *, recursive: bool = False) -> list[str]:
        """Paths of the files under `folder` at `rev` (none where the folder is absent)."""
        args = ["ls-tree", "--name-only", *(["-r"] if recursive else []), rev, f"{folder}/"]
        return self.git(*args, check=False).split()

    def tree_entry(self, rev: str, path: str) -> tuple[str, str] | None:
        """(kind, object id) of `path` at `rev`: a submodule is ("commit", its pin)."""
        fields = self.git("ls-tree", rev, path, check=False).split()
        return (fields[1], fields[2]) if len(fields) >= 3 else None

    def release_tags(self, pattern: str = r"v\d+\.\d+\.\d+") -> list[str]:
        """Tags that fully match `pattern`, oldest first."""
        tags = [t for t in self.git("tag").split() if re.fullmatch(pattern, t)]
        return sorted(tags, key=version_key)

    def close(self) -> None:
        if self._batch is not None:
            assert self._batch.stdin is not None and self._batch.stdout is not None
            self._batch.stdin.close()
            self._batch.wait()
            self._batch.stdout.close()
            self._batch = None
