"""A rule's conditions as a person would say them: "when you run on an AMD GPU and the main
workload is structured output", for the "When to choose which" of /compare. Pure.

Each question has its own sentence frame; an option is named by a short phrase that fits it
(OPTION_WORDS where the label would read badly in a sentence, else the label without its
parenthetical examples and with a lower-case first letter unless it is a name)."""

import re

from app.decision.questions import QUESTIONS_BY_ID

FRAMES = {
    "hardware": "you run on {}",
    "scale": "it serves {}",
    "workload": "the main workload is {}",
    "model": "you serve {}",
    "traits": "you serve {}",
    "quantization": "you serve {} weights",
    "priority": "{} matters most",
    "interface": "you drive it through {}",
    "needs": "you need {}",
    "stack": "your team already runs {}",
}
"""question id -> the clause its options fill; a question not listed reads "prompt: options"."""

OPTION_WORDS = {
    "hardware": {
        "nvidia-datacenter": "NVIDIA data-centre GPUs",
        "nvidia-hopper-or-newer": "NVIDIA H100 or newer",
        "nvidia-before-hopper": "an NVIDIA A100, L40S or older",
        "nvidia-consumer": "an NVIDIA consumer GPU",
        "amd-gpu": "an AMD GPU",
        "amd-instinct": "AMD Instinct GPUs",
        "amd-radeon": "AMD Radeon or Ryzen AI",
        "apple-silicon": "an Apple Silicon Mac",
        "cpu-only": "CPUs alone",
        "mobile": "a phone or tablet",
        "browser": "the browser",
        "intel-gaudi": "Intel Gaudi",
        "aws-inferentia": "AWS Inferentia or Trainium",
        "google-tpu": "Google TPUs",
        "ascend-npu": "Huawei Ascend NPUs",
    },
    "scale": {
        "single-user": "just you",
        "small-team": "a small team",
        "production": "production traffic",
        "high-throughput": "high-throughput production",
    },
    "model": {
        "dense": "a dense text model",
        "moe": "a mixture-of-experts model",
        "vision-language": "a vision-language model",
        "speech-translation": "speech recognition or translation",
    },
    "traits": {
        "deepseek": "a DeepSeek model",
        "internlm": "an InternLM model",
        "mla": "a model with multi-head latent attention",
    },
    "quantization": {"none": "full-precision", "exotic": "exotic-format"},
    "priority": {"model-breadth": "breadth of models"},
    "interface": {"cli": "the command line", "gui": "a desktop app", "api": "an HTTP API"},
}

_NAMES = (
    "Apple",
    "Google",
    "Huawei",
    "Intel",
    "Azure",
    "Docker",
    "Hugging",
    "Anthropic",
    "OpenAI",
    "NVIDIA",
    "AMD",
    "AWS",
    "GGUF",
    "AWQ",
    "FP8",
    "EXL2",
    "BentoML",
)


def option_words(question_id: str, option_id: str, label: str) -> str:
    """The option as it reads inside its question's frame."""
    fixed = OPTION_WORDS.get(question_id, {}).get(option_id)
    if fixed:
        return fixed
    text = re.sub(r"\s*\([^)]*\)", "", label).strip()  # examples in brackets go
    if text and not text.startswith(_NAMES) and not text.split()[0].isupper():
        text = text[0].lower() + text[1:]
    return text


def either(parts: list[str]) -> str:
    """ "a", "a or b", "a, b or c"."""
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} or {parts[-1]}"


def when_clause(when: dict[str, list[str]]) -> str:
    """ "when you run on an AMD GPU and the main workload is structured output"."""
    clauses = []
    for question_id, options in when.items():
        question = QUESTIONS_BY_ID[question_id]
        named = [
            option_words(question_id, o.id, o.label) for o in question.options if o.id in options
        ]
        frame = FRAMES.get(question_id)
        if frame is None:
            clauses.append(f"{question.prompt.rstrip('?').lower()}: {either(named)}")
        else:
            clauses.append(frame.format(either(named)))
    if not clauses:
        return ""
    if len(clauses) == 1:
        return f"when {clauses[0]}"
    return f"when {', '.join(clauses[:-1])} and {clauses[-1]}"
