"""How far a rule's conditions (`when`) hold for a set of answers.

A condition on a single-answer question is met, contradicted or still open. A broad answer
("AMD GPU, either kind") meets a condition on one of the finer options it covers only in part.
Conditions on several-answer questions (needs, stack) are opt-in: an unticked need is not a
need, so such a condition holds only when one of its options was chosen.
"""

from dataclasses import dataclass
from functools import lru_cache

from app.decision.model import Answers
from app.decision.questions import QUESTIONS_BY_ID, covered_by

SPECIFICITY_STEP = 0.5
"""Each answer a rule matches beyond the first adds half of its strength: specific beats generic."""


@dataclass(frozen=True)
class Match:
    """A rule's conditions against the answers."""

    conditions: int  # how many questions the rule names
    matched: float  # how many of them the answers meet (a broad answer counts in part)
    questions: frozenset[str]  # the questions the answers meet (fully or in part)

    @property
    def known(self) -> float:
        """The share of the rule's conditions that the answers settle (1.0: all of them)."""
        return self.matched / self.conditions if self.conditions else 1.0

    @property
    def factor(self) -> float:
        """What the rule's strength is multiplied by: how much of it is known or, when all of
        it is, how specific it is (a half-known rule is a guess, not a precise match)."""
        if self.known < 1:
            return self.known
        return 1 + SPECIFICITY_STEP * max(self.matched - 1, 0)


@lru_cache(maxsize=4096)
def expand(question: str, options: tuple[str, ...]) -> frozenset[str]:
    """A rule's options with the finer ones a broad option covers (`amd-gpu` -> both kinds)."""
    out = set(options)
    for option in options:
        out.update(covered_by(question, option))
    return frozenset(out)


@lru_cache(maxsize=1024)
def _finer(question: str, answer: str) -> frozenset[str]:
    return frozenset(covered_by(question, answer))


def condition(question: str, options: list[str], answers: Answers) -> float | None:
    """1 met, a fraction when met in part, 0 open, None contradicted or (opt-in) not chosen."""
    chosen = answers.get(question, ())
    wanted = expand(question, tuple(options))
    if QUESTIONS_BY_ID[question].multiple:
        return 1.0 if wanted.intersection(chosen) else None
    if not chosen:
        return 0.0
    answer = chosen[0]
    if answer in wanted:
        return 1.0
    finer = _finer(question, answer)
    if finer and wanted & finer:
        return len(wanted & finer) / len(finer)
    return None


def match(when: dict[str, list[str]], answers: Answers) -> Match | None:
    """How the answers meet `when`; None when a condition is contradicted or nothing is met.

    A rule without conditions always holds (it states a general fact about a system).
    """
    if not when:
        return ALWAYS
    total = 0.0
    met = []
    for question, options in when.items():
        part = condition(question, options, answers)
        if part is None:
            return None
        total += part
        if part > 0:
            met.append(question)
    if total == 0:
        return None
    return Match(len(when), total, frozenset(met))


ALWAYS = Match(0, 0.0, frozenset())
