"""A rule file as a rulebook a person can read and play from (``rulelang rulebook``).

:func:`build` turns a checked model into a :class:`Rulebook` (sections of paragraphs, lists and
tables, in plain English); :func:`to_markdown` and :func:`to_html` write it out.  Everything is
said in the rule file's own words: its display names (``zone stock "Draw Pile"``), its labels
and ``say`` texts, and its identifiers with the underscores read as spaces; nothing here is
written for one game.  Every statement and expression of the language has its sentence
(:mod:`rulelang.cli.rulebook_words`, :mod:`rulelang.cli.rulebook_stmt`), so
the rulebook holds every condition, effect, ending and scoring rule of the file.

Everything here returns values; only the command (:mod:`rulelang.cli.rulebook_cmd`) prints.  The
texts of a rule file are untrusted: :func:`to_html` escapes them for HTML and both writers pass
them through :func:`rulelang.termsafe.safe`.
"""
from __future__ import annotations

import html
import re

import attrs

from rulelang.check import ir
from rulelang.cli.rulebook_stmt import Words as _Words
from rulelang.cli.rulebook_words import Item, Rulebook, Section, Table, _join
from rulelang.engine.display_names import Words as PeopleWords
from rulelang.engine.display_names import humanize, title  # noqa: F401  (title: for the tests)
from rulelang.limits import ACTION_SHIFT
from rulelang.kinds import SET_KINDS, Kind
from rulelang.syntax import ast as A
from rulelang.termsafe import safe


# ---------------------------------------------------------------------------------------------
# The rulebook
# ---------------------------------------------------------------------------------------------

_VISIBILITY = {"everyone": "face up: every player sees all its cards",
               "nobody": "face down: nobody sees its cards",
               "top": "top card face up: every player sees its top card, nobody the cards under it",
               "bottom": "bottom card face up: every player sees its bottom card, nobody the "
                         "cards above it",
               "owner": "seen by its owner only"}


def _option_value(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, str):
        return humanize(v)
    return str(v)


# How a choice with a value is said, by the kind of its value (``A.Param.kind``), and the value of
# the example shown (a card's number in the deck, a place counted from 0, a number).
_VALUE_WORDS = {"card": ("a card as the table writes it", 0),
                "player": ("a player as “Player 2”", None),
                "suit": ("a suit by its name", None),
                "rank": ("a rank by its name", None),
                "unseen": ("a place in a pile by its number, #1 for the bottom card", 2),
                "set": ("a set of cards by its cards as the table writes them, in the deck's order", None),
                "number": ("a number as it is", 3)}


def _choice_words(m, cg) -> str:
    """The sentence saying how the choices that take a value are said (as the table, ``play``
    and the game's log say them to people), for the kinds of value this game's choices take;
    empty when none takes one.  ``cg`` (optional): the compiled game, for the examples, said by
    the same words as ``play`` (:class:`rulelang.engine.display_names.Words`)."""
    examples: dict = {}
    for aid, (decl, _choose) in enumerate(m.alternatives):
        if decl.param is not None and decl.param.kind in _VALUE_WORDS:
            examples.setdefault(decl.param.kind, aid)
    people = PeopleWords(cg) if cg is not None else None
    ways = []
    for kind, (words, value) in _VALUE_WORDS.items():
        if kind not in examples:
            continue
        if people is not None and value is not None and (kind != "card" or cg.card_names):
            words += " (“" + people.action((examples[kind] << ACTION_SHIFT) | value) + "”)"
        ways.append(words)
    if not ways:
        return ""
    return (" A choice that takes a value is said with the value after its words (or in their "
            "place, where the words name the value): " + _join(ways) + ".")


