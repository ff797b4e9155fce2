"""Syntax errors in words.

:func:`syntax_diagnostic` turns a Lark parse error into one :class:`Diagnostic` that says what was
expected in the user's terms ("expected a zone name after `to`") rather than token names.  Common
mistakes are recognised in two ways:

* by the parser state the error happened in, compared with the states of small example mistakes
  (the idea of Lark's ``UnexpectedInput.match_examples``, with the examples parsed once and
  cached, because the fuzz tests and editors produce many errors);
* by looking at the text around the error (unclosed parentheses and quotes, tabs, ``==``,
  ``!=``, a misspelt first word, ``elif``).
"""
from __future__ import annotations

import difflib
import functools
import re
from typing import Optional

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from rulelang.syntax import ast as A
from rulelang.syntax.diagnostics import ERROR, Diagnostic, source_lines_of
# Words that begin a declaration (top level) and a statement (inside a block), and every word of
# the language: read from the grammar.
from rulelang.syntax.vocabulary import (DECL_WORDS, KEYWORDS, OF_WORDS, RESERVED_WORDS, STMT_WORDS,
                                       zone_properties)

# Terminals in words.
_WORDS = {
    "NAME": "a name", "INT": "a number", "STRING": 'a "quoted text"', "_NL": "the end of the line",
    "_INDENT": "an indented block", "_DEDENT": "the end of the block", "COLON": "`:`",
    "LPAR": "`(`", "RPAR": "`)`", "COMMA": "`,`", "EQUAL": "`=`", "DIE": "a die such as `d6`",
    "COMP_OP": "a comparison (`<`, `>`, `<=`, `>=`)", "ADD_OP": "`+` or `-`",
    "MUL_OP": "`*`, `/` or `mod`", "$END": "the end of the file", "SIGN": "`-`",
}
# Terminals that can begin a value; when most of them are allowed we say "a value".
_VALUE_STARTS = {"INT", "NAME", "LPAR", "YES", "NO", "NONE", "YOU", "CURRENT", "PLAYER", "RANK",
                 "SUIT", "TOP", "SIZE", "NUMBER", "RANDOM"}

# What is wanted after a word, by the first word of the line and the word before the error.
_AFTER = {
    ("move", "from"): "a zone name", ("move", "to"): "a zone name",
    ("deal", "from"): "a zone name", ("deal", "to"): "a zone name",
    ("shuffle", None): "a zone name", ("for", "in"): "a zone name",
    (None, "winner"): "a player", (None, "loser"): "a player", (None, "by"): "a player",
    (None, "if"): "a condition", (None, "while"): "a condition", (None, "until"): "a condition",
    (None, "when"): "a condition", (None, "and"): "a condition", (None, "or"): "a condition",
    (None, "not"): "a condition", (None, "where"): "a condition",
    (None, "repeat"): "a number of times, `while`, `until` or `:`",
    (None, "="): "a value", (None, "set"): "a variable", (None, "to"): "a value",
    (None, "of"): "a zone, card or player", (None, "is"): "a value",
    (None, "deal"): "a number of cards or `all`",
}


# Terminals that only continue a value (`x + 1`, `a and b`); left out when something else fits.
_CONTINUATIONS = {"ADD_OP", "MUL_OP", "COMP_OP", "AND", "OR", "IS", "LPAR", "OF", "WHERE", "IF",
                  "ELSE", "CARDS", "COMMA", "OTHERWISE"}


