"""Auctions (docs/language.md, "Auctions"): ``auction of SET ... sets CONTRACT and HOLDER:``
written as the plain statements it stands for, before anything else is checked, so that every
backend (the generated code, its playout fast path, the reference interpreter) plays it as those.

An auction keeps four hidden variables of its own, with names no file can write (they begin
with a space): the passes in a row since the last bid or other call, the calls made, the player
whose call it is, and per player whether a pass has dropped them out.  It is the loop

    set CONTRACT to the pass value (or none), set HOLDER to none
    repeat:
        if the caller is still in the auction:
            choose by the caller: the bid, the pass, the other calls
        stop when an ending holds
        the caller is the next player

where the bid (``bid SET b where C``, or the one the language adds) is offered only above the
contract and sets CONTRACT and HOLDER, the pass counts a pass (and drops the player out when the
auction says so), and any other call starts the count of passes again.  The diagnostics of an
auction's own lines are RL270 to RL276 (rulelang/errors.md).
"""
from __future__ import annotations

import attrs

from rulelang.syntax import ast as A

_HIDDEN = ("passes", "calls", "caller", "out")


def _has_auction(node) -> bool:
    if isinstance(node, A.Auction):
        return True
    if isinstance(node, tuple):
        return any(_has_auction(x) for x in node)
    if attrs.has(type(node)) and not isinstance(node, A.Expr):
        return any(_has_auction(getattr(node, f.name)) for f in attrs.fields(type(node)))
    return False


def _respan(node, span, names):
    """``node`` of a parsed template with every span ``span`` and each placeholder name of
    ``names`` replaced by its hidden name (or, for the user's parts, by their nodes)."""
    if isinstance(node, A.Span):
        return span
    if isinstance(node, tuple):
        return tuple(_respan(x, span, names) for x in node)
    if isinstance(node, A.Name) and node.name in names:
        new = names[node.name]
        return new if not isinstance(new, str) else A.Name(new, span)
    if attrs.has(type(node)):
        changes = {}
        for f in attrs.fields(type(node)):
            v = getattr(node, f.name)
            if isinstance(v, str) and f.name == "name" and v in names and isinstance(names[v], str):
                changes[f.name] = names[v]
            elif isinstance(v, (A.Span, tuple)) or attrs.has(type(v)):
                changes[f.name] = _respan(v, span, names)
        return attrs.evolve(node, **changes)
    return node


