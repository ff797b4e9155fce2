"""Rules that decide, written in place of their calls in a playout that cannot stop
(``copies.can_inline``, ``RuleGen.inline_call``, ``PlayoutGen.inline_choose``).

A playout whose policy is an index function per seat and that has no budget of decisions never
stops before the end of the game but at a simultaneous decision, so a rule whose decisions all
have one chooser needs no frame there: its body is written where it is called, its decisions
taken where they come, as a rule that never decides is copied.  A playout that can stop (a
budget, a policy of actions) and the API enter it with its frame on the stack, as before; a
finished game's stack is the root, halted, however it ended, so both end alike.

Checked: which rules are written in place (decided on the tree); that an index playout of
Attack! pushes no frame at all while one with a budget does; that games played so, stopped by
their step budget anywhere, or ended by a rule, are those of the API, move by move and save by
save."""
from __future__ import annotations

import random

from rulelang.compile.loader import load

from gametest import played

GAME = '''game "g"
players 2 to 3
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone pile: shared, face up
var n = 0
game ends when hand is empty:
    end game with winner you
setup:
    shuffle stock
    deal 5 from stock to hand of each player
turn:
    play_one
    pass_card
    if n > 30:
        finish
    both
    repeat 2 times:
        maybe_draw for next player

rule play_one:
    if any card in hand where rank of card > 5:
        pick_high
    else:
        choose:
            draw if stock is not empty:
                move top card from stock to hand
            knock:
                add 1 to n

rule pick_high:
    choose:
        play card c from hand where rank of c > 5:
            move c from hand to pile
            add 1 to n

rule pass_card:
    let k = size of hand
    if k > 1:
        choose:
            give card c from hand:
                move c from hand to hand of next player
            keep:
                pass

rule maybe_draw:
    choose:
        take if stock is not empty:
            move top card from stock to hand
        leave:
            pass
    for each player p:
        add 1 to n

rule finish:
    choose:
        stop_now:
            end game with no winner
        go_on:
            set n to 0

rule both:
    simultaneously choose by each player:
        nod:
            pass
        shake:
            pass

rule returns:
    choose:
        yes:
            return
        no:
            pass

rule several:
    choose:
        drop "drop two" 2 cards c from hand to pile:
            pass

rule again:
    choose:
        once:
            pass
        more:
            again
'''


def _load(tmp_path, text=GAME):
    path = tmp_path / "g.cardrules"
    path.write_text(text, encoding="utf-8")
    return load(str(path))


def test_the_rules_written_in_place(tmp_path):
    """One chooser per decision, no return, no several cards, no rule that runs itself again:
    written in place (a rule calling only such rules too; an end of the game in it returns
    from the caller, as the call would); the others are entered with their frame."""
    cg = _load(tmp_path).compiled(2)
    names = {i: n for n, i in cg.proc_index.items()}
    inlined = {names[p] for p in cg.inlined_rules}
    assert {"play_one", "pick_high", "pass_card", "maybe_draw", "finish"} <= inlined
    assert not inlined & {"both", "returns", "several", "again"}
    # where players may leave the game, loops over the players count in the frame: none
    leaving = GAME.replace("    both\n", "    both\n    if n > 90:\n        remove you from the game\n")
    assert _load(tmp_path, leaving).model.players_leave
    assert _load(tmp_path, leaving).compiled(2).inlined_rules == set()


class _Pushes(list):
    """A stack that counts the frames of rules pushed on it (the turn's, which the root pushes
    once when setup ends, left out)."""

    pushed = 0
    turn = -1

    def append(self, x):
        if x[0] != _Pushes.turn:
            _Pushes.pushed += 1
        super().append(x)


def _pushes(cg, st, policy, **kw):
    st.stack = _Pushes(st.stack)
    _Pushes.pushed, _Pushes.turn = 0, cg.turn_top
    st.playout(policy, **kw)
    return _Pushes.pushed


def test_an_index_playout_of_attack_pushes_no_frame():
    """Attack!'s `play_card` and `lay_card` decide: through the API, or in a playout that can
    stop, each is entered with its frame on the stack (two pushes a duel at least); in a playout
    with index policies they are written in place: no frame of a rule is pushed in a whole game
    (the first turn too: the root of a playout runs the playout variants)."""
    cg = load("rules/attack.cardrules").compiled(2)
    cg.playout_procs()
    for seed in range(5):
        st = cg.new_game(seed=seed)
        assert _pushes(cg, st, [random.Random(seed)._randbelow] * 2) == 0 and st.is_terminal()
        st = cg.new_game(seed=seed)
        assert _pushes(cg, st, [random.Random(seed)._randbelow] * 2, max_decisions=40) > 20


