"""Names for vocabulary entries (hardware, models, workloads): match what people type to a slug.

Pure: the seed loader, the team forms and API, and the backup restore all resolve names the
same way. A name matches an entry's slug, its display name or any of its aliases, ignoring
case, spacing, dashes and underscores ("H100 SXM", "h100-sxm" and "H100  SXM" are one name).
Names as tools print them (app/vocabulary/spellings.py) resolve where one entry holds them; a
name that fits several parts ("H100") gets candidates to ask between, never a guess, and a
did-you-mean never offers another size or another GPU.
"""

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from app.vocabulary.spellings import device_forms, model_forms, without_packing

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
    # Entries that name a class or leave the part open ("NVIDIA H100, variant not stated").
    vague: frozenset[str] = frozenset()
    _loose_keys: dict[str, str] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def of(
        cls, kind: str, entries: Iterable[tuple[str, Iterable[str]]], vague: Iterable[str] = ()
    ) -> "Names":
        """From (slug, [name, alias, ...]) pairs; the first entry to claim a name keeps it.
        `vague`: the slugs of entries that name a class, which `candidates` looks past."""
        names = cls(kind, vague=frozenset(vague))
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

        Beyond the exact names: punctuation is ignored too ("llama.cpp" is "llama-cpp"), and
        the names tools print find their entry (app/vocabulary/spellings.py): a model file's
        name or a repository id without its packing ("Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf"
        and "someone/Meta-Llama-3.1-8B-Instruct-GGUF" are the entry named
        "Meta-Llama-3.1-8B-Instruct", the quantization being the figure's precision, not part
        of the model), a Hugging Face cache folder, an Ollama tag with its quantisation, a
        repository under another owner (a renamed or re-uploaded one), a device's name with
        its vendor and brand, a Cloud TPU slice name. Each of these looser forms resolves only
        where one entry holds it.
        """
        key = alias_key(text)
        found = self.by_key.get(key)
        if found or not key:
            return found
        loose = self._loose()
        for form in self._forms(text):
            found = loose.get(_loose_key(form)) if form else None
            if found:
                return found
        return None

    def resolve_typed(self, text: str) -> str | None:
        """As `resolve`, and for a model also a name as a person types it, words left out
        ("Llama 3.3 70B" is Llama 3.3 70B Instruct): the one entry with a name holding all its
        words, sizes and versions included, so never another size. Where several hold them, the
        one whose name adds only "instruct", "chat" or "it" (not a repackaging such as an FP8
        upload); no pick when that is not one entry either."""
        found = self.resolve(text)
        if found or self.kind != "model":
            return found
        several = self.candidates(text)
        if len(several) == 1:
            return several[0]
        wanted = _match_words(alias_key(text))
        plain = [
            slug
            for slug in several
            if any(
                _match_words(key) - wanted <= _ROLE_WORDS
                for key, holder in self.by_key.items()
                if holder == slug
            )
        ]
        return plain[0] if len(plain) == 1 else None

    def _forms(self, text: str) -> list[str]:
        """The alias keys `text` is tried as, plainest last."""
        if self.kind == "model":
            keys = [alias_key(form) for form in model_forms(text)]
        elif self.kind == "hardware":
            keys = device_forms(alias_key(text))
        else:
            keys = [alias_key(text)]
        forms: list[str] = []
        for key in keys:
            tail = key.rsplit("/", 1)[-1]
            # "//" + a repository's name: the index of Hugging Face ids under any owner.
            anywhere = [f"//{tail}", f"//{without_packing(tail)}"] if "/" in key else ["", ""]
            forms += [key, anywhere[0], tail, without_packing(key), anywhere[1]]
            forms.append(without_packing(tail))
        return list(dict.fromkeys(f for f in forms if f and f != "//"))

    def _loose(self) -> dict[str, str]:
        """loose key -> slug, for the keys that only one entry holds; "//" keys hold the
        repository names of Hugging Face ids without their owner."""
        if self._loose_keys is None:
            holders: dict[str, set[str]] = {}
            for key, slug in self.by_key.items():
                holders.setdefault(_loose_key(key), set()).add(slug)
                if self.kind == "model" and ":" in key:
                    # An Ollama tag alias answers for its other quantisations too
                    # ("llama3.1:8b-text-q4_K_M" for "llama3.1:8b-text-q8_0").
                    for form in model_forms(self.shown[key])[1:2]:
                        holders.setdefault(_loose_key(alias_key(form)), set()).add(slug)
                if "/" in key:
                    tail = key.rsplit("/", 1)[-1]
                    holders.setdefault(_loose_key(f"//{tail}"), set()).add(slug)
            self._loose_keys = {k: next(iter(v)) for k, v in holders.items() if len(v) == 1}
        return self._loose_keys

    def candidates(self, text: str) -> list[str]:
        """The specific entries `text` may mean, for a question rather than a guess.

        A name that resolves to a specific entry is that entry alone. A name that resolves
        to a vague one ("H100": an H100, variant not stated) or to nothing is every specific
        entry with a name holding all its words ("H100": the SXM5, PCIe and NVL parts; "RTX
        PRO 6000": its server and workstation editions; "llama3.1": each Llama 3.1 model),
        provided the name has a number to go on. In file order; empty when nothing fits.
        """
        found = self.resolve(text)
        if found and found not in self.vague:
            return [found]
        forms = self._forms(text)
        wanted = _match_words(forms[-1]) if forms else set()
        if not any(re.search(r"\d", word) for word in wanted):
            return []
        out: list[str] = []
        for key, slug in self.by_key.items():
            if slug not in self.vague and slug not in out and wanted <= _match_words(key):
                out.append(slug)
        return out

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
        # A suggestion keeps every size and part number the name gives: "Llama 3.1 8B" never
        # offers a 70B, "RTX 4090" never a 4080, "A100 40GB" never the 80GB part.
        marks = _marks(wanted, self.kind) if self.kind in ("hardware", "model") else set()
        held = self._words_by_slug() if marks else {}
        best: dict[str, tuple[int, int, float]] = {}  # slug -> the score of its best name
        for score, key in scored:
            slug = self.by_key[key]
            if marks <= held.get(slug, marks):
                best.setdefault(slug, score)
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

    def _words_by_slug(self) -> dict[str, set[str]]:
        """slug -> the words of all its names."""
        out: dict[str, set[str]] = {}
        for key, slug in self.by_key.items():
            out.setdefault(slug, set()).update(_plain_words(key))
        return out

    def hint(self, text: str, listed: str) -> str:
        """'which one: a, b?' when the name fits several entries, 'did you mean a, b?', or
        where the names are `listed` when nothing is close."""
        several = self.candidates(text)
        if len(several) > 1:
            return f"which one: {', '.join(several[:6])}?"
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


# Words a model's name may add to what a person typed and still be the model they meant.
_ROLE_WORDS = frozenset({"instruct", "chat", "it"})

_SIZE = re.compile(r"\d+(?:\.\d+)?(?:b|m|gb)")


def _words(key: str) -> set[str]:
    """The words of a name, a file's ".gguf" left out."""
    return set(re.split(r"[\s/]+", key.removesuffix(".gguf")))


def _without_file_suffixes(key: str) -> str:
    """`key` without a file's extension and its packing ("meta llama 3.1 8b instruct")."""
    return without_packing(key)


def _match_words(key: str) -> set[str]:
    """A name's words for matching parts: punctuation apart from a version's dot is a break,
    and so is a letter before a digit ("llama3.1" is llama and 3.1, "h100" h and 100), while
    a size keeps its unit ("8b", "80gb", "300x")."""
    spaced = re.sub(r"(?<=[a-z])(?=\d)", " ", re.sub(r"[^\w.+]+|_", " ", key.casefold()))
    return {w.strip(".") for w in spaced.split() if w.strip(".")}


# What tells hardware and models apart: a size (8b, 0.5b, 800m, 8x7b, a3b active, e4b, 16e
# experts), a memory (80gb, 144g) or a part number of two digits or more (h100, 4090, mi300x,
# b200, gb10). A count ("1x", "8x") or a one-digit word ("qwen3", "8c", "v5p") is not one.
_MARK = re.compile(
    r"(?:\d+x)?\d+(?:\.\d+)?[bmt]|[ae]\d+(?:\.\d+)?b|\d+e|\d+(?:\.\d+)?(?:gb|g|tb)"
    r"|[a-z]*\d{2,}[a-z]*"
)


def _marks(key: str, kind: str) -> set[str]:
    """The words of a name that tell entries apart by size or part, kept whole so that A100
    and H100 stay apart ("Llama 3.1 8 B" gives 8b). For hardware every numbered word but a
    count counts ("sxm5", "l4", "v5e": one digit names a part too)."""
    joined = re.sub(r"(?<=\d) (?=(?:b|m|gb)\b)", "", key.casefold())
    words = _plain_words(joined)
    if kind == "hardware":
        return {
            w for w in words if re.search(r"\d", w) and not re.fullmatch(r"\d+x|\d+(?:\.\d+)+", w)
        }
    return {w for w in words if _MARK.fullmatch(w)}


def _plain_words(key: str) -> set[str]:
    """A name's words, split at punctuation other than a version's dot."""
    return {w.strip(".") for w in re.split(r"[^\w.+]+|_", key.casefold()) if w.strip(".")}


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
