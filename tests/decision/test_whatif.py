"""What-ifs re-ranked incrementally give exactly the standings of a full re-scoring."""

import random

import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from app.decision.explain import _trials
from app.decision.matching import match
from app.decision.memo import Memo
from app.decision.model import Answers, Candidate, RuleSpec
from app.decision.questions import QUESTIONS
from app.decision.scoring import order_key, rematch, rule_match, rules_by_question, score
from app.decision.whatif import WhatIfs
from app.queries.decide import candidates, rules
from tests.decision.test_engine import rule, system


@pytest.fixture(scope="module")
def inputs(engine: Engine) -> tuple[list[Candidate], list[RuleSpec]]:
    with Session(engine) as session:
        return candidates(session), rules(session)


def random_answers(rng: random.Random) -> Answers:
    out: dict[str, tuple[str, ...]] = {}
    for question in QUESTIONS:
        if rng.random() < 0.6:
            options = list(question.option_ids())
            picked = rng.sample(options, rng.randint(1, 2) if question.multiple else 1)
            out[question.id] = tuple(sorted(picked, key=options.index))
    return out


FULL_MEMO = Memo()  # the memo's own correctness is the second test's subject


def full_standings(
    answers: Answers, cs: list[Candidate], rs: list[RuleSpec]
) -> list[tuple[str, str, float]]:
    tallies = score(answers, cs, rs, FULL_MEMO)
    ranked = sorted((t for t in tallies if not t.exclusions), key=order_key)
    return [(t.candidate.slug, t.candidate.name, round(t.score, 2)) for t in ranked]


def trial_of(answers: Answers, question: str, option: str, kind: str) -> Answers:
    chosen = answers.get(question, ())
    return {**answers, question: (*chosen, option) if kind == "add" else (option,)}


def test_every_what_if_matches_a_full_rescoring(
    inputs: tuple[list[Candidate], list[RuleSpec]],
) -> None:
    cs, rs = inputs
    rng = random.Random(4)
    memo = Memo()  # shared across answers, as the app shares it across requests
    checked = 0
    for _ in range(12):
        answers = random_answers(rng)
        whatifs = WhatIfs(answers, cs, rs, memo, [match(r.when, answers) for r in rs])
        for question, option, kind in _trials(answers):
            trial = trial_of(answers, question, option, kind)
            full = full_standings(trial, cs, rs)
            assert whatifs.standings(trial) == full, (answers, trial)
            assert whatifs.leader(trial) == (full[0] if full else None), (answers, trial)
            checked += 1
        for question in answers:  # removing an answer, as "unused answers" does
            trial = {q: a for q, a in answers.items() if q != question}
            assert whatifs.standings(trial) == full_standings(trial, cs, rs), (answers, trial)
    assert checked > 300


def test_a_shared_memo_gives_the_same_recommendation_as_a_fresh_one(
    inputs: tuple[list[Candidate], list[RuleSpec]],
) -> None:
    from app.decision.engine import recommend

    cs, rs = inputs
    rng = random.Random(11)
    shared = Memo()
    for _ in range(6):
        answers = random_answers(rng)
        assert recommend(answers, cs, rs, memo=shared) == recommend(answers, cs, rs)


def test_a_what_if_that_sets_a_default_aside_re_scores_the_system_it_names() -> None:
    """x is not named by the changed rule, yet its default gives way: x must be re-scored."""
    default = rule("default", {"scale": ["production"]}, ["x"], fallback=True)
    specific = rule("rag", {"workload": ["rag"]}, ["y"], weight=2)
    cands, rules_ = [system("x"), system("y")], [default, specific]
    answers: Answers = {"scale": ("production",)}
    whatifs = WhatIfs(answers, cands, rules_, Memo(), [match(r.when, answers) for r in rules_])
    trial = {**answers, "workload": ("rag",)}
    assert whatifs.standings(trial) == full_standings(trial, cands, rules_)
    assert dict((slug, s) for slug, _, s in whatifs.standings(trial)) == {"y": 2.0, "x": 0.75}


def test_rematch_redoes_every_rule_whose_match_changes(
    inputs: tuple[list[Candidate], list[RuleSpec]],
) -> None:
    """Ticking or unticking a need redoes only the rules that name that option; the rest must
    match exactly as a full re-match does."""
    _, rs = inputs
    by_question = rules_by_question(rs)
    rng = random.Random(23)
    for _ in range(20):
        answers = random_answers(rng)
        base = [rule_match(r, answers) for r in rs]
        trials = [trial_of(answers, q, o, k) for q, o, k in _trials(answers)]
        trials += [{q: a for q, a in answers.items() if q != question} for question in answers]
        for trial in trials:
            assert rematch(rs, by_question, answers, base, trial) == [
                rule_match(r, trial) for r in rs
            ], (answers, trial)
