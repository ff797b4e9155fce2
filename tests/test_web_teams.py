"""The browser table of a game with teams (docs/web.md): each seat's team, the teams with their
players and their shown variables (`var NAME "Label" per team`) and, once the game is over, each
team's score.  What a seat is sent is still only what it may see: the teams, their variables and
the end's scores are public."""
import json
import os
import random

import pytest

from rulelang.compile.loader import load
from rulelang.engine.display_names import Words
from rulelang.web.views import Cards, table_view

TEAM_GAME = """game "Sides"
players 4
teams: partners sit opposite
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone pile: shared, face up
var points "side points" per team
score: points of the team of you
setup:
    shuffle stock
    deal 2 from stock to hand of each player
turn:
    choose:
        play card c from hand:
            move c from hand to pile
            add rank of c to points of the team of you
    if hand of player 4 is empty:
        end game by highest score
"""


def write(tmp_path, text=TEAM_GAME):
    p = tmp_path / "sides.cardrules"
    p.write_text(text, encoding="utf-8")
    return str(p)


def views(st, viewer):
    cg = st.game
    words = Words(cg)
    return table_view(st, words, Cards(cg, words), viewer)


def test_each_seat_is_sent_its_team_and_the_teams_values(tmp_path):
    st = load(write(tmp_path)).new_game(4, seed=2)
    for _ in range(3):
        st.apply_action(st.legal_actions()[0])
    pts = st.variables()["points"]
    for viewer in (0, 1, None):
        v = views(st, viewer)
        assert [s["team"] for s in v["seats"]] == [1, 2, 1, 2]
        assert [(t["team"], t["players"]) for t in v["teams"]] == [(1, [1, 3]), (2, [2, 4])]
        assert [t["vars"] for t in v["teams"]] == [[["side points", str(pts[1])]],
                                                  [["side points", str(pts[2])]]]
        assert all("score" not in t for t in v["teams"])   # scores are told at the end
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    v = views(st, 0)
    assert [t["score"] for t in v["teams"]] == [str(2 * pts) for pts in
                                                (st.variables()["points"][1],
                                                 st.variables()["points"][2])]


def test_a_game_without_teams_sends_none(tmp_path):
    text = TEAM_GAME.replace("teams: partners sit opposite\n", "").replace(
        'var points "side points" per team', 'var points "side points" per player = 0').replace(
        "points of the team of you", "points of you")
    st = load(write(tmp_path, text)).new_game(4, seed=2)
    v = views(st, 0)
    assert "teams" not in v and all("team" not in s for s in v["seats"])


def test_the_teams_are_the_same_in_every_world_a_seat_cannot_tell_apart(tmp_path):
    st = load(write(tmp_path)).new_game(4, seed=5)
    st.apply_action(st.legal_actions()[0])
    for seat in range(4):
        mine = views(st, seat)
        for k in range(5):
            other = st.clone()
            other.determinize(seat, random.Random(k))
            assert views(other, seat)["teams"] == mine["teams"]
            assert views(other, seat)["seats"] == mine["seats"]


def test_the_page_shows_the_teams_in_a_real_browser(tmp_path):
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    from webserver import CHROMIUM, Server, chromium_missing
    if chromium_missing():
        pytest.skip(chromium_missing())
    from playwright.sync_api import sync_playwright
    from test_web_browser import Seat, check_secrets
    from websecrets import Witness
    path = write(tmp_path)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM if os.path.exists(CHROMIUM) else None, headless=True)
        try:
            with Server(path) as s:
                table, links = s.start(["human", "random", "random", "random"], seed=3)
                seat = Seat(browser, links["seat 1"])
                witness = Witness(table.st, 0)
                rng = random.Random(1)
                try:
                    assert seat.wait() == "decide"
                    page = seat.page
                    assert page.inner_text(".seat[data-seat='1'] .team") == "Team 1"
                    assert page.inner_text(".seat[data-seat='2'] .team") == "Team 2"
                    assert page.inner_text(".seat[data-seat='3'] .team") == "Team 1"
                    rows = page.inner_text(".teams .team[data-team='1']")
                    assert rows.startswith("Team 1: you, Player 3 · side points: ")
                    assert page.inner_text(".teams .team[data-team='2']").startswith(
                        "Team 2: Player 2, Player 4 · side points: ")
                    for _ in range(10):
                        check_secrets(seat, table.st, witness, table.words)
                        if seat.wait() == "over":
                            break
                        seat.choose(rng)
                    assert seat.wait() == "over"
                    check_secrets(seat, table.st, witness, table.words)
                    pts = table.st.variables()["points"]
                    assert page.inner_text(".teams .team[data-team='1']") == \
                        f"Team 1: you, Player 3 · side points: {pts[1]} · score {2 * pts[1]}"
                    assert f"Teams: Team 1 {2 * pts[1]}, Team 2 {2 * pts[2]}" in \
                        page.inner_text("#result")
                    last = json.loads(seat.frames[-1])
                    assert last["view"]["teams"][0]["players"] == [1, 3]
                    assert not seat.errors
                finally:
                    seat.close()
        finally:
            browser.close()


