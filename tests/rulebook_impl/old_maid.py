"""Old Maid, written from its generated rulebook alone (``rulelang rulebook
examples/old_maid.cardrules``), not from the rule file."""
from __future__ import annotations

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def rank(card):
    return card[:-1]


class OldMaid:
    """The table after the setup: ``deal`` maps ``Stock``, ``Set aside``, ``Pairs`` and
    ``Hand/1``... to their cards, bottom first.  A player whose Hand the setup emptied has left."""

    def __init__(self, players, deal):
        self.n = players
        self.hands = [list(deal[f"Hand/{p + 1}"]) for p in range(players)]
        self.pairs = list(deal["Pairs"])
        self.inside = [bool(h) for h in self.hands]
        self.current = 0
        if not self.inside[0]:
            self.current = self.after(0)
        self.loser = None
        self._check_end()

    def after(self, p):
        """The player after p, passing over those who left the game."""
        q = (p + 1) % self.n
        while not self.inside[q]:
            q = (q + 1) % self.n
        return q

    def legal(self):
        giver = self.after(self.current)
        return {f"take a card unseen #{i + 1}" for i in range(len(self.hands[giver]))}

    def play(self, words):
        assert words in self.legal(), words
        me = self.current
        giver = self.after(me)
        place = int(words.rsplit("#", 1)[1]) - 1          # counted from the bottom
        c = self.hands[giver].pop(place)
        self.hands[me].append(c)
        self._discard_pairs(me)
        if not self.hands[giver]:
            self.inside[giver] = False
        if self._check_end():
            return
        self.current = self.after(me)
        self._check_end()

    def _discard_pairs(self, p):
        hand = self.hands[p]
        for r in RANKS:
            same = [c for c in hand if rank(c) == r]
            if len(same) >= 2:
                hand[:] = [c for c in hand if rank(c) != r]
                self.pairs += same
                if len(same) == 3:
                    hand.append(self.pairs.pop())
        if not hand:
            self.inside[p] = False

    def _check_end(self):
        if sum(self.inside) == 1:
            self.loser = self.inside.index(True)
            return True
        return False

    def cards(self):
        """The zones that change in play, as the test's table names them, bottom first."""
        out = {"Pairs": self.pairs}
        out.update({f"Hand/{p + 1}": h for p, h in enumerate(self.hands)})
        return out

    def is_over(self):
        return self.loser is not None

    def to_move(self):
        return self.current

    def result(self):
        return {p for p in range(self.n) if p != self.loser}
