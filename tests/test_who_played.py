"""Who played a card (docs/language.md, "Who played a card"): `who played c`, the player from
whose own zone a card went into a shared zone.  Its rules (a move, a choice of several cards and
a set from a player's zone; a card gathered from one shared zone to another keeps it; a card
taken into a player's zone, dealt, or shuffled is played by nobody), on the generated code, the
fast path and the reference interpreter alike, through clones, saves and resumes, and hidden
information: the worlds `determinize` deals agree on everything a seat sees, who played each
card included."""
import json
import random

from rulelang.compile.loader import check_file, load
from rulelang.engine.runtime import State

from gametest import played
from reference import ReferenceGame

TABLE = '''game "Tricks and a pile"
players 3
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone trick: shared, face up
zone pile: shared, face down          # cards laid face down: who laid them is seen, not which
zone gathered: shared, face up        # tricks gathered to the table keep who played them
zone won: per player, face down
var rounds = 0
setup:
    shuffle stock
    deal 6 from stock to hand of each player
    move top card from stock to trick  # dealt straight to the table: played by nobody
turn:
    choose:
        play card c from hand:
            move c from hand to trick
        lay "lay two" 2 cards c from hand to pile:
            pass
        pair "lay a pair" a set of 2 cards s of one rank from hand to pile:
            pass
    say "top:", who played top of trick, "pile:", who played top of pile
    if size of trick >= 4:
        let best = highest card in trick by rank of card
        let taker = the player who played best
        say taker, "takes", best
        for each card c in trick:
            if who played c is not none and who played c is not taker:
                say "beaten:", c, "of", who played c
        if rounds mod 2 is 0 and taker is not none:
            move all cards from trick to won of taker
        else:
            move all cards from trick to gathered
        add 1 to rounds
    if rounds >= 2 and size of gathered > 0:
        move top card from gathered to hand
        if stock is not empty:
            move all cards from pile to stock
            shuffle stock
    if hand is empty or rounds >= 6:
        end game with winner who played top of gathered
'''


def _game(tmp_path, text=TABLE):
    path = tmp_path / "table.cardrules"
    path.write_text(text, encoding="utf-8")
    diags = check_file(str(path))[0]
    assert not [d for d in diags if d.severity == "error"], diags
    return load(str(path))


def _played(st, cg):
    """Who played each card, read as the rules read it: {card name: seat or None}."""
    base = cg.played_base
    return {cg.card_names[c]: (st.vars[base + c] if st.vars[base + c] >= 0 else None)
            for c in range(len(cg.card_names))}


def _expected(cg, log, start):
    """Who played each card, worked out from the log's moves alone (docs/language.md): a card
    that went into a zone of a player, or was shuffled, by nobody; one that went from a zone of
    a player to a shared one, by that player; one that went between shared zones, kept."""
    owner = [info[1] for info in cg.zone_info]
    who = {c: None for c in range(len(cg.card_names))}
    for e in log:
        if e[0] == "move":
            _k, si, di, cards, _bottom = e
            for c in cards:
                if owner[di] >= 0:
                    who[c] = None
                elif owner[si] >= 0:
                    who[c] = owner[si]
        elif e[0] == "shuffle":
            for c in e[2]:
                who[c] = None
    return {cg.card_names[c]: s for c, s in who.items()}


def test_a_card_is_played_by_the_player_whose_zone_it_left_for_the_table(tmp_path):
    cg = _game(tmp_path).compiled(3)
    st = cg.new_game(seed=3, log=True)
    trick = st.zones[cg.zone_base["trick"]]
    first = trick[0]
    assert st.vars[cg.played_base + first] == -1             # dealt straight to the table
    seat = st.current_player()
    card = next(a for a in st.legal_actions() if st.action_to_string(a).startswith("play "))
    c = card & 1023
    st.apply_action(card)
    assert st.vars[cg.played_base + c] == seat
    said = [e[2] for e in st.log if e[0] == "say"]
    assert said[-1] == f"top: player {seat + 1} pile: nobody"


