"""Inputs for the fuzzer (``benchmarks/fuzz.py``): rule files made from the grammar, made as
plausible games, and made by mutating the real rule files.

Every input is a pure function of ``(seed, index)``: :func:`make_input` returns the same text for
the same pair on every machine, so a failure is replayed from its two numbers.

Three sources, each a function ``f(rng) -> (text, tags)``; ``tags`` name the extreme features
used (``huge_int``, ``deep_nest``, ...), which the report shows beside each failure:

- :func:`from_grammar` walks the rules of ``rulelang/grammar/cardrules.lark`` (as compiled by
  Lark, so every input follows the grammar's shape) with a depth and size bound, filling the
  terminals with names declared in the same file, numbers (some huge), strings with control
  characters and rich markup.  Most of these stop at the checker: they test its diagnostics.
- :func:`plausible_game` writes a small game that declares its zones, variables and defines and
  then uses them with the right kinds, with random statements and expressions, so that many
  inputs check clean and reach the compiler and a short run; at a low rate it adds extremes (deep
  nesting, long chains of operators and defines, huge numbers and loop counts, division by zero,
  huge player counts).
- :func:`mutate_real` takes a file of ``rules/`` or ``examples/`` and deletes, duplicates, swaps
  lines and tokens, splices blocks from another file, changes numbers to extremes, indents and
  dedents.
"""
from __future__ import annotations

import functools
import glob
import os
import random
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REAL_FILES = sorted(glob.glob(os.path.join(ROOT, "rules", "*.cardrules"))
                    + glob.glob(os.path.join(ROOT, "examples", "*.cardrules")))


@functools.lru_cache(maxsize=1)
def real_texts() -> dict:
    return {os.path.basename(p): open(p, encoding="utf-8").read() for p in REAL_FILES}


# ---- terminal values ------------------------------------------------------------------------

HUGE_INTS = ["0", "1", "2", "7", "13", "52", "64", "255", "256", "1000", "65535", "99999",
             "2147483647", "2147483648", "4294967296", "9223372036854775807",
             "9223372036854775808", "18446744073709551616", "100000000000000000000",
             "1" + "0" * 100, "9" * 400, "1" + "0" * 4300, "7" * 5000]
PLAIN_INTS = ["0", "1", "2", "3", "4", "5", "7", "8", "10", "12", "13", "20"]
# Text a rule file may want shown, and text an attacker would like the terminal to obey.
NASTY_STRINGS = [
    "\x1b[2J\x1b[H", "\x1b]0;owned\x07", "\x1b]8;;http://example.invalid\x07link\x1b]8;;\x07",
    "\rPlayer 2 wins!", "\x07\x08\x08\x08", "\x00nul", "\x7f\x9b31m", "\u202eevil", "\u200b",
    "[bold red]FUZZMARKB[/bold red]", "[link=http://example.invalid]FUZZMARKL[/link]", "[/]",
    "[", "]", "[[", "[red", "\\[x]", "{0}", "%s%n", "\t", "\ufeff", "\ud7ff", "é♥🂡",
    "x" * 5000, "FUZZMARK",
]
PATHS = ["sevens.cardrules", "attack.cardrules", "/dev/zero", "/proc/self/environ", "/etc/passwd",
         "../../x.cardrules", ".", "", "nonexistent.cardrules", "crazy_eights.cardrules"]
# Words the checker knows without a declaration (the prelude's deck, its suits and ranks).
PRELUDE_NAMES = ["standard", "jokers", "clubs", "diamonds", "hearts", "spades", "ace", "jack",
                 "queen", "king", "joker", "red_joker", "black_joker", "card", "rank", "suit"]


def rand_int(rng: random.Random) -> tuple:
    if rng.random() < 0.08:
        return rng.choice(HUGE_INTS), {"huge_int"}
    return rng.choice(PLAIN_INTS), set()


