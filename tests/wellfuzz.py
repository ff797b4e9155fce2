"""Random well-typed games, for differential fuzzing (in the spirit of Csmith and YARPGen).

:class:`GameGen` builds a game from the language's constructs, each value made for the kind it
must have (number, yes/no, player, card, suit, zone), each name used where it is in scope, so
that nearly every game it makes checks clean and plays many decisions: every game has a choice
each turn with an alternative always open, loops are bounded by a counter, rules that call
themselves count down, and every game ends after a few turns.  The game is a tree of
:class:`Stmt` (a line and its block) written out as ``.cardrules`` text; ``constructs`` counts
which constructs each game used (the coverage the fuzz test reports).

:func:`compare` plays a game through the reference interpreter (tests/reference) and the
compiled game with the same choices, and returns the first difference: the whole log, each
seat's legal actions and observation at each decision, the result and the save; then the
playout fast path of each from the same seed.  tests/test_fuzz_differential.py runs it.
"""
from __future__ import annotations

import random
from collections import Counter

NUM, FLAG, PLAYER, CARD, SUIT, ZONE = "number", "flag", "player", "card", "suit", "zone"
LEVEL = "level"            # a value of the named values `level` (LEVELS, lowest first)
SUITS_KIND = "set of suits"  # a local holding a set of suits
LEVELS = ("low", "middle", "upper", "top")


class Stmt:
    """One statement: its first line and, for a compound statement, its block (a list of Stmt;
    an alternative of a choice is a Stmt in the choice's block)."""
    __slots__ = ("line", "body", "more")

    def __init__(self, line, body=None, more=()):
        self.line, self.body, self.more = line, body, list(more)   # more: else-if / else parts

    def lines(self, indent=0):
        pad = "    " * indent
        out = [pad + self.line]
        if self.body is not None:
            out += _lines_of(self.body or [Stmt("pass")], indent + 1)
        out += _lines_of(self.more, indent)
        return out


# Zones: (name, per player, properties): every visibility the language has.
ZONES = [
    ("stock", False, "shared, face down"),
    ("discard", False, "shared, top face up"),
    ("table", False, "shared, face up"),
    ("vault", False, "shared, face down, size hidden"),
    ("limbo", False, "shared, face down, not shown"),
    ("hand", True, "per player, seen by owner"),
    ("pile", True, "per player, face down"),
    ("shelf", True, "per player, face up, shown when not empty"),
]
FAMILY = "column 1 to 3: shared, face up"      # a family of zones, column(1) to column(3)
SEEN_BY_CHOOSER = ("hand", "table", "shelf")      # a card chosen from these is seen (RL185)
SUITS = ("hearts", "spades", "diamonds", "clubs")

# Constructs where the compiler is known to differ from the rules (each with its reduced file in
# tests/differential/); GameGen leaves them out unless asked.
KNOWN: dict = {}

# The constructs of compiler defects since fixed: a game uses each with even odds, so that the
# default run keeps them fixed.
FIXED = {
    "chooser": "a plain `choose:` inside an alternative of `choose by`, `simultaneously` or a claim",
    "define in both branches": "a define used in both branches of a value `(A if C else B)` whose "
                               "condition uses another define that uses it",
    "copied rule": "a rule that never decides, written in place of its call, using a long define "
                   "that binds a card of its own",
    "random draws": "a random card, player or die inside a define, a define's argument or a "
                    "condition over cards or players",
    "random zone": "a zone named by a random player (a logged shuffle, a reveal or show of its "
                   "top card, a move nobody sees)",
}


class Scope:
    """The names in scope where a statement is made: locals and their kinds, and what the
    statement may do there (stop a loop, return from a rule)."""

    def __init__(self, names=None, loop=False, rule=False, depth=0, choice_by=False):
        self.names = dict(names or {})
        self.loop, self.rule, self.depth, self.choice_by = loop, rule, depth, choice_by

    def inner(self, **kw):
        s = Scope(self.names, self.loop, self.rule, self.depth + 1, self.choice_by)
        for k, v in kw.items():
            setattr(s, k, v)
        return s

    def of(self, kind):
        return [n for n, k in self.names.items() if k == kind]