def describe(accepts, first: Optional[str] = None, prev: Optional[str] = None) -> str:
    """The allowed terminals, in words."""
    accepts = set(accepts or ())
    if accepts and len(accepts & _VALUE_STARTS) >= 3 and "NAME" in accepts:
        for key in ((first, prev), (None, prev), (first, None)):
            if key in _AFTER:
                return _AFTER[key]
        return "a value (a number, a name, `yes`, `none`, ...)"
    structural = accepts - _CONTINUATIONS
    if structural and structural != accepts:
        accepts = structural
    words = []
    for t in sorted(accepts):
        if t in _WORDS:
            words.append(_WORDS[t])
        elif t.startswith("__ANON"):
            continue
        else:
            words.append(f"`{t.lower()}`")
    words = sorted(set(words), key=lambda w: (w.startswith("the end"), w))
    if not words:
        return "something else"
    if len(words) > 6:
        words = words[:6] + ["..."]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


# ---- common mistakes, recognised by the parser state they stop in ----------------------------
_H = 'game "x"\nplayers 2\n'
# label -> (code, message, hint, examples).  A message may use {tok} (the text found).
MISTAKES = {
    "compare_eq": ("RL009", "to compare, write `is`, not `{tok}`",
                   "`if x is 1:`; `is not` for different; `<`, `>`, `<=`, `>=` for order",
                   [_H + "turn:\n    if x = 1:\n        pass\n",
                    _H + "game ends when x = 1:\n    pass\n",
                    _H + "turn:\n    repeat until x = 1:\n        pass\n",
                    _H + "turn:\n    repeat while x = 1:\n        pass\n"]),
    "set_eq": ("RL009", "write `set NAME to VALUE`, not `=`", "e.g. `set passes to 0`",
               [_H + "turn:\n    set x = 1\n"]),
    "assign": ("RL009", "a statement cannot start with `NAME =`",
               "to change a variable write `set NAME to VALUE`; to name a value write `let NAME = VALUE`",
               [_H + "turn:\n    x = 1\n"]),
    "move_from": ("RL011", "`move` needs `from ZONE` before `to`",
                  "e.g. `move top card from stock to hand`",
                  [_H + "turn:\n    move top card to discard\n",
                   _H + "turn:\n    move c to discard\n",
                   _H + "turn:\n    move all cards to discard\n"]),
    "move_to": ("RL011", "`move ... from ZONE` needs `to ZONE`",
                "e.g. `move top card from stock to hand`",
                [_H + "turn:\n    move top card from stock\n",
                 _H + "turn:\n    move top card from stock hand\n"]),
    "deal_each": ("RL011", "cards are dealt to a zone of each player: `to hand of each player`",
                  "e.g. `deal 7 from stock to hand of each player`",
                  [_H + "setup:\n    deal 5 from stock to each player\n"]),
    "deal_of": ("RL011", "`deal ... to ZONE` needs `of each player`",
                "e.g. `deal 7 from stock to hand of each player`",
                [_H + "setup:\n    deal 5 from stock to hand\n",
                 _H + "setup:\n    deal 5 from stock to hand of player 1\n"]),
    "deal_from": ("RL011", "`deal` needs `from ZONE`", "e.g. `deal 7 from stock to hand of each player`",
                  [_H + "setup:\n    deal 5 to hand of each player\n"]),
    "deal_count": ("RL011", "`deal` needs how many cards: `deal 7 from ...` or `deal all from ...`",
                   "e.g. `deal 7 from stock to hand of each player`",
                   [_H + "setup:\n    deal from stock to hand of each player\n"]),
    "repeat_times": ("RL011", "write `repeat N times:`", "e.g. `repeat 3 times:`",
                     [_H + "turn:\n    repeat 3:\n        pass\n"]),
    "players_range": ("RL011", "write the number of players as `players 2 to 5`",
                      "`players 4` for exactly four", [_H + "players 2-5\n", _H + "players 2, 3\n"]),
    "zone_colon": ("RL004", "write `zone NAME:` with a `:` before the zone's properties",
                   "e.g. `zone hand: per player, seen by owner`", [_H + "zone hand per player\n",
                                                                   _H + "zone hand shared\n"]),
    "zone_prop": ("RL011", "unknown zone property `{tok}`",
                  None,
                  [_H + "zone hand: private\n", _H + "zone hand: per player, hidden\n"]),
    "var_init": ("RL011", "a variable needs a first value: `var NAME = VALUE`",
                 "e.g. `var passes = 0` or `var leader: player = none`", [_H + "var x\n",
                                                                           _H + "var x: card\n"]),
    "for_each": ("RL011", "write `for each player NAME:` or `for each card NAME in ZONE:`",
                 "e.g. `for each player p:`", [_H + "turn:\n    for each p in players:\n        pass\n",
                                               _H + "turn:\n    for each c in hand:\n        pass\n"]),
    "choose_alt": ("RL012", "each line under `choose:` is an alternative, `LABEL:` or "
                   "`LABEL card c from ZONE:`, not a statement",
                   "give the alternative a name and put the statements under it: "
                   "`draw:` then, indented, `move top card from stock to hand`",
                   [_H + "turn:\n    choose:\n        move top card from a to b\n",
                    _H + "turn:\n    choose:\n        deal 1 from a to hand of each player\n"]),
    "end_game": ("RL011", "`end game` needs `with winner P`, `with loser P`, `with no winner`, "
                 "`by highest score` or `by lowest score`", "e.g. `end game with winner you`",
                 [_H + "turn:\n    end game\n", _H + "turn:\n    end game with you\n"]),
    "option_eq": ("RL011", "an option needs a default value: `option NAME = VALUE`",
                  "e.g. `option decks = 1 from 1 to 2`", [_H + "option x\n", _H + "option x from 1 to 2\n"]),
    "define_eq": ("RL011", "a define needs `=` and a formula: `define NAME = VALUE`",
                  "e.g. `define playable(c) = rank of c is 8`",
                  [_H + "define f(c): rank of c\n", _H + "define f(c) rank of c\n"]),
    "game_name": ("RL011", "the game's name goes in double quotes", 'e.g. `game "Crazy Eights"`',
                  ['game Crazy\n']),
    "extends_name": ("RL011", "the base file's name goes in double quotes",
                     'e.g. `extends "sevens.cardrules"`', ['extends sevens\n']),
}


