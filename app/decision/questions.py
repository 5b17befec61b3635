"""The guided flow's questions and option ids (fixed by the product brief; URLs depend on them).

Ids are never renamed or removed: shared links and the API use them. New, finer options are
added beside a broad one, which then `covers` them (`amd-gpu` covers both AMD kinds), so an
old link keeps its meaning and a rule written for the broad option applies to the fine ones.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Option:
    id: str
    label: str
    covers: tuple[str, ...] = ()  # finer options this broad one stands for ("either of these")


@dataclass(frozen=True)
class Question:
    id: str
    prompt: str
    options: tuple[Option, ...]
    multiple: bool = False
    # Whether a person can usually change this answer (a preference) or it is a given of
    # their situation (the hardware they own); "what would change this" only varies the former.
    changeable: bool = True

    def option_ids(self) -> tuple[str, ...]:
        """The allowed option ids, in display order."""
        return tuple(option.id for option in self.options)

    def option(self, option_id: str) -> Option | None:
        return next((o for o in self.options if o.id == option_id), None)


def _options(*rows: tuple[str, ...]) -> tuple[Option, ...]:
    return tuple(Option(id=row[0], label=row[1], covers=tuple(row[2:])) for row in rows)


QUESTIONS: tuple[Question, ...] = (
    Question(
        "hardware",
        "What will it run on?",
        _options(
            (
                "nvidia-datacenter",
                "NVIDIA data-centre GPUs (A100, H100, B200…)",
                "nvidia-hopper-or-newer",
                "nvidia-before-hopper",
            ),
            ("nvidia-hopper-or-newer", "NVIDIA H100 or newer (H200, B200, GB200)"),
            ("nvidia-before-hopper", "NVIDIA A100, L40S or older (A10, L4, T4, V100)"),
            ("nvidia-consumer", "NVIDIA consumer GPU (RTX)"),
            (
                "amd-gpu",
                "AMD GPU (Instinct or Radeon, not sure which)",
                "amd-instinct",
                "amd-radeon",
            ),
            ("amd-instinct", "AMD Instinct data-centre GPUs (MI300, MI355)"),
            ("amd-radeon", "AMD Radeon or Ryzen AI"),
            ("apple-silicon", "Apple Silicon Mac"),
            ("intel-gaudi", "Intel Gaudi"),
            ("aws-inferentia", "AWS Inferentia / Trainium"),
            ("google-tpu", "Google TPU"),
            ("ascend-npu", "Huawei Ascend NPU"),
            ("cpu-only", "CPU only"),
            ("mobile", "Phone or tablet"),
            ("browser", "In the browser"),
        ),
        changeable=False,
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
        changeable=False,
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
            ("prototyping", "Prototyping and experiments"),
        ),
        changeable=False,
    ),
    Question(
        "model",
        "What kind of model will it serve?",
        _options(
            ("dense", "A dense text model (Llama, Qwen, Mistral…)"),
            ("moe", "A mixture-of-experts model (DeepSeek, Mixtral…)"),
            ("vision-language", "A vision-language model"),
            ("speech-translation", "Speech recognition or translation (Whisper, NMT)"),
        ),
        changeable=False,
    ),
    # Advice that names a model family or an attention design rather than a kind of model
    # (several can hold: DeepSeek-V3 is a DeepSeek model and uses MLA). Opt-in like `needs`.
    Question(
        "traits",
        "Anything particular about the model?",
        _options(
            ("deepseek", "A DeepSeek model (V3, R1, V3.2)"),
            ("internlm", "An InternLM model (InternLM2, InternLM3)"),
            ("mla", "Multi-head latent attention (MLA: DeepSeek V2/V3, Kimi K2)"),
        ),
        multiple=True,
        changeable=False,
    ),
    Question(
        "quantization",
        "Which weight format will you serve?",
        _options(
            ("none", "Full precision (BF16/FP16)"),
            ("gguf", "GGUF"),
            ("awq-w4a16", "AWQ / W4A16"),
            ("fp8", "FP8"),
            (
                "exotic",
                "Exotic (EXL2/EXL3, AQLM, QuIP#, VPTQ, BitNet), either kind",
                "exl2-exl3",
                "aqlm-quip-vptq-bitnet",
            ),
            ("exl2-exl3", "EXL2 / EXL3 (ExLlama formats)"),
            ("aqlm-quip-vptq-bitnet", "AQLM, QuIP#, VPTQ or BitNet"),
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
            ("speculative-decoding", "Speculative decoding"),
            ("cpu-offload", "A model larger than GPU memory (CPU offload)"),
            ("autoscaling", "Autoscaling or many tenants"),
            ("embed-library", "Embedding it as a library (C++, Rust, Python)"),
            ("several-backends", "One endpoint in front of several backends"),
        ),
        multiple=True,
    ),
    Question(
        "stack",
        "Does your team already run one of these?",
        _options(
            ("hf-endpoints", "Hugging Face Inference Endpoints"),
            ("azure-deepspeed", "Azure or DeepSpeed"),
            ("triton", "NVIDIA Triton Inference Server"),
            ("docker", "Docker for everything"),
            ("bentoml", "BentoML or BentoCloud"),
        ),
        multiple=True,
        changeable=False,
    ),
)

QUESTIONS_BY_ID: dict[str, Question] = {q.id: q for q in QUESTIONS}


def option_label(question: str, option: str) -> str:
    """The label shown for an option id (the id itself when unknown)."""
    found = QUESTIONS_BY_ID[question].option(option) if question in QUESTIONS_BY_ID else None
    return found.label if found else option


def covered_by(question: str, option: str) -> tuple[str, ...]:
    """The finer options a broad answer stands for (empty for an ordinary option)."""
    found = QUESTIONS_BY_ID[question].option(option)
    return found.covers if found else ()


def broader_than(question: str, option: str) -> tuple[str, ...]:
    """The broad options that cover `option` (`amd-gpu` for `amd-instinct`)."""
    return tuple(o.id for o in QUESTIONS_BY_ID[question].options if option in o.covers)