class GameGen:
    """One random game (``text()``), with the constructs it used counted in ``constructs``."""

    def __init__(self, seed: int, known=()):
        self.rng = random.Random(seed)
        self.rng2 = random.Random(seed * 7919 + 1)     # positions in a pile (GameGen.position)
        self.seed = seed
        # The constructs of the compiler's known defects (KNOWN) are left out unless named in
        # ``known``, so that a difference found is a new one.
        unknown = set(known) - set(KNOWN) - set(FIXED)
        assert not unknown, unknown
        self.known = frozenset(known) | {k for k in sorted(FIXED) if self.rng.random() < 0.5}
        self.avoid_known = int("random draws" not in self.known)
        self.constructs: Counter = Counter()
        self.fresh = 0
        # > 0 while making a define's body, a condition looked at for each card or player, or
        # the player of a zone: no random draw there (unless asked: KNOWN, FIXED)
        self.pure = 0
        self.leaving = self.rng.random() < 0.15
        self.defines: list = []          # (name, parameter kinds, kind, defines it uses)
        self.using = None                # while a define's body is made: the defines it uses
        self.rules: list = []            # (name, parameter kinds, decides)
        self.players = (2, self.rng.choice((2, 3, 4)))
        # Teams (docs/language.md, "Partnerships"), from a stream of their own, so that the games
        # of the other seeds stay as they were: partners opposite in a game of two, else formed
        # in play (the only form every number of players from 2 allows).
        teams = random.Random(f"teams {seed}")
        self.teams = None
        if teams.random() < 0.2:
            self.teams = "partners sit opposite" if self.players[1] == 2 else "formed in play"
        # Variables of a team (docs/language.md, "Variables of a team"), in a game with teams,
        # drawn from a stream of their own: `tally of the team of P`, `tsuits of the team of P`.
        self.tv = random.Random(f"team variables {seed}")
        # how a zone of the family by suit is named: `heap(S)`, `heap of S`, `the heap of S`
        self.fw = random.Random(f"family words {seed}")
        # a generator of its own for the constructs added later, so that the games of a seed
        # stay what they were where those are not used
        self.aux = random.Random(seed * 7919 + 1)
        # locals holding a set of suits (`let x = the suits of the cards in Z`, then `size of x`,
        # `x is empty`): a stream of their own
        self.ls = random.Random(f"local sets {seed}")

    # ---- helpers --------------------------------------------------------------------------------
    def note(self, what):
        self.constructs[what] += 1

    def name(self, prefix):
        self.fresh += 1
        return f"{prefix}{self.fresh}"

    def pick(self, *options):
        return self.rng.choice(options)

    def chance(self, p):
        return self.rng.random() < p

    # ---- values ---------------------------------------------------------------------------------
    def zone(self, sc, per=None, shared_ok=True):
        """A zone: a shared one, or a per-player one of `you` or of a player."""
        r = self.rng
        if per is None:
            per = r.random() < 0.6
        if not per and shared_ok:
            if r.random() < 0.08:
                self.note("zone of a family")
                if r.random() < 0.3:
                    self.note("zone of a family by suit")
                    suit = self.pick('hearts', 'spades', 'diamonds', 'clubs')
                    form = self.fw.randrange(3)
                    if form:
                        self.note("zone of a family by suit, in words")
                    return (f"heap({suit})", f"heap of {suit}", f"the heap of {suit}")[form]
                return f"column({self.pick('1', '2', '3', '1 + rounds mod 3')})"
            return r.choice([z for z, p, _ in ZONES if not p])
        z = r.choice([z for z, p, _ in ZONES if p])
        if r.random() < 0.6:
            return z
        self.note("zone of player")
        calm = "random zone" not in self.known
        self.pure += calm
        p = self.player(sc, 1)
        self.pure -= calm
        return f"{z} of ({p})" if " " in p else f"{z} of {p}"

    def number(self, sc, d=0):
        r = self.rng
        if self.teams and d < 3 and self.tv.random() < 0.04:
            self.note("variable of a team")
            return f"tally of the team of {self.player(sc, 3)}"
        if self.teams and d < 3 and self.chance(0.08):
            if self.chance(0.5):
                self.note("the team of")
                return f"the team of {self.player(sc, 3)}"
            self.note("score of the team of")
            return f"score of the team of {self.player(sc, 3)}"
        leaf = d >= 3 or r.random() < 0.35
        if leaf:
            k = r.randrange(8)
            if k == 0 or k == 1:
                return str(r.randrange(0, 6))
            if k == 2 and sc.of(NUM):
                self.note("local")
                return r.choice(sc.of(NUM))
            if k == 3:
                self.note("var per player")
                return self.pick("points", f"points of {self.player(sc, 2)}")
            if k == 4:
                self.note("var")
                return "rounds"
            if k == 5:
                local = sc.of(SUITS_KIND)
                if local and self.ls.random() < 0.8:
                    self.note("size of a local set")
                    return f"size of {self.ls.choice(local)}"
                if r.random() < 0.15:
                    self.note("size of a set")
                    if self.chance(0.3):
                        return f"size of ({self.suit_set(sc, 1)})"
                    return self.pick("number of suits in kept_suits", "size of kept_ranks")
                self.note("size of")
                return f"size of {self.zone(sc)}"
            if k == 6:
                return self.pick("number of players", "number of turns")
            self.note("rank of")
            return f"rank of {self.card(sc, 3)}"
        k = r.randrange(23)
        if k <= 3:
            op = r.choice(["+", "-", "*", "+"])
            self.note("arith " + op)
            return f"{self.number(sc, d + 1)} {op} {self.atom_number(sc, d + 1)}"
        if k == 4:
            op = self.pick("/", "mod")
            self.note("arith " + op)
            return f"{self.atom_number(sc, d + 1)} {op} (1 + size of {self.zone(sc)})"
        if k == 5:
            self.note("if else value")
            return f"({self.number(sc, d + 1)} if {self.flag(sc, d + 1)} else {self.number(sc, d + 1)})"
        if k == 6:
            self.note("cases")
            return (f"({self.number(sc, d + 1)} if {self.flag(sc, d + 1)}, "
                    f"{self.number(sc, d + 1)} if {self.flag(sc, d + 1)}, {self.number(sc, d + 1)} otherwise)")
        if k == 7:
            self.note("count cards where")
            return f"(number of cards in {self.zone(sc)} where {self.card_cond(sc, d + 1)})"
        if k == 8:
            self.note("total of attribute")
            return f"total {self.pick('value', 'rank')} of {self.zone(sc)}"
        if k == 9 and self.defines:
            return self.call_define(sc, d, NUM)
        if k == 10:
            self.note("highest among players")
            w = self.pick("highest", "lowest", "total of")
            return f"{w} {self.atom_number(sc, 3, player_var=True)} among players"
        if k == 11:
            self.note("among cards")
            w = self.pick("highest", "lowest", "total of")
            return f"({w} rank of card among cards in {self.zone(sc)})"
        if k == 12:
            self.note("number where")
            w = self.pick("highest", "lowest")
            v = self.name("v")
            self.pure += self.avoid_known
            bound = self.atom_number(sc, 3)
            self.pure -= self.avoid_known
            return f"({w} number {v} from 1 to 4 where {v} > {bound})"
        if k == 13:
            self.note("score of")
            return f"score of {self.player(sc, 2)}"
        if k == 14:
            self.note("neg")
            return f"-{self.atom_number(sc, d + 1)}"
        if k == 15 and not self.pure:
            self.note("roll")
            return "roll d6"
        if k == 16:
            self.note("count players where")
            return f"(number of players where {self.player_cond(sc, d + 1)})"
        if k == 17:
            self.note("rank after")
            return f"rank {self.pick('after', 'before')} {self.atom_number(sc, 3)}"
        if k == 18:
            self.note("highest rank where")
            v = self.name("r")
            return (f"({self.pick('highest', 'lowest')} rank {v} where (number of cards in "
                    f"{self.zone(sc)} where rank of card is {v}) >= 1)")
        if k == 19:
            self.note("least total outside sets and runs")
            return f"least total {self.pick('rank', 'value')} of pile of {self.player(sc, 3)} outside sets and runs"
        if k == 20:
            self.note("option")
            return "bonus"
        if k == 21:
            self.note("rank with highest")
            v = self.name("r")
            return f"(rank {v} with {self.pick('highest', 'lowest')} number of cards in {self.zone(sc)} where rank of card is {v})"
        if r.random() < 0.4:
            return self.combination_count(sc)
        self.note("count of a suit")
        return f"(number of cards in {self.zone(sc)} where suit of card is {self.suit(sc, 3)})"

    def combination_count(self, sc):
        """A count of combinations (docs/language.md, "Combinations of cards"); a total among
        the cards of a player's pile, which the games keep small (a zone of more than 16 cards
        stops the game alike on every backend, RL293)."""
        k = self.rng.randrange(6)
        if k == 0:
            self.note("combinations totalling")
            return (f"(number of combinations of cards in pile of {self.player(sc, 3)} whose total "
                    f"{self.pick('value', 'rank')} is {self.atom_number(sc, 3)})")
        self.note("count of combinations")
        what = ("longest run in", "number of longest runs in", "number of pairs in",
                "most cards of one rank in", "most cards of one suit in")[k - 1]
        return f"({what} {self.zone(sc)})"

    def atom_number(self, sc, d, player_var=False):
        if player_var:
            return self.pick("points of player", "size of hand of player", "score of player")
        v = self.number(sc, d)
        return v if v.replace("_", "").isalnum() else f"({v})"

    def flag(self, sc, d=0):
        r = self.rng
        k = r.randrange(13 if d < 3 else 5)
        if k == 0:
            op = r.choice(["<", ">", "<=", ">=", "is", "is not"])
            self.note("compare")
            return f"{self.number(sc, d + 1)} {op} {self.number(sc, d + 1)}"
        if k == 1:
            local = sc.of(SUITS_KIND)
            if local and self.ls.random() < 0.8:
                self.note("a local set is empty")
                return f"{self.ls.choice(local)} is {self.ls.choice(('empty', 'not empty'))}"
            self.note("is empty")
            return f"{self.zone(sc)} is {self.pick('empty', 'not empty')}"
        if k == 2:
            self.note("flag var")
            return self.pick("lucky", "not lucky")
        if k == 3:
            kind = self.pick(PLAYER, CARD, SUIT)
            self.note(f"compare {kind}")
            a = {PLAYER: lambda: self.player(sc, d + 1, maybe_none=True),
                 CARD: lambda: self.card(sc, d + 1),
                 SUIT: lambda: self.suit(sc, d + 1)}[kind]
            return f"{a()} is {self.pick('', 'not ')}{a()}"
        if k == 4:
            return self.pick("yes", "no")
        if k == 5:
            self.note("and/or")
            return f"({self.flag(sc, d + 1)} {self.pick('and', 'or')} {self.flag(sc, d + 1)})"
        if k == 6:
            self.note("not")
            return f"not ({self.flag(sc, d + 1)})"
        if k == 7:
            self.note("any card where")
            return f"({self.pick('any', 'no')} card in {self.zone(sc)} where {self.card_cond(sc, d + 1)})"
        if k == 8:
            self.note("any player where")
            return f"({self.pick('any', 'no')} player where {self.player_cond(sc, d + 1)})"
        if k == 9 and self.defines:
            return self.call_define(sc, d, FLAG)
        if k == 10 and self.leaving:
            self.note("is out")
            return f"{self.player(sc, d + 1)} is {self.pick('', 'not ')}out"
        if k == 11 and self.chance(0.3):
            self.note("compare named values")
            op = self.pick("<", ">", "<=", ">=", "is", "is not")
            return f"{self.level(sc, d + 1)} {op} {self.level(sc, d + 1)}"
        if k == 12 and self.chance(0.3):
            self.note("compare sets")
            if self.chance(0.5):
                left = self.pick("kept_suits", f"the suits of the cards in {self.zone(sc)}")
                return f"{left} is {self.pick('', 'not ')}{self.suit_set(sc, 1)}"
            return f"{self.pick(*SUITS)} in {self.suit_set(sc, 1)}"
        if k == 12:
            self.note("in set")
            if self.chance(0.5):
                return f"{self.suit(sc, d + 1)} {self.pick('in', 'not in')} kept_suits"
            return f"rank of {self.card(sc, d + 1)} {self.pick('in', 'not in')} kept_ranks"
        if k == 11:
            self.note("any number where")
            v = self.name("k")
            return f"any number {v} from 1 to 13 where (number of cards in {self.zone(sc)} where rank of card is {v}) >= 2"
        return f"{self.number(sc, d + 1)} > {self.number(sc, d + 1)}"

    def card_cond(self, sc, d, c="card"):
        """A condition on the card ``c`` (`card` in a query over cards)."""
        self.pure += self.avoid_known
        try:
            return self._card_cond(sc, d, c)
        finally:
            self.pure -= self.avoid_known

    def _card_cond(self, sc, d, c):
        k = self.rng.randrange(5)
        if k == 4:
            # the card's table against the same table of another card (the top of a pile): a
            # set of cards keyed by that card, the value worked out from it (compile/cardsets.py)
            self.note("card table against a card's")
            t = self.pick("rank", "value")
            return f"{t} of {c} {self.pick('<', '>', 'is', '<=')} {t} of {self.card(sc, d + 1)}"
        if k == 0:
            return f"rank of {c} {self.pick('<', '>', 'is')} {self.rng.randrange(1, 14)}"
        if k == 1:
            return f"suit of {c} is {self.suit(sc, d + 1)}"
        if k == 2 and self.defines:
            return self.call_define(sc, d, FLAG, card=c)
        return f"value of {c} > {self.atom_number(sc, 3)}"

    def player_cond(self, sc, d):
        self.pure += self.avoid_known
        try:
            return self._player_cond(sc, d)
        finally:
            self.pure -= self.avoid_known

    def _player_cond(self, sc, d):
        k = self.rng.randrange(3)
        if k == 0:
            return f"size of hand of player > {self.atom_number(sc, 3)}"
        if k == 1:
            return f"player is not {self.player(sc, 3)}"
        return f"points of player >= {self.atom_number(sc, 3)}"

    def player(self, sc, d=0, maybe_none=False):
        """A player; with ``maybe_none``, one that may be `none` too (used only where it may)."""
        r = self.rng
        opts = ["you", "current player", "next player", "previous player", "player 1", "player 2",
                "after", "before", "local", "highest"]
        if maybe_none:
            opts += ["who", "holder", "none", "next where"]
            if self.teams:
                opts.append("partner")
        if not self.pure:
            opts.append("random player")
        k = r.choice(opts)
        if k == "local" and sc.of(PLAYER):
            self.note("local player")
            return r.choice(sc.of(PLAYER))
        if k in ("after", "before") and d < 3:
            self.note("player after")
            return f"player {k} {self.player(sc, d + 1)}"
        if k == "highest" and d < 3:
            self.note("player with highest")
            return f"player with {self.pick('highest', 'lowest')} {self.atom_number(sc, 3, player_var=True)}"
        if k == "who":
            self.note("player var")
            return "chosen"
        if k == "holder":
            if self.chance(0.4):            # who played a card to a shared zone
                self.note("who played")
                return f"{self.pick('who played', 'the player who played')} {self.card(sc, 3)}"
            self.note("player who has")
            return f"player who has {self.card(sc, 3)}"
        if k == "none":
            return "none"
        if k == "partner":
            self.note("partner of")
            return f"partner of {self.player(sc, 3)}"
        if k == "next where":
            self.note("next player where")
            return f"(next player where {self.player_cond(sc, 3)})"
        if k in ("local", "after", "before", "highest"):
            return "you"
        self.note(k)
        return k

    def card(self, sc, d=0):
        r = self.rng
        k = r.randrange(7)
        if k == 0 and sc.of(CARD):
            self.note("local card")
            return r.choice(sc.of(CARD))
        if k == 1:
            self.note("card var")
            return "last"
        if k == 2 and not self.pure:
            self.note("random card of")
            return f"random card of {self.zone(sc)}"
        if k == 3 and d < 3:
            self.note("highest card by")
            return f"({self.pick('highest', 'lowest')} card in {self.zone(sc)} by rank of card)"
        if k == 4 and r.random() < 0.3:
            self.note("card literal")
            return self.pick("Q♠", "10♥", "A♦", "2♣")
        w = self.pick("top", "bottom", "top")
        self.note(f"{w} of")
        z = self.zone(sc)
        return self.position(f"{w} of {z}", w, z)

    def position(self, card, w, z):
        """``card`` (``top of Z`` or ``bottom of Z``), or now and then a position in the pile
        Z instead (docs/language.md, "Positions in a pile"), drawn from a generator of its own:
        the games' other constructs are drawn as they were."""
        v, r2 = self.rng2.random(), self.rng2
        if v < 0.07:
            self.note(f"card N from {w}")
            return f"(card {r2.randrange(1, 4)} from {w} of {z})"
        if v < 0.12:
            where = r2.choice(("under", "above"))
            self.note(f"card {where}")
            return f"(card {where} {card} in {z})"
        if v < 0.18:
            first = r2.choice(("first", "last"))
            self.note(f"{first} card where")
            return f"({first} card in {z} where rank of card > {r2.randrange(0, 8)})"
        return card

    def suit(self, sc, d=0):
        r = self.rng
        k = r.randrange(4)
        if k == 0 and sc.of(SUIT):
            self.note("local suit")
            return r.choice(sc.of(SUIT))
        if k == 1:
            self.note("suit var")
            return "named"
        if k == 2 and d < 3:
            self.note("suit of")
            return f"suit of {self.card(sc, d + 1)}"
        if k == 3 and d < 2 and r.random() < 0.3:
            self.note("suit with highest")
            v = self.name("s")
            return f"(suit {v} with {self.pick('highest', 'lowest')} number of cards in {self.zone(sc)} where suit of card is {v})"
        return r.choice(SUITS)

    def level(self, sc, d=0):
        """A value of the named values `level`: a name, the variable, a player's, a local."""
        r = self.rng
        k = r.randrange(4)
        if k == 0 and sc.of(LEVEL):
            self.note("local named value")
            return r.choice(sc.of(LEVEL))
        if k == 1:
            self.note("named value var")
            return "mark"
        if k == 2 and d < 3:
            self.note("named value per player")
            p = self.player(sc, d + 1)
            return f"marks of ({p})" if " " in p else f"marks of {p}"
        self.note("named value")
        return r.choice(LEVELS)

    def value(self, sc, kind, d=0):
        return {NUM: self.number, FLAG: self.flag, PLAYER: self.player, CARD: self.card,
                SUIT: self.suit, LEVEL: self.level}[kind](sc, d)

    def call_define(self, sc, d, kind, card=None):
        cands = [x for x in self.defines if x[2] == kind]
        if not cands or d >= 3:
            return "yes" if kind == FLAG else "1"
        name, params, _k, _uses = self.rng.choice(cands)
        self.note("define use")
        if self.using is not None:
            self.using.add(name)
        if not params:
            return name
        self.pure += self.avoid_known       # (an argument is worked out at each use of it)
        args = [card if (card is not None and pk == CARD) else self.value(sc, pk, 3) for pk in params]
        self.pure -= self.avoid_known
        return f"{name}({', '.join(args)})"

    # ---- statements -----------------------------------------------------------------------------
    def block(self, sc, k=None, decide=True):
        k = self.rng.randrange(1, 4) if k is None else k
        return [self.statement(sc, decide) for _ in range(k)]

    def statement(self, sc, decide=True):
        r = self.rng
        deep = sc.depth >= 3
        kinds = ["move", "move", "set", "add", "let", "if", "say", "shuffle", "call", "move",
                 "set change"]
        if not deep:
            kinds += ["if", "repeat", "for card", "for player", "for suit", "while", "until",
                      "forever", "local define"]
            if decide:
                kinds += ["choose", "choose", "choose by", "simultaneously", "claim"]
        kinds += ["reveal", "show", "flow", "end game", "deal", "end turn"]
        if sc.loop:
            kinds.append("stop")
        if sc.rule:
            kinds.append("return")
        if self.leaving:
            kinds.append("remove")
        if self.teams == "formed in play":
            kinds.append("join team")
        k = r.choice(kinds)
        return getattr(self, "st_" + k.replace(" ", "_"))(sc)

    def st_move(self, sc):
        r = self.rng
        src, dst = self.zone(sc), self.zone(sc)
        bottom = " bottom of" if r.random() < 0.1 else ""
        over = " turned over" if r.random() < 0.1 else ""
        sel = r.randrange(10)
        guard = None
        beside = self.rng2.random() < 0.25       # (drawn apart, as GameGen.position)
        if sel == 0 and beside and not bottom:
            w = self.rng2.choice(("under", "above"))
            self.note(f"move {w} a card")
            line = f"move top of {src} from {src} to {dst} {w} bottom of {dst}{over}"
            return Stmt(f"if {src} is not empty and size of {dst} >= 2:", [Stmt(line)])
        if sel == 0:
            what, guard = "top card", f"{src} is not empty"
        elif sel == 1:
            what, guard = "bottom card", f"{src} is not empty"
        elif sel == 2:
            what, guard = "random card", f"{src} is not empty"
        elif sel == 3:
            what = "all cards"
        elif sel == 4:
            what = "all but top card"
        elif sel == 5:
            what = f"all cards where {self.card_cond(sc, 2)}"
        elif sel == 6:
            k = r.randrange(1, 3)
            what, guard = f"{k} cards", f"size of {src} >= {k}"
            if beside:                  # the top or bottom k cards, lifted together
                what = f"{self.rng2.choice(('top', 'bottom'))} {k} cards"
                self.note("move top or bottom N cards")
        elif sel == 7:
            what = f"up to {r.randrange(1, 4)} cards where {self.card_cond(sc, 2)}"
        elif sel == 8 and sc.of(CARD):
            c = r.choice(sc.of(CARD))
            what, guard = c, f"{src} is not empty and top of {src} is {c}"
            self.note("move named card")
        else:
            what, guard = "(top of " + src + ") and every card on top of it", f"{src} is not empty"
        self.note("move " + (what.split()[0] if sel != 8 else "card"))
        if over:
            self.note("turned over")
        line = f"move {what} from {src} to{bottom} {dst}{over}"
        if guard is None:
            return Stmt(line)
        return Stmt(f"if {guard}:", [Stmt(line)])

    def st_set(self, sc):
        k = self.rng.randrange(5)
        if k == 0:
            self.note("set card var")
            return Stmt(f"set last to {self.card(sc)}")
        if k == 1:
            self.note("set flag var")
            return Stmt(f"set lucky to {self.flag(sc)}")
        if k == 2:
            self.note("set suit var")
            return Stmt(f"set named to {self.suit(sc)}")
        if k == 3:
            self.note("set player var")
            return Stmt(f"set chosen to {self.player(sc, maybe_none=True)}")
        if self.chance(0.2):
            self.note("set named value")
            target = self.pick("mark", "marks", "marks of " + self.player(sc, 2))
            return Stmt(f"set {target} to {self.level(sc)}")
        self.note("set number")
        return Stmt(f"set {self.pick('rounds', 'points', 'points of ' + self.player(sc, 2))} to {self.number(sc)}")

    def st_add(self, sc):
        w = self.pick("add", "subtract")
        self.note(w)
        target = self.pick("points", "rounds", "points of " + self.player(sc, 2))
        if self.teams and self.tv.random() < 0.2:
            self.note(f"{w} to a variable of a team")
            target = f"tally of the team of {self.player(sc, 2)}"
        if w == "add":
            return Stmt(f"add {self.number(sc, 1)} to {target}")
        return Stmt(f"subtract {self.number(sc, 1)} from {target}")

    def suit_set(self, sc, d=0, top=False):
        """A whole set of suits (docs/language.md, "Writing and combining sets"): written,
        another set, the suits of a zone's cards, or two combined (a side may be one suit).
        ``top``: the whole value of `set S to` (there one suit is the set of it)."""
        r = self.rng
        k = r.randrange(7) if d < 2 else r.randrange(4)
        if k == 0:
            self.note("no or every")
            return self.pick("no suits", "every suit")
        if k == 1:
            self.note("set of suits written")
            if top:
                return " and ".join(r.sample(SUITS, r.randrange(1, 4)))
            return "(" + " and ".join(r.sample(SUITS, r.randrange(2, 4))) + ")"
        if k == 2:
            self.note("suits of the cards in")
            return f"the suits of the cards in {self.zone(sc)}"
        if k == 3:
            return self.pick("kept_suits", f"(kept_suits of {self.player(sc, 2)})",
                             f"(the kept_suits of {self.player(sc, 2)})")
        word = ("together with", "shared with", "without")[k - 4]
        self.note("sets " + word)
        right = self.pick(*SUITS) if self.chance(0.3) else self.suit_set(sc, d + 1)
        return f"({self.suit_set(sc, d + 1)} {word} {right})"

    def rank_set(self, sc, d=0):
        """A whole set of ranks, as suit_set."""
        r = self.rng
        k = r.randrange(5) if d < 2 else r.randrange(3)
        if k == 0:
            return self.pick("no ranks", "every rank", "kept_ranks")
        if k == 1:
            return "(" + " and ".join(str(v) for v in r.sample(range(2, 14), r.randrange(2, 4))) + ")"
        if k == 2:
            self.note("ranks of the cards in")
            return f"the ranks of the cards in {self.zone(sc)}"
        word = self.pick("together with", "shared with", "without")
        self.note("sets " + word)
        return f"({self.rank_set(sc, d + 1)} {word} {self.rank_set(sc, d + 1)})"

    def st_set_written(self, sc):
        """A whole set written, added or taken away (docs/language.md, "Writing and combining
        sets")."""
        k = self.rng.randrange(3)
        if k == 0:
            self.note("set written whole")
            target = self.pick("kept_suits", "kept_suits of " + self.player(sc, 2))
            return Stmt(f"set {target} to {self.suit_set(sc, top=True)}")
        if k == 1:
            self.note("set added or taken whole")
            word = self.pick("add", "remove")
            v = self.suit_set(sc, top=True)
            return Stmt(f"add {v} to kept_suits" if word == "add" else f"remove {v} from kept_suits")
        self.note("set of ranks written whole")
        return Stmt(f"set kept_ranks to {self.rank_set(sc)}")

    def st_set_change(self, sc):
        """A set of suits or ranks changed (docs/language.md, "Sets of values"); the value is
        tested first, since `none` in a set stops the game (RL330)."""
        if self.chance(0.4):
            return self.st_set_written(sc)
        k = self.rng.randrange(4)
        target = self.pick("kept_suits", "kept_suits of " + self.player(sc, 2)) if k < 2 else "kept_ranks"
        if k < 2 and self.teams and self.tv.random() < 0.25:
            self.note("a set of a team")
            target = f"tsuits of the team of {self.player(sc, 2)}"
        if k == 3:
            self.note("set emptied")
            return Stmt(f"remove all from {target}")
        word = self.pick("add", "remove")
        self.note(f"set {word}")
        if k < 2:
            v = self.suit(sc, 2)
            line = f"add {v} to {target}" if word == "add" else f"remove {v} from {target}"
            return Stmt(f"if {v} is not none:", [Stmt(line)])
        c = self.card(sc, 2)
        line = (f"add rank of {c} to {target}" if word == "add"
                else f"remove rank of {c} from {target}")
        return Stmt(f"if {c} is not none:", [Stmt(line)])

    def st_let(self, sc):
        if self.ls.random() < 0.15:
            name = self.name("x")
            k = self.ls.randrange(3)
            if k == 0:
                v = f"the suits of the cards in {self.zone(sc)}"
            elif k == 1:
                v = self.pick("kept_suits", f"kept_suits of {self.player(sc, 2)}")
            else:                       # (values joined by `and` are a set only where one is written)
                word = self.ls.choice(("together with", "shared with", "without"))
                v = f"{self.suit_set(sc, 1)} {word} {self.suit_set(sc, 1)}"
            sc.names[name] = SUITS_KIND
            self.note("let a set")
            if self.ls.random() < 0.5:
                return Stmt(f"let {name} = {v}")
            self.note("size of a local set")
            test = self.ls.choice(("is empty", "is not empty"))
            return [Stmt(f"let {name} = {v}"),
                    Stmt(f'say "{name}", size of {name}, ({name} {test})')]
        kind = self.pick(NUM, NUM, CARD, PLAYER, SUIT, LEVEL)
        name = self.name("x")
        v = self.value(sc, kind)
        sc.names[name] = kind           # in scope for the statements after it in this block
        self.note("let " + kind)
        return Stmt(f"let {name} = {v}")

    def st_if(self, sc):
        r = self.rng
        self.note("if")
        more = []
        for _ in range(r.randrange(0, 2)):
            self.note("else if")
            more.append(Stmt(f"else if {self.flag(sc)}:", self.block(sc.inner())))
        if r.random() < 0.5:
            self.note("else")
            more.append(Stmt("else:", self.block(sc.inner())))
        return Stmt(f"if {self.flag(sc)}:", self.block(sc.inner()), more)

    def st_say(self, sc):
        self.note("say")
        parts = ['"says"']
        for _ in range(self.rng.randrange(1, 3)):
            kind = self.pick(NUM, PLAYER, CARD, SUIT, FLAG, LEVEL, "cards")
            parts.append(f"the cards in {self.zone(sc)}" if kind == "cards" else self.value(sc, kind, 2))
        return Stmt("say " + ", ".join(parts))

    def st_shuffle(self, sc):
        self.note("shuffle")
        return Stmt(f"shuffle {self.zone(sc)}")

    def st_deal(self, sc):
        self.note("deal")
        frm = f" from {self.player(sc, 2)}" if self.chance(0.3) else ""
        src = "stock"
        count = str(self.rng.randrange(1, 3))
        if self.chance(0.2):
            self.note("deal all")
            src, count = self.pick("table", "vault", "discard", "hand"), "all"
        elif self.chance(0.2):
            self.note("deal a value")
            count = f"({self.atom_number(sc, 3)}) mod 3"
        return Stmt(f"deal {count} from {src} to {self.pick('hand', 'pile', 'shelf')} of each player{frm}")

    def st_end_turn(self, sc):
        self.note("end turn")
        return Stmt(f"if {self.flag(sc, 2)}:", [Stmt("end turn")])

    def st_reveal(self, sc):
        self.note("reveal")
        z = self.zone(sc)
        return Stmt(f"if {z} is not empty:", [Stmt(f"reveal {self.pick('top', 'bottom')} of {z}")])

    def st_show(self, sc):
        self.note("show to")
        z = self.zone(sc)
        return Stmt(f"if {z} is not empty:", [Stmt(f"show top of {z} to {self.player(sc, 2)}")])

    def st_flow(self, sc):
        k = self.pick("skip next player", "reverse direction", "next turn goes to")
        self.note(k)
        if k == "next turn goes to":
            k += " " + self.player(sc, 2)
        return Stmt(f"if {self.flag(sc, 2)}:", [Stmt(k)])

    def st_end_game(self, sc):
        k = self.rng.randrange(6)
        forms = ["end game with winner " + self.player(sc, 2), "end game with loser " + self.player(sc, 2),
                 "end game with no winner", "end game by highest score", "end game by lowest score",
                 f"end game with winners where points of player > {self.atom_number(sc, 3)}, "
                 f"losers where points of player < 0"]
        self.note(("end game with winner", "end game with loser", "end game with no winner",
                   "end game by highest score", "end game by lowest score",
                   "end game with winners where")[k])
        return Stmt(f"if {self.flag(sc, 1)} and rounds > 3:", [Stmt(forms[k])])

    def st_call(self, sc):
        cands = self.rules
        if not cands:
            return self.st_say(sc)
        name, params, _ = self.rng.choice(cands)
        self.note("call rule")
        args = "(" + ", ".join(self.value(sc, k, 2) for k in params) + ")" if params else ""
        if name.startswith("dig"):
            args = f"({self.rng.randrange(0, 4)})"
        who = ""
        if self.chance(0.3):
            self.note("call for player")
            who = f" for {self.player(sc, 2)}"
        return Stmt(f"{name}{args}{who}")

    def st_repeat(self, sc):
        self.note("repeat times")
        return Stmt(f"repeat {self.rng.randrange(0, 3)} times:", self.block(sc.inner(loop=True)))

    def st_for_card(self, sc):
        self.note("for each card")
        c = self.name("c")
        inner = sc.inner(loop=True)
        inner.names[c] = CARD
        return Stmt(f"for each card {c} in {self.zone(sc)}:", self.block(inner, decide=False))

    def st_for_player(self, sc):
        self.note("for each player")
        p = self.name("p")
        extra = ""
        if self.chance(0.4):
            self.note("for each player from")
            extra += f" from {self.player(sc, 2)}"
        if self.chance(0.3):
            self.note("for each player where")
            extra += f" where {self.flag(sc, 2)}"
        inner = sc.inner(loop=True)
        inner.names[p] = PLAYER
        return Stmt(f"for each player {p}{extra}:", self.block(inner))

    def st_for_suit(self, sc):
        w = self.pick("suit", "rank")
        self.note("for each " + w)
        v = self.name("s")
        inner = sc.inner(loop=True)
        inner.names[v] = SUIT if w == "suit" else NUM
        among = ""
        if self.chance(0.3):
            self.note(f"for each {w} in a set")
            among = " in kept_suits" if w == "suit" else " in kept_ranks"
        return Stmt(f"for each {w} {v}{among}:", self.block(inner, 1, decide=False))

    def _counted(self, sc, head):
        k = self.name("n")
        inner = sc.inner(loop=True)
        return k, inner

    def st_while(self, sc):
        self.note("repeat while")
        k, inner = self._counted(sc, "while")
        body = self.block(inner) + [Stmt(f"add 1 to {k}")]
        sc.names[k] = NUM
        return [Stmt(f"let {k} = 0"), Stmt(f"repeat while {k} < 3 and {self.flag(sc, 2)}:", body)]

    def st_until(self, sc):
        self.note("repeat until")
        k, inner = self._counted(sc, "until")
        body = self.block(inner) + [Stmt(f"add 1 to {k}")]
        sc.names[k] = NUM
        return [Stmt(f"let {k} = 0"), Stmt(f"repeat until {k} >= 2 or {self.flag(sc, 2)}:", body)]

    def st_forever(self, sc):
        self.note("repeat forever")
        k, inner = self._counted(sc, "forever")
        body = self.block(inner) + [Stmt(f"add 1 to {k}"), Stmt(f"if {k} > 1:", [Stmt("stop")])]
        sc.names[k] = NUM
        return [Stmt(f"let {k} = 0"), Stmt("repeat:", body)]

    def st_local_define(self, sc):
        """A define used twice in one statement: in both branches of a condition, or twice in
        one value (a value shared between places)."""
        if not self.defines:
            return self.st_set(sc)
        self.note("define shared in a statement")
        a = self.call_define(sc, 1, NUM)
        return Stmt(f"if {a} > {self.atom_number(sc, 2)}:", [Stmt(f"add {a} to points")],
                    [Stmt("else:", [Stmt(f"subtract {a} from points")])])

    def st_stop(self, sc):
        self.note("stop")
        return Stmt(f"if {self.flag(sc, 2)}:", [Stmt("stop")])

    def st_return(self, sc):
        self.note("return")
        return Stmt(f"if {self.flag(sc, 2)}:", [Stmt("return")])

    def st_join_team(self, sc):
        self.note("set the team of")
        p = self.player(sc, 2)
        t = (f"the team of {self.player(sc, 2)}" if self.chance(0.7)
             else "(rounds mod number of players) + 1")
        return Stmt(f"if {self.flag(sc, 2)}:", [Stmt(f"set the team of {p} to {t}")])

    def st_remove(self, sc):
        self.note("remove from the game")
        p = self.player(sc, 2)
        return Stmt(f"if rounds > 2 and (number of players where player is not out) > 2 and {self.flag(sc, 2)}:",
                    [Stmt(f"remove {p} from the game")])

    # ---- decisions ------------------------------------------------------------------------------
    def alternatives(self, sc, params=True, k=None, simultaneous=False):
        """The alternatives of a choice: the first always open, the others with a parameter or
        a condition."""
        r = self.rng
        alts = [Stmt(f"{self.name('wait')}:", self.block(sc.inner(), r.randrange(0, 2), decide=False))]
        for _ in range(r.randrange(1, 4) if k is None else k):
            inner = sc.inner()
            label = self.name("act")
            text = f' "{label} it"' if self.chance(0.2) else ""
            param = ""
            kind = r.randrange(10) if params else 99
            if simultaneous and kind in (5, 6):
                kind = 0
            if kind == 0:
                c = self.name("c")
                inner.names[c] = CARD
                z = self.pick(*SEEN_BY_CHOOSER)
                param = f" card {c} from {z}"
                if self.chance(0.5):
                    param += f" where {self.card_cond(sc, 2, c)}"
                self.note("choose card")
                body = [Stmt(f"move {c} from {z} to {self.zone(sc)}")]
            elif kind == 1:
                p = self.name("p")
                inner.names[p] = PLAYER
                param = f" player {p} from {self.pick('opponents', 'players')}"
                self.note("choose player")
                body = []
            elif kind == 2:
                s = self.name("s")
                inner.names[s] = SUIT
                param = f" suit {s}"
                self.note("choose suit")
                body = [Stmt(f"set named to {s}")]
            elif kind == 3:
                v = self.name("r")
                inner.names[v] = NUM
                param = f" rank {v} where {v} > {r.randrange(1, 12)}"
                self.note("choose rank")
                body = []
            elif kind == 4:
                v = self.name("n")
                inner.names[v] = NUM
                param = f" number {v} from 0 to {r.randrange(1, 4)}"
                self.note("choose number")
                body = [Stmt(f"add {v} to points")]
            elif kind == 5:
                c = self.name("c")
                inner.names[c] = CARD
                more = self.pick("", " or more")
                same = self.pick("", " of one rank", " of one suit")
                param = f" {r.randrange(1, 3)}{more} cards {c}{same} from hand to {self.pick('table', 'discard', 'pile')}"
                self.note("choose cards")
                body = []
            elif kind == 6:
                c = self.name("c")
                inner.names[c] = CARD
                param = f" unseen card {c} from {self.pick('pile', 'hand of next player', 'stock')}"
                self.note("choose unseen card")
                body = [Stmt(f"move {c} from {param.split(' from ')[1]} to hand")]
            elif kind == 7:
                v = self.name("b")
                inner.names[v] = LEVEL
                param = f" level {v}"
                if self.chance(0.6):
                    param += f" where {v} {self.pick('>', '>=', 'is not')} {self.level(sc, 2)}"
                self.note("choose named value")
                body = [Stmt(f"set {self.pick('mark', 'marks')} to {v}")]
            elif kind == 8 and not simultaneous:
                # a set of cards in one action (docs/language.md, "A set of cards in one choice")
                c = self.name("c")
                inner.names[c] = CARD
                # (at most 3 cards: the engine's search and the reference's brute force then
                # meet the same limits, RL284, never the engine's bound on its search alone)
                count = self.pick("1", "2", "2 to 3", "1 to 3", "up to 2")
                shape = self.pick("", "", " of one rank", " of one suit", " in a run")
                where = f" where {self.card_cond(sc, 2, c)}" if self.chance(0.3) else ""
                total = self.pick("", "", f" whose total rank is at most {r.randrange(5, 30)}",
                                  # (in brackets: `number of players where C` is a count)
                                  f" whose total rank is ({self.number(sc, 2)})",
                                  f" whose total rank is at least {r.randrange(1, 20)}",
                                  "" if shape == " in a run" else
                                  f" in groups whose total rank is {r.randrange(2, 14)}")
                # (the condition on the whole set first: a yes/no value ending `where C` would be
                # read as asking whether it is `in groups`)
                param = (f" a set of {count} cards {c}{shape} from {self.pick('hand', 'table')} "
                         f"to {self.pick('table', 'discard', 'pile')}{total}{where}")
                self.note("choose a set")
                body = []
            else:
                body = []
            cond = f" if {self.flag(sc, 2)}" if self.chance(0.3) else ""
            alts.append(Stmt(f"{label}{text}{param}{cond}:", body + self.block(inner, r.randrange(1, 3))))
        return alts

    def st_auction(self, sc):
        """``auction of call ...``: a round of bidding over the values of ``call``, with each of
        the endings, a pass that may drop the player out, a bid with a condition, a pass with
        one, and another call (a double) that starts the count of passes again."""
        r = self.rng
        self.note("auction")
        lines = [self.pick("ends after one round", f"ends after {r.randrange(1, 4)} passes",
                           "ends at c4")]
        if self.chance(0.5):
            lines.append("pass drops out")
            if self.chance(0.5):
                lines.append("ends when all but one have passed")
        if self.chance(0.3):
            lines.append("pass is c0")
        frm = f" from {self.player(sc, 2)}" if self.chance(0.5) else ""
        inner = sc.inner(choice_by=True)
        alts = [Stmt(x) for x in lines]
        if self.chance(0.5):
            alts.append(Stmt(f"raise call b where b is not c2 or {self.flag(sc, 2)}:",
                             self.block(inner.inner(), r.randrange(0, 2), decide=False)))
        if self.chance(0.4):
            alts.append(Stmt(f"pass if high is not none or {self.flag(sc, 2)}:",
                             self.block(inner.inner(), r.randrange(0, 2), decide=False)))
        if self.chance(0.4):
            alts.append(Stmt("double if high is not none and doubled is no and holder is not you:",
                             [Stmt("set doubled to yes")]))
        return Stmt(f"auction of call{frm} sets high and holder:", alts)

    def st_choose(self, sc):
        self.note("choose")
        if self.aux.random() < 0.1 and sc.depth < 2:
            return self.st_auction(sc)
        if sc.depth > 0:
            self.note("nested choose")
        if "chooser" not in self.known and sc.choice_by:
            return self.st_choose_by(sc)
        return Stmt("choose:", self.alternatives(sc))

    def st_choose_by(self, sc):
        self.note("choose by")
        if sc.depth > 0:
            self.note("nested choose by")
        return Stmt(f"choose by {self.player(sc, 2)}:", self.alternatives(sc.inner(choice_by=True)))

    def st_simultaneously(self, sc):
        self.note("simultaneously")
        who = self.pick("each player", "each opponent", "you, next player")
        if who == "each opponent" and self.chance(0.5):
            who += f" where {self.player_cond(sc, 2)}"
        return Stmt(f"simultaneously choose by {who}:",
                    self.alternatives(sc.inner(choice_by=True), simultaneous=True))

    def st_claim(self, sc):
        self.note("claim")
        who = self.pick("player", "opponent")
        where = f" where {self.player_cond(sc, 2)}" if self.chance(0.5) else ""
        frm = f" from {self.player(sc, 2)}" if self.chance(0.3) else ""
        return Stmt(f"any {who}{where} may choose{frm}:",
                    self.alternatives(sc.inner(choice_by=True), params=False, k=1))

    # ---- the game -------------------------------------------------------------------------------
    def make_defines(self):
        r = self.rng
        lines = []
        for i in range(r.randrange(1, 6)):
            name = f"d{i}"
            kind = self.pick(NUM, NUM, FLAG)
            params = [self.pick(NUM, CARD, PLAYER) for _ in range(r.randrange(0, 3))]
            sc = Scope()
            pnames = []
            for j, pk in enumerate(params):
                pn = f"{name}_{j}"
                sc.names[pn] = pk
                pnames.append(pn + (f": {pk}" if pk != NUM else ""))
            self.pure += self.avoid_known
            self.using = set()
            body = self.value(sc, kind, 1)
            if self.defines and self.chance(0.6):
                self.note("define on define")
                inner = self.call_define(sc, 1, NUM)
                body = (f"({inner} + 1 if {self.flag(sc, 2)} else {inner})" if kind == NUM
                        else f"({body} if {inner} > 2 else {self.value(sc, kind, 2)})")
            self.pure -= self.avoid_known
            self.defines.append((name, params, kind, frozenset(self.using)))
            self.using = None
            head = f"{name}({', '.join(pnames)})" if params else name
            lines.append(f"define {head} = {body}")
        if "define in both branches" in self.known:
            lines += self.both_branches()
        if "copied rule" in self.known:
            lines += self.tower()
        return lines

    def tower(self):
        """A define of a card that counts cards (`number of cards in hand where ...`), and a
        tower of defines above it, each twice the one below; the rule ``tally`` uses the top."""
        names = [self.name("n") for _ in range(6)]
        out = [f"define {names[0]}(c: card) = number of cards in {self.pick('hand', 'table', 'pile')}"
               f" where rank of card is rank of c"]
        out += [f"define {b}(c: card) = {a}(c) + {a}(c)" for a, b in zip(names, names[1:])]
        self.tally = Stmt("rule tally:", [Stmt(f"add {names[-1]}(top of hand) mod 3 to points")])
        self.rules.append(("tally", [], False))
        self.note("copied rule with a tower of defines")
        return out

    def both_branches(self):
        """Three defines of a player: ``a``, ``b`` that uses ``a``, and ``c`` = `(a(p) if b(p) <
        2 else a(p) + b(p))`: ``a`` in both branches of a value whose condition uses it too."""
        sc = Scope({"p": PLAYER})
        self.pure += self.avoid_known
        first = self.number(sc, 2)
        self.pure -= self.avoid_known
        a, b, c = (self.name("shared"), self.name("over"), self.name("both"))
        self.defines += [(a, [PLAYER], NUM, frozenset()), (b, [PLAYER], NUM, frozenset([a])),
                         (c, [PLAYER], NUM, frozenset([a, b]))]
        self.note("define in both branches")
        return [f"define {a}(p: player) = points of p + {first}",
                f"define {b}(p: player) = size of hand of p - {a}(p)",
                f"define {c}(p: player) = ({a}(p) if {b}(p) < 2 else {a}(p) + {b}(p))"]

    def make_rules(self):
        r = self.rng
        out = []
        # a rule that calls itself, counting down
        name = "dig"
        self.rules.append((name, [NUM], False))
        sc = Scope({"depth": NUM}, rule=True, depth=1)
        body = self.block(sc, r.randrange(1, 3), decide=self.chance(0.5))
        self.note("rule calling itself")
        out.append(Stmt("rule dig(depth):", [Stmt("if depth > 0:", body + [Stmt("dig(depth - 1)")])]))
        for i in range(r.randrange(0, 3)):
            name = f"r{i}"
            params = [self.pick(NUM, CARD, PLAYER) for _ in range(r.randrange(0, 3))]
            sc = Scope(rule=True, depth=1)
            heads = []
            for j, pk in enumerate(params):
                pn = f"{name}_{j}"
                sc.names[pn] = pk
                heads.append(pn + (f": {pk}" if pk != NUM else ""))
            body = self.block(sc, r.randrange(1, 4), decide=self.chance(0.6))
            head = f"rule {name}({', '.join(heads)}):" if params else f"rule {name}:"
            out.append(Stmt(head, body))
            self.rules.append((name, params, False))
        return out

    def text(self) -> str:
        r = self.rng
        lo, hi = self.players
        lines = [f'game "fuzz {self.seed}"', f"players {lo} to {hi}" if hi > lo else f"players {lo}", ""]
        if self.teams:
            lines.insert(2, f"teams: {self.teams}")
        lines.append("deck standard" + (", copies 2" if self.chance(0.15) else "") + ", into stock")
        for z, _per, props in ZONES:
            lines.append(f"zone {z}: {props}")
        lines.append(f"zone {FAMILY}")
        lines.append("zone heap per suit: shared, face up")
        lines.append(f"option bonus = {r.randrange(0, 3)} from 0 to 5")
        if self.chance(0.5):
            self.note("show with zone")
            lines.append('show "Ranks" with shelf: total rank of shelf')
        lines.append('values level: low, middle "Mid", upper, top "Top!"')
        lines += ["var mark: level = " + self.pick("low", "none"), "var marks: level per player = low"]
        lines += ["var points per player = 0", "var rounds = 0", "var lucky = no",
                  "var last: card = none", "var named: suit = none", "var chosen: player = none",
                  "var kept_suits: set of suits per player", "var kept_ranks: set of ranks",
                  'values call: c0 "nothing", c1 "1", c2 "2", c3 "3", c4 "4"',
                  "var high: call = none", "var holder: player = none", "var doubled = no",
                  ] + (["var tally per team", "var tsuits: set of suits per team"] if self.teams
                       else []) + [
                  "attribute value:", "    ace: 11", "    jack, queen, king: 10",
                  "    otherwise: rank of card", "score: points + size of shelf"]
        # what a computer player plays for, and how far each has got (read at the end, and by
        # the measures: State.returns, progress_of): a stream of their own
        ret = random.Random(f"returns {self.seed}")
        if ret.random() < 0.3:
            self.note("returns")
            lines.append("returns: " + ret.choice(("score of you - size of hand", "points - rounds",
                                                   "size of pile of (player after you) * 2")))
        if ret.random() < 0.3:
            self.note("progress")
            lines.append("progress: " + ret.choice(("0 - size of hand", "points + rounds")))
        lines.append("")
        lines += self.make_defines()
        lines.append(f"game ends after {r.randrange(6, 24)} turns:")
        lines.append("    end game by " + self.pick("highest", "lowest") + " score")
        if self.chance(0.4):
            lines.append("game ends when stock is empty:")
            lines.append("    end game with no winner")
        if self.chance(0.5):
            lines.append(f"game ends when points > {r.randrange(10, 40)}:")
            lines.append("    end game with winner you")
        rules = self.make_rules() + ([self.tally] if getattr(self, "tally", None) else [])
        setup = [Stmt("shuffle stock"), Stmt(f"deal {r.randrange(2, 6)} from stock to hand of each player"),
                 Stmt("move top card from stock to discard")]
        setup += self.block(Scope(depth=1), r.randrange(0, 3), decide=self.chance(0.3))
        turn = [Stmt("add 1 to rounds")] + self.block(Scope(), r.randrange(1, 4))
        turn.append(Stmt("choose:", self.alternatives(Scope())))
        turn += self.block(Scope(), r.randrange(0, 2))
        self.note("turn choice")
        body = _lines_of(rules + [Stmt("setup:", setup), Stmt("turn:", turn)], 0)
        return "\n".join(lines + body) + "\n"


