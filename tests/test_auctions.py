"""Auctions (docs/language.md, "Auctions"): `auction of SET from P sets CONTRACT and HOLDER:`,
its endings, a pass that drops the player out or not, other calls (a double, a redouble) and
their legality, the values shown by name, and the three backends alike."""
import random

from rulelang.compile.loader import check_file, load

BRIDGE = '''game "Contract"
players 4
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
values bid: one_c "1♣", one_nt "1NT", two_c "2♣", three_nt "3NT", seven_nt "7NT"
values risk: undoubled, doubled, redoubled
var contract: bid = none
var declarer: player = none
var stake: risk = undoubled
var dealer: player = player 1
define partners(a, b) = a is b or a is player after player after b
setup:
    shuffle stock
    deal 2 from stock to hand of each player
turn:
    auction of bid from dealer sets contract and declarer:
        ends after 3 passes
        bid bid b:
            set stake to undoubled
        double if declarer is not none and stake is undoubled and not partners(you, declarer):
            set stake to doubled
        redouble if stake is doubled and partners(you, declarer):
            set stake to redoubled
    end game with winner declarer
'''


def _game(tmp_path, text=BRIDGE, name="contract"):
    path = tmp_path / f"{name}.cardrules"
    path.write_text(text)
    return load(str(path))


def _legal(st):
    return [st.action_to_string(a) for a in st.legal_actions()]


def _call(st, words):
    st.apply_action(next(a for a in st.legal_actions() if st.action_to_string(a) == words))


def test_bids_above_the_contract_by_name_then_three_passes_end_it(tmp_path):
    st = _game(tmp_path).new_game(seed=1, log=True)
    assert st.current_player() == 0
    assert _legal(st) == ["bid 1♣", "bid 1NT", "bid 2♣", "bid 3NT", "bid 7NT", "pass"]
    _call(st, "bid 1NT")
    assert st.current_player() == 1
    assert _legal(st) == ["bid 2♣", "bid 3NT", "bid 7NT", "pass", "double"]
    _call(st, "pass")
    _call(st, "bid 3NT")          # player 3, the first bidder's partner
    _call(st, "pass")
    _call(st, "pass")
    assert not st.is_terminal()
    _call(st, "pass")
    assert st.is_terminal() and st.results() == ["loss", "loss", "win", "loss"]
    shown = st.game.describe_vars(st)
    assert shown["contract"] == "3NT" and shown["declarer"] == "player 3"
    assert not any(k.startswith(" ") for k in shown)       # the auction's own are hidden


def test_a_double_only_of_an_opponents_bid_a_redouble_only_of_a_double(tmp_path):
    st = _game(tmp_path).new_game(seed=1)
    assert "double" not in _legal(st)         # nothing to double yet
    _call(st, "bid 1♣")
    assert "double" in _legal(st)             # player 2: an opponent
    _call(st, "pass")
    assert "double" not in _legal(st)         # player 3: the bidder's partner
    _call(st, "pass")
    _call(st, "double")                       # player 4
    assert _legal(st)[-1] == "redouble"       # player 1, the bidder
    _call(st, "pass")
    assert "redouble" not in _legal(st)       # player 2: the doubler's partner
    _call(st, "pass")
    assert _legal(st)[-1] == "redouble"       # player 3: the bidder's partner
    _call(st, "redouble")
    assert st.game.describe_vars(st)["stake"] == "redoubled"
    # a double or redouble starts the count of passes again: three more end it
    for _ in range(3):
        assert not st.is_terminal()
        _call(st, "pass")
    assert st.is_terminal() and st.game.describe_vars(st)["contract"] == "1♣"


def test_four_passes_and_nobody_bid(tmp_path):
    st = _game(tmp_path).new_game(seed=1)
    for _ in range(3):
        _call(st, "pass")
    assert not st.is_terminal()          # three passes end it only after a bid
    _call(st, "pass")
    assert st.is_terminal() and st.game.describe_vars(st)["contract"] == "none"


DROP = BRIDGE.replace('''        ends after 3 passes
        bid bid b:
            set stake to undoubled
        double if declarer is not none and stake is undoubled and not partners(you, declarer):
            set stake to doubled
        redouble if stake is doubled and partners(you, declarer):
            set stake to redoubled
''', '''        pass drops out
        ends when all but one have passed
        ends at three_nt
''')


def test_a_pass_drops_out_and_the_last_one_in_holds_it(tmp_path):
    st = _game(tmp_path, DROP).new_game(seed=1)
    _call(st, "bid 1♣")      # 1
    _call(st, "pass")        # 2 out
    _call(st, "bid 1NT")     # 3
    _call(st, "pass")        # 4 out
    _call(st, "bid 2♣")      # 1
    assert st.current_player() == 2      # player 2 is out: skipped
    _call(st, "pass")        # 3 out: all but one have passed
    assert st.is_terminal() and st.results() == ["win", "loss", "loss", "loss"]


def test_a_bid_of_the_value_it_ends_at_ends_it(tmp_path):
    st = _game(tmp_path, DROP).new_game(seed=1)
    _call(st, "bid 3NT")
    assert st.is_terminal() and st.results() == ["win", "loss", "loss", "loss"]


ONE_ROUND = BRIDGE.replace("from dealer", "from player after dealer").replace(
    "ends after 3 passes", "ends after one round\n        pass is one_c")


