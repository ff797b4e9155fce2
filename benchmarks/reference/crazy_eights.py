"""Crazy Eights written by hand in plain Python: the speed reference for rulelang.

Exactly the rules of examples/crazy_eights.cardrules: a 52-card deck; 7 cards each for 2 players,
5 for 3 or 4, dealt one at a time from seat 0; the top card of the stock starts the discard pile;
seat 0 plays first, then clockwise.  On your turn play a card that matches the current suit (the
top card's, or the one named for an 8) or the top card's rank, or any 8; whoever plays an 8 then
names a suit (a separate decision).  With no card to play you must draw one (an empty stock is
first refilled with the discard pile but its top card, shuffled; if there is still nothing, the
draw does nothing) and the turn ends.  The first player with an empty hand wins at once (before
naming a suit for a last 8).  Every choice (a card, a suit, "draw") is one decision; each is made
uniformly at random among the legal ones.
"""
from __future__ import annotations

import argparse
import random
import time

CAP = 10_000


def play_game(rng: random.Random, n_players: int, check: bool = False):
    """One random game; returns (winner seat or None, decisions)."""
    choice = rng.choice
    stock = list(range(52))                 # card = suit * 13 + rank index (0 = ace)
    rng.shuffle(stock)
    hands = [[] for _ in range(n_players)]
    for _ in range(7 if n_players == 2 else 5):
        for h in hands:
            h.append(stock.pop())
    discard = [stock.pop()]
    named = -1
    cur = 0
    decisions = 0
    while decisions < CAP:
        hand = hands[cur]
        top = discard[-1]
        suit = named if named >= 0 else top // 13
        rank = top % 13
        playable = [c for c in hand if c % 13 == 7 or c // 13 == suit or c % 13 == rank]
        decisions += 1
        if playable:
            c = choice(playable)
            hand.remove(c)
            discard.append(c)
            named = -1
            if not hand:
                return cur, decisions
            if c % 13 == 7:
                decisions += 1
                named = choice((0, 1, 2, 3))
        else:
            if not stock:
                stock = discard[:-1]
                del discard[:-1]
                rng.shuffle(stock)
            if stock:
                hand.append(stock.pop())
        if check:
            assert len(stock) + len(discard) + sum(map(len, hands)) == 52
        cur = (cur + 1) % n_players
    return None, decisions


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    dec = 0
    for i in range(a.games):
        dec += play_game(random.Random(a.seed + i), a.players)[1]
    el = time.perf_counter() - t0
    print(f"{a.games / el:.0f} games/s, {dec / el:.0f} decisions/s, "
          f"{dec / a.games:.1f} decisions per game ({a.players} players)")


if __name__ == "__main__":
    main()
