"""Writing and combining sets of values (docs/language.md, "Writing and combining sets"): a whole
set written (`set S to hearts and spades`, `no suits`, `every suit`, `the suits of the cards in
Z`, another set), combined (`together with`, `shared with`, `without`), added and taken away as a
whole, compared; played alike by the reference interpreter, the generated code and the playout
fast path; a value a set cannot hold stops the game (RL330); misuse is RL360-RL364."""
import pytest

from rulelang.compile.loader import check_file, load

from closures import closures_only, three_ways
from gametest import choices, said, turn_sources

GAME = '''game "Set writing"
players 2 to 4
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone table: shared, face up
values call: low, middle, high "High!"
var named "Named": set of suits per player
var claimed "Claimed": set of suits
var seen: set of ranks
var waiting "Waiting": set of players
var calls: set of calls
var left = 0
setup:
    shuffle stock
    deal 5 from stock to hand of each player
    set waiting to every player
    set calls to low and high
turn:
    choose:
        play card c from hand:
            move c from hand to table
            set named to named together with suit of c
            add the ranks of the cards in table to seen
            remove you from waiting
        pass:
            set named to the suits of the cards in hand
            set calls to every call without calls
            remove hearts and spades from claimed
    set claimed to claimed together with named without named of next player
    if named shared with claimed is named:
        add middle to calls
    if hearts in named together with claimed and named without claimed is empty:
        set left to size of (every suit without claimed)
    set seen to seen shared with the ranks of the cards in hand of next player
    say "claimed", claimed, "named", named, "seen", seen, "calls", calls
    if waiting is no players or stock is empty or size of table > 12:
        set named to no suits
        end game with no winner
    move top card from stock to hand
'''


