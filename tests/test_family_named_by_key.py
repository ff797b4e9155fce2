"""A zone of a family by suit or rank named as a rulebook names it (docs/language.md, "Families
of zones by suit or rank"): `the foundation of suit of c`, `foundation of hearts`, the same zone
as `foundation(suit of c)`, on the generated code, the fast path and the reference alike."""

from rulelang.compile.loader import check_file, load

from gametest import log_lines, played
from reference import ReferenceGame

GAME = """game "Foundations"
players 2
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone foundation per suit: shared, face up
zone pile per rank: per player, face up
setup:
    shuffle stock
    deal 5 from stock to hand of each player
turn:
    choose:
        build card c from hand:
            move c from hand to {where}
        keep card c from hand:
            move c from hand to pile of rank of c
    say size of foundation of hearts, size of the foundation of spades, size of pile(ace) of you
    if hand is empty:
        end game with winner you
"""


def write(tmp_path, text, name="families.cardrules"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_the_three_ways_of_naming_the_zone_play_alike(tmp_path):
    logs = []
    for i, where in enumerate(("foundation(suit of c)", "the foundation of suit of c",
                               "foundation of suit of c")):
        game = load(write(tmp_path, GAME.format(where=where), f"f{i}.cardrules"))
        cg = game.compiled(2)
        ref = ReferenceGame(game.model, 2)
        these = []
        for seed in range(4):
            a, b = played(cg, seed), played(ref, seed)
            assert log_lines(a) == log_lines(b)
            these.append(log_lines(a))
        logs.append(these)
        fast = cg.playout(1, lambda seat, k: 0)
        api = cg.new_game(seed=1)
        while not api.is_terminal():
            api.apply_action(api.legal_actions()[0])
        assert fast.zones == api.zones
    assert logs[0] == logs[1] == logs[2]
    assert any("build" in line for line in logs[0][0])


def test_a_card_built_goes_to_the_foundation_of_its_suit(tmp_path):
    game = load(write(tmp_path, GAME.format(where="the foundation of suit of c")))
    st = game.new_game(2, seed=3)
    cg = st.game
    hand = st.zones[cg.zone_base["hand"]]
    c = hand[0]
    st.apply_action(st.legal_actions()[0])                   # build the first card
    suit = cg.model.suits[cg.suit_of[c]]
    assert st.zones[cg.zone_base[f"foundation_{suit}"]] == [c]
    # a card kept goes to the mover's pile of its rank (a family per player: yours)
    c2 = st.zones[cg.zone_base["hand"] + 1][-1]
    keep = [a for a in st.legal_actions() if st.action_to_string(a).startswith("keep")][-1]
    st.apply_action(keep)
    rank = [r for r, k in cg.model.ranks.items() if k == cg.rank_of[c2]][0]
    assert c2 in st.zones[cg.zone_base[f"pile_{rank}"] + 1]


def test_a_define_of_the_same_name_keeps_of_its_own(tmp_path):
    text = GAME.format(where="foundation(suit of c)").replace(
        "setup:", "define heap(x) = x + 1\nzone heap per suit: shared, face up\nsetup:", 1)
    diags, _m, _ = check_file(write(tmp_path, text + "    say heap of 2\n"))
    assert [d.code for d in diags if d.severity == "error"] == []


def test_a_card_where_a_suit_is_wanted_is_rl326_with_the_rulebook_form(tmp_path):
    text = GAME.format(where="the foundation of c")
    diags, _m, _ = check_file(write(tmp_path, text))
    assert [d.code for d in diags] == ["RL326"]
    assert "the foundation of suit of c" in diags[0].hint


def test_the_article_is_read_as_without_it(tmp_path):
    text = GAME.format(where="foundation(suit of c)").replace(
        "    if hand is empty:", "    say size of the hand of you\n    if hand is empty:")
    st = load(write(tmp_path, text)).new_game(2, seed=1, log=True)
    st.apply_action(st.legal_actions()[0])
    said = [e[2] for e in st.log if e[0] == "say"]
    assert said[-1] == "4"          # the mover's hand after one card is played


def test_a_family_by_suit_given_none_says_so_in_words(tmp_path):
    """`foundation(S)` with S `none` while the game is played stops the game (RL256), saying
    that there is no foundation of the suit `none`, not "no foundation -1, numbered 0 to 3" (the
    suit's index); a rank outside the deck's is said as a rank.  The generated code, its fast
    path and the reference say the same."""
    text = GAME.replace("zone pile per rank", "var named: suit = none\nvar r = 20\n"
                        "zone pile per rank").replace(
        "    if hand is empty:", "    move top card from stock to {stop}\n    if hand is empty:")
    for stop, words in (("foundation(named)", "there is no foundation of the suit `none`: the "
                         "family has one zone for each suit of the deck"),
                        ("the foundation of named", "there is no foundation of the suit `none`"),
                        ("pile(r) of you", "there is no pile of rank 20: the deck's ranks are "
                         "1 to 13")):
        game = load(write(tmp_path, text.format(where="foundation(suit of c)", stop=stop)))
        cg = game.compiled(2)
        st = played(cg, 1)
        assert st.problem["code"] == "RL256" and words in st.problem["message"], st.problem
        assert "-1" not in st.problem["message"]
        fast = cg.playout(1, lambda seat, k: 0)
        assert fast.problem["code"] == "RL256" and words in fast.problem["message"]
        ref = played(ReferenceGame(game.model, 2), 1)
        assert ref.problem["code"] == "RL256" and words in ref.problem["message"], ref.problem