def build(model, decls, cg=None, base=None) -> Rulebook:
    """The rulebook of a checked model.  ``decls``: the merged declarations (``Game.decls``), for
    the defines; ``cg``: the game compiled for a number of players, for the deck's cards as
    they are dealt (optional); ``base``: for a variant, ``(base model name, the variant's own
    declarations)``."""
    w = _Words(model, decls)
    m = model
    sections = []

    # What this game is, and its variant's differences.
    lo, hi = m.players
    players = f"{lo}" if lo == hi else f"{lo} to {hi}"
    intro = [f"{safe(m.name)} is a card game for {players} players."]
    if base is not None:
        sections.append(Section("How this variant differs", _variant(w, base)))

    # Object.
    obj = []
    for ending, _ctx, _n in m.endings:
        obj.append(Item(f"The game ends when {w.cond(ending.condition)} (for any player: "
                        "“you” is that player).", children=w.body(ending.body, "ending")))
    obj.extend(_during(w, m))
    sections.append(Section("Object of the game", tuple(intro) + (
        "The game ends, and is won or lost, as follows (the details are under How the game "
        "ends):",
        tuple(obj)) if obj else tuple(intro)))

    # Players.
    sections.append(Section("Players", (
        f"{players} players. The seats are numbered Player 1, Player 2 and so on; the order of "
        "play goes from each player to the next one in that order (after the last comes Player "
        "1) unless the direction of play is reversed. “The player after P” is the next one in "
        "the direction of play, “the player before P” the one before. A player who has left the "
        "game is passed over by the turn order, by dealing, by “each player”, by “the player "
        "after P” and “the player before P” (the next or the one before still in the game) and "
        "by the players a choice offers.",
        "Words used in the rules: “you” is the player whose turn it is (in a choice, the "
        "player choosing; in a rule done for a player, that player). The current player is the "
        "player whose turn it is. “Your Hand” is the Hand of that player. Every pile has a top "
        "(the card put on it last) and a bottom. “None” means no card, no player or no suit. "
        "Numbers are whole numbers. When the rules ask a player to choose and none of the choices is "
        "allowed, the game stops with an error (well-made rules never let that happen)."
        + _choice_words(m, cg),
    )))

    if getattr(m, "teams", None) is not None:
        sections.append(Section("Teams", _teams(m)))
    sections.append(Section("The cards", _cards(w, m, cg)))
    sections.append(Section("Where the cards lie", _zones(w, m)))
    if m.value_sets:
        sections.append(Section("Named values", _value_sets(m)))
    if any(name not in (A.TEAM, A.PARTNER) for name in m.vars):
        sections.append(Section("What is kept track of", _vars(w, m)))
    if m.options:
        sections.append(Section("Options", _options(w, m)))

    # Setup and turn.
    setup = m.rules.get("setup")
    sections.append(Section("Setup", (
        "The cards start where The cards says. The current player is Player 1 unless the setup "
        "says otherwise. Then:",
        w.body(setup.decl.body, "setup") if setup is not None else (Item("Nothing more."),))))
    turn = m.rules.get("turn")
    if turn is not None:
        sections.append(Section("A turn", (
            "The current player (“you”) does the following. When it is done (or the turn ends "
            "early), play passes to the next player in the direction of play, passing over a "
            "player who is skipped (they lose that turn) or out of the game, unless the rules said "
            "whom the next turn goes to.",
            w.body(turn.decl.body, "turn"))))
    others = [name for name in m.rules if name not in ("setup", "turn")]
    if others:
        blocks = ["Rules done from other rules (“Do ...”). A rule with values (with x = ...) "
                  "uses them under those names; “you” stays the player of the rule that does it, "
                  "unless it is done as (played as) another player."]
        for name in others:
            r = m.rules[name]
            params = [p[0] if isinstance(p, tuple) else str(p) for p in r.decl.params]
            head = f"“{w.rule_name(name)}”" + (f" (with {_join([humanize(p) for p in params])})"
                                               if params else "")
            blocks.append(Section(head, (w.body(r.decl.body, name),), 3))
        sections.append(Section("Rules used", tuple(blocks)))

    # Endings and score.
    sections.append(Section("How the game ends", _endings(w, m)))
    if m.score is not None:
        sections.append(Section("Scoring", (
            f"A player's score (“you” is the player scored) is {w.expr(m.score.expr)}.",
            "The scores are worked out whenever they are needed, from the cards and values of "
            "that moment; nothing is added up between games.")))
    if getattr(m, "progress", None) is not None:
        sections.append(Section("Who is ahead", (
            f"During the game, how far a player (“you”) has got is {w.expr(m.progress.expr)}; "
            "the player with the most is ahead. It only tells who is ahead: it decides "
            "nothing in the game.",)))
    if getattr(m, "returns", None) is not None:
        sections.append(Section("What a computer player plays for", (
            f"At the end of the game, what each player (“you”) gets is {w.expr(m.returns.expr)}: "
            "a computer player that searches or learns tries to make this as large as it can, "
            "not only to win. It decides nothing in the game.",)))

    # Terms: the defines used, and the ones they use.
    done = set()
    terms = []
    i = 0
    while i < len(w.used_defines):
        name = w.used_defines[i]
        i += 1
        if name in done or name not in w.defines:
            continue
        done.add(name)
        d = w.defines[name]
        params = [p[0] if isinstance(p, tuple) else str(p) for p in d.params]
        head = w.define_name(name) + (f"({', '.join(humanize(p) for p in params)})"
                                      if params else "")
        terms.append((head, w.define_body(d)))
    if terms:
        sections.append(Section("Terms used in the rules", (
            "Each term is worked out from the cards and values of the moment it is used "
            "(“you” is the player of the rule that uses it):",
            tuple(Item(body, label=head) for head, body in terms))))
    special = _special_cards(w, m, decls)
    if special:
        sections.append(Section("Special cards", special))
    ordered = _order(sections)
    return Rulebook(safe(m.name), tuple(ordered))


