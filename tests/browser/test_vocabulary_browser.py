"""Hardware and model pages in Chromium: reached from a figure, readable, no axe violations;
and the /benchmarks filter counts follow an HTMX swap."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.conftest import wait_until

pytestmark = pytest.mark.browser


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def test_a_figures_hardware_opens_its_page(page, live_url, artifacts) -> None:
    page.goto(f"{live_url}/benchmarks?system=vllm&metric=throughput")
    page.locator("#result-bis-vllm-l70b-throughput a.vocab[href^='/hardware/']").click()
    page.wait_for_url("**/hardware/nvidia-h100-sxm5-80gb")
    assert page.locator("h1").inner_text() == "NVIDIA H100 SXM5 80GB"
    rows = page.locator("table.entry-figures tbody tr")
    assert rows.count() == 12
    figure = page.locator("#result-bis-sglang-l70b-throughput td.figure")
    assert figure.inner_text() == "2,460 tok/s"
    page.screenshot(path=str(artifacts / "hardware-h100-sxm5.png"), full_page=True)
    violations = Axe().run(page).response["violations"]
    assert violations == [], [v["id"] for v in violations]


def test_a_vague_entry_says_so(page, live_url, artifacts) -> None:
    page.goto(f"{live_url}/hardware/nvidia-h100-unspecified")
    assert "not one specific part" in page.locator(".eyebrow").text_content()
    assert page.locator(".vague-note").is_visible()
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(artifacts / "hardware-h100-unspecified-phone.png"), full_page=True)
    page.goto(f"{live_url}/models/llama-3-70b")
    page.screenshot(path=str(artifacts / "model-llama-3-70b-phone.png"), full_page=True)
    violations = Axe().run(page).response["violations"]
    assert violations == [], [v["id"] for v in violations]


def test_filter_counts_follow_the_results(page, live_url, artifacts) -> None:
    page.goto(f"{live_url}/benchmarks")
    hardware = page.locator("form.filters details:has(> summary:text-is('Accelerator'))")
    hardware.locator("summary").click()
    count = hardware.locator("label:has(input[value='nvidia-rtx-4090']) .facet-count")
    assert count.inner_text().split()[0] == "11"
    page.check('input[name="metric"][value="throughput"]')
    page.wait_for_url("**/benchmarks?metric=throughput")
    wait_until(page, "document.querySelector('#benchmark_results') !== null")
    # With only throughput figures, the RTX 4090 has two (Ollama and llama.cpp at 50 users).
    wait_until(
        page,
        "document.querySelector(\"label:has(input[value='nvidia-rtx-4090']) .facet-count\")"
        ".textContent.trim().startsWith('2')",
    )
    page.screenshot(path=str(artifacts / "benchmarks-filter-counts.png"), full_page=False)
