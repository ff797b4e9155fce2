"""Resource limits (docs/security.md): whatever a rule file says, `check` and `run` end
in bounded time and memory with a diagnostic or a run-time problem that names the limit and the
place, never an internal error (exit 3).

The hostile inputs are here, each run as the command line runs it, in a subprocess with a
time limit and an address-space limit of 1 GiB; the rest run in process.
"""
import json
import os
import resource
import subprocess
import sys
import time

import pytest

from closures import closures_only
from rulelang import limits
from rulelang.syntax.diagnostics import RuleFileError
from rulelang.compile.loader import check_file, load

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SLOW = os.environ.get("RULELANG_SLOW") == "1"

HEAD = '''game "Limits"
players 2 to 4
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
var x = 2
game ends when hand is empty:
    end game with winner you
setup:
    shuffle stock
    deal 5 from stock to hand of each player
'''
DRAW = "    end game with winner you\n"


def turn(*lines):
    return HEAD + "turn:\n" + "".join("    " + l + "\n" for l in lines) + DRAW


def nested(openers, inner="move top card from stock to hand", step=4):
    """``turn:`` with the given block openers inside one another (``step`` spaces each)."""
    out = ["turn:"]
    for i, opener in enumerate(openers):
        out.append(" " * (step * (i + 1)) + opener)
    out.append(" " * (step * (len(openers) + 1)) + inner)
    return HEAD + "\n".join(out) + "\n" + DRAW


