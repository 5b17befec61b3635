"""/decide from the model in Chromium, on the real seed (issue 36's done-when scenarios):
"gpt-oss-120b on one RTX 4090" and "Qwen3-Next on H100s", light and dark at 1440 px and at
390 px, axe 0."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from app.main import create_app
from app.settings import Settings
from tests.browser.conftest import serving_app
from tests.conftest import REAL_SEED_DIR

pytestmark = pytest.mark.browser  # on the real seed (its database is built once per run)

SCENARIOS = (
    ("gpt-oss-4090", "/decide?model=gpt-oss-120b&hardware=RTX%204090"),
    ("qwen3-next-h100", "/decide?model=Qwen3-Next&hardware=H100&gpus=4&scale=production"),
)
VIEWS = (("light", 1440), ("dark", 1440), ("light", 390))


@pytest.fixture(scope="module")
def real_live_url(real_database_url: str) -> Iterator[str]:
    app = create_app(Settings(database_url=real_database_url, seed_dir=REAL_SEED_DIR))
    with serving_app(app) as url:
        yield url


def notes_of(page, slug: str) -> str:
    pick = page.locator(".picks li.pick", has=page.locator(f'a[href="/systems/{slug}"]'))
    return pick.locator(".model-notes").inner_text() if pick.count() else ""


def test_gpt_oss_on_one_rtx_4090(browser, real_live_url, artifacts: Path) -> None:
    page = browser.new_context(viewport={"width": 1440, "height": 1000}).new_page()
    page.goto(real_live_url + SCENARIOS[0][1])
    panel = page.locator(".fit-panel").inner_text()
    assert "gpt-oss-120b on 1 × NVIDIA GeForce RTX 4090" in panel
    if "Memory needed." in panel:  # said plainly, never guessed
        page.context.close()
        pytest.skip("the seed gives the RTX 4090 no memory figure yet (branch names adds it)")
    assert "Does not fit." in panel and "What would make it fit" in panel
    assert page.locator(".picks .pick-name").first.inner_text() == "llama.cpp"
    llama = notes_of(page, "llama-cpp")
    assert "expert" in llama.lower() and "CPU memory" in llama, llama
    ranked = page.locator(".picks .pick-name").all_inner_texts()
    more = (
        page.locator(".more-ranked").text_content() or ""
        if page.locator(".more-ranked").count()
        else ""
    )
    assert "vLLM" in ranked or "vLLM" in more
    body = page.locator(".result-panel").inner_text()
    assert "--cpu-offload-gb" in body
    ruled = page.locator("details.excluded")
    ruled.locator("summary").click()
    assert "cannot load gpt-oss-120b" in ruled.inner_text()
    page.context.close()


def test_qwen3_next_on_h100s(browser, real_live_url) -> None:
    page = browser.new_context(viewport={"width": 1440, "height": 1000}).new_page()
    page.goto(real_live_url + SCENARIOS[1][1])
    panel = page.locator(".fit-panel").inner_text()
    assert "Fits." in panel and "Qwen3-Next 80B-A3B Instruct" in panel
    top = page.locator(".picks .pick-name").all_inner_texts()
    assert {"SGLang", "vLLM"} <= set(top), top
    notes = page.locator(".picks .model-notes").all_inner_texts()
    assert all("Fits 4 × NVIDIA H100" in n for n in notes), notes
    sglang = notes_of(page, "sglang")
    assert "loads Qwen3-Next" in sglang and "from v0.5" in sglang
    page.locator("details.excluded summary").click()
    ruled = page.locator("details.excluded").inner_text()
    assert "TGI" in ruled and "qwen3_next" in ruled  # TGI's registry, with its own words
    page.context.close()


@pytest.mark.parametrize("scheme,width", VIEWS)
def test_model_first_pages_look_right_and_pass_axe(
    browser, real_live_url, artifacts: Path, scheme: str, width: int
) -> None:
    for name, path in SCENARIOS:
        page = browser.new_context(
            color_scheme=scheme, viewport={"width": width, "height": 1000}
        ).new_page()
        page.goto(real_live_url + path)
        results = Axe().run(page)
        assert results.violations_count == 0, f"{path}: {results.generate_report()}"
        overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
        assert not overflow, f"{path} scrolls sideways at {width} px"
        page.screenshot(path=artifacts / f"decide-{name}-{scheme}-{width}.png", full_page=True)
        page.context.close()
