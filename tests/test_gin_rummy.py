"""examples/gin_rummy.cardrules (sets and runs, `least total A of Z outside sets and
runs`) played against an independent brute-force meld solver written here: every grouping of a
hand into sets and runs is tried, and the deadwood is the least points left over.  At every
decision the knock is offered exactly when that solver says the hand has 10 or less, and each
deal ends with the winner, the words and the points the published rules give."""
import functools
import itertools
import os
import random

import pytest

from rulelang.compile.loader import load

from closures import closures_only
from gametest import choices

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATH = os.path.join(ROOT, "examples", "gin_rummy.cardrules")
RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


@functools.lru_cache(maxsize=None)
def card(name):
    return RANKS.get(name[:-1]) or int(name[:-1]), name[-1]


def points(c):
    return min(10, card(c)[0])


def is_meld(cards):
    """A set (three or four of one rank) or a run (three or more of one suit in sequence, ace
    low, no wrapping)."""
    if len(cards) < 3:
        return False
    ranks = sorted(card(c)[0] for c in cards)
    if len(set(ranks)) == 1:
        return True
    suits = {card(c)[1] for c in cards}
    return len(suits) == 1 and ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def deadwood(hand):
    return _deadwood(tuple(sorted(hand)))


@functools.lru_cache(maxsize=None)
def _deadwood(hand):
    """Brute force: the first card is either deadwood or in a meld with some of the others;
    every such meld is tried, then the rest of the hand the same way."""
    hand = list(hand)
    if not hand:
        return 0
    first, rest = hand[0], hand[1:]
    best = points(first) + deadwood(rest)
    # a meld with the first card holds only cards of its rank or of its suit
    near = [i for i, c in enumerate(rest)
            if card(c)[0] == card(first)[0] or card(c)[1] == card(first)[1]]
    for k in range(2, len(near) + 1):
        for others in itertools.combinations(near, k):
            group = [first] + [rest[i] for i in others]
            if is_meld(group):
                best = min(best, deadwood([c for i, c in enumerate(rest) if i not in others]))
    return best


def groupings(hand):
    """Brute force: (least deadwood, every grouping of ``hand`` into melds that leaves it), a
    grouping a sorted tuple of melds (sorted tuples of cards)."""
    return _groupings(tuple(sorted(hand)))


@functools.lru_cache(maxsize=None)
def _groupings(hand):
    if not hand:
        return 0, [()]
    first, rest = hand[0], hand[1:]
    dw, ways = _groupings(rest)
    best, out = dw + points(first), list(ways)
    near = [i for i, c in enumerate(rest)
            if card(c)[0] == card(first)[0] or card(c)[1] == card(first)[1]]
    for k in range(2, len(near) + 1):
        for others in itertools.combinations(near, k):
            group = tuple(sorted([first] + [rest[i] for i in others]))
            if is_meld(group):
                dw, ways = _groupings(tuple(c for i, c in enumerate(rest) if i not in others))
                if dw < best:
                    best, out = dw, [tuple(sorted(w + (group,))) for w in ways]
                elif dw == best:
                    out += [tuple(sorted(w + (group,))) for w in ways]
    return best, out


def laid_off(defender, knocker):
    """The defender's least deadwood when their cards may also join the knocker's melds (a set's
    fourth card, cards continuing a run); the knocker's melds are a grouping of least deadwood,
    the one that lets the defender lay off least."""
    return max(_lay_off(tuple(sorted(defender)), melds) for melds in groupings(knocker)[1])


@functools.lru_cache(maxsize=None)
def _lay_off(hand, melds):
    """Brute force: the first card is deadwood, or in a meld of the defender's own, or added to
    one of the knocker's melds (each must be a meld again at the end)."""
    if not hand:
        return 0 if all(is_meld(m) for m in melds) else 10 ** 9
    first, rest = hand[0], hand[1:]
    best = points(first) + _lay_off(rest, melds)
    near = [i for i, c in enumerate(rest)
            if card(c)[0] == card(first)[0] or card(c)[1] == card(first)[1]]
    for k in range(2, len(near) + 1):
        for others in itertools.combinations(near, k):
            if is_meld([first] + [rest[i] for i in others]):
                best = min(best, _lay_off(tuple(c for i, c in enumerate(rest) if i not in others),
                                          melds))
    for j, m in enumerate(melds):
        if all(card(c)[0] == card(first)[0] for c in m) or all(card(c)[1] == card(first)[1] for c in m):
            grown = tuple(sorted(m + (first,)))
            best = min(best, _lay_off(rest, melds[:j] + (grown,) + melds[j + 1:]))
    return best


