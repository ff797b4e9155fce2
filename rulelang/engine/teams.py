"""Partnerships at run time (docs/language.md, "Partnerships"): a player changing team, and the
results of a game with teams, where a team wins, loses or draws together.

A game with teams keeps, among its variables, the number of each player's team from ``tb`` (the
team of seat p is ``g.vars[tb + p]``) and each player's partner from ``pb`` (-1: none).  Both are
public, as every variable is; turn order and dealing never read them.
"""
from __future__ import annotations

from typing import Any

from rulelang.engine.control import GameProblem


def join_team(g: Any, p: int, t: int, tb: int, pb: int) -> None:
    """``set the team of P to T``: seat ``p`` leaves its team for team ``t`` (1 to the number of
    players, else RL304), and every player's partner is worked out again (the other player of a
    team of two; none otherwise)."""
    n = g.n
    if not 1 <= t <= n:
        raise GameProblem("RL304", f"there is no team {t}: the teams are numbered 1 to {n}")
    vs = g.vars
    vs[tb + p] = t
    if g.log is not None:       # every seat sees it (engine/events.py)
        g.log.append(("team", p, t))
    for s in range(n):
        mine = vs[tb + s]
        others = [q for q in range(n) if q != s and vs[tb + q] == mine]
        vs[pb + s] = others[0] if len(others) == 1 else -1


def team_of(g: Any, p: int, tb: int) -> list[int]:
    """The seats of ``p``'s team, in seat order."""
    vs = g.vars
    t = vs[tb + p]
    return [q for q in range(g.n) if vs[tb + q] == t]


def not_team_of(g: Any, p: int, tb: int) -> list[int]:
    """The seats of every other team, in seat order (`end game with loser P`: they win)."""
    vs = g.vars
    t = vs[tb + p]
    return [q for q in range(g.n) if vs[tb + q] != t]


def team_scores(g: Any, scores: list[int], tb: int) -> list[int]:
    """Each seat's team score: the total of the scores of its team's players."""
    vs = g.vars
    n = g.n
    total: dict[int, int] = {}
    for q in range(n):
        total[vs[tb + q]] = total.get(vs[tb + q], 0) + scores[q]
    return [total[vs[tb + q]] for q in range(n)]


def team_results(g: Any, results: list[str], tb: int) -> list[str]:
    """``end game with winners where W, losers where L`` in a game with teams: a team wins when
    one of its players wins, else loses when one of them loses, else draws; each player has
    their team's result."""
    vs = g.vars
    n = g.n
    best: dict[int, str] = {}
    rank = {"win": 0, "loss": 1, "draw": 2}
    for q in range(n):
        t = vs[tb + q]
        if t not in best or rank[results[q]] < rank[best[t]]:
            best[t] = results[q]
    return [best[vs[tb + q]] for q in range(n)]


def teams_now(g: Any, tb: int) -> list[list[int]]:
    """The teams as they are, each a list of seats, in the order of their numbers."""
    vs = g.vars
    by: dict[int, list[int]] = {}
    for q in range(g.n):
        by.setdefault(vs[tb + q], []).append(q)
    return [by[t] for t in sorted(by)]