def rand_string(rng: random.Random) -> tuple:
    r = rng.random()
    if r < 0.3:
        s = rng.choice(NASTY_STRINGS)
        return '"' + s.replace('"', "'").replace("\n", " ") + '"', {"nasty_text"}
    if r < 0.35:
        return '"' + rng.choice(PATHS) + '"', {"path"}
    return '"' + rng.choice(["Fuzz", "a game", "hello", "draw a card", "x", ""]) + '"', set()


def rand_name(rng: random.Random) -> str:
    n = rng.choice([1, 2, 3, 5, 8])
    first = rng.choice("abcdefghijklmnopqrstuvwxyz_")
    return first + "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789_") for _ in range(n))


# ---- 1. from the grammar --------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _grammar():
    """The compiled grammar: {nonterminal: [expansions]}, {terminal: literal or None}, and the
    least depth at which each nonterminal can end."""
    from rulelang.syntax.parser import _lark
    lk = _lark()
    rules: dict = {}
    for r in lk.rules:
        rules.setdefault(r.origin.name, []).append(tuple((s.name, s.is_term) for s in r.expansion))
    lits = {t.name: (t.pattern.value if type(t.pattern).__name__ == "PatternStr" else None)
            for t in lk.terminals}
    height = {nt: None for nt in rules}
    changed = True
    while changed:
        changed = False
        for nt, exps in rules.items():
            best = height[nt]
            for exp in exps:
                hs = [0 if term else height[name] for name, term in exp]
                if all(h is not None for h in hs):
                    h = 1 + max(hs, default=0)
                    if best is None or h < best:
                        best = h
            if best != height[nt]:
                height[nt], changed = best, True
    return rules, lits, height


REGEX_TERMS = {"COMP_OP": ["<", ">", "<=", ">="], "ADD_OP": ["+", "-"], "MUL_OP": ["*", "/", "mod"],
               "DIE": ["d6", "d1", "d0", "d2", "d100", "d99999999999999999999"]}


def from_grammar(rng: random.Random, max_depth: int = None, budget: int = None) -> tuple:
    """A token sequence the grammar derives from ``start``, rendered as text."""
    rules, lits, height = _grammar()
    max_depth = max_depth or rng.choice([8, 12, 16, 24, 40])
    budget = budget or rng.choice([60, 200, 600, 2000])
    names = [rand_name(rng) for _ in range(rng.randint(1, 6))] + rng.sample(PRELUDE_NAMES, 4)
    tags: set = {"grammar"}
    out: list = []
    count = [0]

    def walk(nt: str, depth: int):
        exps = rules[nt]
        if depth >= max_depth or count[0] >= budget:
            least = min(max((0 if t else height[n]) for n, t in e) if e else 0 for e in exps)
            exps = [e for e in exps if (max((0 if t else height[n]) for n, t in e) if e else 0)
                    == least]
        elif len(exps) > 1 and rng.random() < 0.75:
            # Under the bounds, grow: repeat a list (``x*``, ``x+``) and skip empty choices.
            rec = [e for e in exps if any(n == nt for n, _ in e)]
            full = [e for e in exps if e]
            exps = rec if rec and ("_star_" in nt or "_plus_" in nt) else (full or exps)
        exp = rng.choice(exps)
        for name, term in exp:
            if term:
                count[0] += 1
                out.append(terminal(name))
            else:
                walk(name, depth + 1)

    def terminal(name: str) -> str:
        if name in ("_NL", "_INDENT", "_DEDENT"):
            return name
        if lits.get(name) is not None:
            return lits[name]
        if name in REGEX_TERMS:
            return rng.choice(REGEX_TERMS[name])
        if name == "NAME":
            if rng.random() < 0.05:
                nm = rand_name(rng)
                names.append(nm)
                return nm
            return rng.choice(names)
        if name == "INT":
            s, t = rand_int(rng)
            tags.update(t)
            return s
        if name == "STRING":
            s, t = rand_string(rng)
            tags.update(t)
            return s
        return name.lower()

    # ``start`` is a list of items between blank lines: walk the items themselves, so that no
    # input is only blank lines.
    for _ in range(rng.choice([1, 2, 4, 8, 16])):
        walk("_item", 1)
    return render_tokens(out), tags