TRICK_GAME = """game "Tricks"
players 3
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone trick: shared, face up
zone pile: shared, face down
setup:
    shuffle stock
    deal 4 from stock to hand of each player
    move top card from stock to trick
turn:
    choose:
        play card c from hand:
            move c from hand to trick
        lay card c from hand:
            move c from hand to pile
    say who played top of trick
    if hand of player 3 is empty:
        end game with winner who played top of trick
"""


def test_each_card_of_the_table_says_who_played_it_the_same_in_every_world(tmp_path):
    st = load(write(tmp_path, TRICK_GAME)).new_game(3, seed=4)
    acts = []
    for _ in range(4):
        legal = st.legal_actions()
        pick = [a for a in legal if st.action_to_string(a).startswith("lay ")] if len(acts) == 1 else legal
        acts.append(pick[0])
        st.apply_action(pick[0])
    for viewer in (0, 1, None):
        v = {z["key"]: z for z in views(st, viewer)["zones"]}
        trick = v["trick"]
        # the card dealt to the table was played by nobody; then players 1, 3 and 1 played to it
        who = ["You" if viewer == p - 1 else f"Player {p}" for p in (1, 3, 1)]
        assert trick["played_by"][0] is None and trick["played_by"][1:] == who
        assert len(trick["played_by"]) == len(trick["cards"])
        mover = "You" if viewer == 1 else "Player 2"    # player 2 laid a card face down
        assert v["pile"]["played_by"] == [mover] and "cards" not in v["pile"]
    for seat in range(3):
        mine = {z["key"]: z.get("played_by") for z in views(st, seat)["zones"]}
        for k in range(5):
            other = st.clone()
            other.determinize(seat, random.Random(k))
            assert {z["key"]: z.get("played_by") for z in views(other, seat)["zones"]} == mine


def test_the_page_says_who_played_each_card_in_a_real_browser(tmp_path):
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    from webserver import CHROMIUM, Server, chromium_missing
    if chromium_missing():
        pytest.skip(chromium_missing())
    from playwright.sync_api import sync_playwright
    from test_web_browser import Seat, check_secrets
    from websecrets import Witness
    path = write(tmp_path, TRICK_GAME)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM if os.path.exists(CHROMIUM) else None, headless=True)
        try:
            with Server(path) as s:
                table, links = s.start(["human", "random", "random"], seed=3)
                seat = Seat(browser, links["seat 1"])
                witness = Witness(table.st, 0)
                rng = random.Random(2)
                try:
                    seen = set()
                    for _ in range(3):
                        assert seat.wait() == "decide"
                        check_secrets(seat, table.st, witness, table.words)
                        page = seat.page
                        shown = page.eval_on_selector_all(
                            "[data-zone='trick'] .card",
                            "(cs) => cs.map((c) => (c.querySelector('.by') || {}).textContent || null)")
                        # (a zone with no card played is left out of the observation)
                        want = table.st.observation(0).get("played_by", {}).get(
                            "trick", [None] * len(shown))
                        assert shown == [None if p is None else "You" if p == 1 else f"Player {p}"
                                         for p in want]
                        pile = page.inner_text("[data-zone='pile']")
                        top = table.st.observation(0).get("played_by", {}).get("pile")
                        if top:
                            name = "You" if top[-1] == 1 else f"Player {top[-1]}"
                            assert f"the top played by {name}" in pile
                        seen.update(x for x in shown if x)
                        seat.choose(rng)
                    assert "You" in seen or "the top played by You" in pile
                    assert not seat.errors
                finally:
                    seat.close()
        finally:
            browser.close()
