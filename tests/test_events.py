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
from rulelang.engine.runtime import VALUE_MASK

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


# A card passes through a `not shown` zone (`offer`) on its way from the table to a player's
# winnings: told once, from where it was seen to where it went, when it arrives there, also
# when the choice just made named it (it used to wait for the end of the game).
NOT_SHOWN = '''game "Not shown narration"
players 2

deck standard, into stock

zone stock: shared, face down
zone table: shared, face up
zone offer: shared, face up, not shown
zone won: per player, face down

game ends when stock is empty:
    end game with winner you

setup:
    shuffle stock
    move 2 cards from stock to table

turn:
    move top card from table to offer
    choose:
        take card d from offer:
            move d from offer to won
    move top card from stock to table
    if number of turns >= 2:
        move all cards from stock to won
'''


def test_a_card_through_a_bookkeeping_zone_is_told_when_it_arrives(tmp_path, capsys, monkeypatch):
    from rulelang.cli.commands import main
    path = tmp_path / "not_shown.cardrules"
    path.write_text(NOT_SHOWN, encoding="utf-8")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "120")
    for seed in (1, 2, 3):
        assert main(["run", str(path), "--seed", str(seed)]) == 0
        lines = [ln.strip() for ln in capsys.readouterr().out.splitlines()]
        # (a line numbered with its turn begins with the number)
        takes = [(i, ln.split(": take ")) for i, ln in enumerate(lines) if ": take " in ln]
        assert len(takes) == 3
        for i, (who, card) in takes:
            assert lines[i + 1] == f"· {card} from Table to Won of {who.split()[-2]} {who.split()[-1]}"
        assert sum("from Table to Won" in ln for ln in lines) == 3


ASIDE = '''game "Aside"
players 2
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone offer: per player, seen by owner, not shown
zone won: per player, seen by owner

setup:
    shuffle stock
    deal 3 from stock to hand of each player

turn:
    move top card from hand to offer
    choose:
        take card d from offer:
            move d from offer to won
    if size of won >= 2:
        end game with winner you
'''


def test_a_hidden_card_through_a_bookkeeping_zone_stays_a_card_for_the_others(tmp_path):
    """Each seat is told, right after the choice, the move of the card it took out of its own
    bookkeeping zone, by name; the other seat, of "a card", and never its name."""
    from rulelang.cli.narration import Narrator
    from rulelang.engine.display_names import Words
    path = tmp_path / "aside.cardrules"
    path.write_text(ASIDE, encoding="utf-8")
    cg = load(str(path)).compiled(2)
    words = Words(cg)
    for seed in range(4):
        st = cg.new_game(seed=seed, log=True)
        told = [Narrator(words, st, v) for v in (0, 1)]
        lines = [[], []]
        while not st.is_terminal():
            st.apply_action(st.legal_actions()[0])
            for v in (0, 1):
                lines[v] += [ln.plain.strip() for ln in told[v].lines()]
        taken = [(e[1], cg.card_names[e[2] & VALUE_MASK]) for e in st.log if e[0] == "choice"]
        assert len(taken) == 3          # (the first player has won two cards)
        for v in (0, 1):
            choices = [i for i, ln in enumerate(lines[v]) if ": take" in ln]
            assert len(choices) == 3
            for i, (seat, card) in zip(choices, taken):
                name = words.card(card)
                if seat == v:
                    assert lines[v][i].endswith(f"take {name}")
                    assert lines[v][i + 1] == f"· {name} from your Hand to your Won"
                else:
                    assert lines[v][i].endswith("take a card")
                    assert lines[v][i + 1] == \
                        f"· a card from Hand of Player {seat + 1} to Won of Player {seat + 1}"
                    assert not any(name in ln for ln in lines[v]), (seed, v, name)
