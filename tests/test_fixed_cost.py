"""The work a game does once, outside its rules: the root calls the
setup rule itself, as it calls the turn, instead of returning to the run loop to have it
called.  The games stay the same (the goldens, tests/test_playout*.py, the fuzz); here, that
the round trip is gone, that a setup that decides still stops where it did, and that the ways
into a playout agree."""
import random

from rulelang.compile.loader import load

CE = "examples/crazy_eights.cardrules"


def test_the_root_calls_the_setup_itself():
    """Before the first decision the root is entered once: it runs the setup (no decision in
    it) and goes on to the first turn, without returning to ``run`` in between."""
    for n in (2, 4):
        cg = load(CE).compiled(n)
        root = cg.procs[cg.root]
        entries = []

        def counting(g, fr, pc):
            entries.append(pc)
            return root(g, fr, pc)

        cg.procs[cg.root] = counting
        try:
            st = cg.new_game(seed=3)
        finally:
            cg.procs[cg.root] = root          # (the game is the one every load of CE shares)
        assert entries == [0]
        assert not st.terminal and st.current_player() == 0
        assert sum(map(len, st.zones)) == 52        # (the deal and the discard pile's first card)


def test_a_setup_that_decides_stops_where_it_did(tmp_path):
    """A setup with a decision in it: the root, which called it, returns the suspension; the
    decision made, the run loop pops the setup's frame and the root goes on to the turn."""
    src = """game "Pick"
players 2
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
setup:
    choose:
        take:
            move top card from stock to hand
        pass:
            say "passes"
turn:
    end game with winner you
"""
    path = tmp_path / "pick.cardrules"
    path.write_text(src)
    cg = load(str(path)).compiled(2)
    st = cg.new_game(seed=1)
    assert not st.terminal and len(st.stack) == 2          # the root, and the setup waiting
    st.apply_action(st.legal_actions()[0])
    assert st.terminal and st.winners == [0] and len(st.zones[1]) == 1


def test_playout_with_index_functions_and_with_a_function_agree():
    """The same games whichever form the policy takes, and the same as ``playout_counted``."""
    cg = load(CE).compiled(3)
    for seed in range(30):
        a = cg.playout(seed, [random.Random(seed)._randbelow] * 3)
        r = random.Random(seed)._randbelow
        b = cg.playout(seed, lambda p, k: r(k))
        c, counts = cg.playout_counted(seed, [random.Random(seed)._randbelow] * 3)
        assert a.to_json() == b.to_json() == c.to_json()
        assert counts[0] == a.decisions