def test_the_rules_of_who_played_hold_over_whole_games_on_every_backend(tmp_path):
    game = _game(tmp_path)
    cg = game.compiled(3)
    ref = ReferenceGame(game.model, 3)
    seen_kinds = set()
    for seed in range(25):
        st = played(cg, seed)
        start = cg.new_game(seed=seed, log=True)
        # the values kept agree with the moves of the log, read on their own
        assert _played(st, cg) == _expected(cg, st.log, None)
        for e in st.log:
            if e[0] == "choice":
                seen_kinds.add(st.action_to_string(e[2]).split()[0])
        # the reference interpreter plays the same game and keeps the same values
        r = played(ref, seed)
        assert st.log == r.log
        assert st.vars == r.vars
        # the fast path plays the same game to the same values
        pick = random.Random(seed)
        fast = cg.playout(seed, lambda seat, k: pick.randrange(k))
        pick = random.Random(seed)
        again = cg.new_game(seed=seed)
        while not again.is_terminal():
            legal = again.legal_actions()
            again.apply_action(legal[pick.randrange(len(legal))])
        assert fast.vars == again.vars and fast.zones == again.zones
        del start
    assert {"play", "lay", "pair"} <= seen_kinds


def test_who_played_is_kept_through_clones_saves_and_resumes(tmp_path):
    game = _game(tmp_path)
    cg = game.compiled(3)
    st = cg.new_game(seed=5)
    rng = random.Random(5)
    for _ in range(8):
        legal = st.legal_actions()
        st.apply_action(legal[rng.randrange(len(legal))])
    kept = _played(st, cg)
    assert any(v is not None for v in kept.values())
    copy = st.clone()
    saved = json.loads(json.dumps(st.to_json()))
    back = State.from_json(game, saved)
    assert _played(copy, cg) == kept and _played(back, cg) == kept
    # the three go on alike
    for s in (st, copy, back):
        r = random.Random(9)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[r.randrange(len(legal))])
    assert _played(copy, cg) == _played(st, cg) == _played(back, cg)
    assert copy.vars == st.vars == back.vars
    # a clone changed leaves the original alone
    one = cg.new_game(seed=6)
    two = one.clone()
    two.apply_action(two.legal_actions()[0])
    assert _played(one, cg) != _played(two, cg) or one.vars != two.vars


def test_observations_show_who_played_by_place_never_by_card(tmp_path):
    cg = _game(tmp_path).compiled(3)
    for seed in range(10):
        st = played(cg, seed)
        for seat in range(3):
            obs = st.observation(seat)
            shown = obs.get("played_by", {})
            for zone, seats in shown.items():
                cards = st.zones[cg.zone_base[zone]]
                assert seats == [st.vars[cg.played_base + c] + 1 if st.vars[cg.played_base + c] >= 0
                                 else None for c in cards]
            assert "hand" not in shown and "won" not in shown
            assert not any(k.startswith(" ") for k in obs["vars"])   # (no variable of the game)


def test_redealt_worlds_agree_on_all_a_seat_sees_who_played_included(tmp_path):
    """A face-down pile whose cards three players laid: in every world dealt for a seat, each
    place of the pile has the same player who laid it, while the cards there differ."""
    cg = _game(tmp_path).compiled(3)
    differ = checked = laid = 0
    for seed in range(12):
        st = cg.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(6):
            if st.is_terminal():
                break
            legal = st.legal_actions()
            lays = [a for a in legal if not st.action_to_string(a).startswith("play ")]
            st.apply_action(rng.choice(lays or legal))
        if st.is_terminal():
            continue
        pile = cg.zone_base["pile"]
        for seat in range(3):
            mine = st.observation(seat)
            for k in range(4):
                world = st.determinize(seat, k)
                assert world.observation(seat) == mine
                got = [world.vars[cg.played_base + c] for c in world.zones[pile]]
                assert got == [st.vars[cg.played_base + c] for c in st.zones[pile]]
                # a card in a hidden place of a player's zone is played by nobody in every world
                for zi, (_n, owner, _v, _s) in enumerate(cg.zone_info):
                    if owner >= 0:
                        assert all(world.vars[cg.played_base + c] == -1 for c in world.zones[zi])
                differ += world.zones[pile] != st.zones[pile]
                laid += any(s >= 0 for s in got)
                checked += 1
    assert checked and differ and laid     # the cards were dealt again; who laid them was not