def _lines_of(x, indent):
    if isinstance(x, list):
        return [line for s in x for line in _lines_of(s, indent)]
    return x.lines(indent)


# ---- playing a game both ways ------------------------------------------------------------------

def _outcome(st):
    return (st.terminal, st.outcome, list(st.winners or []), list(st.ranking or []),
            st.results(), st.returns(), st.problem, _progress(st))


def _progress(st):
    """Each seat's ``progress:`` now (the measures of ``stats`` read it), or what stopped it."""
    g = st.game
    if getattr(g, "progress_fn", None) is None:
        return None
    return _guarded(lambda: [g.progress_of(st, p) for p in range(st.n)])


def _guarded(fn):
    """``fn()``, or the error it raised (an internal error of a backend is a difference too)."""
    try:
        return fn(), None
    except Exception as e:          # noqa: BLE001 (what either backend raised is compared)
        return None, f"{type(e).__name__}: {e}"


def _decision_view(st):
    """Everything the API tells at this point: who decides, each seat's legal actions (every
    copy) and observation."""
    return (st.is_terminal(), st.current_players(), st.is_simultaneous(),
            [st.legal_actions(p, every_copy=True) for p in range(st.n)],
            [st.observation(p) for p in range(st.n)])


def _saved(st):
    """A state's save, but for the work done in loops (``work``): that is the compiled game's
    bound on loops inside loops (docs/security.md), charged from the loops of its generated
    code; the reference has only the step budget.  A game the bound stops shows as a different
    result."""
    j = st.to_json()
    j.pop("work", None)
    return j


