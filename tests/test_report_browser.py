"""The HTML reports seen in a real browser: Chromium (through Playwright) opens the page of
`stats --report` and of `compare --report`, and the verdict and the plots are on the screen,
the images decoded.  Skipped without Playwright or /usr/bin/chromium."""
import os

import pytest

pytest.importorskip("matplotlib")
pytest.importorskip("playwright.sync_api")
if not os.path.exists("/usr/bin/chromium"):
    pytest.skip("no Chromium at /usr/bin/chromium", allow_module_level=True)

from benchmarks.report_screenshot import launch, open_page, visible  # noqa: E402
from rulelang.cli.commands import main  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EIGHTS = os.path.join(ROOT, "examples", "crazy_eights.cardrules")
FTL = os.path.join(ROOT, "rules", "follow_the_leader.cardrules")


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        try:
            b = launch(p)
        except Exception as e:           # a Chromium that cannot start here
            pytest.skip(f"Chromium does not start: {e}")
        yield b
        b.close()


def test_the_stats_report_shows_its_verdict_and_trend(browser, tmp_path):
    page_path = tmp_path / "stats.html"
    assert main(["stats", EIGHTS, "--games", "30", "--workers", "1", "--skill", "mc:2",
                 "--skill-games", "4", "--report", str(page_path)]) == 0
    page = open_page(browser, str(page_path))
    assert visible(page, "#verdict") and visible(page, "#trend") and visible(page, "#skill")
    verdict = page.inner_text("#verdict")
    assert verdict.startswith("In short:") and "decisions" in verdict and "skill" in verdict
    # the verdict is at the top: in the first screen, above every plot
    top = page.evaluate("document.getElementById('verdict').getBoundingClientRect().bottom")
    assert top < 900
    assert page.evaluate("document.getElementById('trend').naturalWidth") > 300
    shot = tmp_path / "shot.png"
    page.query_selector("#trend").screenshot(path=str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 5000


def test_the_compare_report_overlays_a_and_b(browser, tmp_path):
    page_path = tmp_path / "compare.html"
    assert main(["compare", FTL, "--a-set", "jokers=no", "--b-set", "jokers=yes", "--games",
                 "30", "--workers", "1", "--report", str(page_path)]) == 0
    page = open_page(browser, str(page_path))
    for sel in ("#verdict", "#compare-seats", "#compare-length"):
        assert visible(page, sel), sel
    assert page.query_selector("#compare-trend") is None     # no score, no progress: no trend
    text = page.inner_text("body")
    assert "A = " in text and "jokers=no" in text and "B = " in text and "jokers=yes" in text
    assert "no sign of a difference" in text or "a clear difference" in text
    # the places that ran only in B, with their lines' text
    assert "Ran in B's games, never in A's:" in text and "if is_joker(c):" in text


def test_the_compare_report_overlays_the_trends(browser, tmp_path):
    page_path = tmp_path / "compare.html"
    sevens = os.path.join(ROOT, "examples", "sevens.cardrules")
    assert main(["compare", sevens, "--a-set", "hand_size=5", "--b-set", "hand_size=9",
                 "--games", "20", "--workers", "1", "--report", str(page_path)]) == 0
    page = open_page(browser, str(page_path))
    assert visible(page, "#compare-trend") and visible(page, "#verdict")
