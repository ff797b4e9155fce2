"""The statements of the language in English, for the rulebook (``rulelang rulebook``): each
statement class ``X`` of :mod:`rulelang.syntax.ast` has its method ``stmt_X``, which gives the list
items that say it (a block's statements are the items under it).  Nothing here names a game.
"""
from __future__ import annotations

import attrs

from rulelang.cli.rulebook_words import ExprWords, Item, _cap, _join, _subject
from rulelang.engine.display_names import humanize
from rulelang.syntax import ast as A


class Words(ExprWords):
    """Expressions and statements of one model in English."""

    # ---- statements -------------------------------------------------------------------------
    def body(self, stmts, where: str = "") -> tuple:
        """Items for a block of statements."""
        out = []
        # an auction is in the rules as the statements it stands for (check/auctions.py): it is
        # said as written, in place of them
        written = {id(first): (a, n) for a, first, n in self.m.auctions}
        skip = 0
        for st in stmts:
            if skip:
                skip -= 1
                continue
            if id(st) in written:
                st, n = written[id(st)]
                skip = n - 1
            out.extend(self.stmt(st, where))
        return tuple(out)

    def stmt(self, st, where: str = "") -> list:
        f = getattr(self, "stmt_" + type(st).__name__, None)
        if f is None:
            return [Item(humanize(type(st).__name__) + ".")]
        r = f(st, where)
        return r if isinstance(r, list) else [r]

    def stmt_Shuffle(self, st, where):
        return Item(f"Shuffle {self.expr(st.zone)}.")

    def stmt_Deal(self, st, where):
        src = self.expr(st.source)
        start = self.expr(st.start) if st.start is not None else "the current player"
        zone = self.zone_name(st.zone)
        if st.count is None:
            return Item(f"Deal all the cards of {src} to the {zone} of each player still in the "
                        f"game, one card at a time from the top, round the table in the direction "
                        f"of play starting with {start}, until {src} is empty (so the first "
                        f"players may get one card more).")
        one = isinstance(st.count, A.Int) and st.count.value == 1
        count = self.expr(st.count)
        return Item(f"Deal {count} {'card' if one else 'cards'} from {src} to the {zone} of each "
                    f"player still in the game: one card at a time from the top, round the table "
                    f"in the direction of play starting with {start}, "
                    f"{'once round' if one else count + ' times round'} "
                    f"(a player who is out gets none; when {src} runs out, the deal stops).")

    def selection(self, sel, src) -> str:
        k = sel.kind
        x = self.expr(sel.expr) if sel.expr is not None else ""
        if k == "top":
            return f"the top card of {src}"
        if k == "bottom":
            return f"the bottom card of {src}"
        if k == "random":
            return f"a card of {src} chosen at random"
        if k == "all":
            return f"all the cards of {src}"
        if k == "all_but_top":
            return f"all the cards of {src} but its top card"
        if k == "where":
            return f"all the cards (each called card) of {src} for which {self.cond(sel.expr)}"
        if k == "count":
            return f"{x} cards from the top of {src}"
        if k == "card":
            return f"{x} from {src}"
        if k == "count_where":
            return (f"exactly {x} cards (each called card) of {src} for which "
                    f"{self.cond(sel.condition)}, the topmost first (when there are fewer, the "
                    f"game stops with an error)")
        if k == "upto_where":
            return (f"up to {x} cards (each called card) of {src} for which "
                    f"{self.cond(sel.condition)}, the topmost first (as many as there are, at "
                    f"most {x})")
        if k == "and_above":
            return f"{x} and every card on top of it in {src}, together"
        if k in ("top_n", "bottom_n"):
            end = "top" if k == "top_n" else "bottom"
            return f"the {end} {x} cards of {src} (all of them if it has fewer)"
        return f"{humanize(k)} {x} of {src}"

    def stmt_Move(self, st, where):
        src = self.expr(st.source)
        what = self.selection(st.selection, src)
        dest = self.expr(st.dest)
        s = f"Move {what} " + (f"to the bottom of {dest}" if st.to_bottom else f"onto {dest}")
        if st.beside is not None:
            s = (f"Move {what} into {dest}, directly {'under' if st.place == 'under' else 'on top of'}"
                 f" {self.expr(st.beside)} (if that card is not there, the game stops with an "
                 "error)")
        k = st.selection.kind
        if st.turned_over:
            s += ", turned over"
        if k in ("count", "count_where", "upto_where"):
            s += (" (turned over: they arrive in the order they had)" if st.turned_over else
                  " (one at a time: each card taken goes on top of the one before, so their "
                  "order is reversed)")
        elif k in ("all", "all_but_top", "where", "and_above", "top_n", "bottom_n"):
            s += (" (lifted together and turned over: their order is reversed)" if st.turned_over
                  else " (lifted together: they keep their order)")
        if k == "card":
            s += f" (if it is not in {src}, the game stops with an error)"
        return Item(s + ".")

    def stmt_Assign(self, st, where):
        t = st.target
        if isinstance(t, A.Keyword) and t.word == "current player":
            return Item(_cap(_subject(self.expr(st.value), "becomes")) + " the current player"
                        + (" (and so “you” for the rest of the setup)" if where == "setup" else "")
                        + ".")
        tv, v = self.expr(t), self.expr(st.value)
        if st.op == "set":
            return Item(f"Set {tv} to {v}.")
        if st.op == "add":
            return Item(f"Add {v} to {tv}.")
        return Item(f"Subtract {v} from {tv}.")

    def stmt_SetChange(self, st, where):
        tv = self.expr(st.target)
        if st.op == "clear":
            return Item(f"Empty {tv} (it holds nothing now).")
        v = self.expr(st.item)
        if str(self.m.types.of(st.item, "")).startswith("set of ") and st.op != "set":
            if st.op == "add":      # a whole set (docs/language.md, "Writing and combining sets")
                return Item(f"Add each of {v} to {tv} (those there already stay, once).")
            return Item(f"Take each of {v} out of {tv} (those not there stay out).")
        if st.op == "add":
            return Item(f"Add {v} to {tv} (if it is there already, nothing changes).")
        if st.op == "remove":
            return Item(f"Take {v} out of {tv} (if it is not there, nothing changes).")
        return Item(f"Change {tv} to {v}.")

    def stmt_Let(self, st, where):
        if st.name == A.RESULT:
            return Item(f"The result is {self.expr(st.value)}.")
        return Item(f"Let {humanize(st.name)} be {self.expr(st.value)}.")

    def stmt_Simple(self, st, where):
        w = st.word
        if w == "stop":
            return Item("Stop the loop this is in (go on after it).")
        if w == "return":
            if where == "turn":
                return Item("The turn ends here.")
            if where == "setup":
                return Item("The setup ends here.")
            return Item("Stop this rule here (go back to where it was used).")
        if w == "pass":
            return Item("Nothing happens.")
        if w == "end turn":
            return Item("The turn ends at once.")
        if w == "skip":
            return Item("The next player in turn order loses their next turn (is skipped).")
        if w == "reverse":
            return Item("The direction of play reverses.")
        return Item(humanize(w) + ".")

    def stmt_EndGame(self, st, where):
        k = st.kind
        if getattr(self.m, "teams", None) is not None and k in ("winner", "loser", "highest",
                                                                 "lowest"):
            return self.team_end(st)
        if k == "winner":
            return Item(f"The game ends: {_subject(self.expr(st.player), 'wins')}; every other "
                        "player loses.")
        if k == "loser":
            return Item(f"The game ends: {_subject(self.expr(st.player), 'loses')}; every other "
                        "player wins.")
        if k == "draw":
            return Item("The game ends with no winner: a draw for every player.")
        if k in ("highest", "lowest"):
            return Item(f"The game ends: the player with the {k} score wins (every player who "
                        f"ties for the {k} score wins); every other player loses.")
        if k == "where":
            w = self.cond(st.winners) if st.winners is not None else "no"
            s = (f"The game ends: each player (in or out; call them player) for whom {w} wins; ")
            if st.losers is not None:
                s += (f"of the others, each one for whom {self.cond(st.losers)} loses, and the "
                      "rest draw.")
            else:
                s += "every other player loses."
            return Item(s)
        return Item(f"The game ends ({humanize(k)}).")

    def team_end(self, st):
        """An ending in a game with teams: the team wins or loses together."""
        k = st.kind
        if k in ("winner", "loser"):
            verb, other = ("wins", "loses") if k == "winner" else ("loses", "wins")
            return Item(f"The game ends: {self.of_player('team', st.player)} {verb}; every other "
                        f"team {other}.")
        return Item(f"The game ends: the team with the {k} score (the total of its players' "
                    f"scores) wins (every team that ties for it wins); every other team loses.")

    def stmt_JoinTeam(self, st, where):
        team = self.expr(st.team)
        if not (isinstance(st.team, A.Of) and st.team.name == A.TEAM):
            team = "team " + team
        return Item(f"{_cap(self.expr(st.player))} leaves their team and joins {team} "
                    f"(partners are worked out again).")

    def stmt_NextTurn(self, st, where):
        return Item(f"The next turn goes to {self.expr(st.player)} (when they are out of the game, "
                    f"to the first player still in after them).")

    def call_words(self, name, args, for_player=None) -> str:
        rule = self.m.rules.get(name)
        params = [p[0] if isinstance(p, tuple) else str(p) for p in
                  (rule.decl.params if rule is not None else ())]
        s = f"“{self.rule_name(name)}”"
        if args:
            params = [humanize(p) for p in params]
            pairs = [(p if self.expr(a) == p else f"{p} = {self.expr(a)}")
                     for p, a in zip(params, args)] or \
                [self.expr(a) for a in args]
            s += " with " + _join(pairs)
        if for_player is not None:
            s += f", played as {self.expr(for_player)} (who is “you” in it)"
        return s

    def stmt_CallRule(self, st, where):
        return Item(f"Do {self.call_words(st.name, st.args, st.for_player)} (see Rules used "
                    f"below).")

    def say_parts(self, parts) -> str:
        out = []
        for p in parts:
            if isinstance(p, str):
                out.append(f"“{p}”")
            else:
                out.append(self.expr(p))
        return ", ".join(out)

    def stmt_Say(self, st, where):
        return Item(f"Announce: {self.say_parts(st.parts)}.")

    def stmt_Reveal(self, st, where):
        return Item(f"Reveal {self.expr(st.card)} to every player.")

    def stmt_Show(self, st, where):
        return Item(f"Show {self.expr(st.card)} to {self.expr(st.player)} alone (they remember it "
                    "while it stays in the zone it is in).")

    def stmt_Leave(self, st, where):
        return Item(f"{_cap(_subject(self.expr(st.player), 'leaves'))} the game (turn order, dealing and "
                    "“each player” pass over them from now on).")

    def stmt_If(self, st, where):
        items = []
        for i, (c, body) in enumerate(st.branches):
            head = ("If " if i == 0 else "Otherwise, if ") + self.cond(c) + ":"
            items.append(Item(head, children=self.body(body, where)))
        if st.otherwise is not None:
            items.append(Item("Otherwise:", children=self.body(st.otherwise, where)))
        return items

    def stmt_Loop(self, st, where):
        body = self.body(st.body, where)
        if st.kind == "while":
            head = f"Repeat the following as long as {self.cond(st.expr)} (checked before each time):"
        elif st.kind == "until":
            head = (f"Repeat the following until {self.cond(st.expr)} (checked before each time; "
                    "when it already holds, nothing is done):")
        elif st.kind == "times":
            head = f"Repeat the following {self.expr(st.expr)} times:"
        else:
            head = "Repeat the following again and again until a “stop” leaves it:"
        return Item(head, children=body)

    def stmt_ForPlayer(self, st, where):
        start = self.expr(st.start) if st.start is not None else "the current player"
        return Item(f"For each player still in the game (call them {humanize(st.name)}), once each, in the "
                    f"order of play starting with {start}:", children=self.body(st.body, where))

    def stmt_ForCard(self, st, where):
        return Item(f"For each card (call it {humanize(st.name)}) that is in {self.expr(st.zone)} when this "
                    f"begins, from the bottom card up:", children=self.body(st.body, where))

    def stmt_ForValue(self, st, where):
        if st.kind not in ("suit", "rank"):
            head = (f"For each of the values {humanize(st.kind)} (call it {humanize(st.name)}), "
                    "from the lowest up:")
        elif st.kind == "suit":
            head = f"For each suit of the deck (call it {humanize(st.name)}), in the deck's order:"
        else:
            head = (f"For each rank of the deck (call it {humanize(st.name)}), from the lowest up (the ranks "
                    "listed under The cards):")
        return Item(head, children=self.body(st.body, where))

    def set_param(self, p) -> str:
        """``a set of N to M cards s ... from Z to D``: the set in words, and what is offered."""
        low = self.expr(p.fewest)
        if p.most is None:
            count = f"{low} or more cards"
        elif p.most == p.fewest:
            count = f"{low} {'card' if low == '1' else 'cards'}"
        else:
            count = f"{low} to {self.expr(p.most)} cards"
        shape = {"rank": ", all of one rank", "suit": ", all of one suit",
                 "run": ", a run (one suit, ranks that follow each other in the deck's order, "
                        "without going round)"}.get(p.shape, "")
        where = f", each a card for which {self.cond(p.where)} (call it {humanize(p.name)})" \
            if p.where is not None else ""
        attr = humanize(p.total_attr) if p.total_attr else ""
        total = ""
        if p.total_mode == "groups":
            total = (f", that can be split into groups (no card in two) whose {attr} adds up "
                     f"to {self.expr(p.total)} in each group")
        elif p.total_mode is not None:
            how = {"is": "is", "most": "is at most", "least": "is at least"}[p.total_mode]
            total = f", whose {attr} added up {how} {self.expr(p.total)}"
        return (f"a set of {count} of {self.expr(p.source)}{shape}{where}{total}, chosen as a "
                f"whole (every such set is one choice, fewest cards first), then moved together "
                f"onto {self.expr(p.dest)}; {humanize(p.name)} is the first card of the set")

    def param(self, p) -> str:
        if isinstance(p, A.CardsParam):
            same = f" all of one {p.same}" if p.same else ""
            where = f" for which {self.cond(p.where)}" if p.where is not None else ""
            n = self.expr(p.count)
            return (f"{n}{' or more' if p.or_more else ''} cards{same} (each called {humanize(p.name)}) of "
                    f"{self.expr(p.source)}{where}, picked one at a time (a chooser who may take "
                    f"more says when they are done), then moved together onto "
                    f"{self.expr(p.dest)}")
        if isinstance(p, A.SetParam):
            return self.set_param(p)
        where = f" for which {self.cond(p.where)}" if p.where is not None else ""
        if p.kind == "player":
            where = where.replace(" for which ", " for whom ", 1)
        if p.kind == "card":
            return f"a card (call it {humanize(p.name)}) from {self.expr(p.source)}{where}"
        if p.kind == "unseen":
            return (f"a place in {self.expr(p.source)} (counted from the bottom; the chooser does "
                    f"not see the card), and {humanize(p.name)} is the card at that place{where}")
        if p.kind == "player":
            src = self.expr(p.source) if p.source is not None else "the players"
            if isinstance(p.source, A.Keyword) and p.source.word == "players":
                src = "all the players still in the game (you too)"
            elif isinstance(p.source, A.Keyword) and p.source.word == "opponents":
                src = "your opponents still in the game"
            return f"a player (call them {humanize(p.name)}) from {src}{where}"
        if p.kind == "suit":
            return f"a suit of the deck (call it {humanize(p.name)}){where}"
        if p.kind == "rank":
            return f"a rank of the deck (call it {humanize(p.name)}){where}"
        if p.kind == "value":
            return f"one of the {humanize(p.source.name)} values (call it {humanize(p.name)}){where}"
        if p.kind == "number":
            return (f"a whole number (call it {humanize(p.name)}) from {self.expr(p.source)} to "
                    f"{self.expr(p.high)}{where}")
        return f"{p.kind} {humanize(p.name)}{where}"

    def alt_label(self, alt) -> str:
        text = alt.display or humanize(alt.label)
        if alt.param is not None and alt.param.name:
            text = text.replace("{" + alt.param.name + "}", alt.param.name)
        return text

    def alternative(self, alt, where) -> Item:
        parts = []
        if alt.param is not None:
            parts.append("with " + self.param(alt.param))
        if alt.condition is not None:
            parts.append(f"allowed only if {self.cond(alt.condition)}")
        head = ("; ".join(parts) + ". Then:") if parts else ""
        body = self.body(alt.body, where)
        if len(alt.body) == 1 and isinstance(alt.body[0], A.Simple) and alt.body[0].word == "pass":
            head = ("; ".join(parts) + ". " if parts else "") + "Nothing more happens."
            body = ()
        return Item(head, label=self.alt_label(alt), children=body)

    def stmt_Choose(self, st, where):
        alts = st.alternatives
        if st.claim:
            who = self.expr(st.by[0]) if st.by else "any opponent"
            start = self.expr(st.claim_from) if st.claim_from is not None else "the player after you"
            head = (f"A claim: {who} may claim, each deciding in secret at the same time; of those "
                    f"who claim, only the first in the order of play starting from {start} acts "
                    f"(inside, “you” is that player). The choices:")
            return Item(head, children=tuple(self.alternative(a, where) for a in alts))
        if st.simultaneous:
            who = _join([self.expr(b) for b in st.by])
            head = (f"{_cap(who)} each choose one of the following, in secret and at the same time; "
                    "nothing is shown until all have chosen, then each choice happens, in the order "
                    "the players are named (inside, “you” is the player whose choice it is):")
        else:
            if st.by:
                who = self.expr(st.by[0])
                head = (f"{_cap(_subject(who, 'chooses'))} one of the following (inside, “you” "
                        f"is {who}); only the choices whose conditions hold may be chosen:")
            else:
                head = ("You choose one of the following; only the choices whose conditions "
                        "hold may be chosen:")
        return Item(head, children=tuple(self.alternative(a, where) for a in alts))


    def stmt_Auction(self, st, where):
        """An auction (check/auctions.py writes it as the loop it stands for)."""
        lines = {kind: value for kind, value, _span in st.clauses}
        start = self.expr(st.start) if st.start is not None else "you"
        values = humanize(st.values)
        contract, holder = self.var_name(st.contract), self.var_name(st.holder)
        value = lambda name: self.m.value_texts.get(name, humanize(name))
        bid = next((a for a in st.alternatives if a.param is not None and a.param.kind == "value"
                    and getattr(a.param.source, "name", None) == st.values), None)
        passing = next((a for a in st.alternatives if a.label == "pass" and a.param is None), None)
        others = [a for a in st.alternatives if a is not bid and a is not passing]
        start_as = value(lines["pass_is"]) if "pass_is" in lines else "none"
        head = (f"An auction over the {values} values: {contract} becomes {start_as} and "
                f"{holder} nobody; then, round the table in the order of play starting with "
                f"{start}, each player "
                + ("who has not passed " if "drops" in lines else "")
                + "in turn makes one call:")
        bid_text = (f"a {values} value higher than {contract} (any, while nobody has bid"
                    + (f"; never {value(lines['pass_is'])}" if "pass_is" in lines else "") + ")")
        if bid is not None and bid.param.where is not None:
            bid_text += f" for which {self.cond(bid.param.where)}"
        if bid is not None and bid.condition is not None:
            bid_text += f", allowed only if {self.cond(bid.condition)}"
        calls = [Item(f"with {bid_text}: {contract} becomes that value and {holder} the bidder; "
                      "the count of passes starts again.", label=self.alt_label(bid) if bid else "bid",
                      children=self.body(bid.body, where) if bid else ())]
        pass_text = "The player passes" + (
            " and is out of the auction" if "drops" in lines else "" if "round" in lines else
            " (and may call again when their turn comes round)") + "."
        if passing is not None and passing.condition is not None:
            pass_text = f"Allowed only if {self.cond(passing.condition)}. " + pass_text
        said = passing.body if passing else ()
        if len(said) == 1 and isinstance(said[0], A.Simple) and said[0].word == "pass":
            said = ()
        calls.append(Item(pass_text, label=self.alt_label(passing) if passing else "pass",
                          children=self.body(said, where)))
        for a in others:
            alt = self.alternative(a, where)
            again = "The count of passes starts again."
            text = (alt.text.replace("Then:", again + " Then:") if "Then:" in alt.text
                    else (alt.text + " " + again).strip())
            calls.append(attrs.evolve(alt, text=text))
        ends = []
        if "after" in lines:
            n = self.expr(lines["after"])
            ends.append(f"when {n} passes in a row follow a bid (or, if nobody has bid, when "
                        "every player has passed)")
        if "round" in lines:
            ends.append("when every player has made one call")
        if "all_but_one" in lines:
            ends.append("when all players but one have passed (or all have, and nobody bid)")
        if "at" in lines:
            ends.append(f"at once when {contract} is {value(lines['at'])}")
        tail = Item(f"The auction ends {_join(ends, 'or')}. Then {contract} is the highest bid "
                    f"and {holder} the player who made it ({holder} is nobody if nobody bid).")
        return [Item(head, children=tuple(calls)), tail]
