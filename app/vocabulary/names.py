"""Names for vocabulary entries (hardware, models, workloads): match what people type to a slug.

Pure: the seed loader, the team forms and API, and the backup restore all resolve names the
same way. A name matches an entry's slug, its display name or any of its aliases, ignoring
case, spacing, dashes and underscores ("H100 SXM", "h100-sxm" and "H100  SXM" are one name).
"""

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

VOCABULARY_KINDS = ("hardware", "model", "workload")


def alias_key(text: str) -> str:
    """The form names are compared in: case-folded, with dashes, underscores and runs of
    spaces made one space."""
    return re.sub(r"[\s_\-]+", " ", text.casefold()).strip()


@dataclass
class Names:
    """Every name of one kind of vocabulary entry, for resolving and suggesting."""

    kind: str
    by_key: dict[str, str] = field(default_factory=dict)  # alias_key(name) -> slug
    shown: dict[str, str] = field(default_factory=dict)  # alias_key(name) -> the name as written
    _loose_keys: dict[str, str] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def of(cls, kind: str, entries: Iterable[tuple[str, Iterable[str]]]) -> "Names":
        """From (slug, [name, alias, ...]) pairs; the first entry to claim a name keeps it."""
        names = cls(kind)
        for slug, others in entries:
            for name in (slug, *others):
                key = alias_key(name)
                if key and key not in names.by_key:
                    names.by_key[key] = slug
                    names.shown[key] = name
        return names

    def entries(self) -> list[tuple[str, list[str]]]:
        """(slug, [its other names]) pairs, as `of` takes them."""
        grouped: dict[str, list[str]] = {}
        for key, slug in self.by_key.items():
            grouped.setdefault(slug, []).append(self.shown[key])
        return list(grouped.items())

    def resolve(self, text: str) -> str | None:
        """The slug `text` names, or None.

        Beyond the exact names: punctuation is ignored too ("llama.cpp" is "llama-cpp"), and a
        model file's name or a repository id finds its model ("Meta-Llama-3.1-8B-Instruct-
        Q4_K_M.gguf" and "someone/Meta-Llama-3.1-8B-Instruct-GGUF" are the entry named
        "Meta-Llama-3.1-8B-Instruct"), the quantization being the figure's precision, not part
        of the model. Each of these looser forms resolves only where one entry holds it.
        """
        key = alias_key(text)
        found = self.by_key.get(key)
        if found or not key:
            return found
        loose = self._loose()
        tail = key.rsplit("/", 1)[-1]
        for form in dict.fromkeys(
            (key, _without_file_suffixes(key), tail, _without_file_suffixes(tail))
        ):
            found = loose.get(_loose_key(form)) if form else None
            if found:
                return found
        return None

    def _loose(self) -> dict[str, str]:
        """loose key -> slug, for the keys that only one entry holds."""
        if self._loose_keys is None:
            holders: dict[str, set[str]] = {}
            for key, slug in self.by_key.items():
                holders.setdefault(_loose_key(key), set()).add(slug)
            self._loose_keys = {k: next(iter(v)) for k, v in holders.items() if len(v) == 1}
        return self._loose_keys

    def suggest(self, text: str, n: int = 3, *, by_words: bool = False) -> list[str]:
        """Up to n slugs whose names are closest to `text`, best first; each entry is ranked by
        its best name and offered if that name is alike enough (difflib's ratio, at least 0.6).

        `by_words` is for a name read from a result file ("Meta-Llama-3.1-8B-Instruct-Q4_K_M"):
        names sharing more of its words rank first (a word with a digit, a version or a size,
        counts twice: it tells models apart), and an entry is offered if its best name shares
        3 such points or is alike at 0.75. For Meta-Llama-3.1-8B, Llama 3.1 8B comes before
        Llama 3.3 70B Instruct, which shares only "meta", "llama" and "instruct". Either way
        the entries whose names share more of the name's versions and sizes come first (for
        "Llama 3.1 8B Instruct": Llama 3.1 8B, then other 8B models, before any 70B). Without
        `by_words`, when nothing is alike enough: the entries with a name holding `text` as a
        word ("chat" finds multi-turn-chat).
        """
        wanted = _without_file_suffixes(alias_key(text)) or alias_key(text)
        # Best first; equal scores in descending name order, as difflib.get_close_matches.
        scored = sorted(((_score(wanted, key, by_words), key) for key in self.by_key), reverse=True)
        best: dict[str, tuple[int, int, float]] = {}  # slug -> the score of its best name
        for score, key in scored:
            best.setdefault(self.by_key[key], score)
        cutoff = 0.75 if by_words else 0.6
        close = [
            slug
            for slug, (marks, shared, alike) in best.items()
            if (by_words and shared >= 3) or marks >= 3 or alike >= cutoff
        ]
        if not close and not by_words and wanted:
            within = (slug for key, slug in self.by_key.items() if f" {wanted} " in f" {key} ")
            close = list(dict.fromkeys(within))
        return close[:n]

    def hint(self, text: str, listed: str) -> str:
        """'did you mean a, b?', or where the names are `listed` when nothing is close."""
        close = self.suggest(text)
        return f"did you mean {', '.join(close)}?" if close else f"allowed: {listed}"

    def unknown(self, text: str, listed: str) -> str:
        """The problem with an unknown name: what it is, and what was meant or allowed."""
        return f"unknown {self.kind} {text!r}; {self.hint(text, listed)}"