def _order(sections):
    """Terms at the end, but before the special cards' index."""
    return sections


def _endgames(m):
    """``(rule name, conditions on the way, statement)`` of every ``end game`` in the rules: the
    conditions are ``(expression, holds)`` pairs (an ``else`` is the earlier ones not holding)
    and ``("choice", label)`` for an alternative of a choice."""
    out = []

    def walk(body, name, path):
        for st in body:
            if isinstance(st, A.EndGame):
                out.append((name, tuple(path), st))
            elif isinstance(st, A.If):
                before = []
                for c, b in st.branches:
                    walk(b, name, path + before + [(c, True)])
                    before.append((c, False))
                if st.otherwise is not None:
                    walk(st.otherwise, name, path + before)
            elif isinstance(st, A.Choose):
                for alt in st.alternatives:
                    walk(alt.body, name, path + [("choice", alt)])
            elif isinstance(getattr(st, "body", None), tuple):
                walk(st.body, name, path)
    for name, r in m.rules.items():
        walk(r.decl.body, name, [])
    return out


def _path_words(w, path) -> str:
    parts = []
    for c, holds in path:
        if isinstance(c, str):
            parts.append(f"the choice “{w.alt_label(holds)}” is made")
        elif holds:
            parts.append(w.cond(c))
        else:
            parts.append(w.negated(c))
    return _join(parts)


def _during(w, m) -> list:
    items = []
    for name, path, st in _endgames(m):
        when = _path_words(w, path)
        head = f"In “{w.rule_name(name)}”" + (f", when {when}" if when else "")
        text = w.stmt(st, name)[0].text
        items.append(Item(head + ": " + text[:1].lower() + text[1:]))
    return items