def _limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def cli(tmp_path, text, *args, timeout=120):
    """Run ``rulelang ARGS FILE`` on ``text`` within 1 GiB: (exit status, what it printed; with
    ``--json`` only its standard output, the JSON)."""
    path = tmp_path / "limits.cardrules"
    path.write_text(text, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=ROOT, NO_COLOR="1")
    proc = subprocess.run([sys.executable, "-m", "rulelang", *args, str(path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout,
                          preexec_fn=_limit_memory)
    assert proc.returncode != 3, proc.stdout + proc.stderr
    return proc.returncode, proc.stdout if "--json" in args else proc.stdout + proc.stderr


def codes(tmp_path, text):
    """The codes and lines of ``check --json``."""
    status, out = cli(tmp_path, text, "check", "--json")
    return status, [(d["code"], d.get("line")) for d in json.loads(out)]


# ---- hostile inputs ---------------------------------------------------------------------------

@pytest.mark.parametrize("openers", [
    ["repeat 2 times:"] * 20,
    [f"for each player p{i}:" for i in range(20)],
], ids=["20 repeats", "20 for each"])
def test_twenty_nested_loops_check_and_run(tmp_path, openers):
    # Python allows 20 nested loops in one function; the generated code would need more, so the
    # compiler keeps its closures for that rule.  The game never ends: the step budget stops it.
    assert codes(tmp_path, nested(openers)) == (0, [])
    status, out = cli(tmp_path, nested(openers), "run", "--json")
    assert status == 1 and json.loads(out)["problem"]["code"] == "RL901"


@pytest.mark.parametrize("depth,step", [(97, 4), (1000, 1)])
def test_deeply_nested_ifs_are_rl201(tmp_path, depth, step):
    text = nested(["if x > 1:"] * depth, step=step)
    status, found = codes(tmp_path, text)
    assert status == 1 and found == [("RL201", 12 + limits.MAX_BLOCK_DEPTH)]   # the `if` opening block 33


def test_five_thousand_digits_are_rl203(tmp_path):
    assert codes(tmp_path, turn("set x to " + "9" * 5000)) == (1, [("RL203", 13)])


@pytest.mark.parametrize("expr", [
    " + ".join(["1"] * 20000),
    "(" + "not " * 10000 + "x > 1" + " if yes else no)",
    "rank of " * 3000 + "top of stock",
], ids=["20k-term sum", "10k nots", "3000 ofs"])
def test_deep_expressions_are_rl202_in_check_and_run(tmp_path, expr):
    text = turn(f"let y = {expr}")
    assert codes(tmp_path, text) == (1, [("RL202", 13)])
    status, out = cli(tmp_path, text, "run")
    assert status == 1 and "RL202" in out


def test_parentheses_alone_do_not_nest(tmp_path):
    text = turn("set x to " + "(" * 5000 + "1" + ")" * 5000)
    assert codes(tmp_path, text) == (0, [])
    status, out = cli(tmp_path, text, "run", "--json")
    assert status == 0 and json.loads(out)["winners"] == [1]


def test_repeated_squaring_stops_with_rl910(tmp_path):
    text = turn("repeat 64 times:", "    set x to x * x")
    assert codes(tmp_path, text) == (0, [])
    status, out = cli(tmp_path, text, "run", "--json")
    problem = json.loads(out)["problem"]
    assert status == 1 and problem["code"] == "RL910" and problem["span"][1:] == [14, 18]


@pytest.mark.parametrize("players", ["1 to 1000", "2 to " + "1" + "0" * 20, "20000"])
def test_huge_player_counts_are_refused_quickly(tmp_path, players):
    text = turn("pass").replace("players 2 to 4", "players " + players)
    status, found = codes(tmp_path, text)
    assert status == 1 and found[0] in (("RL204", 2), ("RL203", 2))


# ---- numbers while a game is played ----------------------------------------------------------

def play(text, tmp_path, players=2):
    path = tmp_path / "game.cardrules"
    path.write_text(text, encoding="utf-8")
    st = load(str(path)).new_game(players, seed=1)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    return st


BACKENDS = ["generated", "closures"]


@pytest.fixture(params=BACKENDS)
def backend(request, monkeypatch):
    if request.param == "closures":
        closures_only(monkeypatch)
    return request.param


@pytest.mark.parametrize("body,code,line", [
    (["set x to 1 / (x - 2)"], "RL911", 13),
    (["set x to 7 mod (x - 2)"], "RL911", 13),
    (["let y = x - 2", "set x to 3 mod y"], "RL911", 14),
    (["repeat 60 times:", "    add x to x"], "RL910", 14),
    (["repeat 60 times:", "    set x to x + x"], "RL910", 14),
    (["repeat 60 times:", "    let y = x * 3", "    set x to y"], "RL910", 14),
    (["set x to 999999999999999 * 2"], "RL910", 13),
    (["set x to 1000000000000000", "subtract 1 from x", "add 2 to x"], "RL910", 15),
])
def test_runtime_number_problems(tmp_path, backend, body, code, line):
    st = play(turn(*body), tmp_path)
    assert st.outcome == "error" and st.problem["code"] == code, st.problem
    assert st.problem["span"][1] == line


def test_numbers_up_to_the_bound_are_fine(tmp_path, backend):
    st = play(turn("set x to 1000000000000000", "set x to x * -1", "add 0 to x",
                   "if x is -1000000000000000:", "    end game with winner you"), tmp_path)
    assert st.problem is None and st.winners == [0]


def test_a_first_value_divided_by_zero_ends_the_game(tmp_path, backend):
    st = play(HEAD.replace("var x = 2", "var x = 10 / size of hand") + "turn:\n" + DRAW,
              tmp_path)
    assert st.problem["code"] == "RL911"


def test_division_by_a_known_zero_is_rl205(tmp_path):
    path = tmp_path / "div.cardrules"
    path.write_text(turn("set x to 1 / 0", "set x to x mod 0"), encoding="utf-8")
    found = [(d.code, d.span.line) for d in check_file(str(path))[0]]
    assert found == [("RL205", 13), ("RL205", 14)]


def test_no_rule_file_relies_on_dividing_by_zero():
    """Dividing by zero used to give 0: none of the bundled games ever divides by zero (each is
    played a few times by both backends' golden and property tests; here: their divisors are
    never 0 in 20 random games each)."""
    import glob
    import random
    for path in sorted(glob.glob(os.path.join(ROOT, "rules", "*.cardrules"))
                       + glob.glob(os.path.join(ROOT, "examples", "*.cardrules"))):
        game = load(path)
        for seed in range(20):
            st = game.new_game(game.players[0], seed=seed)
            rng = random.Random(seed)
            while not st.is_terminal():
                p = st.current_players()[0]
                st.apply_action(rng.choice(st.legal_actions(p)), p)
            assert st.problem is None or st.problem["code"] not in ("RL910", "RL911"), (path, seed)


# ---- every stage stays inside the recursion limit at the limits ------------------------------

def at_the_limits():
    """Blocks exactly MAX_BLOCK_DEPTH deep, and at the deepest, expressions exactly
    MAX_EXPR_DEPTH deep of each kind: the worst a checked file can be."""
    e = limits.MAX_EXPR_DEPTH
    sum_ = "x" + " + 1" * (e - 1)
    product = "x" + " * 1" * (e - 1)
    nots = "not " * (e - 2) + "x > 1"
    openers = []
    for i in range(limits.MAX_BLOCK_DEPTH - 3):
        openers.append(["repeat 1 times:", f"for each player p{i}:", "if x > 0:"][i % 3])
    openers += ["choose:", "go:"]
    body = [f"set x to {sum_}", f"set x to {product}", f"let b = {nots}", "end game with winner you"]
    text = nested(openers, inner=body[0])
    lines = text.split("\n")
    at = next(i for i, l in enumerate(lines) if l.strip() == body[0])
    ind = lines[at][:len(lines[at]) - len(lines[at].lstrip())]
    lines[at + 1:at + 1] = [ind + b for b in body[1:]]
    return "\n".join(lines)


def test_a_file_at_the_limits_checks_and_plays_with_room_to_spare(tmp_path, backend):
    path = tmp_path / "max.cardrules"
    path.write_text(at_the_limits(), encoding="utf-8")
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(700)          # every stage needs well under Python's 1000 frames
    try:
        diags, model, _ = check_file(str(path))
        assert not diags, diags
        st = load(str(path)).new_game(2, seed=1)
        st.apply_action(st.legal_actions()[0])
    finally:
        sys.setrecursionlimit(old)
    assert st.problem is None and st.winners == [0]


@pytest.mark.parametrize("value", [
    "x" + " + 1" * (limits.MAX_EXPR_DEPTH - 1),
    "size of hand of " + "player after " * (limits.MAX_EXPR_DEPTH - 3) + "you",
    "(1 if x > 1 else " * (limits.MAX_EXPR_DEPTH - 2) + "0" + ")" * (limits.MAX_EXPR_DEPTH - 2),
], ids=["sum", "player_after", "cases"])
def test_a_score_at_the_limits_is_generated_and_plays(tmp_path, value):
    """A value outside the rules (here the score) has no closures to fall back on: at the
    deepest the checker allows, Python must still compile its generated function."""
    path = tmp_path / "score.cardrules"
    path.write_text(turn("move top card from stock to hand") + f"score: {value}\n",
                    encoding="utf-8")
    game = load(str(path))
    st = game.new_game(3, seed=1)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    assert st.problem is None and st.winners == [0]
    assert game.compiled(3).score_fn.__code__.co_filename == "<rulelang>"


def test_one_level_more_is_refused(tmp_path):
    text = at_the_limits().replace("x + 1 + 1", "x + 1 + 1 + 1", 1)
    path = tmp_path / "over.cardrules"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RuleFileError) as err:
        load(str(path))
    assert [d.code for d in err.value.diagnostics] == ["RL202"]


# ---- other ways to hang or exhaust -----------------------------------------------------------

@pytest.mark.parametrize("text,code", [
    (turn("repeat 999999999999999 times:", "    pass"), "RL901"),
    (turn("repeat while x > 0:", "    pass"), "RL901"),
    (turn("set x to 999999999999999", "deal x from stock to hand of each player"), None),
    (turn("loop_forever") + "rule loop_forever:\n    loop_forever\n", "RL901"),
    (nested([f"for each player p{i}:" for i in range(10)]).replace("players 2 to 4", "players 8"),
     "RL901"),
])
def test_runaway_rules_hit_the_step_budget(tmp_path, text, code):
    status, out = cli(tmp_path, text, "run", "--json")
    problem = json.loads(out).get("problem")
    assert (problem or {}).get("code") == code, out


# ---- the work of a step ---------------------------------------------------------------------

def endless(lines, terms, tail=""):
    """A game that never ends whose turn holds ``lines``, ``COND`` in them a ``terms``-term `and`
    that is always true (the parts of a step: 3 per term)."""
    cond = " and ".join(f"x < {i + 3}" for i in range(terms))
    return (HEAD.replace("game ends when hand is empty:\n    end game with winner you\n",
                         "game ends when x > 5:\n    end game with no winner\n")
            + "turn:\n" + "".join("    " + l.replace("COND", cond) + "\n" for l in lines)
            + tail.replace("COND", cond))


def test_a_step_is_charged_by_the_size_of_what_it_evaluates(tmp_path):
    # Before, each of the 200,000 turns of the budget evaluated the 30,000 terms (minutes of CPU
    # in constant memory); now a turn costs 1 + 90,000 // 1000 = 91 steps: 2,197 turns.  The
    # whole default budget is ~200M parts of work (half a minute alone); the default suite runs
    # a tenth of it (--max-steps 20000: the same charge, 219 turns), RULELANG_SLOW=1 all of it.
    text = endless(["if COND:", "    set x to 2"], 30_000)
    budget = [] if SLOW else ["--max-steps", "20000"]
    t0 = time.monotonic()
    status, out = cli(tmp_path, text, "run", "--json", *budget, timeout=240)
    res = json.loads(out)
    assert status == 1 and res["problem"]["code"] == "RL901", out
    assert "a turn costs 91 steps" in res["problem"]["message"]
    assert res["turns"] == (200_000 if SLOW else 20_000) // 91
    assert time.monotonic() - t0 < 240


@pytest.mark.parametrize("lines,cost", [
    (["if COND:", "    set x to 2"], 10),                        # the turn
    (["repeat while COND:", "    set x to 2"], 10),                # each round of a loop
    (["repeat 5 times:", "    if COND:", "        set x to 2"], 10),
    (["big"], 10),                                                 # a rule's call: its body
])
@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_every_kind_of_step_is_charged_alike_by_both_compilers(tmp_path, monkeypatch, lines, cost,
                                                               backend):
    if backend == "closures":
        closures_only(monkeypatch)
    text = endless(lines, 3000, "rule big:\n    if COND:\n        set x to 2\n")
    path = tmp_path / "work.cardrules"
    path.write_text(text, encoding="utf-8")
    st = load(str(path)).compiled(2).new_game(seed=1, max_steps=1000)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    assert st.problem["code"] == "RL901" and f"costs {cost} steps" in st.problem["message"], st.problem
    assert st.steps <= 1000 + cost and st.turns <= 1000 // cost


# Steps of the examples that cost more than one: the showdown's hand evaluation, written in the
# language (two dozen selectors over the seven cards), is 2,000 to 3,000 parts.
DEAR_EXAMPLES = {("showdown.cardrules", "hand_value"): 3,
                 ("stud.cardrules", "hand_value"): 3}      # the same rule: stud extends showdown


def test_the_steps_of_the_games_of_rules_cost_one_each():
    """Every step of the seed games (rules/) costs 1: the budget is what it was for them (their
    largest step is 867 parts, Twenty-One's turn for 5 players); in examples/, only the steps
    listed in DEAR_EXAMPLES cost more."""
    import glob
    from rulelang.syntax import ast as A
    from rulelang.check.tree import _walk
    dear = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "rules", "*.cardrules"))
                       + glob.glob(os.path.join(ROOT, "examples", "*.cardrules"))):
        game = load(path)
        n = game.model.players[1]
        cg = game.compiled(n)
        for name, r in game.model.rules.items():
            parts = [r.decl.body] + [st for st in _walk(r.decl.body)
                                     if isinstance(st, (A.Loop, A.ForPlayer, A.ForCard, A.ForValue))]
            for part in parts:
                if name != "turn" and cg.charge(part) > 1:
                    dear[(os.path.basename(path), name)] = cg.charge(part)
        if cg.turn_cost > 1:
            dear[(os.path.basename(path), "turn")] = cg.turn_cost
    assert dear == DEAR_EXAMPLES, dear


