"""The issue-23 scenario: two team sweeps on one H100 and model (vLLM and SGLang), four loads
each, one load of vLLM run three times, vLLM in two versions. Numbers chosen for hand checks.

Per-user throughput is 1000 / mean TPOT (the files carry no per-user figure of their own).
"""

import json
from typing import Any

from tests.team.sweep_data import VLLM_SWEEP

H100, H100_SLUG, LLAMA = "NVIDIA H100 SXM5 80GB", "nvidia-h100-sxm5-80gb", "llama-3.1-8b"

# (concurrency, mean TPOT ms, output tok/s on the one GPU)
VLLM_NEW = [(8, 10.0, 700.0), (32, 16.0, 1800.0), (64, 25.0, 2400.0), (128, 40.0, 3000.0)]
VLLM_C32_AGAIN = [(32, 16.0, 1700.0), (32, 16.0, 1950.0)]  # c=32: 1700, 1800, 1950 -> median 1800
VLLM_OLD = [(8, 10.0, 600.0), (32, 16.0, 1500.0), (64, 25.0, 2000.0), (128, 40.0, 2500.0)]
SGLANG = [(8, 12.5, 600.0), (32, 20.0, 1500.0), (64, 32.0, 2000.0), (128, 50.0, 2500.0)]

# By hand, at per_user = 50 tok/s/user:
# vLLM 0.11.2: between c=64 (1000/25 = 40, 2400) and c=32 (1000/16 = 62.5, median 1800):
#   2400 + (50 - 40) / (62.5 - 40) * (1800 - 2400) = 2400 - 0.4444 * 600 = 2133.33
VLLM_NEW_AT_50 = 2400 - (10 / 22.5) * 600
# spread there: c=32's min-max (1700-1950) weighted the same way; c=64 was run once.
VLLM_NEW_AT_50_LOW = (1 - 10 / 22.5) * 2400 + (10 / 22.5) * 1700
VLLM_NEW_AT_50_HIGH = (1 - 10 / 22.5) * 2400 + (10 / 22.5) * 1950
# vLLM 0.10.1: 2000 - 0.4444 * 500 = 1777.78; 0.10.1 -> 0.11.2 is +20%, wider than the spread.
VLLM_OLD_AT_50 = 2000 - (10 / 22.5) * 500
# SGLang: c=32 is exactly 50 tok/s/user (1000 / 20): 1500.
SGLANG_AT_50 = 1500.0
# The share of requests within the runs' goodput targets falls with the load (every setup):
GOOD_SHARE = {8: 1.0, 32: 0.9, 64: 0.7, 128: 0.4}
# At goodput = 80 (% of requests), between c=64 (70%) and c=32 (90%), halfway:
#   vLLM 0.11.2: 2400 + (80 - 70) / (90 - 70) * (1800 - 2400) = 2100
#   SGLang: 2000 + 0.5 * (1500 - 2000) = 1750
VLLM_NEW_AT_GOODPUT_80 = 2400 + 0.5 * (1800 - 2400)
SGLANG_AT_GOODPUT_80 = 2000 + 0.5 * (1500 - 2000)
# p99 TTFT rises with the load (every setup), and p99 TPOT is 1.5 times the mean TPOT.
TTFT_P99 = {8: 120.0, 32: 250.0, 64: 650.0, 128: 1400.0}
TPOT_P99_OVER_MEAN = 1.5
# At ttft_p99 = 500 ms, between c=64 (650 ms) and c=32 (250 ms), (650 - 500) / 400 = 0.375 of
# the way to c=32:
#   vLLM 0.11.2: per user 40 + 0.375 * (62.5 - 40) = 48.4375, per GPU 2400 - 0.375 * 600 = 2175
#   vLLM 0.10.1: 48.4375 and 2000 - 0.375 * 500 = 1812.5
#   SGLang: 31.25 + 0.375 * (50 - 31.25) = 38.28125 and 1812.5
AT_TTFT_500 = {
    "vLLM 0.11.2": (48.4375, 2175.0),
    "vLLM 0.10.1": (48.4375, 1812.5),
    "SGLang 0.5.2": (38.28125, 1812.5),
}
PRICE = 2.49  # $ per GPU-hour
# $2.49 / (2133.33 tok/s * 3600 s) * 1e6 = $0.3242 per million output tokens
VLLM_NEW_COST = PRICE / (VLLM_NEW_AT_50 * 3600) * 1e6


def sweep_file(loads: list[tuple[int, float, float]]) -> bytes:
    """A vLLM `--append-result` file, one run per load, from the real file's first run."""
    template: dict[str, Any] = json.loads(VLLM_SWEEP.read_text().splitlines()[0])
    runs = []
    for concurrency, tpot, output in loads:
        run = dict(template)
        # Goodput (vLLM --goodput): requests/s within the run's targets, here output / 500,
        # and GOOD_SHARE of all requests (so the request throughput is goodput / share).
        goodput = output / 500
        run.update(
            max_concurrency=concurrency,
            mean_tpot_ms=tpot,
            output_throughput=output,
            total_token_throughput=output * 3,
            request_goodput=goodput,
            request_throughput=goodput / GOOD_SHARE[concurrency],
            p99_ttft_ms=TTFT_P99[concurrency],
            p99_tpot_ms=tpot * TPOT_P99_OVER_MEAN,
        )
        runs.append(run)
    return "\n".join(json.dumps(r) for r in runs).encode() + b"\n"


CONTEXT = {"hardware": H100, "precision": "FP8", "gpus": "1", "model": LLAMA}
FILES: list[tuple[str, list[tuple[int, float, float]], dict[str, str]]] = [
    ("vllm-0.10.1.json", VLLM_OLD, {"system": "vllm", "system_version": "0.10.1"}),
    ("sglang.json", SGLANG, {"system": "sglang", "system_version": "0.5.2"}),
    ("vllm-0.11.2.json", VLLM_NEW, {"system": "vllm", "system_version": "0.11.2"}),
    ("vllm-0.11.2-c32-again.json", VLLM_C32_AGAIN, {"system": "vllm", "system_version": "0.11.2"}),
]