def test_a_game_that_never_reads_it_keeps_nothing_of_it(tmp_path):
    text = TABLE.replace('    say "top:", who played top of trick, "pile:", who played top of pile\n', "")
    text = text.replace("        let taker = the player who played best\n", "        let taker = you\n")
    text = text.replace('''        for each card c in trick:
            if who played c is not none and who played c is not taker:
                say "beaten:", c, "of", who played c
''', "")
    text = text.replace("winner who played top of gathered", "winner you")
    cg = _game(tmp_path, text).compiled(3)
    assert cg.played_base is None
    st = cg.new_game(seed=1)
    assert len(st.vars) == 1 and "played_by" not in st.observation(0)


def test_who_stays_a_name_and_the_words_check(tmp_path):
    text = TABLE.replace("var rounds = 0\n", "var rounds = 0\nvar who = 0\nvar played = 0\n")
    text = text.replace("        add 1 to rounds\n", "        add 1 to rounds\n        add 1 to who\n"
                        "        set played to who\n")
    cg = _game(tmp_path, text).compiled(3)
    st = played(cg, 2)
    assert st.is_terminal()


def test_the_rulebook_says_who_played_in_words(tmp_path):
    from rulelang.cli import rulebook as RB
    from rulelang.cli.rulebook_cmd import rulebook_of
    book = RB.to_markdown(rulebook_of(_game(tmp_path))).replace("\\", "")
    assert "Let taker be the player who played best to the table." in book
    assert "“top:”, the player who played the top card of the Trick to the table" in book


def test_a_position_given_by_hand_has_no_card_played(tmp_path):
    """Setup plays a card from a hand; a position set by hand (a rule test's `given:`) starts
    with every card played by nobody, and a move then plays one."""
    from rulelang.play.scenario import position
    text = TABLE.replace("    move top card from stock to trick  #", "    move top card from hand of player 2 to trick  #")
    game = _game(tmp_path, text)
    cg = game.compiled(3)
    st = cg.new_game(seed=1)
    assert any(v == 1 for v in _played(st, cg).values())        # player 2 played in setup
    given = position(game, 3, {"trick": ["5♠"], "hand/1": ["7♥", "2♣"]}, "stock")
    assert all(v is None for v in _played(given, cg).values())
    given.apply_action(next(a for a in given.legal_actions() if given.action_to_string(a) == "play 7♥"))
    assert _played(given, cg)["7♥"] == 0 and _played(given, cg)["5♠"] is None


def test_the_article_before_a_card_picked_from_a_zone_reads_as_without_it(tmp_path):
    """`the player who played the highest card in trick by V`, as a rulebook says it: `the
    highest`, `the lowest`, `the first` and `the last card in Z` are the forms without the
    article, and play the same games."""
    plain = TABLE.replace(
        "        let taker = the player who played best\n",
        "        let taker = the player who played highest card in trick by rank of card\n"
        "        say lowest card in trick by rank of card, first card in trick where rank of card > 5,"
        " last card in hand where rank of card < 9\n")
    with_article = (plain.replace("played highest card", "played the highest card")
                    .replace("say lowest card", "say the lowest card")
                    .replace(", first card in", ", the first card in")
                    .replace(", last card in", ", the last card in"))
    assert with_article.count("the highest card in trick") == 1 and "the last card in hand" in with_article
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    games = [_game(tmp_path / "a", plain).compiled(3), _game(tmp_path / "b", with_article).compiled(3)]
    for seed in (1, 2, 3):
        logs = [played(cg, seed).log for cg in games]
        assert logs[0] == logs[1]
        assert any(e[0] == "say" and "takes" in e[2] for e in logs[0])