def test_long_identifiers_are_fine(tmp_path):
    name = "n" * 200_000
    text = turn(f"set {name} to 1").replace("var x = 2", f"var {name}x = 2")
    status, found = codes(tmp_path, text)
    assert status == 1 and found == [("RL108", 13)]


def test_huge_deck_copies_are_refused_before_they_are_built(tmp_path):
    text = turn("pass").replace("deck standard, into stock",
                                "option decks = 1\ndeck standard, copies decks, into stock")
    status, out = cli(tmp_path, text, "check", "--json", "--set", "decks=1000000000000000")
    assert status == 1 and [d["code"] for d in json.loads(out)] == ["RL172"]


def test_the_deal_check_covers_every_count_and_is_linear(tmp_path):
    # Before, RL173 was skipped for a range of more than 64 counts, and each deal at the top of
    # setup summed every deal before it (quadratic).
    deals = "".join("    deal 0 from stock to hand of each player\n" for _ in range(3000))
    text = HEAD.replace("players 2 to 4", "players 2 to 64") + deals + "turn:\n" + DRAW
    path = tmp_path / "deals.cardrules"
    path.write_text(text, encoding="utf-8")
    found = [(d.code, d.hint) for d in check_file(str(path))[0]]
    assert found == [("RL173", "this happens with 11 to 64 players; deal fewer cards, use more "
                      "copies of the deck, or allow fewer players")]