def _cards(w, m, cg) -> tuple:
    blocks = []
    used = []
    for d in m.decks or ((m.deck,) if m.deck is not None else ()):
        if d.name not in used:
            used.append(d.name)
    for tname in used:
        dt = m.deck_types.get(tname)
        if dt is None:
            continue
        rows = []
        if dt.suits:
            suits = [w.suit_name(s.name) + (f" ({s.symbol})" if s.symbol else "") for s in dt.suits]
            ranks = [_rank_words(w, r) for r in dt.ranks]
            rows.append(Item(f"Suits: {_join(suits)}."))
            rows.append(Item(f"Ranks in each of these suits, lowest first (rank number in "
                             f"brackets): {_join(ranks)}."))
        for s, ranks in dt.own_suits:
            rows.append(Item(f"The suit {w.suit_name(s.name)}"
                             + (f" ({s.symbol})" if s.symbol else "")
                             + f" has its own ranks: {_join([_rank_words(w, r) for r in ranks])}."))
        for group, cards, rank in dt.extras:
            names = [w.card_name(n) for n, _sp in cards]
            rows.append(Item(f"Extra cards (the group “{humanize(group)}”, in the game only when "
                             f"a deck is taken with its {humanize(group)}): {_join(names)}, each "
                             f"of rank {_rank_words(w, rank)} and of no suit."))
        for c in dt.copies:
            def nm(x):
                return w.rank_name(x) if x in m.ranks else w.card_name(x)
            what = _join([nm(a) + (f" to {nm(b)}" if b else "") for a, b, _sp in c.parts])
            ins = f" in {_join([w.suit_name(s) for s, _sp in c.in_suits])}" if c.in_suits else ""
            rows.append(Item(f"Each card of {what}{ins} comes {c.count} times in one deck."))
        if dt.shown_as:
            rows.append(Item(f"Cards are written “{dt.shown_as}”, with the card's suit and rank "
                             "in place of {suit} and {rank}."))
        blocks.append(Section(f"The deck type “{humanize(tname)}”", (tuple(rows),), 3))
    decks = []
    for d in m.decks or ((m.deck,) if m.deck is not None else ()):
        s = f"A {humanize(d.name)} deck"
        if d.with_group:
            s += f" with its {humanize(d.with_group)}"
            if d.with_condition is not None:
                s += f" when {w.cond(d.with_condition)}"
        if d.copies is not None:
            s += f"; {w.expr(d.copies)} copies of it"
        if d.per_player_into:
            s += f"; one for each player, into that player's {w.zone_name(d.per_player_into)}"
        elif d.into is not None:
            s += f"; all its cards start in {w.expr(d.into)}"
        decks.append(Item(s + "."))
    if decks:
        blocks.insert(0, "The game is played with:")
        blocks.insert(1, tuple(decks))
    if cg is not None:
        counts: dict = {}
        for name in cg.card_names[:len(cg.cards)]:
            counts[name] = counts.get(name, 0) + 1
        ncards = len(cg.cards)
        dup = sorted({k for k in counts.values() if k > 1})
        line = (f"With the options as they are and {cg.n} players, that is {ncards} cards"
                + (f" (some cards come {_join([str(k) for k in dup], 'or')} times)" if dup else "")
                + ".")
        blocks.append(line)
        names = [w.card_name(n) + (f" ({counts[n]} times)" if counts[n] > 1 else "")
                 for n in counts]
        blocks.append("The cards, as the rules and the table write them: " + ", ".join(names)
                      + ".")
        if cg.rank_cycle:
            names = [_rank_of_number(w, m, r) for r in cg.rank_cycle]
            blocks.append(f"The ranks go round: the rank after {names[-1]} is {names[0]} and the "
                          f"rank before {names[0]} is {names[-1]} (“the rank after” and “the "
                          f"rank before” always follow this order: {', '.join(names)}); a rank "
                          f"not in it has no rank after or before (0).")
    for name, (decl, _typ) in m.attributes.items():
        rows = []
        for sels, value in decl.entries:
            rows.append((", ".join(_selector(w, m, s) for s, _sp in sels), w.expr(value)))
        if decl.otherwise is not None:
            rows.append(("every other card", w.expr(decl.otherwise)))
        blocks.append(Section(f"The {humanize(name)} of a card", (
            f"Every card has a {humanize(name)}:", Table(("cards", humanize(name)), tuple(rows))),
            3))
    return tuple(blocks)


def _rank_words(w, r) -> str:
    s = w.rank_name(r.name)
    extra = [str(r.number)] if r.name != str(r.number) else []
    if r.symbol and r.symbol != r.name:
        extra.append(f"written {r.symbol}")
    return s + (f" ({', '.join(extra)})" if extra else "")


def _rank_of_number(w, m, num) -> str:
    for name, v in m.ranks.items():
        if v == num:
            return w.rank_name(name)
    return str(num)


def _selector(w, m, s: str) -> str:
    ref = m.refs.card_literal(s)
    if ref is not None:
        return s
    if s in m.ranks:
        return f"every {w.rank_name(s)}"
    if s in m.suits:
        return f"every card of {w.suit_name(s)}"
    if s in m.card_names:
        return w.card_name(s)
    for dt in m.deck_types.values():
        for group, _cards, _rank in dt.extras:
            if group == s:
                return f"the {humanize(s)}"
    return humanize(s)


def _zones(w, m) -> tuple:
    rows = []
    for name, z in m.zones.items():
        where = "one for each player" if z.per_player else "one, shared by all"
        vis = _VISIBILITY.get(z.visibility, z.visibility)
        if z.size_hidden:
            vis += "; how many cards it holds is not shown"
        note = ""
        if z.shown == "no":
            note = "kept aside, not part of the table"
        elif z.shown == "in use":
            note = "shown only while it holds cards"
        rows.append((w.zone_name(name), where, vis + (f" ({note})" if note else "")))
    for zname, (sw, _ctx, _typ) in m.shows.items():
        rows.append((w.zone_name(zname), "", f"shown beside it: “{sw.label}”: {w.expr(sw.expr)}"))
    return ("Each zone is a pile of cards with a bottom and a top (the card put on it last). "
            "At the start every zone is empty but those the decks go into.",
            Table(("zone", "how many", "who sees the cards"), tuple(rows)))


