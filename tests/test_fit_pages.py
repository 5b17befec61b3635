"""/fit, /fit/panel and POST /fit/log over HTTP on the fixture seed: the result block alone for
HTMX, the tables model and hardware pages load, a pasted log read beside the prediction."""

from bs4 import BeautifulSoup
from fastapi.testclient import TestClient

HTMX = {"HX-Request": "true", "HX-Target": "fit_result"}


def soup(response) -> BeautifulSoup:
    assert response.status_code == 200, response.text[:500]
    return BeautifulSoup(response.text, "html.parser")


def test_the_page_shows_the_arithmetic_and_htmx_gets_the_block(client: TestClient) -> None:
    url = "/fit?model=llama-3.1-8b&hardware=nvidia-h100-sxm5-80gb&gpus=2"
    page = soup(client.get(url))
    assert "Fits: 9.54 GB needed of 72.00 GB usable" in page.select_one(".fit-verdict").text
    basis = [li.text for li in page.select(".fit-basis li")]
    assert any("8 KV heads ÷ 2 = 4 head(s) each" in line for line in basis)
    part = client.get(url, headers=HTMX)
    block = soup(part)
    assert block.select_one("#fit_result") and not block.select_one("header.page-header")
    # The log form's copy of the ask follows the result, out of band.
    assert block.select_one('#log-ask[hx-swap-oob="true"] input[name=gpus]')["value"] == "2"
    assert part.headers["HX-Push-Url"] == url


def test_a_bad_input_is_named_on_the_page_as_the_site_shows_problems(client: TestClient) -> None:
    page = soup(client.get("/fit?model=llama-3.1-8b&context=200000"))
    banner = page.select_one(".fit-result .problem-banner[role=alert]")
    assert banner.code.text == "context" and "native context of 131,072" in banner.text
    assert "allowed: 1 to 131,072" in banner.text  # said once, in the message


def test_a_count_that_does_not_split_the_heads_says_why(client: TestClient) -> None:
    page = soup(client.get("/fit?model=llama-3.1-8b&gpus=3&hardware=nvidia-h100-sxm5-80gb"))
    verdict = page.select_one(".fit-verdict.no-fit").text
    assert "Does not split over 3 GPUs" in verdict and "1 GPU holds it" in verdict
    assert "nearest counts that can are 2 and 4" in page.select_one(".fit-split").text
    assert page.select_one(".problem-banner") is None


def test_the_model_panel_puts_the_model_on_each_gpu(client: TestClient) -> None:
    panel = soup(client.get("/fit/panel?model=llama-3.1-8b&context=32768"))
    rows = {
        r.th.a.text: [td.text.strip() for td in r.select("td")] for r in panel.select("tbody tr")
    }
    # 16 + 32,768 × 131,072 bytes (4.29 GB) + 1 = 21.3 GB on one GPU; halves of both on two.
    assert rows["NVIDIA H100 SXM5 80GB"][0].endswith("21.3 / 72.0")
    assert rows["NVIDIA H100 SXM5 80GB"][1].endswith("11.1 / 72.0")
    assert "32,768" in panel.caption.text


def test_the_hardware_panel_and_the_hardware_page_slot(client: TestClient) -> None:
    panel = soup(client.get("/fit/panel?hardware=nvidia-h100-sxm5-80gb"))
    assert [r.th.a.text for r in panel.select("tbody tr")] == ["Llama 3.1 8B"]
    page = soup(client.get("/hardware/nvidia-h100-sxm5-80gb"))
    assert page.select_one('#fit-panel[hx-get="/fit/panel?hardware=nvidia-h100-sxm5-80gb"]')
    vague = soup(client.get("/hardware/nvidia-h100-unspecified"))
    assert vague.select_one("#fit-panel") is None


def test_a_pasted_log_is_read_beside_the_prediction(client: TestClient) -> None:
    log = "llama_kv_cache:      CUDA0 KV buffer size =  1024.00 MiB\nllama_context: n_ctx = 8192\n"
    form = {"model": "llama-3.1-8b", "hardware": "nvidia-h100-sxm5-80gb", "log": log}
    page = soup(
        client.post(
            "/fit/log", data=form, headers={"HX-Request": "true", "HX-Target": "log_reading"}
        )
    )
    table = page.select_one(".fit-log-table")
    assert "llama.cpp" in table.caption.text
    cells = [td.text.strip() for td in table.select("td")]
    assert cells[0] == "1.07 GB"  # 1,024 MiB
    assert cells[2] == "8,192 tokens"
