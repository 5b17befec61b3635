"""The guided flow's questions and option ids (fixed by the product brief; URLs depend on them)."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Option:
    id: str
    label: str


@dataclass(frozen=True)
class Question:
    id: str
    prompt: str
    options: tuple[Option, ...]
    multiple: bool = False

    def option_ids(self) -> tuple[str, ...]:
        """The allowed option ids, in display order."""
        return tuple(option.id for option in self.options)


def _options(*pairs: tuple[str, str]) -> tuple[Option, ...]:
    return tuple(Option(id=i, label=label) for i, label in pairs)


QUESTIONS: tuple[Question, ...] = (
    Question(
        "hardware",
        "What will it run on?",
        _options(
            ("nvidia-datacenter", "NVIDIA data-centre GPUs (A100, H100, B200…)"),
            ("nvidia-consumer", "NVIDIA consumer GPU (RTX)"),
            ("amd-gpu", "AMD GPU"),
            ("apple-silicon", "Apple Silicon Mac"),
            ("intel-gaudi", "Intel Gaudi"),
            ("aws-inferentia", "AWS Inferentia / Trainium"),
            ("google-tpu", "Google TPU"),
            ("ascend-npu", "Huawei Ascend NPU"),
            ("cpu-only", "CPU only"),
            ("mobile", "Phone or tablet"),
            ("browser", "In the browser"),
        ),
    ),
    Question(
        "scale",
        "How many people will use it at once?",
        _options(
            ("single-user", "Just me"),
            ("small-team", "A small team"),
            ("production", "A production service"),
            ("high-throughput", "High-throughput production"),
        ),
    ),
    Question(
        "workload",
        "What is the main workload?",
        _options(
            ("general-chat", "General chat"),
            ("multi-turn-chat", "Long multi-turn chat"),
            ("rag", "Retrieval-augmented generation"),
            ("agents", "Agents and tool use"),
            ("structured-output", "Structured output (JSON, grammars)"),
            ("batch-offline", "Offline batch jobs"),
            ("creative-writing", "Creative writing and role-play"),
            ("coding-agent", "Coding agents"),
        ),
    ),
    Question(
        "quantization",
        "Which weight format will you serve?",
        _options(
            ("none", "Full precision (BF16/FP16)"),
            ("gguf", "GGUF"),
            ("awq-w4a16", "AWQ / W4A16"),
            ("fp8", "FP8"),
            ("exotic", "Exotic (AQLM, QuIP#, VPTQ, EXL2/EXL3, BitNet)"),
        ),
    ),
    Question(
        "priority",
        "What matters most?",
        _options(
            ("ease-of-use", "Ease of use"),
            ("throughput", "Throughput"),
            ("latency", "Latency"),
            ("model-breadth", "Breadth of models"),
            ("cost", "Cost"),
        ),
    ),
    Question(
        "interface",
        "How will you drive it?",
        _options(("cli", "Command line"), ("gui", "Desktop app"), ("api", "HTTP API")),
    ),
    Question(
        "needs",
        "Anything you cannot do without?",
        _options(
            ("fixed-model", "One model for a long time (a compile step is fine)"),
            ("frequent-model-changes", "Frequent model changes"),
            ("advanced-samplers", "Advanced samplers (DRY, XTC, Mirostat)"),
            ("multi-model", "Several models from one server"),
            ("permissive-license", "A permissive licence"),
            ("openai-api", "OpenAI-compatible API"),
            ("anthropic-api", "Anthropic-compatible API"),
            ("persistent-prefix-cache", "A prefix cache that survives restarts"),
            ("multi-gpu", "Several GPUs for one model"),
            ("air-gapped", "Air-gapped operation"),
        ),
        multiple=True,
    ),
)

QUESTIONS_BY_ID: dict[str, Question] = {q.id: q for q in QUESTIONS}