def _teams(m) -> tuple:
    """The Teams section: who plays with whom, and what a team shares."""
    t = m.teams
    if t.kind == "fixed":
        who = "; ".join(f"team {k}: " + " and ".join(f"Player {s}" for s in seats)
                        for k, seats in enumerate(t.seats, 1))
        first = f"The players play in teams, the same all game long ({who})."
    elif t.kind == "opposite":
        first = ("The players play in teams of two, partners sitting opposite each other: with "
                 "four players, Player 1 and Player 3 are team 1, Player 2 and Player 4 team 2 (in "
                 "general each player of the first half of the table with the player half the "
                 "table after them; team k is Player k and their partner).")
    else:
        first = ("Teams are formed during play: each player starts alone, in the team numbered "
                 "by their seat (Player 1 in team 1...), until the rules put them in another "
                 "team (“P leaves their team and joins ...”).")
    kept = [humanize(name) for name, v in m.vars.items() if getattr(v.decl, "per_team", False)]
    shares = ""
    if kept:                                    # the variables of each team
        names = kept[0] if len(kept) == 1 else ", ".join(kept[:-1]) + " and " + kept[-1]
        shares = (f" Each team keeps its own {names}: "
                  + ("it belongs" if len(kept) == 1 else "they belong")
                  + " to the team, not to its players"
            + (" (a player who joins another team counts with that team's from then on)"
               if t.kind == "formed" else "") + ".")
    return (first, "A player's partner is the other player of their team when it has two "
            "players (none otherwise). The turn order and the deal go round the table as "
            "always, whatever the teams. A team wins, loses or draws together: when the rules "
            "make a player win, their whole team wins; a team's score is the total of its "
            "players' scores, and an ending by the highest (lowest) score compares the teams' "
            "scores." + shares)


def _value_sets(m) -> tuple:
    rows = []
    for name, (_first, names) in m.value_sets.items():
        rows.append((humanize(name), ", ".join(safe(m.value_texts.get(n, humanize(n)))
                                              for n in names)))
    return ("Values with names, each set in its order from the lowest to the highest (one is "
            "higher than another when it comes later):",
            Table(("values", "from the lowest to the highest"), tuple(rows)))


def _vars(w, m) -> tuple:
    rows = []
    for name, v in m.vars.items():
        if name in (A.TEAM, A.PARTNER):     # (said under Teams)
            continue
        if name.startswith(" auction "):     # an auction's own (check/auctions.py): it says them
            continue
        d = v.decl
        where = "for each player" if d.per_player else "one, shared"
        if getattr(d, "per_team", False):      # kept by the team, whoever is in it
            where = "for each team"
        shown = "yes" if getattr(d, "display", None) else "no"
        kind = humanize(v.type)
        if name == "out" and getattr(m, "players_leave", False):   # kept by the rules themselves
            kind += (" (0 while the player is in the game, then 1 for the first player to leave "
                     "it, 2 for the second, and so on)")
        start = w.expr(d.init)
        if v.type in SET_KINDS:          # a set of values starts empty
            kind = f"a set of the values of {humanize(m.set_values[name])}" \
                if v.type == Kind.SET_VALUES else f"a {v.type} (each at most once)"
            start = "empty"
        rows.append((w.var_name(name), where, kind, start, shown))
    return ("Values kept during the game besides the cards (a value “shown” is on the table "
            "for everyone to see):",
            Table(("value", "how many", "kind", "at the start", "shown"), tuple(rows)))


def _options(w, m) -> tuple:
    rows = []
    for name, o in m.options.items():
        d = o.decl
        if d.low is not None:
            allowed = f"a number from {d.low} to {d.high}"
        elif d.choices is not None:
            allowed = "one of " + ", ".join(humanize(c) for c in d.choices)
        elif isinstance(d.default, bool):
            allowed = "yes or no"
        else:
            allowed = "—"
        rows.append((humanize(d.display or name), d.doc or "", allowed,
                     _option_value(d.default), _option_value(o.value)))
    return ("The players agree on these before the game (with --set NAME=VALUE on the command line):",
            Table(("option", "what it means", "allowed", "default", "in this rulebook"),
                  tuple(rows)))


