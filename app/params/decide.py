"""/decide and /api/v1/recommend: the guided flow's answers, built from its questions."""

from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, create_model

from app.decision.questions import QUESTIONS, QUESTIONS_BY_ID, Question
from app.measures.service_level import Level
from app.params.level import LEVEL_FIELDS, LevelOnly
from app.params.reader import SPLIT, QueryModel, Vocabulary

# Questions that also take a name as typed: a model ("gpt-oss-120b", an Ollama tag, a GGUF
# file) or an accelerator ("RTX 4090", "H100"). An option id wins, so old links keep their
# meaning; any other text is resolved against the data by the query layer (queries/subject.py).
NAMED = {
    "model": "or a model's name as typed (a Hugging Face id, an Ollama tag, a GGUF file name)",
    "hardware": "or an accelerator's name as typed (RTX 4090, H100 SXM, MI300X)",
}
NAME_MAX = 200
DEFAULT_CONTEXT = 8192


def _answer_field(question: Question) -> tuple[Any, Any]:
    # Each question's options are known only from QUESTIONS: a runtime Literal, typed Any.
    options: Any = Literal[question.option_ids()]
    described = ", ".join(f"`{o.id}` ({o.label})" for o in question.options)
    if question.id in NAMED:
        text = Field(
            description=f"{question.prompt} One of: {described}; {NAMED[question.id]}",
            min_length=1,
            max_length=NAME_MAX,
        )
        # The options stay in the schema (anyOf: an option id, or a name as typed).
        return Annotated[options | str | None, text], None
    if question.multiple:
        field = Field(
            description=f"{question.prompt} Several allowed: {described}",
            max_length=len(question.options),
        )
        return Annotated[tuple[options, ...], field, SPLIT], ()
    return Annotated[
        options | None, Field(description=f"{question.prompt} One of: {described}")
    ], None


_answers: dict[str, Any] = {q.id: _answer_field(q) for q in QUESTIONS}
Gpus = Annotated[
    int | None,
    Field(
        description="how many of the accelerator serve one copy of the model (1 to 64)", ge=1, le=64
    ),
]
Context = Annotated[
    int | None,
    Field(
        description=f"tokens per sequence the fit is checked at (default {DEFAULT_CONTEXT:,})",
        ge=1,
        le=100_000_000,
    ),
]
# The service level is an optional question of its own (team measurements are read at it).
AnswerParams: type[QueryModel] = create_model(
    "AnswerParams",
    __base__=LevelOnly,
    **_answers,
    gpus=(Gpus, None),
    context=(Context, None),
)
QuestionId: Any = Literal[tuple(q.id for q in QUESTIONS)]  # known at runtime only, like options
Skipped: Any = Annotated[tuple[QuestionId, ...], Field(description="questions skipped"), SPLIT]
Step: Any = Annotated[QuestionId | None, Field(description="the question being changed")]
Why = Annotated[
    str | None, Field(description="a system to explain: why it is not first"), Vocabulary("system")
]
FlowParams: type[QueryModel] = create_model(
    "FlowParams", __base__=AnswerParams, skip=(Skipped, ()), step=(Step, None), why=(Why, None)
)


@dataclass(frozen=True)
class DecideParams:
    """The guided flow's state: answers, skipped questions, and the question being changed."""

    answers: tuple[tuple[str, tuple[str, ...]], ...] = ()  # a model or hardware name as typed
    skip: tuple[str, ...] = ()
    step: str = ""
    level: tuple[tuple[str, float], ...] = ()  # the service level's targets, when given
    gpus: int | None = None
    context: int | None = None

    @classmethod
    def of(cls, model: BaseModel) -> "DecideParams":
        answers = []
        for question in QUESTIONS:
            value = getattr(model, question.id)
            chosen = value if isinstance(value, tuple) else (value,) if value else ()
            if chosen:
                order = question.option_ids()
                rank = {o: i for i, o in enumerate(order)}
                answers.append((question.id, tuple(sorted(chosen, key=lambda o: rank.get(o, -1)))))
        answered = {q for q, _ in answers}
        skip = tuple(s for s in getattr(model, "skip", ()) if s not in answered)
        level = tuple((n, v) for n in LEVEL_FIELDS if (v := getattr(model, n, None)) is not None)
        return cls(
            tuple(answers),
            skip,
            getattr(model, "step", None) or "",
            level,
            getattr(model, "gpus", None),
            getattr(model, "context", None),
        )

    def named(self, question: str) -> str | None:
        """The name typed for `model` or `hardware`, when the answer is not an option id."""
        given = self.as_dict().get(question, ())
        if question not in NAMED or len(given) != 1:
            return None
        return None if given[0] in QUESTIONS_BY_ID[question].option_ids() else given[0]

    def service_level(self) -> Level:
        return Level(**dict(self.level))

    def as_dict(self) -> dict[str, tuple[str, ...]]:
        return dict(self.answers)

    def query_string(self, **changes: object) -> str:
        from urllib.parse import urlencode

        values = {**self.__dict__, **changes}
        pairs = [(q, o) for q, options in values["answers"] for o in options]
        pairs += [("skip", s) for s in values["skip"]]
        if values["step"]:
            pairs.append(("step", str(values["step"])))
        pairs += [(n, f"{v:g}") for n, v in values["level"]]
        pairs += [(n, str(values[n])) for n in ("gpus", "context") if values[n] is not None]
        return urlencode(pairs)

    def with_answer(self, question: str, options: tuple[str, ...]) -> "DecideParams":
        answers = {**self.as_dict(), question: options}
        ordered = tuple((q.id, answers[q.id]) for q in QUESTIONS if answers.get(q.id))
        return replace(
            self, answers=ordered, skip=tuple(s for s in self.skip if s != question), step=""
        )

    def without(self, question: str) -> "DecideParams":
        answers = tuple((q, o) for q, o in self.answers if q != question)
        return replace(
            self, answers=answers, skip=tuple(s for s in self.skip if s != question), step=""
        )
