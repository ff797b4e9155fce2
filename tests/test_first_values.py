"""The variables' first values (CompiledGame._unbegun): a first value
known before the game (a constant, folded: ExprGen.fold) is written in the list every new game
copies; only the others are computed, in order, as before.  A new game's variables are the
same either way, and the same as the reference interpreter's (tests/closures.py)."""
from rulelang.compile.loader import load
from rulelang.engine.rng import Rng

FIRST = """game "First"
players 2 to 3
deck standard, into stock
zone stock: shared, face down
var a = 3 * 4 + 1
var b: player = none
var c = yes
var d = random player
var e = a + 1
var f per player = 7
var k per player = (1 if you is next player else 2)
var h: suit = hearts
setup:
    shuffle stock
turn:
    end game with winner you
"""


def test_known_first_values_are_copied_and_the_others_computed(tmp_path, monkeypatch):
    path = tmp_path / "first.cardrules"
    path.write_text(FIRST)
    for n in (2, 3):
        cg = load(str(path)).compiled(n)
        names = [name for name, _owner, _typ in cg.var_info]
        cg.new_game(seed=0)
        known, computed = cg._var_inits
        # a die, another variable, `you`: computed; the constants are not
        assert sorted({names[i] for i, _f, _fr in computed}) == ["d", "e", "k"]
        assert [known[i] for i, name in enumerate(names) if name not in "dek"] == \
            [13, -1, 1] + [7] * n + [cg.model.suits.index("hearts")]
        for seed in range(20):
            st = cg._unbegun(seed, False, None)     # (a new game before its setup)
            g = cg._unbegun(seed, False, None)
            g.rng, g.vars = Rng(seed), [0] * len(names)     # as a new game began before
            for i, (name, owner, _typ) in enumerate(cg.var_info):
                frame = cg._scratch(cg.model.var_ctx.nslots, max(owner, 0))
                g.vars[i] = int(cg._var_init[name](g, frame))    # each through its function
            assert st.vars == g.vars and st.rng.s == g.rng.s, (n, seed)


def test_first_values_agree_with_the_reference_interpreter(tmp_path, monkeypatch):
    from tests.closures import three_ways
    path = tmp_path / "first.cardrules"
    path.write_text(FIRST)
    for seed in range(8):
        three_ways(str(path), 3, seed, monkeypatch, ["vars", "winners"])