def render_tokens(toks: list) -> str:
    """Tokens to text: ``_NL`` ends a line, ``_INDENT``/``_DEDENT`` change the indentation of
    the next line."""
    level, parts, fresh = 0, [], True
    for t in toks:
        if t == "_NL":
            parts.append("\n")
            fresh = True
        elif t == "_INDENT":
            level += 1
        elif t == "_DEDENT":
            level = max(0, level - 1)
        else:
            if fresh:
                parts.append("    " * level)
                fresh = False
            elif parts and not parts[-1].endswith(("(", " ")) and t not in (",", ")", ":"):
                parts.append(" ")
            parts.append(t)
    return "".join(parts)


# ---- 2. plausible games -----------------------------------------------------------------------


class _Game:
    """The names a generated game declares, by kind, and a writer of expressions and statements
    that use them."""

    def __init__(self, rng: random.Random, extreme: float):
        self.rng = rng
        self.extreme = extreme          # chance of an extreme choice at each opportunity
        self.tags: set = {"game"}
        self.shared = ["stock", "pile", "table"]
        self.per_player = ["hand", "won"]
        self.nums = ["n1", "n2"]
        self.flags = ["f1"]
        self.cards = ["c1"]
        self.players_v = ["p1"]
        self.pp_nums = ["pts"]
        self.defines_num: list = []     # (name, arity)
        self.defines_bool: list = []
        self.rules: list = []           # (name, arity)
        self.option_nums = ["opt"]
        self.current_rule = None        # (name, arity) of the rule being written

    def x(self, tag: str) -> bool:
        if self.rng.random() < self.extreme:
            self.tags.add(tag)
            return True
        return False

    # -- expressions, by kind; ``env`` holds local names: {"num": [...], "card": [...], ...}
    def num(self, d: int, env: dict) -> str:
        r = self.rng
        if d <= 0 or r.random() < 0.3:
            choices = [lambda: rand_int(r)[0] if self.x("huge_int") else r.choice(PLAIN_INTS),
                       lambda: r.choice(self.nums), lambda: f"size of {self.zone(env)}",
                       lambda: "number of players", lambda: r.choice(self.option_nums),
                       lambda: f"{r.choice(self.pp_nums)} of {self.player(0, env)}"]
            if env.get("num"):
                choices.append(lambda: r.choice(env["num"]))
            return r.choice(choices)()
        k = r.randrange(12)
        if k < 4:
            op = r.choice(["+", "-", "*", "/", "mod", "+", "-"])
            rhs = "0" if op in ("/", "mod") and self.x("div_zero") else self.num(d - 1, env)
            return f"{self.num(d - 1, env)} {op} {rhs}"
        if k == 4:
            return f"({self.num(d - 1, env)})"
        if k == 5:
            return f"-{self.num(0, env)}"
        if k == 6:
            return f"({self.num(d - 1, env)} if {self.bool(d - 1, env)} else {self.num(d - 1, env)})"
        if k == 7:
            where = f" where {self.bool(d - 1, dict(env, card=env.get('card', []) + ['card']))}" \
                if r.random() < 0.5 else ""
            return f"number of cards in {self.zone(env)}{where}"
        if k == 8:
            return f"rank of {self.card(d - 1, env)}"
        if k == 9:
            return f"roll {r.choice(['d6', 'd1', 'd2', 'd0' if self.x('die_zero') else 'd3'])}"
        if k == 10 and self.defines_num:
            name, arity = r.choice(self.defines_num)
            return self.call(name, arity, d, env)
        return f"value of {self.card(d - 1, env)}" if r.random() < 0.5 else \
            f"total value of {self.zone(env)}"

    def call(self, name, arity, d, env):
        if arity == 0:
            return name
        return f"{name}({', '.join(self.num(d - 1, env) for _ in range(arity))})"

    def bool(self, d: int, env: dict) -> str:
        r = self.rng
        if d <= 0 or r.random() < 0.2:
            return r.choice([lambda: r.choice(["yes", "no"]), lambda: r.choice(self.flags),
                             lambda: f"{self.zone(env)} is empty",
                             lambda: f"{self.zone(env)} is not empty",
                             lambda: f"{self.card(0, env)} is none"])()
        k = r.randrange(9)
        if k == 0:
            return f"{self.num(d - 1, env)} {r.choice(['<', '>', '<=', '>='])} {self.num(d - 1, env)}"
        if k == 1:
            return f"{self.num(d - 1, env)} is {self.num(d - 1, env)}"
        if k == 2:
            return f"not {self.bool(d - 1, env)}"
        if k == 3:
            return f"({self.bool(d - 1, env)} {r.choice(['and', 'or'])} {self.bool(d - 1, env)})"
        if k == 4:
            inner = dict(env, card=env.get("card", []) + ["card"])
            return f"{r.choice(['any', 'no'])} card in {self.zone(env)} where ({self.bool(d - 1, inner)})"
        if k == 5:
            return f"suit of {self.card(d - 1, env)} is {r.choice(['hearts', 'spades', 'clubs'])}"
        if k == 6 and self.defines_bool:
            name, arity = r.choice(self.defines_bool)
            return self.call(name, arity, d, env)
        if k == 7:
            return f"{self.player(d - 1, env)} is {self.player(d - 1, env)}"
        return f"{self.card(d - 1, env)} is not none"

    def card(self, d: int, env: dict) -> str:
        r = self.rng
        opts = [lambda: f"top of {self.zone(env)}", lambda: f"bottom of {self.zone(env)}",
                lambda: r.choice(self.cards), lambda: "none"]
        if d > 0:
            opts.append(lambda: f"random card of {self.zone(env)}")
        if env.get("card"):
            opts += [lambda: r.choice(env["card"])] * 3
        return r.choice(opts)()

    def player(self, d: int, env: dict) -> str:
        r = self.rng
        opts = [lambda: "you", lambda: "current player", lambda: "next player",
                lambda: "previous player", lambda: "player 1", lambda: r.choice(self.players_v)]
        if d > 0:
            opts += [lambda: f"player after {self.player(d - 1, env)}",
                     lambda: f"player before {self.player(d - 1, env)}"]
        if env.get("player"):
            opts += [lambda: r.choice(env["player"])] * 2
        if self.x("player_seat"):
            opts.append(lambda: f"player {rand_int(r)[0]}")
        return r.choice(opts)()

    def zone(self, env: dict) -> str:
        r = self.rng
        if r.random() < 0.5:
            return r.choice(self.shared)
        z = r.choice(self.per_player)
        return z if r.random() < 0.5 else f"{z} of {self.player(0, env)}"

    # -- statements: lists of lines (without the indentation of the block they are in)
    def block(self, d: int, env: dict, n: int = None, loop: bool = False) -> list:
        n = n if n is not None else self.rng.randint(1, 3)
        out = []
        for _ in range(n):
            out += self.stmt(d, env, loop)
        return out or ["pass"]

    def stmt(self, d: int, env: dict, loop: bool) -> list:
        r = self.rng
        e = r.choice([1, 2, 2, 3])
        k = r.randrange(22 if d > 0 else 12)
        ind = lambda lines: ["    " + ln for ln in lines]
        if k == 0:
            return [f"set {r.choice(self.nums)} to {self.num(e, env)}"]
        if k == 1:
            return [f"add {self.num(e, env)} to {r.choice(self.nums + self.pp_nums)}"]
        if k == 2:
            return [f"subtract {self.num(e, env)} from {r.choice(self.nums)}"]
        if k == 3:
            return [f"set {r.choice(self.flags)} to {self.bool(e, env)}"]
        if k == 4:
            return [f"set {r.choice(self.cards)} to {self.card(e, env)}"]
        if k == 5:
            sel = r.choice(["top card", "bottom card", "random card", "all cards", "all but top card",
                            f"{self.num(1, env)} cards", f"all cards where {self.bool(1, dict(env, card=['card']))}"]
                           + ([r.choice(env["card"])] if env.get("card") else []))
            return [f"move {sel} from {self.zone(env)} to {self.zone(env)}"
                    + (" turned over" if r.random() < 0.2 else "")]
        if k == 6:
            return [f"shuffle {self.zone(env)}"]
        if k == 7:
            s, t = rand_string(r)
            self.tags.update(t)
            return [f"say {s}, {self.num(1, env)}"]
        if k == 8:
            name = rand_name(r)
            env["num"] = env.get("num", []) + [name]     # a new list: the outer block's stays
            return [f"let {name} = {self.num(e, env)}"]
        if k == 9:
            return [r.choice(["skip next player", "reverse direction", "pass",
                              f"next turn goes to {self.player(1, env)}",
                              f"reveal {self.card(1, env)}"] + (["stop"] if loop else []))]
        if k == 10 and (self.rules or self.current_rule):
            name, arity = r.choice(self.rules) if self.rules and not (
                self.current_rule and self.x("recursion")) else self.current_rule
            call = self.call(name, arity, 1, env) if arity else name
            return [call + (f" for {self.player(1, env)}" if r.random() < 0.2 else "")]
        if k == 11:
            return [f"set {r.choice(self.players_v)} to {self.player(1, env)}"]
        if k in (12, 13):
            lines = [f"if {self.bool(e, env)}:"] + ind(self.block(d - 1, dict(env), loop=loop))
            if r.random() < 0.3:
                lines += [f"else if {self.bool(e, env)}:"] + ind(self.block(d - 1, dict(env), loop=loop))
            if r.random() < 0.4:
                lines += ["else:"] + ind(self.block(d - 1, dict(env), loop=loop))
            return lines
        if k == 14:
            count = rand_int(r)[0] if self.x("huge_loop") else r.choice(["1", "2", "3", "n1"])
            return [f"repeat {count} times:"] + ind(self.block(d - 1, dict(env), loop=True))
        if k == 15:
            return [f"repeat {r.choice(['while', 'until'])} {self.bool(e, env)}:"] + \
                ind(self.block(d - 1, dict(env), loop=True) + (["stop"] if r.random() < 0.7 else []))
        if k == 16:
            name = rand_name(r)
            inner = dict(env, player=env.get("player", []) + [name])
            return [f"for each player {name}:"] + ind(self.block(d - 1, inner, loop=True))
        if k == 17:
            name = rand_name(r)
            inner = dict(env, card=env.get("card", []) + [name])
            return [f"for each card {name} in {self.zone(env)}:"] + ind(self.block(d - 1, inner, loop=True))
        if k == 18 and r.random() < 0.3:
            return self.choose(d - 1, env, simul=True)
        if k in (18, 19):
            return self.choose(d - 1, env, by=r.random() < 0.3)
        if k == 20 and self.x("self_multiply"):
            v = r.choice(self.nums)
            return [f"repeat {r.choice(['64', '100', '1000'])} times:", f"    set {v} to {v} * {v} + 2"]
        return [f"if {self.bool(e, env)}:"] + ind(self.block(d - 1, dict(env), loop=loop))

    def choose(self, d: int, env: dict, by: bool = False, simul: bool = False) -> list:
        r = self.rng
        head = f"choose by {self.player(1, env)}:" if by else "choose:"
        if simul:
            head = f"simultaneously choose by {', '.join(self.player(1, env) for _ in range(r.randint(1, 3)))}:"
        lines = [head]
        for i in range(r.randint(1, 4)):
            label = r.choice(["play", "draw", "take", "name", "go", "keep"]) + str(i)
            k = r.randrange(6)
            inner = dict(env)
            if k == 0:
                v = rand_name(r)
                inner["card"] = inner.get("card", []) + [v]
                param = f" card {v} from {self.zone(env)}" + \
                    (f" where {self.bool(1, inner)}" if r.random() < 0.5 else "")
            elif k == 1:
                v = rand_name(r)
                inner["player"] = inner.get("player", []) + [v]
                param = f" player {v} from {r.choice(['opponents', 'players'])}"
            elif k == 2:
                v = rand_name(r)
                inner["num"] = inner.get("num", []) + [v]
                hi = rand_int(r)[0] if self.x("huge_range") else r.choice(["3", "5", "n1"])
                param = f" number {v} from {r.choice(['0', '1', '-5'])} to {hi}"
            elif k == 3:
                param = f" suit {rand_name(r)}"
            else:
                param = ""
            cond = f" if {self.bool(1, env)}" if r.random() < 0.3 else ""
            lines += [f"    {label}{param}{cond}:"] + ["        " + ln for ln in self.block(d, inner)]
        lines += ["    pass:", "        pass"]
        return lines

    # -- extremes that are not one construct: deep nesting and long chains
    def deep_nest(self) -> list:
        depth = self.rng.choice([10, 19, 20, 25, 60, 97, 100, 300, 1000])
        self.tags.add("deep_nest")
        kind = self.rng.choice(["if yes:", "repeat 1 times:", "for each player q{i}:",
                                "for each card k{i} in stock:", "if n1 > 0:"])
        lines = []
        for i in range(depth):
            lines.append("    " * i + kind.format(i=i))
        lines.append("    " * depth + "add 1 to n1")
        return lines

    def long_expr(self) -> str:
        n = self.rng.choice([100, 1000, 5000, 20000])
        self.tags.add("long_expr")
        kind = self.rng.randrange(4)
        if kind == 0:
            return " + ".join(["n1"] * n)
        if kind == 1:
            return "(" * n + "n1" + ")" * n
        if kind == 2:
            return "-" * n + "n1"
        return "n1 * " * n + "1"

    def long_bool(self) -> str:
        n = self.rng.choice([100, 1000, 10000])
        self.tags.add("long_expr")
        return "not " * n + "f1" if self.rng.random() < 0.5 else " and ".join(["f1"] * n)