def test_laying_off_by_brute_force_on_rulebook_hands():
    knocker = ["5♥", "6♥", "7♥", "9♠", "9♦", "9♣", "2♣"]
    # 4♥ and 8♥ continue the run, then 9♥ either it or the set of nines
    assert laid_off(["8♥", "4♥", "9♥", "K♠", "3♦"], knocker) == 13
    assert laid_off(["3♥", "K♠"], knocker) == 13          # a 3 with no 4 continues nothing
    # K♠ K♥ K♦ Q♦ J♦: the set of kings or the run J-Q-K♦ leave 20 each; the knocker shows
    # the run, on which K♣ cannot go (on the set it could)
    assert groupings(["K♠", "K♥", "K♦", "Q♦", "J♦"])[0] == 20
    assert len(groupings(["K♠", "K♥", "K♦", "Q♦", "J♦"])[1]) == 2
    assert laid_off(["K♣"], ["K♠", "K♥", "K♦", "Q♦", "J♦"]) == 10
    assert laid_off(["10♦"], ["K♠", "K♥", "K♦", "Q♦", "J♦"]) == 10


def test_laying_off_in_the_engine_agrees_with_brute_force():
    """The engine's solver (rulelang/engine/melds.py) against the brute force above, on random
    hands: a knocker's run, set and a few more cards, and a defender's 10."""
    from rulelang.engine.melds import least_left_laying_off
    deck = [f"{r}{s}" for s in "♣♦♥♠" for r in ["A"] + [str(k) for k in range(2, 11)] + ["J", "Q", "K"]]
    ids = {c: i for i, c in enumerate(deck)}
    pos_of = [card(c)[0] - 1 for c in deck]
    suit_of = ["♣♦♥♠".index(card(c)[1]) for c in deck]
    pts = [points(c) for c in deck]
    rng = random.Random(14)
    laid = 0
    for _ in range(150):
        suit, low = rng.choice("♣♦♥♠"), rng.randint(0, 9)
        run = [deck[ids[f"A{suit}"] + k] for k in range(low, low + rng.randint(3, 4))]
        rank = rng.choice([r for r in range(1, 14) if not low < r <= low + 4])
        kind = [c for c in deck if card(c)[0] == rank and c not in run]
        knocker = run + rng.sample(kind, 3)
        rest = [c for c in deck if c not in knocker]
        rng.shuffle(rest)
        knocker += rest[:rng.randint(1, 3)]
        defender = rest[3:13]
        laid += laid_off(defender, knocker) < deadwood(defender)
        got = least_left_laying_off([ids[c] for c in defender], [ids[c] for c in knocker],
                                    pos_of, suit_of, pts)
        assert got == laid_off(defender, knocker), (defender, knocker)
    assert laid > 50            # most of the hands lay something off


def test_the_brute_force_solver_on_rulebook_hands():
    # the rulebook's own examples: runs ace low, no wrapping, a card in one meld only
    assert deadwood(["A♠", "2♠", "3♠"]) == 0
    assert deadwood(["Q♠", "K♠", "A♠"]) == 21
    assert deadwood(["7♠", "7♥", "7♦", "8♦", "9♦"]) == 7 + 7         # 7♦ in the set or the run
    assert deadwood(["7♠", "7♥", "7♦", "7♣", "8♦", "9♦"]) == 0      # the set of three, the run
    assert deadwood(["K♠", "K♥", "Q♠", "Q♥", "J♠", "J♥"]) == 0      # two runs, not sets


def _play(seed, backend="generated", monkeypatch=None, knock_chance=1.0):
    """One deal by two greedy players (each discards to leave the least deadwood by the brute
    force solver, and knocks with `knock_chance` when the rules offer it), checking every
    decision against the solver.  Returns the state, what the rules said, the final hands, the
    knocker (or None) and how many knock decisions were checked."""
    if backend == "closures":
        closures_only(monkeypatch)
    game = load(PATH)
    st = game.new_game(2, seed=seed, log=True)
    rng = random.Random(seed)
    taken = knocker = None
    checked = 0
    while not st.is_terminal():
        p = st.current_player()
        hand = st.observation(p)["zones"][f"hand/{p + 1}"]
        labels = choices(st)
        kinds = {label.split(" ")[0] for label in labels}
        if kinds == {"draw", "take_discard"}:
            top = st.observation(p)["zones"]["discard"]["top"]
            # take the discard when it makes the hand better after the best discard
            with_top = min(deadwood([c for c in hand + [top] if c != d]) for d in hand)
            label = "take_discard" if with_top < deadwood(hand) else "draw"
            taken = top if label == "take_discard" else None
        elif kinds == {"discard"}:
            offered = {label.split(" ", 1)[1] for label in labels}
            assert offered == {c for c in hand if c != taken}
            label = "discard " + min(sorted(offered),
                                     key=lambda d: deadwood([c for c in hand if c != d]))
            after = [c for c in hand if c != label.split(" ", 1)[1]]
        else:
            raise AssertionError(kinds)
        st.apply_action(labels[label])
        if kinds == {"discard"}:
            # the knock is offered exactly when the solver says the hand has 10 or less
            offered = (not st.is_terminal() and st.current_player() == p
                       and {st.action_to_string(a) for a in st.legal_actions()}
                       == {"knock", "play_on"})
            assert offered == (deadwood(after) <= 10 and not (
                st.is_terminal() and not [e for e in st.log if e[0] == "say"
                                          and e[2].startswith("knocks")])), after
            if offered:
                checked += 1
                if rng.random() < knock_chance:
                    knocker = p
                    st.apply_action(st.legal_actions()[[st.action_to_string(a) for a in
                                                        st.legal_actions()].index("knock")])
                else:
                    st.apply_action(st.legal_actions()[[st.action_to_string(a) for a in
                                                        st.legal_actions()].index("play_on")])
    hands = [st.observation(p)["zones"][f"{'spread' if knocker is not None else 'hand'}/{p + 1}"]
             for p in range(2)]
    return st, [e[2] for e in st.log if e[0] == "say"], hands, knocker, checked


