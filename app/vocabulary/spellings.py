"""How tools spell hardware and models, read back to the names the vocabulary holds.

Pure text rules, no data: each turns one way of printing a name into the plainer forms a
person would list as an alias. `Names.resolve` tries these forms only after the exact names,
and only where a single entry holds the form, so a rule can widen what resolves but never
choose between two entries.

- Hugging Face cache folders: `models--meta-llama--Llama-3.1-8B-Instruct` (with or without
  the `/snapshots/<revision>` part after it) is the repository `meta-llama/Llama-3.1-8B-Instruct`.
- GGUF files: the quantisation, the shard counter (`-00001-of-00003`) and `.gguf` go
  (`Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf` is `Meta-Llama-3.1-8B-Instruct`); a path keeps
  only its file name.
- Ollama tags: `llama3.1:70b-instruct-q8_0` is `llama3.1:70b-instruct`, then `llama3.1:70b`
  (Ollama's plain size tag is the instruct model); `:latest` is the bare name; a Hugging
  Face pull `hf.co/bartowski/Qwen3-8B-GGUF:Q4_K_M` is the repository.
- Device names: nvidia-smi, rocm-smi and the runtimes print the vendor and brand before the
  part (`NVIDIA GeForce RTX 4090`, `AMD Instinct MI300X`); a virtual function under SR-IOV adds
  ` VF` (`AMD Instinct MI300X VF`). Cloud TPU API names give the generation and the chip count
  (`v5litepod-8`, `v6e-8`, `v5p-8`): the generation is the entry (`v5litepod` is v5e).
"""

import re

# What says how a model file was packed, not which model it is: Q4_K_M, UD-Q4_K_XL, IQ3_XXS,
# Q8_0, BF16, MXFP4, AWQ, a 4-bit MLX conversion. Matched on a name's words as typed.
_QUANT = (
    r"(?:ud[-_])?i?q\d(?:_k)?(?:_(?:xxs|xs|s|m|l|xl|nl|0|1))?|f16|f32|bf16|fp16|fp8|fp4|nvfp4"
    r"|mxfp4|int4|int8|w4a16|w8a8|awq|gptq|gguf|mlx|exl2|qat|\d+-?bit"
)
_QUANT_WORD = re.compile(rf"^(?:{_QUANT})$", re.IGNORECASE)
# In alias-key form ("_" and "-" are spaces by then), at the end of a name.
_KEY_QUANT = _QUANT.replace("[-_]", " ").replace("_", " ").replace("-?", " ?")
PACKING = re.compile(rf"(?:[ .](?:{_KEY_QUANT}))+$")
_SHARD = re.compile(r"[ .]\d{5} of \d{5}$")
_OWNER_FILE = re.compile(r"^(?P<owner>[A-Za-z][A-Za-z-]*)_(?P<rest>[A-Za-z].*\.gguf)$")
_CACHE = re.compile(r"(?:^|/)models--(?P<org>[^/]+?)--(?P<name>[^/]+)")
# A vendor's or brand's words before the part, as device tools print them (alias-key form).
_VENDOR = re.compile(
    r"^(?:nvidia |amd |intel |google |apple |aws )?(?:geforce |instinct |radeon |hgx |dgx )?"
)
_TPU = re.compile(r"^(?:cloud )?(?:tpu )?(v\d+) ?(litepod|lite|e|p)?(?: ?pod)?(?: \d+)?$")


def without_packing(key: str) -> str:
    """`key` (alias-key form) without a model file's extension, shard counter and packing."""
    stem = _SHARD.sub("", key.removesuffix(".gguf")).strip()
    return PACKING.sub("", stem).strip()


def model_forms(text: str) -> list[str]:
    """Plainer forms of a model name as a tool printed it (as typed, not yet alias keys),
    most specific first."""
    text = text.strip()
    for prefix in ("hf.co/", "huggingface.co/", "https://huggingface.co/"):
        text = text.removeprefix(prefix)
    forms: list[str] = []
    cache = _CACHE.search(text)
    if cache:  # models--org--name/snapshots/<revision>/...: the repository org/name
        text = f"{cache['org']}/{cache['name']}"
    head, _, tag = text.partition(":")
    if not tag:
        forms.append(text)
        # bartowski's files put the owner before an underscore: Qwen_Qwen3-8B-Q4_K_M.gguf.
        owner = _OWNER_FILE.match(text.rsplit("/", 1)[-1])
        if owner:
            forms.append(f"{owner['owner']}/{owner['rest']}")
    elif "/" in head:  # hf.co/org/repo:Q4_K_M: the tag is the file's quantisation
        forms.append(head)
    else:
        forms += _ollama_forms(head.strip(), tag.strip())
    return list(dict.fromkeys(f for f in forms if f))


def _ollama_forms(name: str, tag: str) -> list[str]:
    """`name:tag` without its quantisation, then without a trailing instruct or chat."""
    if tag.casefold() in ("", "latest"):
        return [name]
    words = tag.split("-")
    while words and _QUANT_WORD.match(words[-1]):
        words.pop()
    forms = [f"{name}:{tag}", f"{name}:{'-'.join(words)}"]
    # The plain size tag is the instruct model: llama3.1:8b-instruct (and a dated one,
    # mistral-small3.1:24b-instruct-2503) is llama3.1:8b.
    lowered = [w.casefold() for w in words]
    for marker in ("instruct", "chat", "it"):
        if marker in lowered[1:]:
            forms.append(f"{name}:{'-'.join(words[: lowered.index(marker, 1)])}")
            break
    return [f for f in forms if not f.endswith(":")]


def device_forms(key: str) -> list[str]:
    """Plainer forms of an accelerator's name (alias-key form) as a device tool printed it."""
    forms = [key]
    bare = key.removesuffix(" vf").strip()
    forms.append(bare)
    part = _VENDOR.sub("", bare).strip()
    forms.append(part)
    tpu = _TPU.match(part)
    if tpu:
        generation, variant = tpu.group(1), tpu.group(2) or ""
        # v5litepod-8 and "TPU v5 lite" (JAX's device kind) are v5e; v6e-8 is v6e.
        variant = "e" if variant in ("litepod", "lite") else variant
        forms += [f"tpu {generation}{variant}", f"{generation}{variant}"]
    return list(dict.fromkeys(f for f in forms if f))
