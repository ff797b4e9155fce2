"""The generated expression functions and the closures they replace play identical games."""
import glob
import random

import pytest

import rulelang.compile.compiler as C
from rulelang.compile.gensource import _safe
from rulelang.compile.loader import load

from closures import closures_only
from gameprops import random_playout

FILES = sorted(glob.glob("examples/*.cardrules") + glob.glob("rules/*.cardrules"))


def _transcripts(model, players, seeds):
    out = []
    cg = C.CompiledGame(model, players)
    for seed in seeds:
        st = cg.new_game(seed=seed, log=True, max_steps=20_000)
        random_playout(st, random.Random(seed))
        out.append((st.log, st.winners, st.outcome))
    return out


@pytest.mark.parametrize("path", FILES)
def test_generated_code_plays_like_closures(path, monkeypatch):
    game = load(path)
    lo, hi = game.players
    n = min(hi, lo + 1)
    fast = _transcripts(game.model, n, range(4))
    closures_only(monkeypatch)
    slow = _transcripts(game.model, n, range(4))
    assert fast == slow


def test_generated_source_rejects_foreign_names():
    with pytest.raises(AssertionError):
        _safe("def _f(g, fr):\n    return __import__(1)\n")
    with pytest.raises(AssertionError):
        _safe("def _f(g, fr):\n    return 'x'\n")


def test_turn_flow_finds_skip_reverse_and_next_turn_anywhere(tmp_path, monkeypatch):
    """The generated code leaves out what a game never does (skip, reverse, a named next seat);
    _turn_flow must find each wherever it is: in a choice, an if, a loop, a rule."""
    assert C._turn_flow(load("examples/crazy_eights.cardrules").model) == frozenset()
    assert C._turn_flow(load("rules/mages_wild.cardrules").model) >= {"skip", "reverse"}
    path = tmp_path / "flow.cardrules"
    path.write_text(
        'game "Flow"\nplayers 3 to 4\ndeck standard, into stock\n'
        'zone stock: shared, face down\nzone hand: per player, seen by owner\n'
        'game ends when stock is empty:\n    end game with no winner\n'
        'setup:\n    shuffle stock\n'
        'turn:\n    choose:\n        draw:\n            move top card from stock to hand\n'
        '            if rank of top of hand is 5:\n                repeat 1 times:\n'
        '                    next turn goes to player 1\n'
        '        wait:\n            hop\n'
        'rule hop:\n    skip next player\n')
    game = load(str(path))
    assert C._turn_flow(game.model) == {"skip", "next_turn"}
    fast = _transcripts(game.model, 4, range(6))
    assert all(o == "draw" for _, _, o in fast)
    closures_only(monkeypatch)
    assert _transcripts(game.model, 4, range(6)) == fast


def test_rules_that_never_decide_are_copied_where_they_are_called(tmp_path):
    """A rule that never decides is written in place of its calls (one call and one frame
    less), its `you` the caller's player, its parameters and locals Python locals of the copy
    (Attack!'s `fill_hand`, `repeat ... times: draw`, 1,342 -> 1,288 bytecodes per
    decision on the fast path; its `clear_field` and Power Attack!'s
    `both_cards_down`, loops over the players); so is one that calls only such rules, the rules it calls copied into it in turn,
    `you` and the arguments passed down; an end of the game in a copy returns from the caller,
    as the call would have.  One with a return or a statement that sets `you`
    stays a call; in a game where players leave, so does one with a local other than the
    counter of a `repeat N times` (its loops over the players count in the frame).  Decided on
    the rule's tree (compile/copies.py: can_copy, copied_rules), never by reading generated
    code.  test_generated_code_plays_like_closures checks that the copies play alike; here the
    games of this file too, and a copy's locals are its own: the caller's, of the same slots,
    are as they were."""
    from rulelang.compile.copies import can_copy, copied_rules
    head = ('game "g"\nplayers 2\ndeck standard, into stock\nzone stock: shared, face down\n'
            'zone hand: per player, face down\nvar n = 0\nvar m = 0\n')
    rules = {"plain": "    move top card from stock to hand\n    add 1 to n\n",
             "local": "    let k = 1\n    add k to n\n",
             "returns": "    if n > 3:\n        return\n    add 1 to n\n",
             "calls": "    plain\n",
             "counts": "    repeat 2 - size of hand times:\n        calls for next player\n",
             "player_loop": "    for each player p:\n        add 1 to n\n",
             "calls_local": "    local\n",
             "params": "    add 1 to k\n    let j = k + 1\n    add j to n\n    for each card c in hand:\n        add 1 to m\n",
             "passes": "    params(3)\n    params(size of hand) for next player\n",
             "ends": "    if n > 1000:\n        end game with no winner\n",
             "decides": "    choose:\n        draw:\n            move top card from stock to hand\n"}
    text = head + "".join(f"rule {name}{'(k)' if name == 'params' else ''}:\n{body}"
                          for name, body in rules.items())
    text += "setup:\n    shuffle stock\nturn:\n    plain for player 2\n    local\n    returns\n    calls\n" \
            "    counts\n    player_loop\n    calls_local\n    passes\n" \
            "    let k = 7\n    params(k)\n    set m to k\n    ends\n" \
            "    decides\n    if n > 40:\n        end game with no winner\n"
    path = tmp_path / "g.cardrules"
    path.write_text(text)
    game = load(str(path))
    cg = game.compiled(2)
    assert {n for n in rules if can_copy(game.model.rules[n], cg.refs)} == \
        {"plain", "local", "player_loop", "params", "ends"}
    assert {n for n in rules if can_copy(game.model.rules[n], cg.refs, players_leave=True)} == \
        {"plain", "ends"}
    copied = {"plain", "calls", "counts", "local", "player_loop", "calls_local", "params", "passes",
              "ends"}
    assert copied_rules(game.model.rules, cg.refs) & set(rules) == copied
    assert {n for n in rules if cg.proc_index[n] in cg.inline_bodies} == copied
    st = cg.new_game(seed=3)                   # (at the turn's `decides`)
    assert st.vars[cg.var_base["m"]] == 7      # the turn's `k`, after the copy's became 8
    fast = _transcripts(game.model, 2, range(4))
    monkeypatch = pytest.MonkeyPatch()
    try:
        closures_only(monkeypatch)
        assert _transcripts(game.model, 2, range(4)) == fast
    finally:
        monkeypatch.undo()
    cg = load("examples/crazy_eights.cardrules").compiled(2)
    assert cg.inline_bodies      # refill_stock: no locals, no decision


