"""Four-Card Golf, written from its generated rulebook alone (``rulelang rulebook
examples/golf.cardrules``), not from the rule file."""
from __future__ import annotations

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SLOTS = "ABCD"


def points(card):
    """The points of a card: king 0, ace 1, jack and queen 10, every other card its rank."""
    r = card[:-1]
    if r in ("J", "Q"):
        return 10
    if r == "K":
        return 0
    return RANKS.index(r) + 1


class Golf:
    """The table after the setup: ``deal`` maps ``Stock``, ``Discard``, ``Card a/1``... to their
    cards, bottom first (the top of a pile is its last card)."""

    def __init__(self, players, deal):
        self.n = players
        self.stock = list(deal["Stock"])
        self.discard = list(deal["Discard"])
        self.slots = [{s: list(deal[f"Card {s}/{p + 1}"]) for s in SLOTS}
                      for p in range(players)]
        self.taken = [list(deal[f"Card taken/{p + 1}"]) for p in range(players)]
        self.knocker = None
        self.from_discard = False
        self.current = 0
        self.turns = 0                  # turns played so far
        self.step = "start"             # "start": the first choice of a turn; "taken": the second
        self.winners = None
        self._check_end()

    def resync(self, deal):
        """The Stock was shuffled during play: its new order is hidden randomness."""
        assert sorted(deal["Stock"]) == sorted(self.stock)
        self.stock = list(deal["Stock"])

    def _start_turn(self):
        # "If the Stock is empty: move all the cards of the Discard but its top card onto the
        # Stock (lifted together) ... Shuffle the Stock."  The order comes back by resync().
        if not self.stock:
            self.stock = self.discard[:-1]
            self.discard = self.discard[-1:]

    def legal(self):
        if self.step == "start":
            out = set()
            if self.stock:
                out.add("take the top card of the stock")
            if self.discard:
                out.add("take the top card of the discard pile")
            if self.knocker is None and self.turns >= self.n:
                out.add("knock")
            return out
        out = {f"exchange it for card {s}" for s in SLOTS}
        if not self.from_discard:
            out.add("discard it")
        return out

    def play(self, words):
        assert words in self.legal(), words
        me = self.current
        if self.step == "start":
            if words == "knock":
                self.knocker = me
                self._end_turn()
                return
            if words == "take the top card of the stock":
                self.taken[me].append(self.stock.pop())
                self.from_discard = False
            else:
                self.taken[me].append(self.discard.pop())
                self.from_discard = True
            self.step = "taken"
            self._check_end()
            return
        if words == "discard it":
            self.discard += self.taken[me]
        else:
            z = self.slots[me][words[-1]]
            self.discard += z
            z[:] = self.taken[me]
        self.taken[me] = []
        self._end_turn()

    def _end_turn(self):
        self.turns += 1
        self.current = (self.current + 1) % self.n
        self.step = "start"
        if self._check_end():
            return
        self._start_turn()

    def score(self, p):
        return sum(points(c) for s in SLOTS for c in self.slots[p][s])

    def _check_end(self):
        first = self.knocker is not None and self.current == self.knocker
        if first or self.turns >= 100:
            low = min(self.score(p) for p in range(self.n))
            self.winners = {p for p in range(self.n) if self.score(p) == low}
            return True
        return False

    def cards(self):
        """Every zone as the test's table names it, bottom first."""
        out = {"Stock": self.stock, "Discard": self.discard}
        for p in range(self.n):
            out[f"Card taken/{p + 1}"] = self.taken[p]
            out.update({f"Card {s}/{p + 1}": self.slots[p][s] for s in SLOTS})
        return out

    def is_over(self):
        return self.winners is not None

    def to_move(self):
        return self.current

    def result(self):
        return set(self.winners)