class Auctions:
    """Mixed into the checker: :meth:`lower_auctions` rewrites the declarations."""

    def lower_auctions(self, decls):
        if not any(_has_auction(d) for d in decls if isinstance(d, (A.Rule, A.Ending))):
            return decls
        self._auction_sets = {d.name: [n for n, _t, _s in d.values]
                              for d in decls if isinstance(d, A.ValueSet)}
        self._auction_vars = {d.name: d for d in decls if isinstance(d, A.Var)}
        self._auction_hidden: list = []
        out = [self._lower_in(d) if isinstance(d, (A.Rule, A.Ending)) else d for d in decls]
        return out + self._auction_hidden

    def _lower_in(self, node):
        if isinstance(node, tuple):
            if any(isinstance(x, A.Stmt) for x in node):
                out = []
                for st in node:
                    st = self._lower_in(st)
                    out.extend(self._lower(st) if isinstance(st, A.Auction) else (st,))
                return tuple(out)
            return tuple(self._lower_in(x) for x in node)
        if attrs.has(type(node)) and not isinstance(node, A.Expr):
            changes = {f.name: self._lower_in(getattr(node, f.name)) for f in attrs.fields(type(node))
                       if isinstance(getattr(node, f.name), tuple) or
                       isinstance(getattr(node, f.name), (A.Stmt, A.Alternative))}
            return attrs.evolve(node, **changes) if changes else node
        return node

    # -- the auction's own lines
    def _auction_lines(self, st):
        """The auction's clauses, checked: {kind: (value, span)}; None when it cannot be played."""
        ok = True
        values = self._auction_sets.get(st.values)
        if values is None:
            self.error("RL270", f"`{st.values}` is no set of values: an auction is over the "
                       "values of a set, lowest first", st.values_span,
                       "declare them (`values bid: two \"2\", three \"3\", four \"4\"`)")
            ok = False
        contract = self._auction_vars.get(st.contract)
        if values is not None and (contract is None or contract.per_player
                                   or contract.type != st.values):
            self.error("RL275", f"`{st.contract}` is no shared variable of the values `{st.values}`:"
                       " the auction sets it to the highest bid", st.names_span,
                       f"declare it: `var {st.contract}: {st.values} = none`")
            ok = False
        holder = self._auction_vars.get(st.holder)
        if holder is None or holder.per_player or holder.type != "player":
            self.error("RL275", f"`{st.holder}` is no shared variable of a player: the auction "
                       "sets it to the player who made the highest bid", st.names_span,
                       f"declare it: `var {st.holder}: player = none`")
            ok = False
        lines: dict = {}
        for kind, value, span in st.clauses:
            if kind in lines:
                self.error("RL276", "this line is already in the auction", span,
                           "say each thing of an auction once")
                continue
            lines[kind] = (value, span)
            if kind in ("at", "pass_is") and values is not None and value not in values:
                self.error("RL271", f"`{value}` is not a value of `{st.values}`", span,
                           f"the values are {', '.join(values[:6])}"
                           + (" ..." if len(values) > 6 else ""))
                ok = False
            if kind == "after" and isinstance(value, A.Int) and value.value < 1:
                self.error("RL272", f"an auction cannot end after {value.value} passes: it would "
                           "end before anybody called", value.span,
                           "end it after 1 pass or more (`ends after 3 passes`)")
                ok = False
        if not any(k in lines for k in ("after", "round", "all_but_one", "at")):
            self.error("RL273", "this auction never ends: it needs a line that says when",
                       st.span, "add `ends after 3 passes`, `ends after one round`, `ends when "
                       "all but one have passed` or `ends at VALUE`")
            ok = False
        if "all_but_one" in lines and "drops" not in lines:
            self.error("RL274", "`ends when all but one have passed` counts the players a pass has "
                       "dropped out, and a pass here drops nobody out", lines["all_but_one"][1],
                       "add the line `pass drops out`, or end it `after N passes`")
            ok = False
        bids = [a for a in st.alternatives if a.param is not None and a.param.kind == "value"
                and isinstance(a.param.source, A.Name) and a.param.source.name == st.values]
        passes = [a for a in st.alternatives if a.label == "pass" and a.param is None]
        for extra, what in ((bids[1:], "bid"), (passes[1:], "pass")):
            for a in extra:
                self.error("RL276", f"the auction has its {what} already", a.span,
                           "an auction has one bid and one pass; other calls have other labels")
                ok = False
        return (lines, bids[:1], passes[:1]) if ok else None

    # -- the statements it stands for
    def _lower(self, st):
        checked = self._auction_lines(st)
        if checked is None:
            return ()
        body = self._lowered(st, *checked)
        # (the auction as written, the first statement it stands for, how many they are): the
        # rulebook says the auction in place of those statements
        self.auctions_written = getattr(self, "auctions_written", []) + [(st, body[0], len(body))]
        return body

    def _lowered(self, st, lines, bids, passes):
        where = f" auction {st.span.line}:{st.span.column} "
        # the placeholders of the hidden names, unlike every name the file gives the auction
        given = {st.values, st.contract, st.holder} | {str(v) for k, (v, _s) in lines.items()
                                                       if k in ("at", "pass_is")}
        given |= {a.param.name for a in bids}
        P = "h_"
        while any(n.startswith(P) for n in given):
            P = "h" + P
        hidden = {f"{P}{h}_": where + h for h in _HIDDEN}
        drops = "drops" in lines
        for h in _HIDDEN:
            kind = "player" if h == "caller" else None
            init = A.NoneLit(st.span) if h == "caller" else A.Int(0, st.span)
            self._auction_hidden.append(A.Var(where + h, kind, h == "out", init, False, st.span))
        con, hold = st.contract, st.holder
        pass_value = lines.get("pass_is", (None,))[0]
        bid = bids[0] if bids else None
        b = bid.param.name if bid else f"{P}bid_"
        ends = []
        if "after" in lines:
            ends.append(f"({P}passes_ >= {P}after_ and ({hold} is not none or "
                        f"{P}passes_ >= number of players))")
        if "round" in lines:
            ends.append(f"{P}calls_ >= number of players")
        if "all_but_one" in lines:
            ends.append(f"(number of players where {P}out_ of player is 0) <= "
                        f"(1 if {hold} is not none else 0)")
        if drops:                       # everybody has passed and is out
            ends.append(f"(no player where {P}out_ of player is 0)")
        if "at" in lines:
            ends.append(f"({con} is not none and {con} >= {lines['at'][0]})")
        above = f"({con} is none or {b} > {con})" + (f" and {b} is not {pass_value}"
                                                      if pass_value else "")
        text = "\n".join([
            "rule r:",
            f"    set {con} to {pass_value or 'none'}",
            f"    set {hold} to none",
            f"    set {P}passes_ to 0",
            f"    set {P}calls_ to 0",
            f"    set {P}caller_ to {P}start_",
            f"    for each player {P}p_:",
            f"        set {P}out_ of {P}p_ to 0",
            "    repeat:",
            f"        if {P}out_ of {P}caller_ is 0:",
            f"            choose by {P}caller_:",
            f"                bid {st.values} {b} where {above}:",
            f"                    set {con} to {b}",
            f"                    set {hold} to you",
            f"                    set {P}passes_ to 0",
            "                pass:",
            f"                    add 1 to {P}passes_",
            f"                    set {P}out_ of you to 1" if drops else "                    pass",
            f"                {P}other_:",
            f"                    set {P}passes_ to 0",
            f"            add 1 to {P}calls_",
            f"        if {' or '.join(ends)}:",
            "            stop",
            f"        set {P}caller_ to player after {P}caller_",
            ""])
        from rulelang.syntax.parser import parse
        rule = parse(text, st.span.file).decls[0]
        names = dict(hidden, **{f"{P}p_": where + "player", f"{P}bid_": where + "bid"})
        names[f"{P}start_"] = st.start if st.start is not None else A.Keyword("you", st.span)
        if "after" in lines:
            names[f"{P}after_"] = lines["after"][0]
        body = _respan(rule.body, st.span, names)
        loop = body[-1]
        test = loop.body[0]
        choose = test.branches[0][1][0]
        t_bid, t_pass, t_other = choose.alternatives
        alts = [self._join(t_bid, bid, where=True), self._join(t_pass, passes[0] if passes else None)]
        for a in st.alternatives:
            if a is not bid and not (passes and a is passes[0]):
                alts.append(attrs.evolve(a, body=t_other.body + a.body))
        alts = [attrs.evolve(a, call=True) for a in alts]   # (the transcript tells a call as said)
        choose = attrs.evolve(choose, alternatives=tuple(alts))
        test = attrs.evolve(test, branches=((test.branches[0][0], (choose,) + test.branches[0][1][1:]),))
        loop = attrs.evolve(loop, body=(test,) + loop.body[1:])
        return body[:-1] + (loop,)

    @staticmethod
    def _join(made, written, where=False):
        """The alternative the language makes (``made``) with what the file wrote of it."""
        if written is None:
            return made
        changes = dict(label=written.label, display=written.display, condition=written.condition,
                       body=made.body + written.body, span=written.span)
        if where:
            w = made.param.where
            if written.param.where is not None:
                w = A.BoolOp("and", (w, written.param.where), written.param.where.span)
            changes["param"] = attrs.evolve(written.param, where=w)
        return attrs.evolve(made, **changes)