def plausible_game(rng: random.Random, extreme: float = None) -> tuple:
    """A whole game: header, deck, zones, variables, defines, rules, setup, turn, ends."""
    extreme = rng.choice([0.0, 0.02, 0.05, 0.15]) if extreme is None else extreme
    g = _Game(rng, extreme)
    lines = []
    title, t = rand_string(rng) if rng.random() < 0.3 else ('"Fuzz"', set())
    g.tags.update(t)
    lines.append(f"game {title}")
    if g.x("players"):
        lo = rng.choice(["0", "1", "2", "20000"])
        hi = rng.choice(["1000", "65", "100000000000000000000", "1"])
        lines.append(rng.choice([f"players {lo} to {hi}", f"players {lo}"]))
    else:
        lines.append(f"players {rng.choice(['2', '2 to 4', '3', '1 to 2', '2 to 6'])}")
    lines.append(f"option opt = {rng.choice(['1', '3'])} from 0 to {rng.choice(['5', '9'])}")
    lines.append(f"deck standard{' with jokers' if rng.random() < 0.3 else ''}"
                 f"{', copies ' + rng.choice(['2', 'opt', '0']) if rng.random() < 0.2 else ''}"
                 f"{', copies ' + rand_int(rng)[0] if g.x('huge_copies') else ''}, into stock")
    lines += ["zone stock: shared, face down", "zone pile: shared, top face up",
              "zone table: shared, face up", "zone hand: per player, seen by owner",
              "zone won: per player, seen by nobody, size hidden"]
    lines += [f"var n1 = {rng.choice(PLAIN_INTS)}", "var n2 = 0", "var f1 = no",
              "var c1: card = none", "var p1: player = none", "var pts per player = 0"]
    lines += ["attribute value:", "    ace: 14", "    king: " + (rand_int(rng)[0] if g.x("huge_int") else "13"),
              "    otherwise: rank of card"]
    env: dict = {}
    # defines: some of numbers, some of yes/no; at times a chain where each uses the one before
    if g.x("define_chain"):
        k = rng.choice([10, 16, 20, 30])
        lines.append("define d0 = n1 + 1")
        for i in range(1, k):
            lines.append(f"define d{i} = d{i - 1} + d{i - 1}")
        g.defines_num.append((f"d{k - 1}", 0))
    for i in range(rng.randint(0, 3)):
        arity = rng.choice([0, 0, 1, 2])
        params = [f"a{i}_{j}" for j in range(arity)]
        body = g.num(2, dict(env, num=params))
        lines.append(f"define dn{i}{'(' + ', '.join(params) + ')' if arity else ''} = {body}")
        g.defines_num.append((f"dn{i}", arity))
    for i in range(rng.randint(0, 2)):
        lines.append(f"define db{i} = {g.bool(2, env)}")
        g.defines_bool.append((f"db{i}", 0))
    if g.x("define_cycle"):
        lines += ["define cyc1(a) = cyc2(a) + 1", "define cyc2(b) = cyc1(b - 1)"]
        g.defines_num.append(("cyc1", 1))
    if g.x("long_expr"):
        lines.append(f"define dl = {g.long_expr()}")
        g.defines_num.append(("dl", 0))
    if g.x("long_expr"):
        lines.append(f"define dlb = {g.long_bool()}")
        g.defines_bool.append(("dlb", 0))
    # rules (declared first so that setup and turn can call them; a rule may call an earlier one)
    for i in range(rng.randint(0, 3)):
        arity = rng.choice([0, 0, 1])
        params = [f"r{i}_{j}" for j in range(arity)]
        head = f"rule rule{i}{'(' + ', '.join(params) + ')' if arity else ''}:"
        g.current_rule = (f"rule{i}", arity)
        body = g.block(rng.randint(1, 3), dict(env, num=params))
        g.current_rule = None
        if g.x("deep_nest"):
            body += g.deep_nest()
        lines += [head] + ["    " + ln for ln in body]
        g.rules.append((f"rule{i}", arity))
    lines += ["setup:", "    shuffle stock",
              f"    deal {rand_int(rng)[0] if g.x('huge_deal') else rng.choice(['3', '5', 'opt', 'n1'])}"
              " from stock to hand of each player",
              "    move top card from stock to pile"]
    lines += ["    " + ln for ln in g.block(2, dict(env), n=rng.randint(0, 3))]
    turn = g.choose(rng.randint(1, 3), dict(env))
    turn = g.block(2, dict(env), n=rng.randint(0, 2)) + turn + g.block(2, dict(env), n=rng.randint(0, 2))
    if g.x("deep_nest"):
        turn += g.deep_nest()
    lines += ["turn:"] + ["    " + ln for ln in turn]
    lines += [f"score: {g.num(2, env)}" if rng.random() < 0.5 else
              "score: score of next player + 1" if g.x("score_cycle") else "score: size of hand"]
    lines += ["game ends when hand is empty:", "    end game with winner you"]
    lines += [f"game ends when {g.bool(2, env)}:",
              "    " + rng.choice(["end game by highest score", "end game by lowest score",
                                   "end game with no winner", "end game with loser you"])]
    return "\n".join(lines) + "\n", g.tags