def stopped_on_work(st) -> bool:
    """Whether the compiled game ``st`` stopped on its bound of the work of loops inside
    expressions (RL901, ``State.work``; docs/security.md, "Loops inside loops")."""
    p = st.problem
    return bool(p) and p.get("code") == "RL901" and "evaluated more than" in p.get("message", "")


def _work_stop_agrees(ref_state, compiled_state) -> bool:
    """A compiled game stopped on the work bound agrees with the reference if the reference,
    which has no such bound (the charge is the compiled code's, where its loops run), played at
    least as many steps without another problem: the bound is a guard of resources, like the
    step budget, and where exactly it stops a game is the compiled code's own."""
    if not stopped_on_work(compiled_state):
        return False
    p = ref_state.problem
    if ref_state.steps >= compiled_state.steps and (not p or p.get("code") == "RL901"):
        WORK_STOPS[0] += 1
        return True
    return False


WORK_STOPS = [0]        # how many comparisons ended on the compiled game's work bound


def compare(game, n, seed, max_steps=4000, max_decisions=400, optimize=None):
    """Play ``game`` (a loaded rule file) for ``n`` players through the reference and the
    compiled game, choosing the same random actions, and return ``None`` or the first
    difference, in words.  Then the playout fast path of each, from the seed.  Also returns the
    number of decisions played: ``(difference or None, decisions)``.  ``optimize``: the
    optimisations the game is compiled with (compile/passes.py; None: the run's own)."""
    from reference import ReferenceGame
    rng = random.Random(seed)
    ref, err_r = _guarded(lambda: ReferenceGame(game.model, n))
    cg, err_c = _guarded(lambda: game.compiled(n, optimize=optimize))
    if err_r or err_c:
        return (None if err_r == err_c else f"building: reference {err_r!r}, compiled {err_c!r}"), 0
    a, err_r = _guarded(lambda: ref.new_game(seed=seed, log=True, max_steps=max_steps))
    b, err_c = _guarded(lambda: cg.new_game(seed=seed, log=True, max_steps=max_steps))
    if err_r or err_c:
        return f"new game: reference {err_r!r}, compiled {err_c!r}", 0
    decisions = 0
    while True:
        if stopped_on_work(b):          # (the reference, without that bound, plays on)
            if a.log[:len(b.log)] != b.log:
                return _first_log_difference(a.log, b.log, decisions), decisions
            return (None if _work_stop_agrees(a, b) else
                    f"decision {decisions}: the compiled game stopped on the work bound at step "
                    f"{b.steps}, the reference at {a.steps}: {a.problem}"), decisions
        va, vb = _decision_view(a), _decision_view(b)
        if a.log != b.log:
            return _first_log_difference(a.log, b.log, decisions), decisions
        if va != vb:
            return f"decision {decisions}: reference {_short(va)} / compiled {_short(vb)}", decisions
        if a.is_terminal() or decisions >= max_decisions:
            break
        for p in list(a.current_players()):
            legal = a.legal_actions(p)
            act = legal[rng.randrange(len(legal))]
            _, err_r = _guarded(lambda: a.apply_action(act, p))
            _, err_c = _guarded(lambda: b.apply_action(act, p))
            if err_r or err_c:
                return f"decision {decisions}: reference {err_r!r}, compiled {err_c!r}", decisions
            decisions += 1
            if a.is_terminal() or not a.is_simultaneous():
                break
    if _work_stop_agrees(a, b):
        return None, decisions
    if _outcome(a) != _outcome(b):
        return f"result: reference {_outcome(a)} / compiled {_outcome(b)}", decisions
    if a.is_terminal():
        ja, jb = _saved(a), _saved(b)
        if ja != jb:
            return f"save at the end: {_dict_difference(ja, jb)}", decisions
        # the playout fast path, from the seed: the same game as the API's when every seat
        # draws from one generator seeded alike
        fa, err_r = _guarded(lambda: ref.playout(seed, [random.Random(seed).randrange] * n,
                                                 max_steps=max_steps))
        fb, err_c = _guarded(lambda: cg.playout(seed, [random.Random(seed).randrange] * n,
                                                max_steps=max_steps))
        if err_r or err_c:
            return f"playout: reference {err_r!r}, compiled {err_c!r}", decisions
        if _saved(fa) != _saved(fb) and not _work_stop_agrees(fa, fb):
            return f"playout: {_dict_difference(_saved(fa), _saved(fb))}", decisions
        # (what players remember is compared as the save keeps it, the cards still where they
        # were seen: a playout may keep the others too, or not, as its memory is kept)
        # the compiled game's API and fast path from the same position
        c2 = cg.new_game(seed=seed, max_steps=max_steps)
        _, err = _guarded(lambda: c2.playout([random.Random(seed + 1).randrange] * n))
        r2 = ref.new_game(seed=seed, max_steps=max_steps)
        _, err_r = _guarded(lambda: r2.playout([random.Random(seed + 1).randrange] * n))
        if err or err_r or (_saved(c2) != _saved(r2) and not _work_stop_agrees(r2, c2)):
            return f"playout from new_game: {err_r!r} {err!r} {_dict_difference(_saved(r2), _saved(c2))}", decisions
    return None, decisions


