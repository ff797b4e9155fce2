"""Sets of values and families of zones by suit or rank (docs/language.md, "Sets of values" and
"Families of zones by suit or rank"): a variable that holds a set of suits, ranks, players or
named values, changed and asked, shown in words, played alike by the three backends; a value a
set cannot hold stops the game (RL330)."""
import pytest

from rulelang.compile.loader import check_file, load

from closures import closures_only, three_ways
from gametest import choices, said

GAME = '''game "Sets"
players 3
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone pile per rank "Pile": shared, face up
zone home per suit: per player, face up
values call: low, middle, high "High!"
var named "Named": set of suits per player
var asked: set of ranks
var passed "Passed": set of players
var calls: set of calls
setup:
    shuffle stock
    deal 4 from stock to hand of each player
turn:
    choose:
        play card c from hand:
            move c from hand to pile(rank of c)
            add suit of c to named
            add rank of c to asked
            if rank of c > 10:
                add high to calls
            else:
                add low to calls
            move top card from stock to home(suit of c) of next player
        pass:
            add you to passed
            remove low from calls
    for each suit s in named:
        say "named", s
    for each player p in passed:
        say p, "has passed", number of suits in named of p
    for each rank r in asked:
        if r > 12:
            remove r from asked
    for each call k in calls:
        say "called", k
    for each call k:
        if k > middle and k not in calls:
            say "not yet", k
    if size of passed is 3 or stock is empty:
        end game with no winner
    if number of ranks in asked > 6:
        remove all from asked
'''


def _path(tmp_path, text=GAME):
    path = tmp_path / "sets.cardrules"
    path.write_text(text)
    return str(path)


def test_a_set_is_changed_asked_and_shown_in_words(tmp_path):
    game = load(_path(tmp_path))
    st = game.new_game(3, seed=2, log=True)
    hand = st.observation(0)["zones"]["hand/1"]
    first = hand[0]
    st.apply_action(choices(st)[f"play {first}"])
    shown = st.game.describe_vars(st)
    suit = {"♣": "clubs", "♦": "diamonds", "♥": "hearts", "♠": "spades"}[first[-1]]
    assert shown["named"] == [suit, "none", "none"] and shown["passed"] == "none"
    assert said(st)[0] == f"named {suit}"
    assert said(st)[1] in ("called low", "called High!")
    st.apply_action(choices(st)["pass"])
    st.apply_action(choices(st)["pass"])
    assert st.game.describe_vars(st)["passed"] == "player 2, player 3"
    # the observation holds the sets in words too
    assert st.observation(1)["vars"]["passed"] == "player 2, player 3"


def test_a_family_by_rank_and_one_by_suit_per_player(tmp_path):
    game = load(_path(tmp_path))
    cg = game.compiled(3)
    names = [z[0] for z in cg.zone_info]
    assert "pile_ace" in names and "pile_king" in names and "pile_joker" not in names
    assert names.count("home_hearts") == 3            # one for each player
    st = game.new_game(3, seed=4)
    card = st.observation(0)["zones"]["hand/1"][0]
    st.apply_action(choices(st)[f"play {card}"])
    rank = card[:-1]
    word = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}.get(rank, rank)
    assert st.observation(0)["zones"][f"pile_{word}"] == [card]
    suit = {"♣": "clubs", "♦": "diamonds", "♥": "hearts", "♠": "spades"}[card[-1]]
    assert len(st.observation(0)["zones"][f"home_{suit}/2"]) == 1


@pytest.mark.parametrize("seed", range(6))
def test_the_reference_the_generated_code_and_the_fast_path_agree(tmp_path, monkeypatch, seed):
    st = three_ways(_path(tmp_path), 3, seed, monkeypatch, ("winners", "vars", "decisions"))
    assert st.is_terminal()


BAD = GAME.replace("var calls: set of calls", "var calls: set of calls\nvar none_suit: suit = none") \
    .replace("        pass:\n            add you to passed",
             "        pass:\n            add none_suit to named\n            add you to passed")


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_none_added_to_a_set_stops_the_game_with_rl330(tmp_path, monkeypatch, backend):
    if backend == "closures":
        closures_only(monkeypatch)
    st = load(_path(tmp_path, BAD)).new_game(3, seed=1)
    st.apply_action(choices(st)["pass"])
    assert st.outcome == "error" and st.problem["code"] == "RL330", (st.outcome, st.problem)


def _codes(tmp_path, text):
    diags, _m, _d = check_file(_path(tmp_path, text))
    return [d.code for d in diags]


def test_misuse_is_reported(tmp_path):
    assert _codes(tmp_path, GAME) == []
    assert _codes(tmp_path, GAME.replace("add high to calls", "add hearts to calls")) == ["RL321"]
    assert _codes(tmp_path, GAME.replace("add you to passed", "subtract you from passed")) == ["RL323"]
    assert _codes(tmp_path, GAME.replace("to pile(rank of c)", "to pile(suit of c)")) == ["RL326"]
    assert _codes(tmp_path, GAME.replace("remove r from asked", "remove r from named")) == ["RL321"]


def test_the_rulebook_says_the_sets_in_words(tmp_path, capsys):
    from rulelang.cli.commands import main
    assert main(["rulebook", _path(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "| Named | for each player | a set of suits (each at most once) | empty |" in out
    assert "Add the suit of c to your Named (if it is there already, nothing changes)." in out
    assert "If s is one of your Named:" in out
    assert "Empty asked (it holds nothing now)." in out
    assert "onto the Pile of the rank of c" in out


def test_the_observation_tensor_has_a_place_for_each_value_of_a_set(tmp_path):
    from rulelang.ai.tensors import Encoding
    game = load(_path(tmp_path))
    cg = game.compiled(3)
    enc = Encoding(cg)
    st = cg.new_game(seed=3)
    st.apply_action(choices(st)["pass"])          # player 1 passes: passed holds player 1
    st.apply_action(choices(st)["pass"])
    out = enc.observation(st, 0)
    at = dict(zip([n for n, _s in enc.pieces], [sum(s for _n, s in enc.pieces[:i])
                                                for i in range(len(enc.pieces))]))
    assert dict(enc.pieces)["var passed"] == 3
    assert out[at["var passed"]:at["var passed"] + 3] == [1.0, 1.0, 0.0]
    assert dict(enc.pieces)["var named/1"] == 4


def test_the_rulebook_counts_a_set_by_its_kind(tmp_path, capsys):
    from rulelang.cli.commands import main
    assert main(["rulebook", _path(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "the number of suits in the Named of" in out or "the number of suits in Named" in out
    assert "the number of ranks in asked" in out
