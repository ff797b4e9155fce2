"""The words of the language, read from the grammar (``grammar/cardrules.lark``).

Syntax errors (:mod:`rulelang.syntax.syntax_errors`) and the highlighter (:mod:`rulelang.cli.highlight`) use
these lists instead of their own copies, so a new statement or keyword in the grammar is known to
both at once.  Reading the grammar's text (not building the parser) keeps this cheap enough for
the highlighter to import.
"""
from __future__ import annotations

import functools
import re
from importlib import resources

# Rules whose alternatives are the statements and the declarations.
_STATEMENT_RULES = ("_simple_stmt", "_compound_stmt")
# Rules that continue a statement on a line of their own (`else if ...:`, `else:`).
_CLAUSE_RULES = ("elif_clause", "else_clause")
_DECLARATION_RULE = "_item"
# Rules and terminals of the operators between values.
_OPERATOR_RULES = ("or_expr", "and_expr", "not_expr", "comparison", "ADD_OP", "MUL_OP", "COMP_OP")
# The words that are values by themselves (highlighted as constants).
CONSTANT_WORDS = ("yes", "no", "none", "you")


@functools.lru_cache(maxsize=1)
def grammar_rules() -> dict:
    """The grammar's rules and terminals: name -> list of alternatives, each a list of items (a
    quoted word, or the name of a rule or terminal; groups and options are kept as items)."""
    text = resources.files("rulelang").joinpath("grammar/cardrules.lark").read_text("utf-8")
    defs, name = {}, None
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith(("//", "%")):
            continue
        m = re.match(r"^[?!]?([A-Za-z_][A-Za-z0-9_]*)(?:\.\d+)?\s*:(.*)$", line)
        if m and not line[0].isspace():
            name = m.group(1)
            defs[name] = m.group(2)
        elif name is not None:
            defs[name] += " " + line.strip()
    return {n: [_items(alt) for alt in _split(body)] for n, body in defs.items()}


def _split(body: str) -> list:
    """The alternatives of a rule's body (``|`` outside brackets and quotes)."""
    out, depth, cur, quoted = [], 0, "", False
    for ch in body:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "([":
            depth += 1
        elif not quoted and ch in ")]":
            depth -= 1
        elif not quoted and ch == "|" and depth == 0:
            out.append(cur)
            cur = ""
            continue
        cur += ch
    out.append(cur)
    return [re.sub(r"->\s*\w+\s*$", "", alt).strip() for alt in out]


def _items(alt: str) -> list:
    return re.findall(r'"[^"]*"|/[^/]*/|[A-Za-z_][A-Za-z0-9_]*|[()\[\]*+?]', alt)


def _first_words(rule: str, seen=None) -> list:
    """The words that can begin ``rule`` (a name that can begin it is left out)."""
    seen = set() if seen is None else seen
    if rule in seen:
        return []
    seen.add(rule)
    out = []
    for alt in grammar_rules().get(rule, ()):
        if not alt:
            continue
        first = alt[0]
        if first.startswith('"'):
            word = first[1:-1]
            if word.isalpha() and word not in out:
                out.append(word)
        elif first in grammar_rules():
            out += [w for w in _first_words(first, seen) if w not in out]
    return out


def _words_in(rule: str) -> list:
    out = []
    for alt in grammar_rules().get(rule, ()):
        for item in alt:
            if item.startswith('"') and item[1:-1].isalpha() and item[1:-1] not in out:
                out.append(item[1:-1])
    return out


def _all_words() -> list:
    out = []
    for rule in grammar_rules():
        out += [w for w in _words_in(rule) if w not in out]
    return out


# Every word of the language.
KEYWORDS = frozenset(_all_words())
# Words that begin a declaration (top level) and a statement (inside a block).
DECL_WORDS = tuple(_first_words(_DECLARATION_RULE))
STMT_WORDS = tuple(dict.fromkeys(w for r in _STATEMENT_RULES + _CLAUSE_RULES
                                  for w in _first_words(r)))
# Words written only in declarations (`deck type`, `game ends when`), with the first words.
DECLARATION_WORDS = DECL_WORDS + tuple(sorted(
    {w for r in grammar_rules() if r.endswith("_decl") for w in _words_in(r)}
    - {w for r in grammar_rules() if not r.endswith("_decl") for w in _words_in(r)}
    - set(DECL_WORDS)))
OPERATOR_WORDS = tuple(dict.fromkeys(w for r in _OPERATOR_RULES for w in _words_in(r)))
# The rest: words inside statements and values.
OTHER_WORDS = tuple(sorted(KEYWORDS - set(DECLARATION_WORDS) - set(OPERATOR_WORDS)
                           - set(CONSTANT_WORDS)))

# A word is a keyword only where the language uses it: Lark's contextual lexer reads a word as a
# name wherever the grammar expects a name and not that word (`var out`, `zone bid`), and the
# words that begin a value are names too where they begin none (the grammar's `word_name`: `say
# top`, `add 1 to total`).  What is left cannot name anything a rule file declares: a word that
# is a value by itself or begins one whatever follows (`you`, `players`, `player`, `not`), so a
# variable, local, parameter, zone, rank ... with that name could never be used.  The checker
# refuses them where they are declared (RL114).
NAME_WORDS = frozenset(w for alt in grammar_rules().get("word_name", ()) for item in alt
                       if item.startswith('"') for w in [item[1:-1]])
RESERVED_WORDS = (frozenset(_first_words("primary")) - NAME_WORDS) | {"not"} \
    | frozenset(CONSTANT_WORDS)
# Words that begin a value with `of` after them (`top of`, `total of`): a name read as `NAME of
# VALUE` (an attribute, a rank, a variable or zone per player) cannot be one of them.
OF_WORDS = frozenset(alt[0][1:-1] for alt in grammar_rules().get("primary", ())
                     if len(alt) > 1 and alt[0].startswith('"') and alt[1] == '"of"') & NAME_WORDS


@functools.lru_cache(maxsize=1)
def zone_properties() -> tuple:
    """The properties a zone may have (`per player`, `face up`, `seen by owner`, ...), from the
    grammar's ``zone_prop``."""
    return tuple(" ".join(w.strip('"') for w in alt) for alt in grammar_rules()["zone_prop"])