def _score(wanted: str, key: str, by_words: bool) -> tuple[int, int, float]:
    """(the weight of the sizes and versions in `wanted` the name shares; the weight of the
    words the two share when `by_words`, else 0; how alike they are)."""
    words = _words(wanted) & _words(key)
    # A size ("8b", "80gb") tells entries apart more than a version ("3.1") does.
    marks = sum(2 if _SIZE.fullmatch(word) else 1 for word in words if re.search(r"\d", word))
    weight = sum(2 if re.search(r"\d", word) else 1 for word in words) if by_words else 0
    return marks, weight, difflib.SequenceMatcher(None, key, wanted).ratio()


_SIZE = re.compile(r"\d+(?:\.\d+)?(?:b|m|gb)")


def _words(key: str) -> set[str]:
    """The words of a name, a file's ".gguf" left out."""
    return set(re.split(r"[\s/]+", key.removesuffix(".gguf")))


# The tail of a model file's or repository's name that says how it was packed, not which model
# it is: "-Q4_K_M.gguf", ".Q8_0", "-GGUF", "-AWQ", "-4bit" (in alias_key form, "_" and "-" are
# spaces by then).
_PACKING = (
    r"(?:[ .](?:i?q\d(?: k)?(?: (?:xxs|xs|s|m|l|0|1))?|f16|f32|bf16|fp16|fp8|int4|int8|w4a16"
    r"|w8a8|awq|gptq|gguf|mlx|exl2|\d+ ?bit))+$"
)


def _without_file_suffixes(key: str) -> str:
    """`key` without a file's extension and its packing ("meta llama 3.1 8b instruct")."""
    return re.sub(_PACKING, "", key.removesuffix(".gguf")).strip()


def _loose_key(key: str) -> str:
    """An alias key with punctuation made space too ("llama.cpp" and "llama cpp" meet)."""
    return re.sub(r"[^\w/+]+", " ", key).strip()


def api_listing(kind: str) -> str:
    """Where a client finds the names of `kind`."""
    path = {"hardware": "hardware", "model": "models", "workload": "workloads"}[kind]
    return f"a slug or alias from GET /api/v1/{path}"


# Weight precisions, spelled one way. A known name in another case or spacing ("Int4",
# "fp8") is written as here, so figures with the same precision meet in one context; any
# other text is kept as given (a team may run a format this list has not met yet).
PRECISIONS = (
    "FP32",
    "FP16",
    "BF16",
    "FP8",
    "FP4",
    "NVFP4",
    "MXFP4",
    "INT8",
    "INT4",
    "AWQ",
    "GPTQ",
    "4-bit",
    "8-bit",
    "Q2_K",
    "Q3_K_M",
    "Q4",
    "Q4_0",
    "Q4_K_S",
    "Q4_K_M",
    "Q5_K_M",
    "Q6_K",
    "Q8_0",
    "IQ4_XS",
)
_PRECISION_KEYS = {alias_key(p).replace(" ", ""): p for p in PRECISIONS}


def canonical_precision(text: str) -> str:
    """`text` in the spelling of PRECISIONS when it is one of them, else as given (trimmed)."""
    return _PRECISION_KEYS.get(alias_key(text).replace(" ", ""), text.strip())
