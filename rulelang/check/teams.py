"""Partnerships (docs/language.md, "Partnerships"): the checks of a `teams:` line, of `the team of
P`, `partner of P` and `set the team of P to T`, and the seats of each team for a number of
players (:func:`team_numbers`, :func:`partner_seats`), which the compiled game and the rulebook
use.

A game with teams keeps two public values per player (declared here as variables whose names no
rule file can write, ``A.TEAM`` and ``A.PARTNER``): the number of the player's team (1 for the
first team written; in a game whose teams are formed in play, each player starts alone in the
team numbered by their seat) and the player's partner (the other player of a team of two, else
none).  `the team of P` and `partner of P` read them; `set the team of P to T` changes the first
and works the second out again.  Turn order and dealing never read them.
"""
from __future__ import annotations

from typing import Optional

from rulelang.kinds import NUMBER, PLAYER
from rulelang.check.ir import VarOf
from rulelang.syntax import ast as A


def team_numbers(decl: A.Teams, n: int) -> list[int]:
    """The number of each seat's team (0-based seats, teams numbered from 1) in a game of ``n``
    players: as written (``fixed``), partners facing each other (``opposite``: seat s and seat s
    + n/2 are team s+1), or each alone (``formed``: the team of seat s is s+1)."""
    if decl.kind == "fixed":
        out = [0] * n
        for k, seats in enumerate(decl.seats, 1):
            for s in seats:
                if 1 <= s <= n:
                    out[s - 1] = k
        return out
    if decl.kind == "opposite" and n % 2 == 0:
        return [s % (n // 2) + 1 for s in range(n)]
    return [s + 1 for s in range(n)]


def partner_seats(teams: list[int]) -> list[int]:
    """Each seat's partner: the other seat of its team when the team has two, else -1 (none)."""
    out = []
    for s, t in enumerate(teams):
        others = [q for q, u in enumerate(teams) if u == t and q != s]
        out.append(others[0] if len(others) == 1 else -1)
    return out


def team_lists(teams: list[int]) -> list[list[int]]:
    """The teams as lists of seats, in the order of their numbers (empty teams left out)."""
    by: dict = {}
    for s, t in enumerate(teams):
        by.setdefault(t, []).append(s)
    return [by[t] for t in sorted(by)]


def declared_teams(model, n: int):
    """The seats of each team a game of ``n`` players starts with (``rulelang stats`` reports
    their wins), ``()`` when its teams are formed in play, None in a game without teams."""
    t = getattr(model, "teams", None)
    if t is None:
        return None
    return () if t.kind == "formed" else team_lists(team_numbers(t, n))


class TeamChecks:
    """A mixin of the Checker: ``self.teams`` is the file's `teams:` line, or None."""

    def check_teams(self, decls: list) -> None:
        """The `teams:` line (a second one is RL120, as for `players`), its seats (RL265,
        RL266, RL267, RL268), and the two values per player a game with teams keeps."""
        self.teams: Optional[A.Teams] = decls[-1] if decls else None
        t = self.teams
        if t is None:
            return
        low, high = self.players
        if t.kind == "fixed":
            seen: dict = {}
            beyond = twice = None         # the first of each is reported (a line may be long)
            for seats in t.seats:
                for s in seats:
                    if s < 1 or s > low:
                        beyond = s if beyond is None else beyond
                    elif s in seen:
                        twice = s if twice is None else twice
                    seen[s] = True
            if beyond is not None:
                s = beyond
                self.error("RL265", f"the teams name player {s}, but the game is for at most "
                           f"{high} players" if s < 1 or s > high else
                           f"the teams name player {s}, but a game of {low} players has no "
                           f"player {s}", t.span, f"name players 1 to {low}")
            if twice is not None:
                self.error("RL266", f"player {twice} is in two teams", t.span,
                           "put each player in one team")
            missing = [s for s in range(1, high + 1) if s not in seen]
            if missing and beyond is None:
                self.error("RL267", f"player {missing[0]} is in no team", t.span,
                           "put every player in a team (`players 1 and 3, players 2 and 4`)")
        elif t.kind == "opposite":
            odd = [n for n in range(low, high + 1) if n % 2]
            if odd:
                self.error("RL268", f"partners cannot sit opposite in a game of {odd[0]} players",
                           t.span, "play with an even number of players, or name the teams "
                           "(`players 1 and 3, players 2 and 4`)")
        self.check_var(A.Var(A.TEAM, "number", True, A.Int(0, t.span), False, t.span))
        self.check_var(A.Var(A.PARTNER, "player", True, A.NoneLit(t.span), False, t.span))

    def teams_of_two(self) -> bool:
        """Are the teams of two players, whatever the number of players?  (Formed in play:
        `partner of P` is none while P's team has not two players.)"""
        t = self.teams
        if t is None or t.kind != "fixed":
            return True
        return all(len(seats) == 2 for seats in t.seats)

    def team_word(self, e, s) -> Optional[object]:
        """`the team of P` or `partner of P` (an ``A.Of``) in ``ex_Of``: its kind once checked,
        or None when ``e`` is neither (a file's own `partner` is its own)."""
        teams = getattr(self, "teams", None)   # (None while options and attributes are checked)
        if e.name == A.TEAM and teams is None:
            self.expr(e.operand, s)
            self.no_teams(e.span, "`the team of ...`")
            return NUMBER
        if e.name != "partner" or any("partner" in getattr(self, k, ())
                                      for k in ("zones", "vars", "defines")):
            return None
        if teams is None:
            self.expr(e.operand, s)
            self.no_teams(e.span, "`partner of ...`")
            return PLAYER
        if not self.teams_of_two():
            self.error("RL300", "`partner of ...` in a game whose teams are not of two players",
                       e.span, "a player of a larger team has no one partner: use `for each "
                       "player p in the team of ...`")
        self.expect_seat(e.operand, s, "whose partner")
        self.refs.set(e, VarOf(A.PARTNER))
        return PLAYER

    def no_teams(self, span, what, example="partners sit opposite"):
        """RL269, once for a place (`for each player p in the team of P` and `number of players
        in the team of P` read `the team of` twice there)."""
        done = self.__dict__.setdefault("_no_teams_at", set())
        key = (span.file, span.line, span.column) if span is not None else None
        if key in done:
            return
        done.add(key)
        self.error("RL269", f"{what}: this game has no teams", span,
                   f"declare them, e.g. `teams: {example}`")

    def st_JoinTeam(self, st, s):
        if getattr(self, "teams", None) is None:
            self.no_teams(st.span, "`set the team of ...`", "formed in play")
        elif self.teams.kind != "formed":
            self.error("RL301", "the teams of this game are fixed: no player changes team",
                       st.span, "write `teams: formed in play` for teams made during the game")
        self.expect_seat(st.player, s, "who changes team")
        self.expect(st.team, NUMBER, s, "the team joined")
        if isinstance(st.team, A.Int) and not 1 <= int(st.team.value) <= self.players[1]:
            self.error("RL303", f"there is no team {st.team.value}: the teams are numbered 1 to "
                       f"the number of players", st.team.span,
                       "write `the team of P` for the team of another player")

    def team_target(self, st) -> bool:
        """RL302 for `add`/`subtract` to a team, and for a `set` of a partner: a team changes
        only by `set the team of P to T`.  True when reported."""
        tgt = st.target
        if isinstance(tgt, A.Of) and (tgt.name == A.TEAM or (
                tgt.name == "partner" and getattr(self, "teams", None) is not None
                and not any("partner" in getattr(self, k, ()) for k in ("zones", "vars", "defines")))):
            self.error("RL302", "a team changes only by `set the team of P to T`", st.span,
                       "write `set the team of P to the team of Q` (partners follow)")
            return True
        return False