@pytest.mark.parametrize("choice", [False, True], ids=["plain rules", "rules that choose"])
def test_a_chain_of_thousands_of_rules_checks_and_runs(tmp_path, choice):
    """Each rule runs the next: the checker checked each callee inside its caller, and the
    compiler called rules that cannot recurse as Python functions, one inside another, so both
    ran out of Python's stack (a location-less error in check, exit 3 in run)."""
    n = 1200
    choose = "    choose:\n        a:\n            pass\n        b:\n            pass\n" if choice else ""
    rules = "".join(f"rule r{i}:\n    r{i + 1}\n{choose}" for i in range(n))
    text = HEAD + rules + f"rule r{n}:\n    set x to 3\n" + turn("r0")[len(HEAD):]
    assert codes(tmp_path, text) == (0, [])
    status, out = cli(tmp_path, text, "run", "--json")
    result = json.loads(out)
    assert status == 0 and result["winners"] == [1] and result["decisions"] == (n if choice else 0)


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_a_decision_inside_an_ending_does_not_start_it_again(monkeypatch, backend):
    """A `game ends when` block that asks for a decision: before that decision the endings are
    checked, and the block used to start again, for ever, charging no step (a fuzz finding).
    Now the block goes on to its end: the game ends after at most one decision per player (the
    condition is checked for each player), with no step-budget stop."""
    if backend == "closures":
        closures_only(monkeypatch)
    path = os.path.join(ROOT, "tests", "fuzz_findings", "hang_ending_decides.cardrules")
    st = load(path).compiled(2).new_game(seed=3, max_steps=300)
    asked = 0
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
        asked += 1
    assert 1 <= asked <= 2 and st.problem is None and st.results() == ["draw", "draw"]
