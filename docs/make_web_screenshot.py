"""Take docs/img/serve.png, the README's picture of `rulelang serve`: a game of Crazy Eights for
three in progress, seen by Player 1 in Chromium (Playwright, the machine's /usr/bin/chromium).

    python docs/make_web_screenshot.py
"""
import os
import random
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "docs", "img", "serve.png")


def main() -> int:
    from playwright.sync_api import sync_playwright
    proc = subprocess.Popen([sys.executable, "-m", "rulelang", "serve",
                             os.path.join(ROOT, "examples", "crazy_eights.cardrules"),
                             "--port", "0", "--pace", "0", "--agents", "human,random,random"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    try:
        link = None
        while link is None:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError("the server did not start")
            m = re.search(r"seat 1: (\S+)", line)
            link = m.group(1) if m else None
        with sync_playwright() as pw:
            b = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True)
            page = b.new_page(viewport={"width": 1200, "height": 640})
            page.goto(link)
            rng = random.Random(4)
            for _ in range(5):          # a few moves, so the narration has a story to tell
                page.wait_for_selector("body[data-phase=decide]")
                v = page.get_attribute("body", "data-version")
                rng.choice(page.query_selector_all("button.choice")).click()
                page.wait_for_selector(f"body:not([data-version='{v}'])")
            page.wait_for_selector("body[data-phase=decide]")
            page.screenshot(path=OUT)
            b.close()
    finally:
        proc.terminate()
        proc.wait(10)
    print(f"wrote {os.path.relpath(OUT, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