@functools.lru_cache(maxsize=2)
def _example_keys(lark):
    """(parser position, accepted terminals, token type) of every example mistake, as the
    parser ``lark`` (the language's, made by rulelang.syntax.parser) meets it."""
    keys = []
    for label, (_c, _m, _h, examples) in MISTAKES.items():
        for ex in examples:
            try:
                lark.parse(ex)
            except UnexpectedToken as e:
                keys.append((_position(e), frozenset(e.accepts or ()), e.token.type, label))
            except Exception:
                pass
    return keys


def _position(e):
    st = getattr(e, "state", None)
    return getattr(st, "position", st)


# Mistakes recognised only when the token found is of the same type as in the example.
_EXACT = {"compare_eq", "set_eq", "assign"}


def _match(e: UnexpectedToken, lark) -> Optional[str]:
    """The label of the example mistake ``e`` looks like, or None."""
    pos, acc, typ = _position(e), frozenset(e.accepts or ()), e.token.type
    fallback = None
    for kpos, kacc, ktyp, label in _example_keys(lark):
        if kpos == pos and kacc == acc:
            if ktyp == typ:
                return label
            if fallback is None and label not in _EXACT:
                fallback = label
    return fallback


# ---- looking at the text ---------------------------------------------------------------------
_TOKEN_RE = re.compile(r'"[^"\n]*"?|#.*|[A-Za-z_][A-Za-z0-9_]*|\d+|<=|>=|==|!=|\S')


def _words(line: str):
    """(column (1-based), text) of each token of a line, comments dropped."""
    out = []
    for m in _TOKEN_RE.finditer(line):
        if m.group().startswith("#"):
            break
        out.append((m.start() + 1, m.group()))
    return out