# ---- 3. mutations of the real files ----------------------------------------------------------

TOKEN = re.compile(r'"[^"\n]*"|#[^\n]*|[A-Za-z_][A-Za-z0-9_]*|\d+|<=|>=|\n|[ \t]+|.')
NUMBER = re.compile(r"(?<![A-Za-z_0-9])\d+(?![A-Za-z_0-9])")
VOCAB = ["move", "from", "to", "top", "card", "cards", "of", "is", "not", "if", "else", ":", "(",
         ")", ",", "=", "-", "+", "*", "/", "mod", "0", "1", "none", "you", "player", "each",
         "choose", "repeat", "times", "stop", "return", "rule", "zone", "var", "define", "replace",
         "extends", "setup", "turn", "game", "ends", "when", "players", "deck", "with", "into",
         "copies", "option", "one", "per", "where", "any", "no", "yes", "\n", "    ", "\t", '"',
         "#", "end", "winner", "simultaneously", "by", "roll", "d0", "d6", "attribute",
         "otherwise", "score", "total", "rank", "suit", "after", "before", "size", "hand",
         "stock", "deal", "all", "but", "turned", "over", "bottom", "random", "\\\n", "\r",
         "\ufeff", "\x00", "\x1b"]


def mutate_real(rng: random.Random, base: str = None, n_ops: int = None) -> tuple:
    texts = real_texts()
    base = base or rng.choice(sorted(texts))
    text = texts[base]
    tags = {"mutant", "base=" + base}
    for _ in range(n_ops or rng.choice([1, 1, 2, 3, 5, 8])):
        kind = rng.choice(["del_line", "dup_line", "swap_lines", "indent", "dedent", "del_tok",
                           "dup_tok", "swap_toks", "replace_tok", "insert_tok", "splice",
                           "number", "number", "dup_block", "string"])
        lines = text.split("\n")
        if kind in ("del_line", "dup_line", "swap_lines", "indent", "dedent"):
            i = rng.randrange(len(lines))
            if kind == "del_line":
                del lines[i]
            elif kind == "dup_line":
                lines[i:i] = [lines[i]] * rng.choice([1, 1, 2, 50])
            elif kind == "swap_lines":
                j = rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
            elif kind == "indent":
                lines[i] = rng.choice(["    ", "  ", "\t", " "]) + lines[i]
            else:
                lines[i] = lines[i][rng.choice([1, 2, 4]):]
            text = "\n".join(lines)
        elif kind in ("splice", "dup_block"):
            other = texts[rng.choice(sorted(texts))].split("\n") if kind == "splice" else lines
            a = rng.randrange(len(other))
            b = min(len(other), a + rng.randint(1, 15))
            at = rng.randrange(len(lines) + 1)
            lines[at:at] = other[a:b]
            text = "\n".join(lines)
        elif kind == "number":
            nums = list(NUMBER.finditer(text))
            if nums:
                m = rng.choice(nums)
                text = text[:m.start()] + rng.choice(HUGE_INTS + ["0", "1"]) + text[m.end():]
                tags.add("huge_int")
        elif kind == "string":
            strs = list(re.finditer(r'"[^"\n]*"', text))
            if strs:
                m = rng.choice(strs)
                s, t = rand_string(rng)
                tags.update(t)
                text = text[:m.start()] + s + text[m.end():]
        else:
            toks = TOKEN.findall(text)
            if not toks:
                continue
            i = rng.randrange(len(toks))
            if kind == "del_tok":
                del toks[i]
            elif kind == "dup_tok":
                toks.insert(i, toks[i])
            elif kind == "swap_toks":
                j = rng.randrange(len(toks))
                toks[i], toks[j] = toks[j], toks[i]
            elif kind == "replace_tok":
                toks[i] = rng.choice(VOCAB + [t for t in toks[:400] if t.strip()])
            else:
                toks.insert(i, rng.choice(VOCAB) + " ")
            text = "".join(toks)
    return text, tags


# ---- all together -----------------------------------------------------------------------------

SOURCES = {"grammar": from_grammar, "game": plausible_game, "mutant": mutate_real}
# Shares of the sources: plausible games reach the compiler and the runtime, where most of the
# code is; grammar inputs and mutants exercise the parser's and the checker's diagnostics.
WEIGHTS = (("grammar", 3), ("game", 4), ("mutant", 3))


def make_input(seed: int, index: int) -> tuple:
    """(source, text, tags) of input number ``index`` of a run with ``seed``."""
    rng = random.Random(f"rulelang-fuzz:{seed}:{index}")
    total = sum(w for _, w in WEIGHTS)
    r = rng.randrange(total)
    for source, w in WEIGHTS:
        if r < w:
            break
        r -= w
    text, tags = SOURCES[source](rng)
    return source, text, sorted(tags)