def test_generated_source_is_compiled_once_per_process():
    """The same generated source (most functions do not depend on the number of players) is
    compiled once; each compiled game still binds the names in its own namespace."""
    from rulelang.compile import gensource
    game = load("examples/crazy_eights.cardrules")
    C.CompiledGame(game.model, 3)
    before = gensource._code.cache_info()
    cg = C.CompiledGame(game.model, 3)
    after = gensource._code.cache_info()
    assert after.misses == before.misses and after.hits > before.hits
    assert _transcripts(game.model, 3, range(2)) == _transcripts(game.model, 3, range(2))
    assert cg.new_game(seed=1).legal_actions()


@pytest.mark.parametrize("count, players", [("2", 3), ("10", 4), ("10", 5), ("all", 3), ("all", 5), ("0", 2)])
def test_deal_gives_cards_one_at_a_time_in_turn(tmp_path, count, players):
    """A deal hands the top card to each player in turn from the current one (done in bulk)."""
    path = tmp_path / "deal.cardrules"
    path.write_text(
        'game "Deal"\nplayers 2 to 5\ndeck standard, into stock\n'
        'zone stock: shared, face down\nzone hand: per player, seen by owner\n'
        f'setup:\n    deal {count} from stock to hand of each player\n'
        'turn:\n    choose:\n        stop_here:\n            end game with no winner\n')
    cg = load(str(path)).compiled(players)
    st = cg.new_game(seed=0)
    stock = list(range(len(cg.cards)))
    hands = [[] for _ in range(players)]
    k = None if count == "all" else int(count)
    i = 0
    while stock and (k is None or i < k * players):
        hands[i % players].append(stock.pop())
        i += 1
    zi = {name: z for z, (name, owner, _, _) in enumerate(cg.zone_info) if owner < 0}
    assert st.zones[zi["stock"]] == stock
    hz = [z for z, (name, owner, _, _) in enumerate(cg.zone_info) if name == "hand"]
    assert [st.zones[z] for z in hz] == hands


