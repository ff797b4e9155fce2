"""`rulelang serve` in a real browser: Playwright driving the machine's Chromium (headless; no
browser is downloaded).  Whole games of the seed games and of examples with every kind of
decision are played by clicking the page, as one seat against computer players, as two players
in two browser contexts, and hot-seat on one screen; no card hidden from a seat ever appears in
its page or in the websocket frames it receives.  Skipped when Playwright or Chromium is
missing (.ci/run installs both)."""
import json
import os
import random

import pytest

from webserver import CHROMIUM, Server, chromium_missing

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
if chromium_missing():
    pytest.skip(chromium_missing(), allow_module_level=True)

from playwright.sync_api import sync_playwright  # noqa: E402

from websecrets import Witness, leaks  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
READY = "body[data-phase=decide], body[data-phase=over], body[data-phase=handover]"


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM if os.path.exists(CHROMIUM) else None,
                               headless=True)
        yield b
        b.close()


class Seat:
    """One page at the table, recording the websocket frames it receives."""

    def __init__(self, browser, url):
        self.context = browser.new_context(viewport={"width": 1200, "height": 800})
        self.page = self.context.new_page()
        self.frames = []
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda payload: self.frames.append(payload)))
        self.page.goto(url)
        self.kinds, self.modes = set(), set()
        self.checked = 0                # frames already looked at for secrets

    def phase(self):
        return self.page.get_attribute("body", "data-phase")

    def wait(self, timeout=15000):
        self.page.wait_for_selector(READY, timeout=timeout)
        return self.phase()

    def choose(self, rng):
        """Click one of the choices at random: a card of the table when the choice names one
        that the page draws as playable, else its button.  Waits for the table to change."""
        page = self.page
        version, mode, choices = page.evaluate("""() => [document.body.dataset.version,
            document.getElementById("decision").dataset.mode,
            [...document.querySelectorAll("button.choice")].map((b) => [b.dataset.i,
              b.dataset.kind, !!document.querySelector(`.card.playable[data-choice="${b.dataset.i}"]`)])]""")
        self.modes.add(mode)
        i, kind, on_table = rng.choice(choices)
        self.kinds.add(kind)
        if rng.random() < 0.5 and on_table:
            page.click(f".card.playable[data-choice='{i}']")
        else:
            page.click(f"button.choice[data-i='{i}']")
        page.wait_for_selector(f"body:not([data-version='{version}']), body[data-phase=handover]")

    def close(self):
        self.context.close()


def check_secrets(seat, st, witness, words):
    """Nothing in the seat's page or in the frames it received names a card it never saw."""
    witness.update()
    html = seat.page.content()
    found = leaks(html, st, witness, words)
    assert found is None, f"{found} in the page"
    new = seat.frames[seat.checked:]
    seat.checked += len(new)
    for f in new:
        found = leaks(f if isinstance(f, str) else f.decode("utf-8", "replace"), st, witness, words)
        assert found is None, f"{found} in a websocket frame"


def play_alone(browser, path, seats, seed, clicks=400, pick=0):
    """One person (seat 1) against computer players, to the end of the game."""
    with Server(path) as s:
        table, links = s.start(seats, seed=seed)
        seat = Seat(browser, links["seat 1"])
        witness = Witness(table.st, 0)
        rng = random.Random(pick)
        try:
            for _ in range(clicks):
                if seat.wait() == "over":
                    break
                check_secrets(seat, table.st, witness, table.words)
                seat.choose(rng)
            assert seat.wait() == "over"
            check_secrets(seat, table.st, witness, table.words)
            assert table.st.terminal
            result = seat.page.inner_text("#result")
            assert result.strip() and ("win" in result or "No winner" in result or "draw" in result
                                       or "stopped" in result)
            assert not seat.errors
            return seat.kinds, seat.modes
        finally:
            seat.close()


# (file, seats, seed, the kinds of decisions and modes the game must have offered)
GAMES = [       # (seeds of short games that offer those decisions)
    ("examples/crazy_eights.cardrules", ["human", "random"], 9, {"card", "suit"}, {"turn"}),
    ("examples/old_maid.cardrules", ["human", "random"], 3, {"place"}, {"turn"}),
    ("examples/stud.cardrules", ["human", "random"], 3, {"number", "option"}, {"turn"}),
    ("examples/pass_the_sets.cardrules", ["human", "random", "random"], 29, {"card", "option"},
     {"turn"}),
    ("examples/may_i.cardrules", ["human", "random", "random"], 34, {"card", "option"},
     {"simultaneous"}),
    ("rules/internecine.cardrules", ["human", "random"], 0, {"card"}, {"simultaneous"}),
    ("rules/follow_the_leader_jokers.cardrules", ["human", "random"], 18, {"rank"}, {"turn"}),
    ("rules/attack.cardrules", ["human", "random"], 20, {"card", "option"}, {"turn"}),
    ("rules/mages_wild.cardrules", ["human", "random"], 8, {"card", "option"}, {"turn"}),
    ("rules/ciq.cardrules", ["human", "random"], 15, {"player"}, {"turn"}),
]


@pytest.mark.parametrize("path, seats, seed, kinds, modes", GAMES,
                         ids=[os.path.basename(g[0])[:-10] for g in GAMES])
def test_a_whole_game_played_by_clicking(browser, path, seats, seed, kinds, modes):
    got_kinds, got_modes = play_alone(browser, os.path.join(ROOT, path), seats, seed)
    assert kinds <= got_kinds and modes <= got_modes, (got_kinds, got_modes)


