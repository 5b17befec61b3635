"""The normalised metrics meet the Atlas vocabulary: every slug exists, in the right unit."""

import dataclasses

import pytest
from ruamel.yaml import YAML

from app.importers import ATLAS_METRIC_SLUGS, METRIC_UNITS, atlas_figures
from app.seeding.schema import UNITS
from app.settings import PROJECT_ROOT
from tests.imports.helpers import parse

SEED_METRICS = YAML(typ="safe").load((PROJECT_ROOT / "seed" / "metrics.yaml").read_text())


@pytest.mark.parametrize(("key", "slug"), sorted(ATLAS_METRIC_SLUGS.items()))
def test_each_mapped_metric_exists_in_the_seed_with_our_unit(key, slug):
    assert slug in SEED_METRICS, f"{slug} is not in seed/metrics.yaml"
    assert METRIC_UNITS[key] in SEED_METRICS[slug]["units"]
    assert SEED_METRICS[slug]["kind"] == "absolute"
    expected = "lower" if METRIC_UNITS[key] == "ms" else "higher"
    assert SEED_METRICS[slug]["better"] == expected


def test_every_normalised_unit_is_an_atlas_unit():
    assert set(METRIC_UNITS.values()) <= set(UNITS)


def test_atlas_figures_of_a_vllm_run():
    (run,) = parse("vllm-bench/openai-8.0qps-Llama-3.1-8B-Instruct-20260302-141503.json").runs
    figures = {figure.metric: figure for figure in atlas_figures(run)}
    assert figures["throughput"].value == pytest.approx(2411.523)
    assert figures["throughput"].unit == "tok/s"
    assert figures["ttft-p99"].value == pytest.approx(356.098)
    assert figures["throughput-per-user"].unit == "tok/s/user"
    assert figures["throughput-per-user"].derived
    assert not figures["requests-per-second"].derived
    assert "ttft-p95" not in figures  # the file has no p95: nothing invented


def test_atlas_figures_of_llama_bench_tests():
    pp, tg, _ = parse("llama-bench/rtx4090-llama3.1-8b-q4km.json").runs
    assert [(f.metric, f.unit) for f in atlas_figures(pp)] == [("prompt-throughput", "tok/s")]
    assert [f.metric for f in atlas_figures(tg)] == ["generation-speed"]


def test_runs_are_read_only():
    (run,) = parse("aiperf/profile_export_aiperf.json").runs
    with pytest.raises(TypeError):
        run.metrics["ttft_mean"] = 1.0  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        run.model = "other"  # type: ignore[misc]