def test_one_round_each_player_calls_once_from_the_player_named(tmp_path):
    st = _game(tmp_path, ONE_ROUND).new_game(seed=1)
    assert st.current_player() == 1
    assert "bid 1♣" not in _legal(st)          # the pass value is no bid
    assert st.game.describe_vars(st)["contract"] == "1♣"
    _call(st, "bid 1NT")
    _call(st, "pass")
    _call(st, "bid 2♣")
    _call(st, "pass")
    assert st.is_terminal() and st.results() == ["loss", "loss", "loss", "win"]


def test_random_auctions_end_and_the_three_backends_agree(tmp_path, monkeypatch):
    from closures import three_ways
    for text, name in ((BRIDGE, "bridge"), (DROP, "drop"), (ONE_ROUND, "round")):
        path = tmp_path / f"{name}.cardrules"
        path.write_text(text)
        for seed in range(6):
            st = three_ways(str(path), 4, seed, monkeypatch, ("winners", "vars", "decisions"))
            assert st.is_terminal()
    cg = _game(tmp_path).compiled(4)
    for seed in range(40):
        st = cg.new_game(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            st.apply_action(rng.choice(st.legal_actions()))


def test_auction_is_a_word_only_where_an_auction_begins(tmp_path):
    text = BRIDGE.replace("turn:\n", "var auction = 0\nrule auction:\n    add 1 to auction\nturn:\n"
                          "    auction\n")
    path = tmp_path / "w.cardrules"
    path.write_text(text)
    diags, _m, _d = check_file(str(path))
    assert [d.code for d in diags] == []
    st = load(str(path)).new_game(seed=1)
    assert st.game.describe_vars(st)["auction"] == "1"


OUT = BRIDGE.replace("        ends after 3 passes\n", "        ends after 3 passes\n        pass drops out\n"
                     ).replace("double if declarer is not none and stake is undoubled and not "
                               "partners(you, declarer):", "double if stake is undoubled:"
                               ).replace("redouble if stake is doubled and partners(you, declarer)",
                                         "redouble if stake is doubled and declarer is you")


def test_when_everybody_has_passed_out_the_auction_ends_though_passes_were_not_in_a_row(tmp_path):
    st = _game(tmp_path, OUT).new_game(seed=1)
    _call(st, "pass")          # 1 out
    _call(st, "double")        # 2: another call starts the count again
    _call(st, "pass")          # 3 out
    _call(st, "pass")          # 4 out
    assert not st.is_terminal() and st.current_player() == 1
    _call(st, "pass")          # 2 out: nobody is left
    assert st.is_terminal() and st.game.describe_vars(st)["declarer"] == "nobody"


def test_the_rulebook_says_the_auction_in_words(tmp_path):
    from rulelang.cli import rulebook as RB
    from rulelang.cli.rulebook_cmd import rulebook_of
    book = RB.to_markdown(rulebook_of(_game(tmp_path, DROP))).replace("\\", "")
    assert ("An auction over the bid values: contract becomes none and declarer nobody; then, "
            "round the table in the order of play starting with dealer, each player who has not "
            "passed in turn makes one call:") in book
    assert "**pass**: The player passes and is out of the auction." in book
    assert ("The auction ends when all players but one have passed (or all have, and nobody "
            "bid) or at once when contract is 3NT.") in book
    assert "auction 17:5" not in book      # nothing of the statements it stands for


def test_names_of_the_file_never_meet_the_auctions_own(tmp_path):
    # a contract, a holder and a bid named as the auction's own placeholders would be
    text = BRIDGE.replace("contract", "h_passes_").replace("declarer", "h_caller_").replace(
        "bid bid b:", "bid bid h_out_:")
    st = _game(tmp_path, text).new_game(seed=1)
    _call(st, "bid 1NT")
    for _ in range(3):
        _call(st, "pass")
    shown = st.game.describe_vars(st)
    assert st.is_terminal() and shown["h_passes_"] == "1NT" and shown["h_caller_"] == "player 1"


def test_a_stop_in_a_call_ends_the_auction_there(tmp_path):
    text = BRIDGE.replace("        redouble if", "        concede:\n            stop\n        redouble if")
    st = _game(tmp_path, text).new_game(seed=1)
    _call(st, "bid 2♣")
    _call(st, "concede")
    assert st.is_terminal() and st.results() == ["win", "loss", "loss", "loss"]


def test_the_transcript_tells_each_call_as_said_at_the_table(tmp_path):
    """A call reads in the present tense, as the rest of the narration: "Player 1 bids 1NT",
    "Player 2 doubles", "Player 3 passes"; to the player who made it, "You pass".  Other
    choices keep their own form ("Player 1: play 7♠")."""
    from rulelang.cli.narration import Narrator
    from rulelang.engine.display_names import Words
    cg = _game(tmp_path).compiled(4)
    words = Words(cg)
    st = cg.new_game(seed=1, log=True)
    told = [Narrator(words, st, v) for v in (None, 2)]
    for words_said in ("bid 1NT", "double", "pass", "pass", "pass"):
        _call(st, words_said)
    lines = [[ln.plain.strip() for ln in t.lines()] for t in told]
    calls = [ln.split("  ")[-1] for ln in lines[0] if "Player" in ln]
    assert calls == ["Player 1 bids 1NT", "Player 2 doubles", "Player 3 passes",
                     "Player 4 passes", "Player 1 passes"], lines[0]
    assert "You pass" in lines[1] and "Player 2 doubles" in lines[1], lines[1]