def _endings(w, m) -> tuple:
    blocks = ["Before every turn (once play has passed to the player whose turn it is) and "
              "whenever a player is about to decide something, the conditions below are checked "
              "in this order, each for every player still in the game starting with the current "
              "player (as “you”). The first that holds ends the game as it says."]
    items = []
    for ending, _ctx, _n in m.endings:
        items.append(Item(f"When {w.cond(ending.condition)}:", children=w.body(ending.body,
                                                                               "ending")))
    if items:
        blocks.append(tuple(items))
    else:
        blocks.append("The rules themselves end the game (see below).")
    during = _during(w, m)
    if during:
        blocks.append("The rules end the game at once where they say so:")
        blocks.append(tuple(during))
    blocks.append("A game in which no player wins is a draw. When the scores decide, the "
                  "players are ranked by their scores.")
    return tuple(blocks)


def _special_cards(w, m, decls) -> tuple:
    """The ranks, suits and cards the rules name, and the rules that name them."""
    found: dict = {}

    def note(key, where):
        lst = found.setdefault(key, [])
        if where not in lst:
            lst.append(where)

    def walk(node, where):
        if isinstance(node, A.Name):
            ref = m.refs.of(node, None)
            if isinstance(ref, ir.Const) and node.name in m.ranks:
                note(f"the rank {w.rank_name(node.name)}", where)
            elif isinstance(ref, ir.Const) and node.name in m.suits:
                note(f"the suit {w.suit_name(node.name)}", where)
            elif isinstance(ref, ir.CardName):
                note(w.card_name(node.name), where)
        elif isinstance(node, A.CardLit):
            note(node.text, where)
        if isinstance(node, (str, int, bool)) or node is None:
            return
        if isinstance(node, tuple):
            for x in node:
                walk(x, where)
            return
        if attrs.has(type(node)):
            for f in attrs.fields(type(node)):
                if f.name == "span":
                    continue
                walk(getattr(node, f.name), where)

    for name, r in m.rules.items():
        walk(r.decl.body, f"“{w.rule_name(name)}”")
    for ending, _c, _n in m.endings:
        walk(ending.condition, "the endings")
        walk(ending.body, "the endings")
    for d in decls:
        if isinstance(d, A.Define):
            walk(d.body, w.define_name(d.name))
    for name, (decl, _t) in m.attributes.items():
        for sels, _v in decl.entries:
            for s, _sp in sels:
                key = (f"the rank {w.rank_name(s)}" if s in m.ranks else
                       f"the suit {w.suit_name(s)}" if s in m.suits else _selector(w, m, s))
                note(key, f"the {humanize(name)} of a card")
    if not found:
        return ()
    return ("The rules treat these cards, ranks and suits by name; each is named in:",
            tuple(Item(_join(v), label=k) for k, v in found.items()))


def _variant(w, base) -> tuple:
    base_name, own = base[0], base[1]
    items = []
    for d in own:
        if isinstance(d, (A.Extends, A.GameName)):
            continue
        verb = "changes" if getattr(d, "replace", False) else "adds"
        if isinstance(d, A.Option):
            items.append(Item(f"It {verb} the option “{humanize(d.display or d.name)}”: "
                              f"{_option_value(d.default)} by default."))
        elif isinstance(d, A.Rule):
            what = {"setup": "the setup", "turn": "the turn"}.get(d.name, f"the rule “{w.rule_name(d.name)}”")
            items.append(Item(f"It {verb} {what} (below, as it is in this variant)."))
        elif isinstance(d, A.Define):
            items.append(Item(f"It {verb} the term {w.define_name(d.name)}: {w.define_body(d)}."))
        elif isinstance(d, A.Zone):
            items.append(Item(f"It {verb} the zone {w.zone_name(d.name)}."))
        elif isinstance(d, A.Var):
            items.append(Item(f"It {verb} the value {w.var_name(d.name)}, which starts at "
                              f"{'nothing' if d.type and d.type.startswith('set of ') else w.expr(d.init)}."))
        elif isinstance(d, A.ValueSet):
            items.append(Item(f"It {verb} the values {humanize(d.name)} (see Named values)."))
        elif isinstance(d, A.Ending):
            items.append(Item(f"It adds an ending: when {w.cond(d.condition)}:",
                              children=w.body(d.body, "ending")))
        elif isinstance(d, A.Score):
            items.append(Item(f"It {verb} the score: {w.expr(d.expr)}."))
        elif isinstance(d, A.Progress):
            items.append(Item(f"It {verb} how far a player has got: {w.expr(d.expr)}."))
        elif isinstance(d, A.Returns):
            items.append(Item(f"It {verb} what a player gets at the end: {w.expr(d.expr)}."))
        elif isinstance(d, A.Deck):
            items.append(Item(f"It {verb} the deck: a {humanize(d.name)} deck (see The cards)."))
        elif isinstance(d, A.DeckType):
            items.append(Item(f"It {verb} the deck type “{humanize(d.name)}” (see The cards)."))
        elif isinstance(d, A.Attribute):
            items.append(Item(f"It {verb} the {humanize(d.name)} of the cards (see The cards)."))
        elif isinstance(d, A.Players):
            lo, hi = d.low, d.high
            items.append(Item(f"It is for {lo if lo == hi else f'{lo} to {hi}'} players."))
        elif isinstance(d, A.ShowWith):
            items.append(Item(f"It {verb} what is shown beside {w.zone_name(d.zone)}."))
    if not items:
        items.append(Item("Nothing but its name."))
    of = f" (the rule file {base[2]})" if len(base) > 2 and base[2] else ""
    return (f"This game is a variant of {safe(base_name)}{of}. The whole rulebook follows; it "
            "differs from its base in these points:", tuple(items))


