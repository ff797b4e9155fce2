"""Statements that change a value the game keeps, for
:class:`~rulelang.compile.stmtgen.StatementGen` (a mixin, each with its ``t_<Node>`` method as
there): a variable set, added to or subtracted from (``set``, ``add``, ``subtract``); a set
of values changed (``add X to S``, ``remove X from S``, ``remove all from S``) and a player
joining a team (``set the team of P to T``); and who played each card a move takes
(``who played c``, engine/played.py), which the moves of StatementGen note.
"""
from __future__ import annotations

from rulelang.kinds import SET_KINDS, Frame
from rulelang.check.ir import CurrentPlayer, Local, Var, VarOf, Zone, ZoneOf
from rulelang.compile.fold import computes
from rulelang.compile.gensource import Unsupported
from rulelang.engine.played import moved as played_moved
from rulelang.engine.teams import join_team


class ValueStatements:
    """The ``t_`` methods of sets of values and teams (StatementGen's ``cg``, ``x``, ``refs``
    and ``e``)."""

    def t_Assign(self, cx, st, w):
        t = st.target
        ref = self.refs.of(t, None)
        cg = self.cg
        if isinstance(ref, Local):
            place = self.x.slot(cx, int(ref.index), {})
        elif isinstance(ref, Var):
            base = int(cg.var_base[ref.name])
            place = f"{self.x.vars(cx)}[{base} + {self.x.slot(cx, Frame.slot(ref.you), {})}]" if ref.per_player else f"{self.x.vars(cx)}[{base}]"
        elif isinstance(ref, VarOf):
            operand = self.e(cx, t.operand)
            place = f"{self.x.vars(cx)}[{int(cg.var_of_base[ref.name])} + {operand}]"
            if self.x.fold.chance(t.operand):
                # The player is drawn at random (decided on the tree): the value first, then
                # the player, once (`add 1 to points of random player` reads and sets the
                # points of one player).
                v, k = self.x.fresh(), self.x.fresh()
                w.writeline(f"{v} = {self.x.as_int(st.value, self.x.gen_plain(cx, st.value))}")
                w.writeline(f"{k} = {int(cg.var_of_base[ref.name])} + {operand}")
                if st.op != "set":
                    w.writeline(f"{v} = {self.x.vars(cx)}[{k}] {'+' if st.op == 'add' else '-'} {v}")
                if st.op != "set" or computes(st.value, self.refs):
                    self.bound(v, st, w)
                w.writeline(f"{self.x.vars(cx)}[{k}] = {v}")
                return True
        elif isinstance(ref, CurrentPlayer):
            place = "g.cur"
        elif ref is None:                # (the checker reported it)
            w.pass_()
            return True
        else:
            raise Unsupported(type(ref).__name__)
        v = self.x.as_int(st.value, self.x.gen_plain(cx, st.value))
        checked = st.op != "set" or computes(st.value, self.refs)
        if checked:
            # the number is checked before it is stored: a game stopped by RL910 holds none
            # beyond the bound
            t = self.x.fresh()
            w.writeline(f"{t} = " + (v if st.op == "set" else
                                     f"{place} {'+' if st.op == 'add' else '-'} {v}"))
            self.bound(t, st, w)
            w.writeline(f"{place} = {t}")
        else:
            w.writeline(f"{place} = {v}")
        if isinstance(ref, CurrentPlayer) and ref.moves_you:
            w.writeline(f"fr[{Frame.YOU}] = g.cur")      # in setup, `you` is the current player
        return True

    def playing(self, st) -> bool:
        """Does :meth:`note_played` write something for the cards ``st`` moves: in a game that
        reads `who played c`, unless both zones are shared (the cards keep who played them)?"""
        if self.cg.played_base is None:
            return False
        a, b = self.refs.of(st.source, None), self.refs.of(st.dest, None)
        return not all(isinstance(r, Zone) and not r.per_player for r in (a, b))

    def note_played(self, cx, st, cards, src, dst, w, card=None):
        """Who played the cards (``cards``: code of a tuple or a list; ``card``: the code of
        the one card, when it is one) that ``st`` moves from the zone ``src`` to ``dst``
        (codes of the zones' numbers): engine/played.py."""
        if not self.playing(st):
            return
        base = int(self.cg.played_base)
        owners = self.x.const([info[1] for info in self.cg.zone_info])
        a, b = self.refs.of(st.source, None), self.refs.of(st.dest, None)
        if isinstance(b, ZoneOf) or (isinstance(b, Zone) and b.per_player):
            seat = "-1"                     # into a zone of a player: played by nobody
        elif isinstance(b, Zone) and (isinstance(a, ZoneOf) or (isinstance(a, Zone) and a.per_player)):
            seat = f"{owners}[{src}]"       # from a zone of a player to a shared one: theirs
        else:                               # (zones known only as the game is played)
            self.x.ns["_played"] = played_moved
            w.writeline(f"_played({self.x.vars(cx)}, {base}, {cards}, {owners}[{src}], {owners}[{dst}])")
            return
        if card is not None:
            w.writeline(f"{self.x.vars(cx)}[{base} + {card}] = {seat}")
            return
        c, k = self.x.fresh(), self.x.fresh()
        w.writeline(f"{k} = {seat}")
        w.writeline(f"for {c} in {cards}:")
        with w.indent():
            w.writeline(f"{self.x.vars(cx)}[{base} + {c}] = {k}")

    def t_JoinTeam(self, cx, st, w):
        cg = self.cg
        self.x.ns["_jointeam"] = join_team
        w.writeline(f"_jointeam(g, {self.e(cx, st.player)}, {self.x.as_int(st.team, self.e(cx, st.team))}, "
                    f"{int(cg.team_base)}, {int(cg.partner_base)})")
        return True

    def t_SetChange(self, cx, st, w):
        """``add X to S``, ``remove X from S``, ``remove all from S``, ``set S to X``: a set is a
        number, one bit for each value (docs/language.md, "Sets of values"); X a value or a
        whole set (``|``, ``& ~``); a value it cannot hold stops the game (RL330).  The player
        of ``S of p`` is worked out first, then the value."""
        ref = self.refs.of(st.target, None)
        cg = self.cg
        if isinstance(ref, Var):
            base = int(cg.var_base[ref.name])
            place = (f"{self.x.vars(cx)}[{base} + {self.x.slot(cx, Frame.slot(ref.you), {})}]"
                     if ref.per_player else f"{self.x.vars(cx)}[{base}]")
        elif isinstance(ref, VarOf):
            k = self.x.fresh()
            w.writeline(f"{k} = {int(cg.var_of_base[ref.name])} + {self.e(cx, st.target.operand)}")
            place = f"{self.x.vars(cx)}[{k}]"
        else:                            # (the checker reported it)
            w.writeline("pass")
            return True
        if st.op == "clear":
            w.writeline(f"{place} = 0")
        elif cg.types.of(st.item, None) in SET_KINDS:     # a whole set: written, added, taken away
            v = self.x.gen_plain(cx, st.item)
            w.writeline(f"{place} = " + {"set": "{v}", "add": "{p} | {v}",
                                           "remove": "{p} & ~{v}"}[st.op].format(p=place, v=v))
        elif st.op == "set":                               # one value: the set of it alone
            v = self.x.as_int(st.item, self.x.gen_plain(cx, st.item))
            valid = self.x.const(cg.set_holds(ref.name))
            w.writeline(f"{place} = _setch(0, {v}, {valid}, True, {self.x.const(st.span)})")
        else:
            v = self.x.as_int(st.item, self.x.gen_plain(cx, st.item))
            valid = self.x.const(cg.set_holds(ref.name))
            w.writeline(f"{place} = _setch({place}, {v}, {valid}, {st.op == 'add'}, "
                        f"{self.x.const(st.span)})")
        return True