def test_each_player_loops_go_round_in_pythons_loop(tmp_path):
    """`for each player p` that never waits and whose body sets no `p` goes through the seats in
    Python's own loop (``for fr[i] in ORDER[start]``), leaving the slot at the first
    player again when it ends, as the step of each round did; a loop whose body sets `p`, which
    changes the next round's player, keeps the step.  Both play as the reference interpreter
    does, with and without `stop`, at every number of players."""
    from rulelang.compile.rulegen import RuleGen
    text = ('game "g"\nplayers 2 to 4\ndeck standard, into stock\nzone stock: shared, face down\n'
            'zone hand: per player, seen by owner\nvar n = 0\n'
            'rule plain:\n    for each player p from next player:\n        add 1 to n\n'
            '        if size of hand of p > 3:\n            stop\n'
            '        move top card from stock to hand of p\n'
            '    say "after the loop", n\n'
            'rule jumps:\n    for each player p:\n        move top card from stock to hand of p\n'
            '        if size of hand of p is 2:\n            set p to player after p\n'
            'setup:\n    shuffle stock\n'
            'turn:\n    plain\n    jumps\n    for each player p from next player:\n        add 1 to n\n'
            '    choose:\n        go_on:\n            pass\n'
            '        finish if n > 30:\n            end game with no winner\n')
    path = tmp_path / "g.cardrules"
    path.write_text(text)
    game = load(str(path))
    cg = game.compiled(3)

    def source(name):
        rg = RuleGen(cg)
        rg.compile_rule(cg.model.rules[name].decl.body, cg.proc_index[name])
        return rg.src
    assert "for fr[" in source("plain") and "range(3)" not in source("plain")
    assert "range(3)" in source("jumps")

    def frames(cg, seed):
        """The rules' frames at each decision, as a save has them, but their positions (the
        reference interpreter numbers its own) and the chooser's slot of a choice by `you` (the
        generated code reads `you` itself and never sets that slot; the reference
        interpreter sets it)."""
        from rulelang.compile.rulegen import rule_bodies
        from rulelang.kinds import Frame
        from rulelang.syntax import ast as A
        mine = {}
        for pid, body in [(cg.proc_index[name], r.decl.body) for name, r in game.model.rules.items()] + \
                [(cg.turn_top, game.model.rules["turn"].decl.body)]:
            todo = list(body)
            while todo:
                st = todo.pop()
                if isinstance(st, A.Choose) and not st.by and not st.simultaneous:
                    mine.setdefault(pid, set()).add(Frame.slot(game.model.choose_slots.of(st).chooser))
                todo.extend(x for b in rule_bodies(st) for x in b)
        assert mine                 # (the turn's choice)
        st, rng, out = cg.new_game(seed=seed), random.Random(seed), []
        while not st.is_terminal():
            out.append([[0 if i in mine.get(f[0], ()) else x for i, x in enumerate(f)][2:]
                        for f in st.to_json()["stack"]])
            legal = st.legal_actions()
            st.apply_action(legal[rng.randrange(len(legal))])
        return out
    for n in (2, 3, 4):
        fast = _transcripts(game.model, n, range(3))
        saves = [frames(C.CompiledGame(game.model, n), s) for s in range(3)]
        monkeypatch = pytest.MonkeyPatch()
        try:
            closures_only(monkeypatch)
            assert _transcripts(game.model, n, range(3)) == fast, n
            assert [frames(C.CompiledGame(game.model, n), s) for s in range(3)] == saves, n
        finally:
            monkeypatch.undo()


def _names_in(code) -> set:
    """Every name a code object and the code inside it look up."""
    out, todo = set(), [code]
    while todo:
        c = todo.pop()
        out.update(c.co_names)
        todo.extend(k for k in c.co_consts if hasattr(k, "co_names"))
    return out


def test_a_choice_that_always_offers_something_has_no_test_for_none(tmp_path):
    """A choice whose list cannot be empty (an alternative offered always; one offered when the
    alternatives before it offered nothing, as Crazy Eights' `draw if no card in hand where
    playable(card)`; a choice of any suit or rank) writes no test for a choice without
    alternatives (one line less at each decision); one whose list can be empty keeps
    it, and the game stops there with RL904, the same on the fast path."""
    head = ('game "g"\nplayers 2\ndeck standard, into stock\nzone stock: shared, face down\n'
            'zone hand: per player, seen by owner\nzone pile: shared, face up\n'
            'define fits(c) = rank of c is 8 or suit of c is hearts\n'
            'setup:\n    shuffle stock\n    deal 3 from stock to hand of each player\n'
            'turn:\n    if stock is empty:\n        end game with no winner\n')
    cases = {
        "never": "    choose:\n        play card c from hand where fits(c):\n"
                 "            move c from hand to pile\n"
                 "        draw if no card in hand where fits(card):\n"
                 "            move top card from stock to hand\n",
        "suit": "    choose:\n        name suit s:\n            move top card from stock to pile\n",
        "may": "    choose:\n        play card c from hand where fits(c):\n"
               "            move c from hand to pile\n"
               "        draw if size of hand < 2:\n"
               "            move top card from stock to hand\n",
    }
    found = {}
    for name, turn in cases.items():
        path = tmp_path / f"{name}.cardrules"
        path.write_text(head + turn)
        cg = load(str(path)).compiled(2)
        found[name] = {"_noch" in _names_in(f.__code__)
                       for f in cg.procs + cg.playout_procs() if hasattr(f, "__code__")} - {False}
        if name == "may":
            for seed in range(40):
                api = cg.new_game(seed=seed)
                while not api.is_terminal():
                    api.apply_action(api.legal_actions()[0])
                fast = cg.new_game(seed=seed)
                fast.playout([(0).__mul__] * 2)
                assert fast.to_json() == api.to_json()
                if api.problem is not None:
                    assert api.problem["code"] == "RL904"
                    found["stopped"] = True
    assert found == {"never": set(), "suit": set(), "may": {True}, "stopped": True}