# ---------------------------------------------------------------------------------------------
# Writers
# ---------------------------------------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|])")


def _md(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", safe(text))


def _md_items(items, depth=0) -> list:
    out = []
    for it in items:
        text = (f"**{_md(it.label)}**: " if it.label else "") + _md(it.text)
        out.append("  " * depth + "- " + text)
        out.extend(_md_items(it.children, depth + 1))
    return out


def _md_blocks(blocks) -> list:
    out = []
    for b in blocks:
        if isinstance(b, str):
            out += [_md(b), ""]
        elif isinstance(b, Table):
            out.append("| " + " | ".join(_md(h) for h in b.header) + " |")
            out.append("|" + "---|" * len(b.header))
            for row in b.rows:
                out.append("| " + " | ".join(_md(c) for c in row) + " |")
            out.append("")
        elif isinstance(b, Section):
            out += ["#" * b.level + " " + _md(b.title), ""]
            out += _md_blocks(b.blocks)
        else:
            out += _md_items(b) + [""]
    return out


def to_markdown(book: Rulebook) -> str:
    out = ["# " + _md(book.title), ""]
    for s in book.sections:
        out += ["#" * s.level + " " + _md(s.title), ""]
        out += _md_blocks(s.blocks)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def _h(text: str) -> str:
    return html.escape(safe(text), quote=True)


def _html_items(items) -> list:
    out = ["<ul>"]
    for it in items:
        li = "<li>" + (f"<strong>{_h(it.label)}</strong>: " if it.label else "") + _h(it.text)
        if it.children:
            li += "\n" + "\n".join(_html_items(it.children))
        out.append(li + "</li>")
    out.append("</ul>")
    return out


def _html_blocks(blocks) -> list:
    out = []
    for b in blocks:
        if isinstance(b, str):
            out.append(f"<p>{_h(b)}</p>")
        elif isinstance(b, Table):
            out.append("<table><thead><tr>" + "".join(f"<th>{_h(h)}</th>" for h in b.header)
                       + "</tr></thead><tbody>")
            for row in b.rows:
                out.append("<tr>" + "".join(f"<td>{_h(c)}</td>" for c in row) + "</tr>")
            out.append("</tbody></table>")
        elif isinstance(b, Section):
            out.append(f"<h{b.level}>{_h(b.title)}</h{b.level}>")
            out += _html_blocks(b.blocks)
        else:
            out += _html_items(b)
    return out


_CSS = """body{font-family:Georgia,serif;max-width:48em;margin:2em auto;padding:0 1em;
line-height:1.45;color:#222}h1,h2,h3{font-family:Helvetica,Arial,sans-serif}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;padding:.2em .5em;
text-align:left;vertical-align:top}li{margin:.15em 0}"""


def to_html(book: Rulebook) -> str:
    """One self-contained page: no script, no stylesheet or font fetched from anywhere."""
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{_h(book.title)}</title>", f"<style>{_CSS}</style></head><body>",
           f"<h1>{_h(book.title)}</h1>"]
    for s in book.sections:
        out.append(f"<h{s.level}>{_h(s.title)}</h{s.level}>")
        out += _html_blocks(s.blocks)
    out.append("</body></html>")
    return "\n".join(out) + "\n"