SEEDS = range(1, 41)


@pytest.mark.parametrize("seed", SEEDS)
def test_every_deal_scores_as_the_brute_force_solver_says(seed):
    st, says, hands, knocker, _ = _play(seed, knock_chance=0.5)
    assert st.problem is None
    if knocker is None:
        assert says[-1] == "the stock is down to two cards: no score"
        assert st.results() == ["draw", "draw"]
        return
    other = 1 - knocker
    dw = [deadwood(h) for h in hands]
    i = says.index(f"knocks with {dw[knocker]} deadwood: {', '.join(hands[knocker])}")
    assert says[i + 1] == f"the other hand has {dw[other]} deadwood: {', '.join(hands[other])}"
    assert dw[knocker] <= 10
    if dw[knocker] > 0:             # no laying off on gin
        dw[other] = laid_off(hands[other], hands[knocker])
        assert says[i + 2] == f"after laying off: {dw[other]}"
    else:
        assert not [s for s in says if s.startswith("after laying off")]
    if dw[knocker] == 0:
        winner, won, word = knocker, 25 + dw[other], "gin"
    elif dw[other] <= dw[knocker]:
        winner, won, word = other, 25 + dw[knocker] - dw[other], "undercut"
    else:
        winner, won, word = knocker, dw[other] - dw[knocker], None
    assert list(st.winners) == [winner]
    assert st.observation(0)["vars"]["points_won"] == str(won)
    assert (word in says) if word else not {"gin", "undercut"} & set(says)


def test_the_deals_reach_every_ending():
    endings = set()
    for seed in SEEDS:
        st, says, hands, knocker, _ = _play(seed, knock_chance=0.5)
        endings.add("draw" if knocker is None else "gin" if "gin" in says
                    else "undercut" if "undercut" in says else "knock")
    assert endings == {"draw", "gin", "undercut", "knock"}


@pytest.mark.parametrize("seed", range(1, 9))
def test_the_closures_play_the_same_deals(seed, monkeypatch):
    fast = _play(seed, knock_chance=0.5)
    slow = _play(seed, "closures", monkeypatch, knock_chance=0.5)
    assert fast[0].log == slow[0].log and fast[1:] == slow[1:]


SMALL = '''game "g"
players 1
deck standard, copies 2, into stock
zone stock: shared, face up
zone table: shared, face up
turn:
    repeat while size of table < WANT:
        move top card from stock to table
    say "left", least total rank of table outside sets and runs
    end game with no winner
'''


@pytest.mark.parametrize("backend", ["generated", "closures"])
def test_rank_points_copies_and_the_card_limit(tmp_path, monkeypatch, backend):
    """`rank` as the points; two copies of one card are two cards of a set; a zone of more than
    20 cards stops the game with RL259 at the expression."""
    if backend == "closures":
        closures_only(monkeypatch)
    for want, ok in ((12, True), (20, True), (21, False)):
        path = tmp_path / f"g{want}.cardrules"
        path.write_text(SMALL.replace("WANT", str(want)))
        st = load(str(path)).new_game(1, seed=want, log=True)
        assert st.is_terminal()             # no decision: the game is played when it is made
        table = st.observation(0)["zones"]["table"]
        if ok:
            assert len(table) == want
            assert st.problem is None
            says = [e[2] for e in st.log if e[0] == "say"]
            # the independent solver counts points to 10; rank points differ only above 10
            brute = _deadwood_with(tuple(sorted(table)), lambda c: card(c)[0])
            assert says == [f"left {brute}"]
        else:
            assert st.problem["code"] == "RL259" and st.problem["span"][1:3] == [9, 17], st.problem


def _deadwood_with(hand, value):
    """The brute-force solver above with other points per card."""
    if not hand:
        return 0
    first, rest = hand[0], hand[1:]
    best = value(first) + _deadwood_with(rest, value)
    near = [i for i, c in enumerate(rest)
            if card(c)[0] == card(first)[0] or card(c)[1] == card(first)[1]]
    for k in range(2, len(near) + 1):
        for others in itertools.combinations(near, k):
            if is_meld([first] + [rest[i] for i in others]):
                best = min(best, _deadwood_with(
                    tuple(c for i, c in enumerate(rest) if i not in others), value))
    return best
