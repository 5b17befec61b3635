"""Read a server's startup log for what it says about its KV cache. Pure.

A person pastes the log a server printed at start (vLLM, SGLang, llama.cpp, Ollama) beside the
Atlas's prediction; this finds the lines that size the cache and the weights, in each server's
own wording and units, and gives each in decimal GB beside the line it came from:

- vLLM: "Available KV cache memory: 35.34 GiB", "GPU KV cache size: 463,136 tokens",
  "Maximum concurrency for 131,072 tokens per request: 3.53x" (older: "# GPU blocks: N"),
  "Model loading took 14.99 GiB memory" / "Model weights took 14.99 GB";
- SGLang: "Load weight end. ... mem usage=15.54 GB", "KV Cache is allocated. #tokens: 46611,
  K size: 1.42 GB, V size: 1.42 GB", "max_total_num_tokens=N"; its "GB" is 2^30 bytes (GB =
  1024 ** 3 in sglang.srt.mem_cache.memory_pool);
- llama.cpp: "CUDA0 KV buffer size = 1600.00 MiB" per device ("CUDA_Host" and "CPU" buffers
  are in system memory), "CUDA0 model buffer size = ...", "n_ctx = 32768";
- Ollama up to v0.12: its estimator's "offload" line (memory.required.kv="1.0 GiB",
  memory.weights.total=...); from v0.30 it runs llama-server, whose lines are llama.cpp's.

Only the first MAX_CHARS of a paste are read: startup lines come first, and a bounded read
keeps a pasted multi-megabyte log from costing the server anything.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass, field

MAX_CHARS = 200_000
UNITS = {"b": 1, "kib": 2**10, "mib": 2**20, "gib": 2**30, "kb": 1e3, "mb": 1e6, "gb": 1e9}


@dataclass(frozen=True)
class LogFact:
    """One figure read from a log: what it is, its value in decimal GB or as a count, and the
    line it came from (trimmed)."""

    label: str
    value: float
    unit: str  # "GB" (decimal) or "tokens", "x", "sequences"
    line: str


@dataclass
class LogReading:
    server: str | None
    facts: list[LogFact] = field(default_factory=list)
    truncated: bool = False

    def first(self, label: str) -> LogFact | None:
        return next((f for f in self.facts if f.label == label), None)

    def total(self, label: str) -> float | None:
        """The sum of every fact so labelled (llama.cpp's KV buffers, one per device)."""
        found = [f.value for f in self.facts if f.label == label]
        return sum(found) if found else None


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _gb(value: str, unit: str) -> float:
    return _number(value) * UNITS[unit.lower()] / 1e9


_NUM = r"([\d,]+(?:\.\d+)?)"
_SIZE = _NUM + r"\s*(B|KiB|MiB|GiB|KB|MB|GB)"

# (server, label, pattern, how to read the match into (value, unit)); first match per line.
Reader = Callable[[re.Match[str]], tuple[float, str]]


def _tokens(m: re.Match[str]) -> tuple[float, str]:
    return _number(m.group(1)), "tokens"


def _size(m: re.Match[str]) -> tuple[float, str]:
    return _gb(m.group(1), m.group(2)), "GB"


def _sglang_kv(m: re.Match[str]) -> tuple[float, str]:
    return (_number(m.group(2)) + _number(m.group(3))) * 2**30 / 1e9, "GB"


def _sglang_gb(m: re.Match[str]) -> tuple[float, str]:
    return _number(m.group(1)) * 2**30 / 1e9, "GB"


def _concurrency(m: re.Match[str]) -> tuple[float, str]:
    return _number(m.group(2)), f"x at {m.group(1)} tokens"


PATTERNS: tuple[tuple[str, str, re.Pattern[str], Reader], ...] = (
    ("vllm", "kv_memory", re.compile(r"Available KV cache memory:\s*" + _SIZE), _size),
    ("vllm", "kv_tokens", re.compile(r"GPU KV cache size:\s*" + _NUM + r"\s*tokens"), _tokens),
    (
        "vllm",
        "max_concurrency",
        re.compile(r"Maximum concurrency for\s*" + _NUM + r"\s*tokens per request:\s*" + _NUM),
        _concurrency,
    ),
    ("vllm", "gpu_blocks", re.compile(r"# GPU blocks:\s*" + _NUM), _tokens),
    (
        "vllm",
        "weights",
        re.compile(r"Model (?:loading|weights) took\s*" + _SIZE),
        _size,
    ),
    (
        "sglang",
        "kv_memory",
        re.compile(
            r"KV Cache is allocated\. #tokens:\s*"
            + _NUM
            + r".*?K size:\s*"
            + _NUM
            + r"\s*GB, V size:\s*"
            + _NUM
            + r"\s*GB"
        ),
        _sglang_kv,
    ),
    ("sglang", "kv_tokens", re.compile(r"KV Cache is allocated\. #tokens:\s*" + _NUM), _tokens),
    ("sglang", "kv_tokens", re.compile(r"max_total_num_tokens=" + _NUM), _tokens),
    (
        "sglang",
        "weights",
        re.compile(r"Load weight end\..*?mem usage=" + _NUM + r"\s*GB"),
        _sglang_gb,
    ),
    (
        "ollama",
        "kv_memory",
        re.compile(r'memory\.required\.kv="?' + _SIZE),
        _size,
    ),
    (
        "ollama",
        "weights",
        re.compile(r'memory\.weights\.total="?' + _SIZE),
        _size,
    ),
    (
        "llama.cpp",
        "kv_memory",
        re.compile(r"\b(?!CUDA_Host|CPU)(\w+) KV buffer size\s*=\s*" + _SIZE),
        lambda m: _size_groups(m, 2),
    ),
    (
        "llama.cpp",
        "kv_host",
        re.compile(r"\b(?:CUDA_Host|CPU) KV buffer size\s*=\s*" + _SIZE),
        _size,
    ),
    (
        "llama.cpp",
        "weights",
        re.compile(r"\b(?!CPU|CUDA_Host)(\w+) (?:model )?buffer size\s*=\s*" + _SIZE),
        lambda m: _size_groups(m, 2),
    ),
    ("llama.cpp", "context", re.compile(r"\bn_ctx\s*=\s*" + _NUM), _tokens),
)


def _size_groups(m: re.Match[str], at: int) -> tuple[float, str]:
    return _gb(m.group(at), m.group(at + 1)), "GB"


_LLAMA_WEIGHTS = re.compile(r"(load_tensors|llm_load_tensors):")
_OLLAMA = re.compile(r"source=\S+\s+msg=|level=INFO source=")


def read_log(text: str) -> LogReading:
    """The KV-cache, concurrency and weights figures `text` holds, and which server wrote it
    (the one whose lines were found first; Ollama when its own lines are there)."""
    truncated = len(text) > MAX_CHARS
    facts: list[LogFact] = []
    servers: list[str] = []
    for raw in text[:MAX_CHARS].splitlines():
        line = raw.strip()
        if not line or len(line) > 4000:
            continue
        said: set[str] = set()  # one figure per label a line (a line may hold several)
        for server, label, pattern, read in PATTERNS:
            found = None if label in said else pattern.search(line)
            if not found:
                continue
            if (server, label) == ("llama.cpp", "weights") and not _LLAMA_WEIGHTS.search(line):
                continue
            value, unit = read(found)
            said.add(label)
            facts.append(LogFact(label, value, unit, line[:300]))
            servers.append("ollama" if _OLLAMA.search(line) else server)
    writer = "ollama" if "ollama" in servers else (servers[0] if servers else None)
    return LogReading(writer, facts, truncated)
