"""Load the guided flow's inputs (candidates from the claims, rules from the table)."""

from collections import defaultdict

from sqlmodel import Session, col, select

from app.data_version.version import per_version
from app.decision.engine import Answers, Candidate, ClaimRef, Recommendation, RuleSpec, recommend
from app.decision.explain import WhyNot, why_not
from app.decision.questions import QUESTIONS_BY_ID
from app.decision.scoring import Memo
from app.models import Capability, Rule, System, SystemFact
from app.queries.cells import current
from app.queries.common import source_refs
from app.queries.matrix import matrix_base
from app.schemas import SourceRef, licence_family


@per_version()
def candidates(session: Session) -> list[Candidate]:
    """Every system with its headline levels, every source's level and its licence facts."""
    base = matrix_base(session)
    refs = source_refs(session)
    by_slug = {r.slug: r for r in refs.values()}
    licences = _licences(session, refs)
    summary_sources = dict(session.exec(select(System.slug, System.summary_sources)).all())
    levels: dict[str, dict[str, str]] = defaultdict(dict)
    evidence: dict[str, dict[str, list[SourceRef]]] = defaultdict(dict)
    claims: dict[str, dict[str, list[ClaimRef]]] = defaultdict(dict)
    for (system, capability), cell in base.cells.items():
        # A withdrawn claim is no longer published: it is no evidence, for or against, and
        # a cell with nothing else is one no source speaks to (unknown, never "no").
        current_claims = current(cell.claims)
        if not current_claims:
            continue
        levels[system][capability] = cell.level
        backing = [c.source for c in current_claims if c.level == cell.level] or [
            c.source for c in current_claims
        ]
        evidence[system][capability] = backing
        claims[system][capability] = [ClaimRef(c.level, c.source) for c in current_claims]
    return [
        Candidate(
            slug=s.slug,
            name=s.name,
            kind=s.kind,
            licence_family=s.licence_family,
            levels=levels[s.slug],
            evidence=evidence[s.slug],
            licence_sources=[source for _, source in licences[s.slug]],
            summary_sources=[by_slug[x] for x in summary_sources.get(s.slug, []) if x in by_slug],
            claims=claims[s.slug],
            licences=licences[s.slug],
        )
        for s in base.systems
    ]


def _licences(
    session: Session, refs: dict[int, SourceRef]
) -> dict[str, list[tuple[str, SourceRef]]]:
    """Each system's licence facts as (licence family, source), so disputes can be weighed."""
    statement = (
        select(System.slug, SystemFact.value, SystemFact.source_id)
        .join(System, col(System.id) == col(SystemFact.system_id))
        .where(SystemFact.attribute == "licence")
    )
    out: dict[str, list[tuple[str, SourceRef]]] = defaultdict(list)
    for slug, value, source_id in session.exec(statement):
        out[slug].append((licence_family(value), refs[source_id]))
    return out


@per_version()
def rules(session: Session) -> list[RuleSpec]:
    """Every rule in file order, with its source and the name of the capability it tests."""
    refs = source_refs(session)
    names = dict(session.exec(select(Capability.slug, Capability.name)).all())
    return [
        RuleSpec(slug=r.slug, when=r.when, systems=r.systems, requires=r.requires,
                 effect=r.effect, weight=r.weight, reason=r.reason, source=refs[r.source_id],
                 advice=r.advice, fallback=r.fallback, rests_on=r.rests_on,
                 subject=names.get(_tested(r.requires)))
        for r in session.exec(select(Rule).order_by(col(Rule.position)))
    ]  # fmt: skip


def _tested(requires: dict[str, object] | None) -> str:
    test = (requires or {}).get("having") or (requires or {}).get("lacking")
    return str(test.get("capability", "")) if isinstance(test, dict) else ""


@per_version(max_entries=2)
def scoring_memo(session: Session) -> Memo:
    """Shared by every recommendation over one data version (see Memo)."""
    return Memo()


def recommendation(session: Session, answers: Answers, explain: bool = True) -> Recommendation:
    return recommend(answers, candidates(session), rules(session), explain=explain,
                     memo=scoring_memo(session))  # fmt: skip


def explain_why_not(result: Recommendation | None, slug: str | None) -> WhyNot | None:
    """The "why not X?" panel for `slug`, when it names a ranked or ruled-out system."""
    return why_not(result, slug) if result and slug else None


def rules_favouring(session: Session, slugs: list[str]) -> dict[str, list[tuple[str, RuleSpec]]]:
    """For each system, the advice that recommends it (strength 2 or more), once per advice,
    strongest first, with its conditions in words: the "when to choose which" of /compare."""

    def condition(rule: RuleSpec) -> str:
        parts = []
        for question_id, options in rule.when.items():
            question = QUESTIONS_BY_ID[question_id]
            labels = [o.label for o in question.options if o.id in options]
            parts.append(f"{question.prompt.rstrip('?')}: {' or '.join(labels)}")
        return "; ".join(parts)

    strongest: dict[tuple[str, str], RuleSpec] = {}
    for rule in rules(session):
        if rule.effect != "boost" or not rule.when or rule.weight < 2:
            continue
        for slug in rule.systems:
            key = (slug, rule.advice_key)
            if slug in slugs and (key not in strongest or rule.weight > strongest[key].weight):
                strongest[key] = rule
    out: dict[str, list[tuple[str, RuleSpec]]] = {slug: [] for slug in slugs}
    for (slug, _), rule in sorted(strongest.items(), key=lambda kv: -kv[1].weight):
        out[slug].append((condition(rule), rule))
    return out
