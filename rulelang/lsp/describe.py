"""What a name is, in words, for the editor's hover (Markdown).

A zone and who sees it, a variable and its kind, a define's body, a rule's parameters, an
option's values, an attribute's entries, a suit, rank or card of the deck (a card literal with
the attributes that give it a value), a name bound inside a rule; and an error code's entry of
the catalogue.  The words come from the declaration's own text, so they are there for a file
that does not parse; the checker's model, when the server has one, adds the kinds it worked out
(a variable's kind when its declaration does not say it).
"""
from __future__ import annotations

import os
import re
from typing import Optional

from rulelang.lsp import scan
from rulelang.lsp.navigate import Target

_SEEN = (("top face up", "only the top card is face up: everyone sees it, nobody sees the rest"),
         ("seen by owner", "seen by its owner only"),
         ("seen by everyone", "face up: everyone sees its cards"),
         ("seen by nobody", "face down: nobody sees its cards"),
         ("face up", "face up: everyone sees its cards"),
         ("face down", "face down: nobody sees its cards"))

_BOUND = {"card": "a card chosen", "unseen card": "a card chosen without seeing it",
          "player": "a player chosen", "suit": "a suit", "rank": "a rank", "number": "a number chosen",
          "cards": "the cards chosen (a set: its first card)", "each player": "each player in turn", "each card": "each card in turn",
          "each suit": "each suit in turn", "each rank": "each rank in turn",
          "any number": "a number tried", "highest rank": "a rank tried", "lowest rank": "a rank tried",
          "highest number": "a number tried", "lowest number": "a number tried",
          "let": "a value computed once", "parameter": "a parameter"}


def _code(text: str) -> str:
    """Rule-file text as a block of code, fenced by more backquotes than it holds in a row (so
    that nothing in it is read as Markdown)."""
    fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", text)), default=0))
    return f"{fence}cardrules\n{text.rstrip()}\n{fence}"


def _chunk(layer_text: str, sym: scan.Symbol, most: int = 12) -> str:
    lines = scan.lines_of(layer_text)[sym.line:sym.end_line + 1]
    if len(lines) > most:
        lines = lines[:most] + ["    ..."]
    return "\n".join(lines)


def _where(path: str, here: str, line: int) -> str:
    if os.path.abspath(path) == os.path.abspath(here):
        return f"line {line + 1}"
    return f"{os.path.basename(path)}, line {line + 1}"


def describe(t: Target, here: str, model=None) -> Optional[str]:
    """Markdown for the name ``t`` means (``here``: the file hovered in)."""
    if t.path is not None:
        return f"the base file: `{os.path.basename(t.path)}`; this file changes and adds to it"
    if t.binder is not None:
        b = t.binder
        what = _BOUND.get(b.what, b.what)
        kind = ""
        if b.what == "parameter":
            m = re.search(rf"\b{re.escape(b.name)}\s*:\s*([A-Za-z_]\w*)", b.detail)
            kind = f" (a {m.group(1)})" if m else ""
        return f"`{b.name}`: {what}{kind}, bound on line {b.line + 1}\n\n" + _code(b.detail)
    if t.symbol is None or t.layer is None:
        return None
    s, layer = t.symbol, t.layer
    where = _where(layer.path, here, s.line)
    head = _HEADS.get(s.kind, _generic)(s, layer.text, model)
    return f"{head}\n\n{_code(_chunk(layer.text, s) if s.kind in _WHOLE else s.detail)}\n\n({where})"


_WHOLE = {"define", "attribute", "deck type"}


def _generic(s, text, model) -> str:
    return f"{s.kind} `{s.name}`"


def _zone(s, text, model) -> str:
    d = " " + s.detail.split(":", 1)[-1].split("#")[0] + " "
    parts = ["one per player" if " per player" in d else "shared"]
    for words, said in _SEEN:
        if f" {words}" in d.replace(",", " "):
            parts.append(said)
            break
    else:
        parts.append("face down: nobody sees its cards")
    if "size hidden" in d:
        parts.append("how many cards it holds is hidden")
    if "not shown" in d:
        parts.append("not shown on the table")
    name = f"zones `{s.name}_k`, `{s.name}(k)`" if s.kind == "zone family" else f"zone `{s.name}`"
    return f"{name}: " + "; ".join(parts)


def _var(s, text, model) -> str:
    kind = None
    if model is not None and s.name in getattr(model, "vars", {}):
        kind = str(model.vars[s.name].type.value if hasattr(model.vars[s.name].type, "value")
                   else model.vars[s.name].type)
    m = re.match(r"^(?:replace\s+)?var\s+\w+\s*(?:\"[^\"]*\"\s*)?(?::\s*(\w+))?", s.detail)
    if kind is None and m and m.group(1):
        kind = m.group(1)
    per = ", one for each player" if re.search(r"\bper\s+player\b", s.detail.split("=")[0]) else ""
    first = s.detail.split("=", 1)[1].strip() if "=" in s.detail else "?"
    if re.search(r"\bper\s+team\b", s.detail.split("=")[0]):     # a variable of each team
        per = ", one for each team (`" + s.name + " of the team of P`)"
        first = first if "=" in s.detail else "0"
    return (f"variable `{s.name}`: {'a ' + kind if kind else 'its kind is its first value’s'}{per}; "
            f"first `{first}`")


def _define(s, text, model) -> str:
    m = re.match(r"^(?:replace\s+)?define\s+\w+\s*(\([^)]*\))?", s.detail)
    params = m.group(1) if m and m.group(1) else ""
    return f"define `{s.name}{params}`: a value computed where it is used"


