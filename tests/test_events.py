"""The events of a logged game (rulelang/engine/events.py): every change of the zones
is recorded, in order, identically by both backends; nothing is recorded when nobody watches;
what a viewer is told of an event names only cards that viewer sees."""
import glob
import os
import random

import pytest

from rulelang.compile.loader import load
from rulelang.cli.table import card_visible_to
from rulelang.engine.events import apply_event, events_seen, sees
from rulelang.engine.runtime import ACTION_SHIFT, VALUE_MASK

from closures import closures_only
from gameprops import random_playout

FILES = sorted(glob.glob("examples/*.cardrules") + glob.glob("rules/*.cardrules"))
IDS = [os.path.basename(p)[:-10] for p in FILES]


def _games(cg, seeds, steps=20_000):
    for seed in seeds:
        st = cg.new_game(seed=seed, log=True, max_steps=steps)
        random_playout(st, random.Random(seed))
        yield st


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_the_events_replayed_are_the_game(path):
    """From the zones before setup, the log's events make the zones of every point of the game:
    after each decision (a clone logged so far) and at the end."""
    game = load(path)
    lo, hi = game.players
    for n in sorted({lo, hi}):
        cg = game.compiled(n)
        for st in _games(cg, range(2)):
            zones = [z[:] for z in cg._start_zones]
            for e in st.log:
                apply_event(zones, e)
            assert zones == st.zones
            assert any(e[0] == "move" for e in st.log)


def test_the_events_are_in_order_among_the_says():
    """Twenty-One: the cards the house draws are told before the house's total."""
    cg = load("examples/twenty_one.cardrules").compiled(1)
    for st in _games(cg, range(6)):
        kinds = [(e[0], e[2] if e[0] == "say" else None) for e in st.log]
        says = [i for i, (k, t) in enumerate(kinds) if k == "say" and "house has" in str(t)]
        shoe = [zi for zi, z in enumerate(cg.zone_info) if z[0] == "shoe"][0]
        draws = [i for i, e in enumerate(st.log) if e[0] == "move" and e[1] == shoe]
        if says and draws:
            assert max(draws) < says[-1]


def test_the_backends_record_the_same_events(monkeypatch):
    """Generated code and closures, move by move (test_codegen compares whole logs of every
    file; here a game with every kind of move is checked to record some of each)."""
    path = "rules/internecine.cardrules"
    fast = [st.log for st in _games(load(path).compiled(2), range(3))]
    closures_only(monkeypatch)
    slow = [st.log for st in _games(load(path).compiled(2), range(3))]
    assert fast == slow
    assert {e[0] for log in fast for e in log} >= {"move", "shuffle", "choice", "turn", "end"}


def test_nothing_is_recorded_when_nobody_watches():
    cg = load("rules/ciq.cardrules").compiled(3)
    st = cg.new_game(seed=1)
    assert st.log is None
    random_playout(st, random.Random(1))
    assert st.log is None
    for fn in cg.playout_procs():       # the fast path's code records nothing
        code = getattr(fn, "__code__", None)
        if code is not None:
            names = set(code.co_names)
            assert not names & {"_logmv", "_logrev", "_logshuffle"}, names


def _public(st):
    from rulelang.kinds import CARD
    return {v for v, (_n, _o, typ) in zip(st.vars, st.game.var_info) if typ == CARD and v >= 0}


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_a_viewer_is_told_only_cards_it_sees(path):
    """Each seat's events name a card exactly where the seat sees it before or after the move
    (its place in the zones as the log has made them), and no card otherwise; a shuffle names
    no card."""
    game = load(path)
    n = game.players[0]
    cg = game.compiled(n)
    for st in _games(cg, range(2), steps=5_000):
        for viewer in range(n):
            zones = [z[:] for z in cg._start_zones]
            told = events_seen(cg, zones, st.log, viewer)
            for e, t in zip(st.log, told):
                before = [z[:] for z in zones]
                apply_event(zones, e)
                if e[0] == "move":
                    _k, si, di, cards, bottom = e
                    ns, nd = len(before[si]), len(before[di])
                    for i, (c, shown) in enumerate(zip(cards, t[3])):
                        # where it lay, or its place where it went (one below another on a pile)
                        seen = sees(cg, si, before[si].index(c), ns, viewer) or \
                            sees(cg, di, i if bottom else nd + i, nd + len(cards), viewer)
                        assert shown == (c if seen else -1), (path, e, t)
                    if len(cards) == 1:     # as the play transcripts' checks see a card
                        c = cards[0]        # (tests/test_secrets.py)
                        assert (t[3][0] >= 0) == (card_visible_to(cg, before, c, viewer)
                                                  or card_visible_to(cg, zones, c, viewer))
                elif e[0] == "shuffle":
                    assert t == ("shuffle", e[1])


ORDER = '''game "Order"
players 3
deck standard, into stock
zone stock: shared, face down
zone pile: shared, face up
var played = 0
setup:
    shuffle stock
turn:
    add 1 to played
    move top card from stock to pile
    say "turns up", top of pile
    if played is 1:
        reverse direction
        say "reverses"
    if played is 3:
        skip next player
    if played >= 6:
        end game with winner you
'''


def test_run_tells_each_effect_where_it_happens(tmp_path, capsys, monkeypatch):
    """A move before the say that follows it, a reversal where the rule makes it (then the say
    after it), a skipped player where the turn passes on."""
    from rulelang.cli.commands import main
    path = tmp_path / "order.cardrules"
    path.write_text(ORDER, encoding="utf-8")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "120")
    assert main(["run", str(path), "--seed", "1"]) == 0
    lines = [ln.strip() for ln in capsys.readouterr().out.splitlines()]
    moved = [i for i, ln in enumerate(lines) if "from Stock to Pile" in ln]
    turned = [i for i, ln in enumerate(lines) if "turns up" in ln]
    assert len(moved) == len(turned) == 6 and all(m + 1 == t for m, t in zip(moved, turned))
    rev = [i for i, ln in enumerate(lines) if ln.endswith("the order of play is reversed")]
    said = [i for i, ln in enumerate(lines) if ln.endswith("Player 1 reverses")]
    assert len(rev) == 1 and said == [rev[0] + 1]
    assert sum(ln.endswith("loses a turn (skipped)") for ln in lines) == 1
