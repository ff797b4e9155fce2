"""Variables of a team (docs/language.md, "Variables of a team"): `var points per team` is one
value for each team, read and set as `points of the team of P`.

Such a variable is kept as a variable of each player is (``Var.per_player`` is true), one place
per seat, but the place of team T is the place of seat T: teams are numbered 1 to the number of
players at most (check/teams.py), so every team has its place whatever the teams are and however
they change in play.  The value belongs to the team, not to its players: a player who changes
team reads their new team's value, and the team they left keeps its own.  A game whose teams are
formed in play starts with each player alone in the team numbered by their seat, so each of
those teams has its value from the start.

The checks: RL350 (a variable of each team in a game without teams), RL351 (read or set with no
team: the bare name), RL352 (read or set by something other than `the team of P`), RL353 (its
first value reads `you`: a team is no player).
"""
from __future__ import annotations

from rulelang.check.ir import VarOf
from rulelang.check.tree import _walk
from rulelang.syntax import ast as A


def is_team_var(decl) -> bool:
    """Is this ``A.Var`` a variable of each team?"""
    return bool(getattr(decl, "per_team", False))


class TeamVarChecks:
    """A mixin of the Checker (after TeamChecks: ``self.teams`` is the file's `teams:` line)."""

    def check_team_var(self, v: A.Var) -> None:
        """RL350: `var NAME per team` in a game without `teams:`."""
        you = next((n for n in _walk(v.init) if isinstance(n, A.Keyword) and n.word == "you"),
                   None)
        if you is not None:
            self.error("RL353", f"the first value of `{v.name}`, kept per team, reads `you`: a "
                       "team is no player", you.span,
                       "start every team alike (`= 0`, an option), and set a team's value in "
                       "`setup:`")
        if getattr(self, "teams", None) is None:
            self.error("RL350", f"variable `{v.name}` is kept per team, but this game has no "
                       "teams", v.span, "declare them, e.g. `teams: partners sit opposite`, "
                       f"or keep it per player: `var {v.name} per player = 0`")

    def team_var_bare(self, e, name: str) -> None:
        """RL351: the bare name of a variable of each team (whose team?)."""
        self.error("RL351", f"`{name}` is kept per team: say whose team's", e.span,
                   f"write `{name} of the team of you` (or of another player)")

    def team_var_of(self, e, s) -> None:
        """`NAME of X` for a variable of each team (a read or the place a statement sets): X
        must be `the team of P` (else RL352); the read is a ``VarOf`` whose player is the team's
        number (the compiled game and the reference take one from it)."""
        op = e.operand
        if isinstance(op, A.Of) and op.name == A.TEAM:
            self.expr(op, s)
        else:
            self.expr(op, s)
            self.error("RL352", f"`{e.name}` is kept per team: it is read by a team, not a "
                       "player or a number", op.span,
                       f"write `{e.name} of the team of P`")
        self.refs.set(e, VarOf(e.name))
