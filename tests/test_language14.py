"""Selectors, decks from parts, counted moves, families of zones and their defects, as scenarios: small rule files played (in the generated
code and in the closures) and checked, with what each must say or report."""

import pytest

from rulelang.compile.loader import check_file, load

from closures import closures_only
from gametest import choices, said_in_game

HEAD = ('game "g"\nplayers 3\ndeck standard, into stock\nzone stock: shared, face up\n'
        'zone hand: per player, seen by owner\n')


def _file(tmp_path, text, name="g.cardrules"):
    path = tmp_path / name
    path.write_text(text)
    return path


def _play(path, backend, monkeypatch, players=3, choose=None, **opts):
    return said_in_game(path, players, choose, backend, monkeypatch, **opts)


def _codes(path):
    diags, _m, _d = check_file(str(path))
    return [(d.code, d.span.line, d.message) for d in diags if d.is_error]


# ---- item 9: in setup, `you` is the current player --------------------------------------------

SETUP_YOU = HEAD + '''setup:
    shuffle stock
    say "before", you, next player
    set current player to player 2
    say "after", you, next player, previous player
    move top card from stock to hand of next player
    move top card from stock to hand          # the hand of `you`: player 2
    deal_one
rule deal_one:
    say "rule", you
turn:
    say "turn", you, size of hand of player 1, size of hand of player 2, size of hand of player 3
    end game with no winner
'''


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_next_player_after_setting_the_current_player_in_setup(tmp_path, monkeypatch, backend):
    says, st = _play(_file(tmp_path, SETUP_YOU), backend, monkeypatch)
    assert says == ["before player 1 player 2", "after player 2 player 3 player 1",
                    "rule player 2", "turn player 2 0 1 1"]
    assert st.problem is None


# ---- item 9: reserved words refused where they are declared -----------------------------------

@pytest.mark.parametrize("decl,use,word,line", [
    ("    let opponents = 3", "    say opponents", "opponents", 8),
    ("    let yes = 3", "    say yes", "yes", 8),
    ("    let players = 3", "    say players", "players", 8),
])
def test_a_reserved_word_is_refused_where_it_is_declared(tmp_path, decl, use, word, line):
    text = HEAD + f"setup:\n    shuffle stock\n{decl}\n{use}\nturn:\n    end game with no winner\n"
    got = _codes(_file(tmp_path, text))
    assert [(c, l) for c, l, _m in got] == [("RL114", line)]
    assert f"`{word}`" in got[0][2]


def test_a_reserved_word_as_a_rule_parameter_is_named_at_the_parameter(tmp_path):
    text = HEAD + ("rule r(not):\n    say not\nsetup:\n    shuffle stock\n"
                   "turn:\n    r(2)\n    end game with no winner\n")
    diags, _m, _d = check_file(str(_file(tmp_path, text)))
    # (the checker runs on the rest of the file too: `hand` is never used, a warning)
    assert [(d.code, d.span.line, d.span.column) for d in diags if d.is_error] == [("RL114", 6, 8)]


def test_a_kind_named_after_a_colon_is_no_parameter_name(tmp_path):
    text = HEAD + ("define red(s: suit) = s is hearts or s is diamonds\nsetup:\n    shuffle stock\n"
                   "turn:\n    say red(suit of top of stock)\n    end game with no winner\n")
    assert _codes(_file(tmp_path, text)) == []


# ---- item 9: what language.md now says -----------------------------------------------------