def _rule(s, text, model) -> str:
    m = re.match(r"^(?:replace\s+)?rule\s+\w+\s*\(([^)]*)\)", s.detail)
    if not m or not m.group(1).strip():
        return f"rule `{s.name}`: no parameters; run it by writing its name as a statement"
    params = [p.strip() for p in m.group(1).split(",")]
    return (f"rule `{s.name}`: parameters " + ", ".join(f"`{p}`" for p in params)
            + f"; run it as `{s.name}(" + ", ".join(p.split(":")[0].strip() for p in params) + ")`")


def _option(s, text, model) -> str:
    d = s.detail
    default = re.search(r"=\s*(-?\w+)", d)
    rng = re.search(r"\bfrom\s+(-?\d+)\s+to\s+(-?\d+)", d)
    values = ", ".join(f"`{c.name}`" for c in s.children) or None
    one = re.search(r"\bone\s+of\s+([^\"]+)", d)
    if values is None and one:
        values = ", ".join(f"`{v.strip()}`" for v in one.group(1).split(","))
    said = re.findall(r'"([^"\n]*)"', d)
    out = f"option `{s.name}` = `{default.group(1) if default else '?'}`"
    if rng:
        out += f", a number from {rng.group(1)} to {rng.group(2)}"
    elif values:
        out += f", one of {values}"
    if said:
        out += f": {said[-1]}"
    return out + f"; change it with `--set {s.name}=VALUE`"


def _attribute(s, text, model) -> str:
    kind = ""
    if model is not None and s.name in getattr(model, "attributes", {}):
        k = model.attributes[s.name][1]
        kind = f", a {getattr(k, 'value', k)}"
    return f"attribute `{s.name}` of every card{kind}: `{s.name} of CARD`"


def _deck_name(s, text, model) -> str:
    if s.kind == "rank":
        number = getattr(model, "ranks", {}).get(s.name) if model is not None else None
        m = re.search(rf"\b{re.escape(s.name)}\s*=\s*(\d+)", s.detail)
        number = number if number is not None else (m.group(1) if m else None)
        shown = re.search(rf'\b{re.escape(s.name)}(?:\s*=\s*\d+)?\s*"([^"]*)"', s.detail)
        return (f"rank `{s.name}`" + (f", number {number}" if number is not None else "")
                + (f", shown `{shown.group(1)}`" if shown else ""))
    if s.kind == "suit":
        shown = re.search(rf'\b{re.escape(s.name)}\s*"([^"]*)"', s.detail)
        return f"suit `{s.name}`" + (f", shown `{shown.group(1)}`" if shown else "")
    return f"card `{s.name}` (an extra card of the deck)"


def _value(s, text, model) -> str:
    opt = re.match(r"^(?:replace\s+)?option\s+(\w+)", s.detail)
    return f"`{s.name}`: a value of option `{opt.group(1) if opt else '?'}`"


_HEADS = {"zone": _zone, "zone family": _zone, "var": _var, "define": _define, "rule": _rule,
          "option": _option, "attribute": _attribute, "rank": _deck_name, "suit": _deck_name,
          "card": _deck_name, "value": _value}


# ---- card literals ----------------------------------------------------------------------------

def card_literal(text: str, model, layers: list) -> Optional[str]:
    """`Q♠`: its rank and suit, and the entries of the attributes that give it a value."""
    if model is None:
        return None
    rank_of = {str(v): k for k, v in model.rank_symbols.items()}
    suit_of = {v: k for k, v in model.suit_symbols.items() if v}
    suit_sym = text[-1]
    rank_sym = text[:-1]
    suit = suit_of.get(suit_sym)
    rank = rank_of.get(rank_sym)
    if suit is None or rank is None:
        return f"`{text}`: no card of this deck is shown so"
    out = [f"`{text}`: the {rank} of {suit} (rank number {model.ranks.get(rank, '?')})"]
    for name, (decl, kind) in sorted(model.attributes.items()):
        entry = _entry_for(decl, rank, suit, text, layers)
        if entry:
            out.append(f"- `{name}`: `{entry}`")
    return "\n".join(out)


def _entry_for(decl, rank: str, suit: str, lit: str, layers: list) -> Optional[str]:
    """The text of the attribute's entry that a card takes its value from."""
    texts = {os.path.abspath(layer.path): scan.lines_of(layer.text) for layer in layers}
    for selectors, _expr in decl.entries:
        for sel, span in selectors:
            if sel in (rank, suit, lit) or (isinstance(sel, str) and sel == f"{rank} of {suit}"):
                lines = texts.get(os.path.abspath(span.file))
                if lines and 0 < span.line <= len(lines):
                    return lines[span.line - 1].strip()
                return str(sel)
    if decl.otherwise is not None:
        span = decl.otherwise.span if hasattr(decl.otherwise, "span") else None
        lines = texts.get(os.path.abspath(span.file)) if span else None
        if lines and 0 < span.line <= len(lines):
            return "otherwise: " + lines[span.line - 1].split(":", 1)[-1].strip()
        return "otherwise"
    return None


def explanation(code: str, catalogue: dict) -> Optional[str]:
    """The catalogue's entry of an error code (what `rulelang explain CODE` prints)."""
    entry = catalogue.get(code)
    if entry is None:
        return None
    return entry.replace("\n## ", "\n### ", 1) if entry.startswith("## ") else entry