def _short(v, limit=600):
    s = repr(v)
    return s if len(s) <= limit else s[:limit] + "..."


def _first_log_difference(la, lb, decisions):
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return f"log entry {i} (decision {decisions}): reference {x!r} / compiled {y!r}"
    return (f"log length (decision {decisions}): reference {len(la)} / compiled {len(lb)}: "
            f"{_short(la[len(lb):] or lb[len(la):], 300)}")


def _dict_difference(a, b):
    if not isinstance(a, dict) or not isinstance(b, dict):
        return _short((a, b), 300)
    keys = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    return "; ".join(f"{k}: {_short(a.get(k), 150)} / {_short(b.get(k), 150)}" for k in keys[:3])


# ---- reducing a difference to a small file -----------------------------------------------------

def _blocks(lines):
    """The statements of a file's text: ``(first line, line after its block)`` for each line."""
    out = []
    for i, line in enumerate(lines):
        ind = len(line) - len(line.lstrip())
        j = i + 1
        while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > ind):
            j += 1
        out.append((i, j))
    return out


def _with_pass(lines, i, j):
    """``lines`` without lines ``i`` to ``j``; a block left empty gets a `pass`."""
    rest = lines[:i] + lines[j:]
    if i > 0 and lines[i - 1].rstrip().endswith(":"):
        ind = len(lines[i - 1]) - len(lines[i - 1].lstrip())
        nxt = rest[i] if i < len(rest) else ""
        if len(nxt) - len(nxt.lstrip()) <= ind or not nxt.strip():
            rest.insert(i, " " * (ind + 4) + "pass")
    return rest


def reduce(text, n, seed, still, limit=400):
    """The smallest text found, by dropping statements and declarations one at a time, for
    which ``still(difference)`` holds of ``compare`` (the game must still check and differ)."""
    from rulelang.compile.loader import load
    from rulelang.syntax.diagnostics import RuleFileError

    def differs(t):
        try:
            game = load("reduced.cardrules", text=t)
        except RuleFileError:
            return False
        if not game.players[0] <= n <= game.players[1]:
            return False
        diff, _ = compare(game, n, seed)
        return diff is not None and still(diff)

    lines = text.split("\n")
    tries, changed = 0, True
    while changed and tries < limit:
        changed = False
        i = len(lines) - 1
        while i >= 0 and tries < limit:
            i = min(i, len(lines) - 1)
            line = lines[i]
            if line.strip() and not line.startswith(("game \"", "players", "deck ")):
                cand = _with_pass(lines, i, dict(_blocks(lines))[i])
                if cand != lines:
                    tries += 1
                    if differs("\n".join(cand)):
                        lines, changed = cand, True
            i -= 1
    return "\n".join(lines)
