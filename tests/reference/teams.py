"""Partnerships in the reference interpreter, written apart from the engine's (rulelang/engine/
teams.py) so that the differential tests compare two readings of docs/language.md,
"Partnerships": who is in which team, who is whose partner, and how a team's result follows from
an ending.  A team is a set of seats here, worked out from the two values per player the checker
declares (the team's number and the partner)."""
from __future__ import annotations

from rulelang.engine.control import GameProblem
from rulelang.syntax import ast as A


def first_teams(decl, n):
    """The number of each seat's team at the start: the line's order for named teams, seat s
    with seat s + n/2 when partners sit opposite, everyone alone when formed in play."""
    if decl.kind == "fixed":
        found = {}
        for number, seats in enumerate(decl.seats):
            for seat in seats:
                found[seat - 1] = number + 1
        return [found.get(s, 0) for s in range(n)]
    if decl.kind == "opposite":
        half = n // 2
        return [(s if s < half else s - half) + 1 for s in range(n)]
    return [s + 1 for s in range(n)]


def partners(teams):
    """Each seat's partner: the only other seat of its team, else -1."""
    out = []
    for s in range(len(teams)):
        mates = {q for q in range(len(teams)) if teams[q] == teams[s]} - {s}
        out.append(mates.pop() if len(mates) == 1 else -1)
    return out


class ReferenceTeams:
    """A mixin of ReferenceGame: ``team_at``/``partner_at`` are where the values are (or None)."""

    def _teams_layout(self):
        decl = getattr(self.model, "teams", None)
        self.team_at = self.var_base[A.TEAM] if decl is not None else None
        self.partner_at = self.var_base[A.PARTNER] if decl is not None else None
        self.team_base = self.team_at           # (State.teams reads the teams there)

    def _teams_start(self, g):
        if self.team_at is None:
            return
        teams = first_teams(self.model.teams, self.n)
        for s, t in enumerate(teams):
            g.vars[self.team_at + s] = t
        for s, p in enumerate(partners(teams)):
            g.vars[self.partner_at + s] = p

    def of_place(self, name):
        """Where `NAME of X` is for X's value: a player's variable at the player's seat; a
        team's variable (`var NAME per team`, X the team's number from 1) at seat X - 1."""
        if getattr(self.model.vars[name].decl, "per_team", False):
            return self.var_base[name] - 1
        return self.var_base[name]

    def team_var_shown(self, name, owner):
        """``(key, shown?)`` of a place of a team's variable: team numbers run from 1 to the
        number of teams the game can have (named: as written; opposite: half the players;
        formed in play: one per player)."""
        decl = self.model.teams
        count = len(decl.seats) if decl.kind == "fixed" else (
            self.n // 2 if decl.kind == "opposite" else self.n)
        return owner + 1, owner < count

    def teams_of(self, g):
        return [g.vars[self.team_at + s] for s in range(self.n)]

    def join(self, g, p, t):
        if t < 1 or t > self.n:
            raise GameProblem("RL304", f"there is no team {t}: the teams are numbered 1 to {self.n}")
        g.vars[self.team_at + p] = t
        if g.log is not None:
            g.log.append(("team", p, t))
        for s, q in enumerate(partners(self.teams_of(g))):
            g.vars[self.partner_at + s] = q

    def mates(self, g, p):
        teams = self.teams_of(g)
        return [q for q in range(self.n) if teams[q] == teams[p]]

    def by_team(self, g, values, pick):
        """Each seat gets ``pick`` of the values of its team's seats."""
        teams = self.teams_of(g)
        return [pick([values[q] for q in range(self.n) if teams[q] == teams[s]])
                for s in range(self.n)]
