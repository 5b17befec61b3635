"""Load the guided flow's inputs (candidates from the claims, rules from the table)."""

from collections import defaultdict
from dataclasses import replace
from typing import Any
from urllib.parse import urlencode

from sqlmodel import Session, col, select

from app.data_version.version import per_version
from app.decision.engine import Answers, Candidate, ClaimRef, Recommendation, RuleSpec, recommend
from app.decision.explain import WhyNot, why_not
from app.decision.hardware import hardware_fit
from app.decision.measured import WEIGHT_EXPLAINED, Measured, hardware_answers, measured_reasons
from app.decision.memo import Memo
from app.decision.model import Excluded, MeasuredRow
from app.decision.wording import when_clause
from app.measures.service_level import Level
from app.models import Capability, Hardware, Rule, System, SystemFact
from app.params.benchmarks import SweepParams
from app.params.decide import DecideParams
from app.queries.cells import current
from app.queries.common import source_refs
from app.queries.decide_model import (
    ModelRulings,
    Subject,
    model_rulings,
    resolve_subject,
    subject_view,
)
from app.queries.matrix_data import matrix_base
from app.queries.sweep_models import SweepChart, SweepCurve
from app.queries.sweeps import team_sweeps
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
        RuleSpec(
            slug=r.slug,
            when=r.when,
            systems=r.systems,
            requires=r.requires,
            effect=r.effect,
            weight=r.weight,
            reason=r.reason,
            source=refs[r.source_id],
            advice=r.advice,
            fallback=r.fallback,
            rests_on=r.rests_on,
            subject=names.get(_tested(r.requires)),
        )
        for r in session.exec(select(Rule).order_by(col(Rule.position)))
    ]


def _tested(requires: dict[str, object] | None) -> str:
    test = (requires or {}).get("having") or (requires or {}).get("lacking")
    return str(test.get("capability", "")) if isinstance(test, dict) else ""


@per_version(max_entries=2)
def scoring_memo(session: Session) -> Memo:
    """Shared by every recommendation over one data version (see Memo)."""
    return Memo()


@per_version(max_entries=32)
def pool_memo(session: Session, left_out: frozenset[str]) -> Memo:
    """A memo for the systems left once a named model rules some out: a memo holds which
    systems each rule speaks about, so each pool needs its own."""
    return Memo()


def recommendation(
    session: Session,
    answers: Answers,
    explain: bool = True,
    level: Level | None = None,
    rulings: ModelRulings | None = None,
) -> Recommendation:
    """The ranking for `answers`; with team sweeps on the answered hardware, their figures (at
    `level`, when given) weigh in as one reason per measured system (app/decision/measured.py).
    With a named model (`rulings`), the systems that cannot load it or cannot hold it are ruled
    out first, and the rest ranked; each carries its fit."""
    found = measured_for(session, answers, level or Level())
    pool = candidates(session)
    memo = scoring_memo(session)
    if rulings and rulings.excluded:
        pool = [c for c in pool if c.slug not in rulings.excluded]
        memo = pool_memo(session, frozenset(rulings.excluded))
    if found:
        pool = [replace(c, measured=found[c.slug][0]) if c.slug in found else c for c in pool]
    result = recommend(answers, pool, rules(session), explain=explain, memo=memo)
    if rulings:
        _attach(result, rulings, {c.slug: c.name for c in candidates(session)})
    if found:
        result.measured = [
            MeasuredRow(
                system=slug,
                setup=f.setup,
                group=f.group,
                per_gpu=f.per_gpu,
                basis=f.basis,
                weight=reason.weight,
                cost_per_million_output_tokens=f.cost,
                joules_per_output_token=f.joules,
                source=f.source.slug,
                link=f.link,
            )
            for slug, (reason, f) in sorted(found.items(), key=lambda i: -i[1][0].weight)
        ]
        result.measured_weight = WEIGHT_EXPLAINED
    return result