def _path(tmp_path, text=GAME, name="sets.cardrules"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def _play(st, *names):
    for n in names:
        st.apply_action(choices(st)[n])


def test_a_whole_set_is_written_and_shown_in_words(tmp_path):
    st = load(_path(tmp_path)).new_game(2, seed=3, log=True)
    shown = st.game.describe_vars(st)
    assert shown["waiting"] == "player 1, player 2"      # every player
    assert shown["calls"] == "low, High!"                # low and high
    assert shown["claimed"] == "none" and shown["named"] == ["none", "none"]
    hand = st.observation(0)["zones"]["hand/1"]
    suits = {"♣": "clubs", "♦": "diamonds", "♥": "hearts", "♠": "spades"}
    _play(st, "pass")
    # `set named to the suits of the cards in hand`: each suit once, in the deck's order
    want = [s for s in ("clubs", "diamonds", "hearts", "spades")
            if s in {suits[c[-1]] for c in hand}]
    assert st.game.describe_vars(st)["named"][0] == ", ".join(want)
    # `every call without calls` after `low and high`: middle alone (and middle added back
    # when named shared with claimed is named)
    assert st.game.describe_vars(st)["calls"] in ("middle", "low, middle, High!"[5:])
    assert said(st)[0].startswith("claimed ")


SAID = '''game "Said"
players 2
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
values call: low, middle, high
var a: set of suits
var b: set of suits per player
var r: set of ranks
var calls: set of calls
setup:
    set a to hearts and spades and clubs
    set b to spades and diamonds
    set b of player 2 to b of player 1 without diamonds
    say a together with b
    say a shared with b
    say a without b
    say the b of player 2, b without spades, no suits, every suit
    say a is b, a shared with b is the b of player 2, size of (a without b)
    say a without b without hearts together with diamonds
    say hearts in a without hearts, hearts in a together with b
    set r to 2 and 12 and ace
    add every rank without r to r
    remove 2 and 3 from r
    say r
    set calls to every call without middle
    say calls, (calls without low) is (no calls together with high), calls is no calls
    add b to a
    remove a shared with b of player 2 from a
    say a
    set a to hearts
    say a, (every suit without a) without clubs
    if size of (hearts and spades) > 1 and number of suits in (clubs and hearts and clubs) is 2:
        say "counted", size of ((hearts and spades and diamonds))
    end game with no winner
turn:
    pass
'''

EXPECTED = ["clubs, diamonds, hearts, spades", "spades", "clubs, hearts", "spades diamonds none "
            "clubs, diamonds, hearts, spades", "no yes 2", "clubs, diamonds", "no yes"]


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_each_combination_is_the_set_its_words_say(tmp_path, monkeypatch, backend):
    if backend == "closures":
        closures_only(monkeypatch)
    st = load(_path(tmp_path, SAID)).new_game(2, seed=1, log=True)
    words = said(st)
    assert words[:7] == EXPECTED, words
    # every rank the deck declares (its joker too), but 2 and 3
    assert words[7] == "joker, ace, 4, 5, 6, 7, 8, 9, 10, jack, queen, king"
    # values joined by `and` whose size is asked are a set wherever they are (no yes/no has a
    # size), in a condition as in a value
    assert words[8:] == ["low, high yes no", "clubs, diamonds, hearts", "hearts diamonds, spades",
                         "counted 3"]


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("seed", range(5))
def test_the_reference_the_generated_code_and_the_fast_path_agree(tmp_path, monkeypatch, n, seed):
    st = three_ways(_path(tmp_path), n, seed, monkeypatch, ("winners", "vars", "decisions"))
    assert st.is_terminal()


def test_a_combination_is_one_operation_on_the_number_in_both_code_paths(tmp_path):
    text = GAME.replace("    set claimed to claimed together with named without named of next player\n",
                        "    set claimed to claimed together with named\n"
                        "    set claimed to claimed shared with named of next player\n")
    cg = load(_path(tmp_path, text)).compiled(2)
    for src in turn_sources(cg):
        lines = [ln.strip() for ln in src.splitlines()]
        union = [ln for ln in lines if " | " in ln and "_setcards" not in ln]
        common = [ln for ln in lines if " & " in ln]
        assert union and common, src


BAD = GAME.replace("            remove hearts and spades from claimed\n",
                   "            remove hearts and spades from claimed\n"
                   "            set claimed to claimed without suit of top of table\n")


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_a_value_a_set_cannot_hold_stops_the_game_with_rl330(tmp_path, monkeypatch, backend):
    """`suit of top of table` on an empty table is none: written in a set, the game stops."""
    if backend == "closures":
        closures_only(monkeypatch)
    st = load(_path(tmp_path, BAD)).new_game(2, seed=1)
    st.apply_action(choices(st)["pass"])
    assert st.outcome == "error" and st.problem["code"] == "RL330", (st.outcome, st.problem)


def _codes(tmp_path, text):
    diags, _m, _d = check_file(_path(tmp_path, text))
    return [d.code for d in diags]


@pytest.mark.parametrize("old,new,codes", [
    ("set waiting to every player", "set waiting to every suit", ["RL361"]),
    ("set waiting to every player", "set waiting to every seat", ["RL360"]),
    ("set calls to low and high", "set calls to low and hearts", ["RL361"]),
    ("set calls to low and high", "set calls to every call together with hand", ["RL363"]),
    ("add the ranks of the cards in table to seen", "add 0 and 99 to seen", ["RL362"]),
    ("add the ranks of the cards in table to seen", "add the points of the cards in table to seen",
     ["RL364"]),
    ("if waiting is no players", "if waiting is no suits", ["RL102"]),
    ("if named shared with claimed is named", "if named shared with waiting is named", ["RL361"]),
])
def test_misuse_is_reported(tmp_path, old, new, codes):
    assert _codes(tmp_path, GAME) == []
    assert old in GAME
    assert _codes(tmp_path, GAME.replace(old, new)) == codes


def test_the_rulebook_says_sets_written_and_combined(tmp_path, capsys):
    from rulelang.cli.commands import main
    assert main(["rulebook", _path(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Change Waiting to every player." in out
    assert "Change calls to low and high." in out
    assert "Change your Named to your Named together with the suit of c." in out
    assert "Add each of the ranks of the cards in the Table (each once) to seen" in out
    assert "Take each of hearts and spades out of Claimed" in out
    assert "Change Claimed to (Claimed together with your Named) without the Named of the " \
           "player after you." in out
    assert "If the suits both in your Named and in Claimed is your Named:" in out
    assert "Waiting is no players (an empty set)" in out


def test_the_new_words_are_still_names(tmp_path):
    text = GAME.replace("var left = 0", "var left = 0\nvar every = 1\nvar without per player = 2\n"
                        "var together = 3\nvar shared = 4") \
        .replace("    move top card from stock to hand\n",
                 "    move top card from stock to hand\n    set every to together + without of you\n"
                 "    add every to shared\n")
    assert _codes(tmp_path, text) == []
    st = load(_path(tmp_path, text)).new_game(2, seed=2)
    _play(st, "pass")
    assert st.game.describe_vars(st)["every"] == "5"


DEFINES = '''game "Defines"
players 2
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
var named: set of suits per player
var claimed: set of suits
define shown = the suits of the cards in hand
define but_hearts(s) = s without hearts
setup:
    shuffle stock
    deal 5 from stock to hand of each player
turn:
    set named to but_hearts(shown)
    let mine = named together with claimed
    add spades to claimed
    say mine, but_hearts(claimed), number of suits in mine
    set claimed to mine
    if number of turns > 3:
        end game with no winner
'''


@pytest.mark.parametrize("seed", range(3))
def test_a_set_through_a_define_and_a_local_name(tmp_path, monkeypatch, seed):
    st = three_ways(_path(tmp_path, DEFINES), 2, seed, monkeypatch, ("winners", "vars"))
    first = said(st)[0].split(" ")
    hand = st.game.describe_vars(st)
    assert "hearts" not in hand["named"][0] and first[-1].isdigit()


LOCAL_SIZES = '''game "Sizes of local sets"
players 2
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone table: shared, face up
var seen: set of suits
setup:
    shuffle stock
    deal 3 from stock to hand of each player
turn:
    choose:
        play card c from hand:
            move c from hand to table
    let held = the suits of the cards in hand
    let gone = seen without held
    say size of held, size of gone, size of hand
    if gone is empty and held is not empty:
        say "all seen are held"
    if held is empty:
        say "no suit held"
    add the suits of the cards in table to seen
    if hand of player 2 is empty:
        end game with no winner
'''


@pytest.mark.parametrize("seed", range(4))
def test_size_of_and_is_empty_of_a_local_holding_a_set(tmp_path, monkeypatch, seed):
    """`size of S` and `S is empty` for a name `let` gives a set, as for a set variable (the
    checked kind tells a set from a zone), alike in the three backends."""
    path = _path(tmp_path, LOCAL_SIZES)
    assert _codes(tmp_path, LOCAL_SIZES) == []
    st = three_ways(path, 2, seed, monkeypatch, ("winners", "vars"))
    words = said(st)
    sizes = [w for w in words if w[0].isdigit()]
    assert len(sizes) == 6
    # both hands end empty: no suit held; a hand of one card holds one suit
    assert all(w.startswith("0 ") and w.endswith(" 0") for w in sizes[-2:])
    assert all(w.startswith("1 ") for w in sizes if w.endswith(" 1"))
    assert "no suit held" in words and any(w == "all seen are held" for w in words)
    for w in sizes:
        held, gone, cards = (int(x) for x in w.split())
        assert held <= min(cards, 4) and (cards == 0) == (held == 0) and gone <= 4


def test_the_rulebook_says_the_size_of_a_local_set_in_words(tmp_path, capsys):
    from rulelang.cli.commands import main
    assert main(["rulebook", _path(tmp_path, LOCAL_SIZES)]) == 0
    book = capsys.readouterr().out.replace("\\", "")
    assert "the number of suits in held, the number of suits in gone, the number of cards in your Hand" in book


WRITTEN_AGAINST_A_LOCAL = '''game "Sets written against a local set"
players 2
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone table: shared, face up
var ok = yes
define mine(p) = the suits of the cards in hand of p
define both = mine(you) together with mine(player after you)
setup:
    shuffle stock
    deal 3 from stock to hand of each player
turn:
    let held = the suits of the cards in hand
    let other = held without hearts
    let flag = ok
    if held is (hearts and spades) or other is not (clubs and diamonds):
        say "pair", held
    if both is (clubs and diamonds and hearts and spades) and flag is (ok or no):
        say "all four"
    if mine(you) is not (hearts and spades) and size of (held together with (clubs and hearts)) > 2:
        say "more"
    choose:
        play card c from hand:
            move c from hand to table
    if hand of player 2 is empty:
        end game with no winner
'''


@pytest.mark.parametrize("seed", range(3))
def test_a_set_written_against_a_local_or_a_define_holding_a_set(tmp_path, monkeypatch, seed):
    """`held is (hearts and spades)` for a name `let` gives a set, or a define whose formula is
    a set, as for a set variable (it was RL102: the values joined by `and` were read as yes/no),
    and a yes/no local still compares with a yes/no `and`/`or`; alike in the three backends."""
    assert _codes(tmp_path, WRITTEN_AGAINST_A_LOCAL) == []
    st = three_ways(_path(tmp_path, WRITTEN_AGAINST_A_LOCAL), 2, seed, monkeypatch, ("winners",))
    assert any(w.startswith(("pair", "all four", "more")) for w in said(st))


def test_a_chain_of_defines_ending_in_a_set_is_followed_once_per_define(tmp_path, monkeypatch):
    """A define naming a define ... naming a set holds a set, however long the chain and in
    whatever order its defines are written; each define's formula is looked at a bounded number
    of times (a pass over all the defines for each one found took the square of the chain's
    length: 8,000 defines, 8 s to check)."""
    from rulelang.check import sets
    n = 50
    chain = "".join(f"define a{i} = a{i + 1}\n" for i in range(1, n))
    text = GAME.replace("setup:\n", chain + f"define a{n} = the suits of the cards in hand\n"
                        "setup:\n", 1).replace(
        "            remove you from waiting\n",
        "            remove you from waiting\n"
        "            if a1 is (hearts and spades):\n"
        "                say \"a pair\"\n", 1)
    looked = []
    real = sets._names_set
    monkeypatch.setattr(sets, "_names_set", lambda e, names: looked.append(e) or real(e, names))
    assert _codes(tmp_path, text) == []
    assert 0 < len(looked) <= 4 * n