def settled(seats, timeout=15.0):
    """The pages' phases once one of them has a decision (or the game is over)."""
    import time
    end = time.time() + timeout
    while True:
        phases = [seat.phase() for seat in seats]
        if "decide" in phases and "over" not in phases or phases.count("over") == len(seats):
            return phases
        assert time.time() < end, phases
        time.sleep(0.01)


def test_two_players_in_two_browsers(browser):
    path = os.path.join(ROOT, "rules", "follow_the_leader.cardrules")
    with Server(path) as s:
        table, links = s.start(["human", "human"], seed=7)
        seats = [Seat(browser, links["seat 1"]), Seat(browser, links["seat 2"])]
        spectator = Seat(browser, links["spectator"])
        witnesses = [Witness(table.st, 0), Witness(table.st, 1)]
        rng = random.Random(5)
        try:
            for _ in range(400):
                phases = settled(seats)
                if "over" in phases:
                    break
                for seat, w in zip(seats, witnesses):
                    check_secrets(seat, table.st, w, table.words)
                mover = [k for k, ph in enumerate(phases) if ph == "decide"]
                assert len(mover) == 1          # the other page waits, with no choice
                other = seats[1 - mover[0]]
                assert not other.page.query_selector_all("button.choice")
                version = other.page.get_attribute("body", "data-version")
                seats[mover[0]].choose(rng)
                # the other browser sees the move too
                other.page.wait_for_selector(f"body:not([data-version='{version}'])")
            assert settled(seats) == ["over", "over"]
            for seat, w in zip(seats, witnesses):
                check_secrets(seat, table.st, w, table.words)
            check_secrets(spectator, table.st, Witness(table.st, -1), table.words)
            spectator.page.wait_for_selector("body[data-phase=over]")
            assert "You are" not in spectator.page.inner_text("#who")
            last = json.loads(seats[0].frames[-1])
            assert last["view"]["terminal"] and last["view"]["you"] == 1
        finally:
            for seat in seats + [spectator]:
                seat.close()


def test_hot_seat_covers_the_table_between_players(browser):
    path = os.path.join(ROOT, "examples", "crazy_eights.cardrules")
    with Server(path) as s:
        table, links = s.start(["human", "human"], seed=13, hotseat=True)
        seat = Seat(browser, links["hotseat"])
        rng = random.Random(2)
        handovers = 0
        try:
            for _ in range(300):
                ph = seat.wait()
                if ph == "over":
                    break
                if ph == "handover":
                    handovers += 1
                    page = seat.page
                    assert page.is_visible("#handover")
                    # nothing of any hand on the screen, nor in the page behind the cover
                    assert not page.query_selector_all(".card[data-card]")
                    assert not page.query_selector_all("button.choice")
                    text = page.inner_text("#handover-text")
                    who = int(text.split("Player ")[1].split(".")[0])
                    page.click("#handover-button")
                    page.wait_for_selector("body[data-phase=decide]")
                    assert page.inner_text("#who").startswith(f"You are Player {who}")
                    continue
                seat.choose(rng)
            assert seat.wait() == "over" and handovers >= 4
            assert table.st.terminal and not seat.errors
        finally:
            seat.close()


def test_the_lobby_starts_a_game_with_its_choices(browser):
    path = os.path.join(ROOT, "examples", "sevens.cardrules")
    with Server(path) as s:
        ctx = browser.new_context()
        page = ctx.new_page()
        try:
            page.goto(f"{s.url}/#host={s.hub.host_token}")
            page.wait_for_selector("#start")
            page.select_option("#players", "3")
            page.select_option(".seat-kind[data-seat='2']", "mc")
            page.fill(".seat-kind[data-seat='2'] + .budget", "12")
            page.select_option(".seat-kind[data-seat='3']", "ismcts")
            page.fill(".seat-kind[data-seat='3'] + .budget", "9")
            opt = page.query_selector("[data-option]")
            if opt is not None:
                opt.fill("5")
            page.click("#start")
            page.wait_for_selector("a[data-link='seat 1']")
            table = next(iter(s.hub.tables.values()))
            assert table.seats == ["human", "mc:12", "ismcts:9"] and table.n == 3
            if opt is not None:
                assert table.overrides == {opt.get_attribute("data-option"): "5"}
            seat_page = ctx.new_page()
            seat_page.goto(page.get_attribute("a[data-link='seat 1']", "href"))
            seat_page.wait_for_selector(READY)
            assert seat_page.inner_text("#who").startswith("You are Player 1 of 3")
        finally:
            ctx.close()


def test_a_game_log_replayed_in_the_browser(browser, tmp_path):
    from rulelang.cli.commands import main
    path = os.path.join(ROOT, "examples", "crazy_eights.cardrules")
    log = str(tmp_path / "game.json")
    assert main(["run", path, "--seed", "3", "--log", log, "--quiet"]) == 0
    with Server(path) as s:
        replay = s.hub.replay(log)
        seat = Seat(browser, f"{s.url}/#replay={replay.token}")
        page = seat.page
        try:
            page.wait_for_selector("body[data-phase=replay]")
            assert page.inner_text("#status") == f"After move 0 of {replay.moves}"
            page.click("button.step[data-to='1']")
            page.wait_for_selector("body[data-version='1']")
            page.select_option("#viewpoint", "1")
            page.wait_for_selector("#mine .seat[data-seat='1'] .card[data-card]")
            assert page.inner_text("#who") == "replay"
            page.click("button.step:has-text('end')")
            page.wait_for_selector(f"body[data-version='{replay.moves}']")
            assert page.is_visible("#result") and not page.query_selector_all("button.choice")
            assert not seat.errors
        finally:
            seat.close()