def _attach(result: Recommendation, rulings: ModelRulings, names: dict[str, str]) -> None:
    """The named model's rule-outs first among the excluded; every system's fit and notes."""
    for pick in result.ranked:
        pick.fit = rulings.fits.get(pick.slug)
        pick.model_notes = rulings.notes.get(pick.slug, [])
    for gone in result.excluded:
        gone.fit = rulings.fits.get(gone.slug)
        gone.model_notes = rulings.notes.get(gone.slug, [])
    first = [
        Excluded(slug=slug, name=names[slug], reasons=why, fit=rulings.fits.get(slug))
        for slug, why in rulings.excluded.items()
        if slug in names
    ]
    result.excluded = first + result.excluded
    result.subject = rulings.view
    result.fit_changes = rulings.changes


def measured_for(session: Session, answers: Answers, level: Level) -> dict[str, Any]:
    """system -> (reason, figure) from the team's sweeps on the answered hardware."""
    hardware = set(answers.get("hardware", ()))
    if not hardware:
        return {}
    entries = {h.slug: h for h in session.exec(select(Hardware))}
    params = SweepParams(
        per_user=level.per_user,
        ttft_p99=level.ttft_p99,
        tpot_p99=level.tpot_p99,
        goodput=level.goodput,
    )
    page = team_sweeps(session, params)
    systems = {c.slug for c in candidates(session)}
    figures = []
    for chart in page.charts:
        for curve in chart.curves:
            entry = entries.get(curve.hardware or "")
            if entry is None or curve.hardware_in_file or curve.system not in systems:
                continue
            if not hardware & hardware_answers(entry.vendor, entry.name):
                continue
            figure = _figure(
                chart,
                curve,
                page.level.description if page.level else "",
                urlencode(params.level_pairs()),
            )
            if figure is not None:
                figures.append(figure)
    return measured_reasons(figures)


def _figure(chart: SweepChart, curve: SweepCurve, level: str, query: str) -> Measured | None:
    group = " · ".join(filter(None, (curve.hardware_name, curve.precision, chart.label)))
    more = f"&{query}" if query else ""
    link = f"/benchmarks?system={curve.system}&hardware={curve.hardware}{more}#team_sweeps"
    if level:
        at = curve.at_level
        if at is None or at.per_gpu is None:
            return None
        cost = at.cost_per_million_output_tokens
        return Measured(
            curve.system,
            group,
            curve.label,
            at.per_gpu,
            f"at {level}",
            curve.points[0].source,
            cost,
            link,
            at.joules_per_output_token,
        )
    frontier = [p for p in curve.points if p.on_frontier] or curve.points
    best = max(frontier, key=lambda p: p.per_gpu)
    return Measured(
        curve.system,
        group,
        curve.label,
        best.per_gpu,
        f"at its best measured load ({best.load})",
        best.source,
        best.cost_per_million_output_tokens,
        link,
        best.joules_per_output_token,
    )


def explain_why_not(result: Recommendation | None, slug: str | None) -> WhyNot | None:
    """The "why not X?" panel for `slug`, when it names a ranked or ruled-out system."""
    return why_not(result, slug) if result and slug else None


def rules_favouring(session: Session, slugs: list[str]) -> dict[str, list[tuple[str, RuleSpec]]]:
    """For each system, the advice that recommends it (strength 2 or more), once per advice,
    strongest first, with its conditions as a clause ("when you run on an AMD GPU and …",
    app/decision/wording.py): the "when to choose which" of /compare."""
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
        out[slug].append((when_clause(rule.when), rule))
    return out


def model_first(session: Session, params: DecideParams) -> tuple[Subject, ModelRulings | None]:
    """The typed names resolved, and with a named model what it does to each system the
    hardware answer leaves in (app/queries/decide_model.py)."""
    subject = resolve_subject(session, params)
    if not subject.named:
        # An accelerator alone: nothing to fit, but the page names the part and says how it
        # was read.
        named = subject.hardware is not None
        return subject, ModelRulings(view=subject_view(subject, None)) if named else None
    systems = {
        c.slug: c.name
        for c in candidates(session)
        if not hardware_fit(subject.answers, c).exclusions
    }
    return subject, model_rulings(session, params, subject, systems)