def _api(cg, seed, max_steps):
    return played(cg, seed, log=False, max_steps=max_steps)


def _fast(cg, seed, max_steps):
    st = cg.new_game(seed=seed, max_steps=max_steps)
    st.playout([random.Random(seed).randrange] * cg.n)
    return st


def test_games_written_in_place_are_those_of_the_api(tmp_path):
    """The file above and Attack!, played with the same random choices through the API and
    on the fast path (its rules written in place), stopped by step budgets that fall anywhere
    in them, or ended by a rule: the same saves, what players remember included, and the
    stack of every finished game is the root, halted."""
    ended = {"error": 0, "draw": 0}
    for cg in (_load(tmp_path).compiled(2), _load(tmp_path).compiled(3),
               load("rules/attack.cardrules").compiled(2)):
        cg.playout_procs()
        for seed in range(6):
            for max_steps in (30, 61, 97, 150, 20_000):
                a, f = _api(cg, seed, max_steps), _fast(cg, seed, max_steps)
                assert f.to_json() == a.to_json(), (seed, max_steps)
                assert list(f.shown) == list(a.shown)
                assert a.stack == [[cg.root, cg.root_halt, 0]]
                if a.outcome in ended:
                    ended[a.outcome] += 1
    # stopped by the budget anywhere; ended by `finish`, written in place (`end game with no winner`)
    assert ended["error"] > 20 and ended["draw"] > 10


WIDE = '''game "wide"
players 2
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
var n = 0
game ends when n > 5000:
    end game with no winner
setup:
    shuffle stock
turn:
''' + "    big\n" * 400 + "    plain\n" * 400 + '''
rule big:
    choose:
        a:
''' + "            add 1 to n\n" * 30 + '''        b:
''' + "            add 2 to n\n" * 30 + '''
rule plain:
''' + "    add 1 to n\n" * 60


def test_a_file_of_many_calls_makes_functions_of_bounded_size(tmp_path):
    """A hostile file: a turn calling a rule of 60 statements that decides, and one that does
    not, 400 times each.  Written in place at every call (and each block of the playout copied
    where it is entered, forty deep) it made a playout function of 137 MB of bytecode: 329 s
    and 15.8 GB of memory to compile (the API's function, 4.3 MB).  A function writes at most rulegen.MAX_IN_PLACE statements of rules in place and
    copies at most playoutgen.MAX_COPIED_LINES lines of its blocks: the largest function stays
    within a few times the API's, and the games are those of the API."""
    import types
    cg = _load(tmp_path, WIDE).compiled(2)

    def largest(fns):
        return max(len(f.__code__.co_code) for f in fns if isinstance(f, types.FunctionType))
    pp = cg.playout_procs()
    assert largest(pp) < 8 * largest(cg.procs) and largest(cg.procs) < 400_000
    for seed in range(3):
        a, f = _api(cg, seed, 200_000), _fast(cg, seed, 200_000)
        assert f.to_json() == a.to_json() and a.decisions > 50


def test_a_rule_that_decides_at_the_largest_size_written_in_place_stays_bounded(tmp_path):
    """A rule that decides is written in place in a playout up to copies.MAX_INLINE_SIZE (256)
    statements, past a copy's MAX_COPY_SIZE (64): a hostile file calling one
    of 241 statements 400 times.  It is written in place, and the function that writes it
    still writes at most rulegen.MAX_IN_PLACE statements in place: its bytecode stays within a
    few times the API's (about 0.74 MB; about 1 s to compile), and the games are the API's."""
    import types
    from rulelang.compile import copies
    text = WIDE.split("rule big:")[0].replace("    plain\n", "") + "rule big:\n    choose:\n" + \
        "        a:\n" + "            add 1 to n\n" * 120 + "        b:\n" + "            add 2 to n\n" * 120
    cg = _load(tmp_path, text).compiled(2)
    assert copies.MAX_COPY_SIZE < 241 <= copies.MAX_INLINE_SIZE
    assert cg.inlined_sizes[cg.proc_index["big"]] == 241 and cg.turn_in_place

    def largest(fns):
        return max(len(f.__code__.co_code) for f in fns if isinstance(f, types.FunctionType))
    pp = cg.playout_procs()
    assert largest(pp) < 8 * largest(cg.procs) and largest(cg.procs) < 400_000
    for seed in range(3):       # (each call adds 120 or 240: the game ends at about 30 decisions)
        a, f = _api(cg, seed, 20_000), _fast(cg, seed, 20_000)
        assert f.to_json() == a.to_json() and a.decisions > 20
