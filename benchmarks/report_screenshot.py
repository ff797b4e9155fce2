"""Screenshots of the workbench's HTML reports in a real browser, for docs/workbench.md:
`python -m benchmarks.report_screenshot [--games K] [--skill-games K] [--out-dir docs/img]`.

Writes the `stats` report of Crazy Eights (which declares its `progress:`), with skill versus
luck, and the `compare` report of Follow the Leader without and with jokers, as HTML pages, opens
each in Chromium (Playwright, headless, /usr/bin/chromium) and saves what a reader sees: the top
of the stats page (the verdict), its trend plot, and the top of the compare page.  The tests use
:func:`visible` (tests/test_report_browser.py).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile

CHROMIUM = "/usr/bin/chromium"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def visible(page, selector: str) -> bool:
    """Whether the element is on the page, shown, and (an image) decoded with a size."""
    el = page.query_selector(selector)
    if el is None or not el.is_visible():
        return False
    return page.evaluate("""(el) => el.tagName !== 'IMG' ||
                            (el.complete && el.naturalWidth > 0 && el.naturalHeight > 0)""", el)


def open_page(browser, path: str, width: int = 1000, height: int = 900):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto("file://" + os.path.abspath(path))
    page.wait_for_load_state("load")
    return page


def launch(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                      args=["--no-sandbox"])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--skill-games", type=int, default=40)
    ap.add_argument("--out-dir", default=os.path.join(ROOT, "docs", "img"))
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    from rulelang.cli.commands import main as rulelang
    out_dir = os.path.abspath(args.out_dir)
    tmp = tempfile.mkdtemp(prefix="rulelang-report-")
    stats_html = os.path.join(tmp, "stats.html")
    compare_html = os.path.join(tmp, "compare.html")
    os.chdir(ROOT)               # (the reports name the files as given: relative paths)
    eights = os.path.join("examples", "crazy_eights.cardrules")
    ftl = os.path.join("rules", "follow_the_leader.cardrules")
    if rulelang(["stats", eights, "--games", str(args.games), "--skill", "mc:20",
                 "--skill-games", str(args.skill_games), "--report", stats_html]) != 0:
        return 1
    if rulelang(["compare", ftl, "--a-set", "jokers=no", "--b-set", "jokers=yes", "--games",
                 str(args.games), "--report", compare_html]) != 0:
        return 1
    os.makedirs(out_dir, exist_ok=True)
    with sync_playwright() as p:
        browser = launch(p)
        page = open_page(browser, stats_html)
        assert visible(page, "#verdict") and visible(page, "#trend"), "the report is not shown"
        page.screenshot(path=os.path.join(out_dir, "workbench_report_top.png"))
        page.query_selector("#trend").screenshot(
            path=os.path.join(out_dir, "workbench_report_trend.png"))
        page = open_page(browser, compare_html, height=1100)
        assert visible(page, "#verdict") and visible(page, "#compare-seats")
        page.screenshot(path=os.path.join(out_dir, "workbench_compare_top.png"))
        browser.close()
    print(f"screenshots written to {out_dir}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
