"""How much `rulelang serve` sustains (docs/benchmarks.md, "rulelang serve").

1. Moves a second: one server (`rulelang serve --pace 0`, its own process) and G games at once,
   each a person's seat (a websocket client choosing at random as fast as the server answers)
   against a `random` computer player; every move applied counts, the person's and the
   computer's.
2. Click to update: two browsers (Playwright on the machine's Chromium) as the two seats of a
   game, and a third as the spectator; the time from a click on a choice in one page to the
   moment every page shows the new table (each page notes it itself, on one clock).

    python -m benchmarks.web [--games G] [--seconds S] [--clicks K] [--json PATH]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EIGHTS = os.path.join(ROOT, "examples", "crazy_eights.cardrules")


def start_server(path=EIGHTS):
    proc = subprocess.Popen([sys.executable, "-m", "rulelang", "serve", path, "--port", "0",
                             "--pace", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, cwd=ROOT)
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("the server did not start")
        m = re.search(r"(http://[\d.]+:\d+)/#host=([\w-]+)", line)
        if m:
            return proc, m.group(1), m.group(2)


def new_game(url, host, seats, seed):
    import httpx
    r = httpx.post(url + "/api/start", json={"token": host, "players": len(seats),
                                             "seats": seats, "seed": seed})
    r.raise_for_status()
    return r.json()["links"]


async def player(url, token, seed, until, counts):
    """One person's seat played at random as fast as the server answers, game after game."""
    import websockets
    rng = random.Random(seed)
    # each from an address of its own on this computer (127.0.0.0/8), as people at their own
    # computers: one address may open only so many websockets (docs/web.md, "Security")
    source = f"127.0.{seed // 250 % 250}.{seed % 250 + 2}"
    async with websockets.connect(url.replace("http", "ws") + "/ws",
                                  local_addr=(source, 0)) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        last = 0
        while time.perf_counter() < until:
            f = json.loads(await ws.recv())
            if f["type"] != "view":
                continue
            counts[0] += f["version"] - last
            last = f["version"]
            if f["view"]["terminal"]:
                return
            d = f["view"]["decision"]
            if d:
                await ws.send(json.dumps({"type": "act", "version": f["version"],
                                          "choice": rng.randrange(len(d["choices"]))}))


def moves_per_second(games: int, seconds: float) -> dict:
    proc, url, host = start_server()
    try:
        counts = [0]
        t0 = time.perf_counter()
        until = t0 + seconds

        async def main():
            done = 0
            seed = 0
            running = set()
            while time.perf_counter() < until:
                while len(running) < games:
                    seed += 1
                    links = new_game(url, host, ["human", "random"], seed)
                    running.add(asyncio.ensure_future(
                        player(url, links["seat 1"], seed, until, counts)))
                finished, running = await asyncio.wait(running, timeout=0.5,
                                                        return_when=asyncio.FIRST_COMPLETED)
                done += len(finished)
            for t in running:
                t.cancel()
            return done
        finished = asyncio.run(main())
        elapsed = time.perf_counter() - t0
        return {"games_at_once": games, "seconds": round(elapsed, 2), "moves": counts[0],
                "moves_per_s": round(counts[0] / elapsed, 1), "games_finished": finished}
    finally:
        proc.terminate()
        proc.wait(10)


def click_latency(clicks: int) -> dict:
    from playwright.sync_api import sync_playwright
    proc, url, host = start_server(os.path.join(ROOT, "rules", "follow_the_leader.cardrules"))
    samples = []
    note = """() => { window.__seen = []; new MutationObserver(() => window.__seen.push(
        [document.body.dataset.version, Date.now()])).observe(document.body,
        {attributes: true, attributeFilter: ["data-version"]}); }"""
    try:
        with sync_playwright() as pw:
            b = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True)
            rng = random.Random(1)
            seed = 0
            while len(samples) < clicks:
                seed += 1
                links = new_game(url, host, ["human", "human"], seed)
                pages = [b.new_context().new_page() for _ in range(3)]
                for p, name in zip(pages, ["seat 1", "seat 2", "spectator"]):
                    role = "seat" if name.startswith("seat") else name
                    p.goto(f"{url}/#{role}={links[name]}")
                    p.wait_for_selector("body[data-version]")
                    p.evaluate(note)
                while len(samples) < clicks:
                    mover = next((p for p in pages[:2]
                                  if p.get_attribute("body", "data-phase") == "decide"), None)
                    if mover is None:
                        if any(p.get_attribute("body", "data-phase") == "over" for p in pages):
                            break
                        time.sleep(0.01)
                        continue
                    v = int(mover.get_attribute("body", "data-version"))
                    buttons = mover.query_selector_all("button.choice")
                    t0 = mover.evaluate("() => Date.now()")
                    rng.choice(buttons).click()
                    for p in pages:
                        p.wait_for_selector(f"body[data-version='{v + 1}']")
                    ends = [max(t for ver, t in p.evaluate("() => window.__seen")
                                if ver == str(v + 1)) for p in pages]
                    samples.append(max(ends) - t0)
                for p in pages:
                    p.context.close()
            b.close()
    finally:
        proc.terminate()
        proc.wait(10)
    samples.sort()
    return {"clicks": len(samples), "median_ms": statistics.median(samples),
            "p90_ms": samples[int(0.9 * (len(samples) - 1))], "max_ms": samples[-1],
            "note": "from the click (Date.now() in the clicking page) to the last of the "
                    "three pages (two seats and the spectator) showing the new table"}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=50, help="games played at once (default 50)")
    ap.add_argument("--seconds", type=float, default=20.0, help="how long (default 20)")
    ap.add_argument("--clicks", type=int, default=40, help="clicks timed (default 40; 0: none)")
    ap.add_argument("--json", metavar="PATH", help="also write the figures to PATH")
    args = ap.parse_args(argv)
    res = {"cpu_count": os.cpu_count(), "load_average": os.getloadavg()[0]}
    res["throughput"] = moves_per_second(args.games, args.seconds)
    print(f"{res['throughput']['moves_per_s']} moves/s with {args.games} games at once "
          f"({res['throughput']['moves']} moves in {res['throughput']['seconds']} s, "
          f"{res['throughput']['games_finished']} games finished)")
    if args.clicks:
        res["latency"] = click_latency(args.clicks)
        lat = res["latency"]
        print(f"click to every page updated: median {lat['median_ms']} ms, 90th percentile "
              f"{lat['p90_ms']} ms, max {lat['max_ms']} ms ({lat['clicks']} clicks)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