def test_the_python_api_block_of_language_md_runs(capsys, monkeypatch):
    import os
    import re
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "docs", "language.md"), encoding="utf-8") as fh:
        block = re.search(r"```python\n(.*?)```", fh.read(), re.S).group(1)
    monkeypatch.chdir(root)
    exec(compile(block, "language.md", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) > 3
    assert lines[0].split(" ", 1)[0] == "1"          # seat 0, shown as player 1, begins
    assert {l.split(" ", 1)[0] for l in lines[:-1]} <= {"1", "2", "3"}
    returns = eval(lines[-1])
    assert sorted(returns) == [-1.0, -1.0, 1.0]


ZONE_PARAMS = HEAD + '''zone table: shared, face up
define top_rank(z: zone) = rank of top of z
define longer(z, y) = size of z > size of y
rule tell(z):
    say "top", top_rank(z), size of z
setup:
    shuffle stock
    move top card from stock to table
    deal 2 from stock to hand of each player
    move top card from stock to hand of player 2
turn:
    say top_rank(table) is rank of top of table, longer(hand of player 2, hand), longer(hand, table)
    tell(hand of player 2)
    if size of table > 0:
        end game with no winner
        return
    say "never"
'''


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_zones_as_parameters_of_defines_and_rules(tmp_path, monkeypatch, backend):
    says, st = _play(_file(tmp_path, ZONE_PARAMS), backend, monkeypatch)
    assert says[0] == "yes yes yes"
    assert says[1].startswith("top ") and says[1].endswith(" 3")
    assert st.problem is None and len(says) == 2


RETURN_ENDS_TURN = HEAD + '''var turns = 0
game ends when turns >= 4:
    end game with no winner
setup:
    shuffle stock
turn:
    add 1 to turns
    say "turn", turns, you
    if turns mod 2 is 1:
        return
    say "second half", turns
'''


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_return_in_turn_ends_the_turn(tmp_path, monkeypatch, backend):
    says, st = _play(_file(tmp_path, RETURN_ENDS_TURN), backend, monkeypatch)
    assert says == ["turn 1 player 1", "turn 2 player 2", "second half 2", "turn 3 player 3",
                    "turn 4 player 1", "second half 4"]


# ---- item 7: texts as values; `say` shows ranks by name and names a zone's cards --------------

TEXTS = '''game "g"
players 2
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone table: shared, face up
zone pile: shared, top face up
var best: rank = king
var last_word: text = "nothing yet"
define call_out(g) = ("gin!" if g else "knock")
rule tell(t, r: rank):
    say t, r
setup:
    shuffle stock
    move 2 cards from stock to pile
    deal 3 from stock to hand of each player
turn:
    move top card from hand to table
    tell("hello", rank of top of table)
    tell(last_word, queen)
    say ("gin!" if size of hand > 9 else "knock"), call_out(yes), best, rank after best, 7
    let r = rank of top of table
    say "table:", the cards in table, "pile:", the cards in pile, "hand:", the cards in hand, r
    set last_word to call_out(no)
    say last_word, last_word is "knock", last_word is "gin!"
    choose:
        call rank c where c is jack or c is 5:
            say "called", c
    end game with no winner
'''


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_texts_are_values_and_say_names_ranks_and_cards(tmp_path, monkeypatch, backend):
    says, st = _play(_file(tmp_path, TEXTS), backend, monkeypatch, players=2,
                     choose=lambda names: "call jack")
    g = st.game
    rank_word = says[0].split(" ", 1)[1]
    assert says[0].startswith("hello ") and rank_word in g.model.ranks   # a name, not a number
    assert says[1] == "nothing yet queen"
    assert says[2] == "knock gin! king ace 7"
    assert says[3].startswith("table: ") and ", " not in says[3].split("pile:")[0]
    assert "pile: 1 hidden card, " in says[3]                    # top face up: the top only
    assert "hand: 2 hidden cards " in says[3]                    # seen by its owner: none named
    assert says[3].endswith(" " + rank_word)
    assert says[4] == "knock yes no"
    assert says[5] == "called jack"


def test_a_text_given_to_a_rule_is_no_syntax_error(tmp_path):
    text = HEAD + ('rule tell(t):\n    say t\nsetup:\n    shuffle stock\n'
                   'turn:\n    tell("hello")\n    tell(("gin!" if size of stock > 3 else "knock"))\n'
                   '    end game with no winner\n')
    assert _codes(_file(tmp_path, text)) == []


def test_a_text_is_not_a_number(tmp_path):
    text = HEAD + ('rule tell(t):\n    say t + 1\nsetup:\n    shuffle stock\n'
                   'turn:\n    tell("hello")\n    end game with no winner\n')
    got = _codes(_file(tmp_path, text))
    assert [c for c, _l, _m in got] == ["RL102"] and "text" in got[0][2]


# ---- item 6: a first call that passes `none` does not fix a parameter's kind -----------------

NONE_FIRST = HEAD + '''rule tell(a, b):
    if a is not none:
        say "card", a, b
    else:
        say "no card", b
setup:
    shuffle stock
turn:
    tell(none, 1)
    tell(top of stock, 2)
    end game with no winner
'''


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_none_in_a_first_call_leaves_the_kind_to_later_calls(tmp_path, monkeypatch, backend):
    path = _file(tmp_path, NONE_FIRST)
    says, st = _play(path, backend, monkeypatch)
    assert says[0] == "no card 1"
    name = says[1].split(" ")[1]
    assert says[1].startswith("card ") and not name.isdigit() and name in st.game.card_names


def test_a_kind_fixed_by_a_call_refuses_none_later_with_the_hint_to_name_it(tmp_path):
    text = NONE_FIRST.replace("    end game with no winner", "    tell(top of stock, none)\n"
                              "    end game with no winner")
    diags, _m, _d = check_file(str(_file(tmp_path, text)))
    errs = [d for d in diags if d.is_error]
    assert [d.code for d in errs] == ["RL102"]
    assert "rule tell(a, b: KIND)" in errs[0].hint


# ---- item 6: rules that give a value ----------------------------------------------------------

VALUES = '''game "g"
players 1
deck standard, into stock
zone stock: shared, face up
rule fact(k):
    if k <= 1:
        return 1
    let below = fact(k - 1)
    return k * below
rule run_from(c):
    for each card d in stock:
        if suit of d is suit of c and rank of d is rank of c + 1:
            let more = run_from(d)
            return more + 1
    return 1
rule first_heart:
    for each card c in stock:
        if suit of c is hearts:
            return c
    return none
rule pick:
    choose:
        take number n from 1 to 3:
            return n
setup:
    shuffle stock
turn:
    let f = fact(6)
    let r = run_from(top of stock)
    let h = first_heart
    say f, r, h
    set h to none
    set h to first_heart
    let p = pick
    say "picked", p, h
    end game with no winner
'''


@pytest.mark.parametrize("backend", ["generated", "closures"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rules_give_values_recursively_and_across_a_decision(tmp_path, monkeypatch, backend, seed):
    if backend == "closures":
        closures_only(monkeypatch)
    game = load(str(_file(tmp_path, VALUES)))
    st = game.new_game(1, seed=seed, log=True)
    g = st.game
    names = [g.card_names[c] for c in st.zones[0]]           # the stock, bottom first

    def rank(n):
        return {"A": 1, "J": 11, "Q": 12, "K": 13}.get(n[:-1]) or int(n[:-1])

    def run_from(c):                                          # independent
        for d in names:
            if d[-1] == c[-1] and rank(d) == rank(c) + 1:
                return run_from(d) + 1
        return 1
    heart = next(n for n in names if n[-1] == "♥")
    assert not any(k.startswith(" ") for k in st.observation(0)["vars"])   # results are no vars
    from rulelang.engine.runtime import State
    saved = st.to_json()                             # in the middle of a rule with values
    assert State.from_json(g, saved).to_json() == saved
    st.apply_action(choices(st)["take 2"])
    says = [e[2] for e in st.log if e[0] == "say"]
    assert says == [f"720 {run_from(names[-1])} {heart}", f"picked 2 {heart}"]
    assert st.problem is None


def test_a_rule_value_needs_a_line_of_its_own_and_setup_gives_none(tmp_path):
    text = VALUES.replace('    say "picked", p, h', '    say "picked", p, fact(2)').replace(
        "    shuffle stock\n", "    shuffle stock\n    return 3\n", 1)
    got = _codes(_file(tmp_path, text))
    assert sorted((c, l) for c, l, _m in got) == [("RL109", 36), ("RL116", 27)]


# ---- item 5 (part): loops over the deck's suits and ranks --------------------------------------

LOOPS = '''game "g"
players 1
deck standard with jokers if jokers, into stock
option jokers = no
zone stock: shared, face up
setup:
    shuffle stock
turn:
    for each suit s:
        say s, number of cards in stock where suit of card is s
    for each rank r:
        if r > 11:
            stop
        say r
    for each rank r:
        if r is 3:
            choose:
                go:
                    say "chose at", r
    end game with no winner
'''


@pytest.mark.parametrize("backend", ["generated", "closures"])
@pytest.mark.parametrize("jokers", ["no", "yes"])
def test_for_each_suit_and_rank(tmp_path, monkeypatch, backend, jokers):
    says, st = _play(_file(tmp_path, LOOPS), backend, monkeypatch, players=1, jokers=jokers)
    ranks = ["ace"] + [str(k) for k in range(2, 11)] + ["jack"]
    # the ranks `rank after` goes round, lowest first, as `rank r` offers them: not the
    # jokers' own rank, with the jokers in play or not
    assert says == ["clubs 13", "diamonds 13", "hearts 13", "spades 13"] + ranks + ["chose at 3"]
    assert st.problem is None and st.decisions == 1


def test_a_loop_over_ranks_names_no_word_of_the_language(tmp_path):
    text = LOOPS.replace("for each suit s:", "for each suit suit:").replace(
        "where suit of card is s\n", "where suit of card is suit\n").replace("say s,", "say suit,")
    got = _codes(_file(tmp_path, text))
    assert got and got[0][0] in ("RL114", "RL001")