def _unclosed_paren(lines, line, col):
    """The (line, column) of a `(` still open before the error, when it was opened on an earlier
    line (the parser ignores line ends inside parentheses, so the error shows up later)."""
    stack = []
    for i, text in enumerate(lines[:line], 1):
        if "(" not in text and ")" not in text:
            continue
        for c, w in _words(text):
            if i == line and c >= col:
                break
            if w == "(":
                stack.append((i, c))
            elif w == ")" and stack:
                stack.pop()
    if stack and stack[-1][0] < line:
        return stack[-1]
    return None


def _indent(text: str) -> str:
    return text[:len(text) - len(text.lstrip())]


def _prev_word(words, col):
    before = [w for c, w in words if c < col]
    return before[-1] if before else None


def _diag(code, message, span, hint):
    return Diagnostic(code, ERROR, message, span, hint)


def syntax_diagnostic(file: str, text: str, err: UnexpectedInput, lark) -> Diagnostic:
    """The diagnostic for the syntax error ``err`` met by the parser ``lark`` in ``text``."""
    lines = source_lines_of(text) or [""]
    line = getattr(err, "line", None) or 1
    col = getattr(err, "column", None) or 1
    if isinstance(err, UnexpectedToken) and err.token.type in ("$END", "_DEDENT"):
        line = min(line, len(lines))
    if line > len(lines):
        line = len(lines)
        col = len(lines[-1]) + 1
    cur = lines[line - 1] if 0 < line <= len(lines) else ""
    words = _words(cur)
    first = words[0][1] if words else None
    prev = _prev_word(words, col)
    span = A.Span(file, line, col, line, col + 1)

    def tok_span(length):
        return A.Span(file, line, col, line, col + max(1, length))

    # An unclosed `(` on an earlier line: report it where it was opened.
    open_at = _unclosed_paren(lines, line, col)
    if open_at is not None:
        l, c = open_at
        return _diag("RL006", "this `(` is never closed", A.Span(file, l, c, l, c + 1),
                     "add the `)` that closes it; a value in parentheses cannot go on past the line")

    # A `(` opened earlier on this line and not closed where the line goes on.
    if isinstance(err, UnexpectedToken) and "RPAR" in set(err.accepts or ()) and err.token.type != "RPAR":
        depth_open = []
        for c, w in words:
            if c >= col:
                break
            if w == "(":
                depth_open.append(c)
            elif w == ")" and depth_open:
                depth_open.pop()
        if depth_open:
            c = depth_open[-1]
            return _diag("RL006", f"this `(` is not closed before {_found(err.token)}",
                         A.Span(file, line, c, line, c + 1),
                         "add the `)` that closes it where the value in parentheses ends")

    # Tabs in the indentation around the error.
    if "\t" in _indent(cur) and (isinstance(err, UnexpectedCharacters) or _is_indent_error(err)):
        return _diag("RL002", "this line is indented with a tab", A.Span(file, line, 1, line, 2),
                     "indent with spaces (four per level); tabs count as four spaces and hide mistakes")

    if isinstance(err, UnexpectedCharacters):
        ch = cur[col - 1:col] if col <= len(cur) else "?"
        if ch == '"':
            return _diag("RL005", "this text has no closing quote `\"`", tok_span(len(cur) - col + 1),
                         "text in double quotes must end on the same line")
        if ch == "'":
            return _diag("RL005", "text goes in double quotes, not single quotes", span,
                         'e.g. `say "your turn"`')
        if cur[col - 1:col + 1] == "!=":
            return _diag("RL009", "to compare, write `is not`, not `!=`", tok_span(2),
                         "e.g. `if suit of c is not hearts:`")
        if ch == "\t":
            return _diag("RL002", "a tab character here", span, "use spaces")
        if ch in "&|":
            return _diag("RL009", f"write `and` / `or`, not `{ch}`", span, "e.g. `if x is 1 and y is 2:`")
        if ch in "[]{}":
            return _diag("RL002", f"unexpected character `{ch}`", span,
                         "cardrules has no lists or brackets; group with `(` and `)`")
        if ch == ";":
            return _diag("RL002", "unexpected `;`", span, "write one statement per line")
        if ch == "=" or cur[col - 1:col + 2] == "==":
            return _diag("RL009", "to compare, write `is`, not `==`", tok_span(2),
                         "e.g. `if rank of c is 8:`")
        return _diag("RL002", f"unexpected character `{ch}`", span,
                     "names are letters, digits and `_`; text goes in double quotes")

    if isinstance(err, UnexpectedEOF):
        return _diag("RL001", "the file ended before this was complete", span, None)

    if not isinstance(err, UnexpectedToken):
        return _diag("RL001", str(err).splitlines()[0], span, None)

    tok = err.token
    accepts = set(err.accepts or err.expected or ())
    found = _found(tok)

    # (a name used before `of` on this line may be a word that begins a value so: `total of P`)
    before_of = {w for w in re.findall(r"\b(\w+)\s+of\b", cur.split("#", 1)[0]) if w in OF_WORDS}
    reserved = _declared_reserved_word(file, lines, {prev, str(tok)} | before_of)
    if reserved is not None:
        return reserved

    # A zone's properties: the one that is not a property, whole, and the list of them.
    if first == "zone" and tok.line == line and ":" in cur[:col - 1] and tok.type != "_INDENT":
        code = cur.split("#", 1)[0]
        begin = max(code.rfind(",", 0, col - 1), code.rfind(":", 0, col - 1)) + 1
        part = code[begin:].split(",", 1)[0]
        prop = " ".join(part.split())
        if prop and prop not in zone_properties():
            c0 = begin + len(part) - len(part.lstrip()) + 1
            where = A.Span(file, line, c0, line, c0 + len(part.strip()))
            several = _split_properties(prop.split())
            if several:
                return _diag("RL011", "zone properties are separated by commas", where,
                             f"write `{', '.join(several)}`")
            return _diag("RL011", f"unknown zone property `{prop}`", where, zone_props_hint())

    # The lexer took the start of a word for a word of the language (`seen by owners`).
    if tok.type not in ("_NL", "$END", "_INDENT", "_DEDENT") and tok.line == line and col > 1 \
            and _word_char(cur[col - 2]) and _word_char(str(tok)[:1]):
        c0 = col - 1
        while c0 > 0 and _word_char(cur[c0 - 1]):
            c0 -= 1
        c1 = col - 1
        while c1 < len(cur) and _word_char(cur[c1]):
            c1 += 1
        word, known = cur[c0:c1], cur[c0:col - 1]
        return _diag("RL001", f"`{word}` is not a word cardrules knows here",
                     A.Span(file, line, c0 + 1, line, c1 + 1), f"did you mean `{known}`?")

    # A word that is never a value, where a value belongs (`8 or or suit`): it was read as a name.
    before = [(c, w) for c, w in words if c < col]
    if tok.line == line and len(before) >= 2 and before[-1][1] in _NEVER_VALUES \
            and (None, before[-2][1]) in _AFTER:
        (c1, w1), (c2, w2) = before[-2], before[-1]
        want = _AFTER[(None, w1)]
        return _diag("RL001", f"expected {want} after `{w1}`, found `{w2}`",
                     A.Span(file, line, c2, line, c2 + len(w2)), _hint_for(want, first))

    each = re.search(r"\bof\s+each\s+player\b", cur.split("#", 1)[0])
    if first == "move" and each is not None:
        return _diag("RL011", "`of each player` goes with `deal`; `move` moves cards to one zone",
                     A.Span(file, line, each.start() + 1, line, each.end() + 1),
                     "deal them (`deal 1 from stock to hand of each player`), or move them in a "
                     "loop: `for each player p:` then `move top card from stock to hand of p`")

    if tok.type == "_INDENT":
        # The indenter places INDENT on the line end before the indented line.
        line = min(getattr(tok, "end_line", None) or line + 1, len(lines))
        cur = lines[line - 1]
        if "\t" in _indent(cur):
            return _diag("RL002", "this line is indented with a tab", A.Span(file, line, 1, line, 2),
                         "indent with spaces (four per level); tabs count as four spaces and hide "
                         "mistakes")
        return _diag("RL003", "this line is indented more than the one before it",
                     A.Span(file, line, 1, line, len(_indent(cur)) + 1),
                     "indent only after a line that ends with `:`")
    if tok.type in ("$END", "_DEDENT"):
        what = "the end of the file" if tok.type == "$END" else "the end of the indented block"
        # The error is reported on the last line that has something on it.
        l = line
        while l > 1 and not lines[l - 1].strip():
            l -= 1
        endcol = len(lines[l - 1].rstrip()) + 1
        if "_INDENT" in accepts or (lines[l - 1].rstrip().endswith(":")):
            return _diag("RL003", "expected an indented block after this line's `:`",
                         A.Span(file, l, endcol, l, endcol + 1),
                         "put the statements of the block on the next lines, indented by four spaces")
        return _diag("RL001", f"{what} came before this line was complete: expected "
                     f"{describe(accepts, first, _prev_word(_words(lines[l - 1]), endcol))}",
                     A.Span(file, l, endcol, l, endcol + 1), None)

    # A line that should have been indented under the `X:` line before it.
    if line > 1 and "_INDENT" in (set(err.expected or ()) | accepts) and tok.type != "_NL":
        return _diag("RL003", "expected an indented block after the `:` on the line before",
                     tok_span(len(str(tok))), "indent the statements of a block by four spaces")
    above = _prev_nonblank(lines, line)
    if above is not None and lines[above - 1].rstrip().endswith(":") \
            and not lines[above - 1].lstrip().startswith("#") \
            and len(_indent(cur)) <= len(_indent(lines[above - 1])) and words and col == words[0][0]:
        return _diag("RL003", "expected an indented block after the `:` on the line before",
                     tok_span(len(str(tok))), "indent the statements of a block by four spaces")

    # `elif` / `else if` without `if`, and misspelt first words.
    if first == "elif" and tok.line == line:
        return _diag("RL008", "write `else if`, not `elif`", A.Span(file, line, words[0][0], line,
                                                                  words[0][0] + 4),
                     "e.g. `else if size of hand is 0:`")
    if first == "else" and tok.line == line:
        return _diag("RL008", "`else` without an `if` just before it",
                     A.Span(file, line, words[0][0], line, words[0][0] + 4),
                     "put `else` right after the `if` block, at the same indentation as its `if`")
    if tok.type == "ELSE" and col == (words[0][0] if words else col):
        return _diag("RL008", "`else` without an `if` just before it",
                     tok_span(4), "put `else` right after the `if` block, at the same indentation "
                     "as its `if`")
    if first is not None and tok.line == line and first not in KEYWORDS \
            and re.match(r"[A-Za-z_]\w*$", first) and col > words[0][0] \
            and not (len(words) > 1 and words[1][1] in ("(", "for")):
        pool = DECL_WORDS if not _indent(cur) else STMT_WORDS
        close = difflib.get_close_matches(first, pool, n=1, cutoff=0.7)
        if close:
            c0 = words[0][0]
            return _diag("RL007", f"`{first}` is not a word cardrules knows here; did you mean "
                         f"`{close[0]}`?", A.Span(file, line, c0, line, c0 + len(first)),
                         f"write `{close[0]}`")
    if first in STMT_WORDS and not _indent(cur) and col == words[0][0] and first not in DECL_WORDS:
        return _diag("RL003", f"`{first}` begins a statement, but this line is not indented",
                     tok_span(len(first)), "statements go inside `setup:`, `turn:`, a `rule` or "
                     "`game ends when ...:`, indented under it")
    if first is not None and not _indent(cur) and col == words[0][0] and tok.type == "NAME" \
            and first not in KEYWORDS:
        close = difflib.get_close_matches(first, DECL_WORDS, n=1, cutoff=0.6)
        if close:
            return _diag("RL007", f"`{first}` is not a word cardrules knows here; did you mean "
                         f"`{close[0]}`?", tok_span(len(first)), f"write `{close[0]}`")
        return _diag("RL007", f"`{first}` cannot begin a line at the top level",
                     tok_span(len(first)),
                     f"did you mean `{close[0]}`?" if close else
                     "a rule file is made of declarations: game, players, option, deck, zone, var, "
                     "define, rule, setup, turn, `game ends when ...:`; statements go indented "
                     "inside them")

    if first is not None and _indent(cur) and first not in KEYWORDS and tok.line == line \
            and len(words) > 1 and col == words[1][0] and re.match(r"[A-Za-z_]\w*$", first) \
            and words[1][1] not in ("(", "for", "=", ":") and tok.type != "_NL":
        return _diag("RL007", f"`{first}` is not a statement word",
                     A.Span(file, line, words[0][0], line, words[0][0] + len(first)),
                     "a line in a block starts with a statement (move, deal, set, add, if, choose, "
                     "repeat, for each, say ...) or is the name of a rule to run, alone on its line")
    # `==` and `=` where a comparison belongs.
    if tok.type == "EQUAL" and cur[col - 2:col] == "==" and first in ("var", "option", "let",
                                                                      "define", "replace"):
        return _diag("RL009", "write one `=` here", A.Span(file, line, col - 1, line, col + 1),
                     "a declaration gives its value with `=`: `var passes = 0`")
    if tok.type == "EQUAL" and cur[col - 1:col + 1] == "==":
        return _diag("RL009", "to compare, write `is`, not `==`", tok_span(2),
                     "e.g. `if rank of c is 8:`")

    if tok.type == "RPAR" and "RPAR" not in accepts:
        return _diag("RL006", "this `)` closes no `(`", span, "delete it, or add the `(` it closes")

    label = _match(err, lark)
    if label is not None:
        code, message, hint, _ = MISTAKES[label]
        if label == "zone_prop":
            hint = zone_props_hint()
        sp = A.Span(file, line, col, line, col) if tok.type == "_NL" else tok_span(len(str(tok)))
        return _diag(code, message.format(tok=str(tok)), sp, hint)

    if tok.type == "_NL" and "COLON" in accepts:
        what = first if first in KEYWORDS else "this line"
        return _diag("RL004", f"expected `:` at the end of {('the `' + what + '` line') if what != 'this line' else what}",
                     A.Span(file, line, col, line, col),
                     "a line that opens a block (rule, setup, turn, if, choose, repeat, for each) "
                     "ends with `:`")

    sp = A.Span(file, line, col, line, col) if tok.type == "_NL" else tok_span(len(str(tok)))
    want = describe(accepts, first, prev)
    after = f" after `{prev}`" if prev is not None else " at the start of the line"
    return _diag("RL001", f"expected {want}{after}, found {found}", sp, _hint_for(want, first))


