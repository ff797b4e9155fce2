"""Statements that change a value the game keeps of its own kind, for
:class:`~rulelang.compile.stmtgen.StatementGen` (a mixin, each with its ``t_<Node>`` method as
there): a set of values changed (``add X to S``, ``remove X from S``, ``remove all from S``) and a
player joining a team (``set the team of P to T``).
"""
from __future__ import annotations

from rulelang.kinds import SET_KINDS, Frame
from rulelang.check.ir import Var, VarOf
from rulelang.engine.teams import join_team


class ValueStatements:
    """The ``t_`` methods of sets of values and teams (StatementGen's ``cg``, ``x``, ``refs``
    and ``e``)."""

    def t_JoinTeam(self, st, w):
        cg = self.cg
        self.x.ns["_jointeam"] = join_team
        w.writeline(f"_jointeam(g, {self.e(st.player)}, {self.x.as_int(st.team, self.e(st.team))}, "
                    f"{int(cg.team_base)}, {int(cg.partner_base)})")
        return True

    def t_SetChange(self, st, w):
        """``add X to S``, ``remove X from S``, ``remove all from S``, ``set S to X``: a set is a
        number, one bit for each value (docs/language.md, "Sets of values"); X a value or a
        whole set (``|``, ``& ~``); a value it cannot hold stops the game (RL330).  The player
        of ``S of p`` is worked out first, then the value."""
        ref = self.refs.of(st.target, None)
        cg = self.cg
        if isinstance(ref, Var):
            base = int(cg.var_base[ref.name])
            place = (f"{self.x.vars}[{base} + {self.x.slot(Frame.slot(ref.you), {})}]"
                     if ref.per_player else f"{self.x.vars}[{base}]")
        elif isinstance(ref, VarOf):
            k = self.x.fresh()
            w.writeline(f"{k} = {int(cg.var_of_base[ref.name])} + {self.e(st.target.operand)}")
            place = f"{self.x.vars}[{k}]"
        else:                            # (the checker reported it)
            w.writeline("pass")
            return True
        if st.op == "clear":
            w.writeline(f"{place} = 0")
        elif cg.types.of(st.item, None) in SET_KINDS:     # a whole set: written, added, taken away
            v = self.x.gen_plain(st.item)
            w.writeline(f"{place} = " + {"set": "{v}", "add": "{p} | {v}",
                                           "remove": "{p} & ~{v}"}[st.op].format(p=place, v=v))
        elif st.op == "set":                               # one value: the set of it alone
            v = self.x.as_int(st.item, self.x.gen_plain(st.item))
            valid = self.x.const(cg.set_holds(ref.name))
            w.writeline(f"{place} = _setch(0, {v}, {valid}, True, {self.x.const(st.span)})")
        else:
            v = self.x.as_int(st.item, self.x.gen_plain(st.item))
            valid = self.x.const(cg.set_holds(ref.name))
            w.writeline(f"{place} = _setch({place}, {v}, {valid}, {st.op == 'add'}, "
                        f"{self.x.const(st.span)})")
        return True
