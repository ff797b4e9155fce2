"""Sevens in a Row, written from its generated rulebook alone (``rulelang rulebook
examples/sevens.cardrules``), not from the rule file: the rulebook's claim is that a reader can."""
from __future__ import annotations

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def rank(card):
    return RANKS.index(card[:-1]) + 1


def suit(card):
    return card[-1]


class Sevens:
    """The table after the setup: ``deal`` maps ``Stock``, ``Pile`` and ``Hand/1``... to their
    cards, bottom first (the top of a pile is its last card)."""

    def __init__(self, players, deal):
        self.n = players
        self.stock = list(deal["Stock"])
        self.pile = list(deal["Pile"])
        self.hands = [list(deal[f"Hand/{p + 1}"]) for p in range(players)]
        self.passes = 0
        self.current = 0            # "The current player is Player 1 unless the setup says otherwise"
        self.winners = None
        self._check_end()

    # "'fits'(c): either the suit of c is the suit of the top card of the Pile or the rank of c is
    # the rank after the rank of the top card of the Pile or ... the rank before" (ranks go round)
    def fits(self, c):
        top = self.pile[-1]
        after = rank(top) % 13 + 1
        before = (rank(top) - 2) % 13 + 1
        return suit(c) == suit(top) or rank(c) in (after, before)

    def legal(self):
        hand = self.hands[self.current]
        plays = {f"play {c}" for c in hand if self.fits(c)}
        if plays:
            return plays
        return {"draw"} if self.stock else {"pass"}

    def play(self, words):
        assert words in self.legal(), words
        hand = self.hands[self.current]
        if words.startswith("play "):
            c = words[len("play "):]
            hand.remove(c)
            self.pile.append(c)
            self.passes = 0
        elif words == "draw":
            hand.append(self.stock.pop())
        else:
            self.passes += 1
        if not self._check_end():
            self.current = (self.current + 1) % self.n

    def _check_end(self):
        # checked for every player starting with the current one; the first rule first
        order = [(self.current + i) % self.n for i in range(self.n)]
        for p in order:
            if not self.hands[p]:
                self.winners = {p}
                return True
        if self.passes == self.n:
            low = min(len(h) for h in self.hands)
            self.winners = {p for p in range(self.n) if len(self.hands[p]) == low}
            return True
        return False

    def cards(self):
        """Every zone as the test's table names it, bottom first."""
        out = {"Stock": self.stock, "Pile": self.pile}
        out.update({f"Hand/{p + 1}": h for p, h in enumerate(self.hands)})
        return out

    def is_over(self):
        return self.winners is not None

    def to_move(self):
        return self.current

    def result(self):
        """The winners, seats counted from 0."""
        return set(self.winners)