# Words of the language that never begin a value: after `or`, `is`, `to` ... they can only have
# been read as a name.
_NEVER_VALUES = {"and", "or", "is", "to", "from", "of", "where", "else", "then", "by", "with",
                 "in", "if", "times", "when"}


def _word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _split_properties(words) -> Optional[list]:
    """``words`` as two or more zone properties written one after the other, or None."""
    props = set(zone_properties())
    for k in range(1, len(words)):
        head = " ".join(words[:k])
        if head in props:
            rest = " ".join(words[k:])
            if rest in props:
                return [head, rest]
            more = _split_properties(words[k:])
            if more:
                return [head] + more
    return None


def zone_props_hint() -> str:
    props = [f"`{p}`" for p in zone_properties()]
    return "a zone's properties are " + ", ".join(props[:-1]) + " and " + props[-1] + \
        ", separated by commas"


def reserved_message(name: str, what: str):
    """The message and hint of RL114 (also used by the checker)."""
    return (f"`{name}` is a word of the language and cannot name {what}",
            f"choose another name, such as `my_{name}` or `{name}_value`")


def _declared_reserved_word(file, lines, words):
    """RL114 at the place a word of the language is declared as a name (`let top = ...`,
    `var total = 0`, `rule r(size):`), when the syntax error is where that word is used."""
    words = {w for w in words if w in RESERVED_WORDS or w in OF_WORDS}
    if not words:
        return None
    alt = "|".join(re.escape(w) for w in sorted(words))
    decl = re.compile(rf"^\s*(?:replace\s+)?(let|var|define|rule|zone|option|attribute)\s+({alt})\b"
                      rf"|\bfor\s+each\s+(player|card)\s+({alt})\b"
                      rf"|^\s*\w+\s+(card|player|suit|rank|number)\s+({alt})\s*(?:from|where|if|:)")
    params = re.compile(r"^\s*(?:replace\s+)?(?:rule|define)\s+\w+\s*\(([^)]*)\)")
    what_of = {"let": "a value", "var": "a variable", "define": "a define", "rule": "a rule",
               "zone": "a zone", "option": "an option", "attribute": "an attribute",
               "player": "a player", "card": "a card"}
    for i, text in enumerate(lines, 1):
        code = text.split("#", 1)[0]
        m = decl.search(code)
        if m is not None:
            g = m.groups()
            kind, name, pos = next((g[k], g[k + 1], m.start(k + 2)) for k in (0, 2, 4)
                                   if g[k] is not None)
            if name not in RESERVED_WORDS and not (     # a word before `of` (`total of P`)
                    kind == "attribute" or (kind in ("var", "zone") and "per player" in code)):
                continue
            what = what_of.get(kind, f"the {kind} chosen") if m.group(5) is None \
                else f"the {kind} chosen"
            msg, hint = reserved_message(name, what)
            return _diag("RL114", msg, A.Span(file, i, pos + 1, i, pos + 1 + len(name)), hint)
        m = params.search(code)
        if m is not None:
            for pm in re.finditer(r"(?:^|,)\s*([A-Za-z_]\w*)", m.group(1)):   # not the kinds
                if pm.group(1) in words and pm.group(1) in RESERVED_WORDS:
                    c = m.start(1) + pm.start(1) + 1
                    msg, hint = reserved_message(pm.group(1), "a parameter")
                    return _diag("RL114", msg, A.Span(file, i, c, i, c + len(pm.group(1))), hint)
    return None


def _is_indent_error(err) -> bool:
    return isinstance(err, UnexpectedToken) and err.token.type in ("_INDENT", "_DEDENT")


def _prev_nonblank(lines, line):
    l = line - 1
    while l >= 1:
        s = lines[l - 1].strip()
        if s and not s.startswith("#"):
            return l
        l -= 1
    return None


def _found(tok) -> str:
    if tok.type == "_NL":
        return "the end of the line"
    if tok.type == "$END":
        return "the end of the file"
    if tok.type == "STRING":
        return f"the text {tok}"
    return f"`{tok}`"


def _hint_for(want: str, first: Optional[str]) -> Optional[str]:
    if want == "a zone name":
        return "e.g. `stock`, `discard`, or `hand of p` for a player's zone"
    if want == "a condition":
        return "a condition is yes or no, e.g. `size of hand is 0` or `stock is empty`"
    if want == "a player":
        return "e.g. `you`, `current player`, `next player`, `player 2`"
    if first == "move":
        return "`move top card|bottom card|random card|all cards|N cards|CARD from ZONE to ZONE`"
    if first == "deal":
        return "`deal N from ZONE to ZONE of each player`"
    return None
