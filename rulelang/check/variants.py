"""Variant files: :func:`merge` lays each file over the one it ``extends`` (a declaration of the
base is changed with ``replace``; a replaced option keeps the base's range or choices)."""
from __future__ import annotations

import attrs

from rulelang.syntax import ast as A
from rulelang.syntax.diagnostics import ERROR, Diagnostic
from rulelang.check.hints import _show, did_you_mean


def _key(d):
    if isinstance(d, (A.Option, A.Attribute, A.Zone, A.Var, A.Define, A.Rule, A.DeckType,
                      A.ValueSet)):
        return (type(d).__name__, d.name)
    if isinstance(d, (A.Score, A.Progress, A.Returns, A.GameName, A.Players, A.Teams)):
        return (type(d).__name__,)
    if isinstance(d, A.ShowWith):
        return ("ShowWith", d.zone)
    return None


_KIND_WORDS = {"Option": "option", "Attribute": "attribute", "Zone": "zone", "Var": "var",
               "Define": "define", "Rule": "rule", "DeckType": "deck type", "ValueSet": "values",
               "Score": "score", "Progress": "progress", "Returns": "returns",
               "Deck": "deck", "GameName": "game", "Players": "players", "Teams": "teams", "ShowWith": "the value shown with zone"}


def merge(layers: list[A.Program], prelude: list[A.Program], diags: list) -> list:
    """Lay each program over the ones before it (base first).  Returns the merged declarations.
    In the first layer ``replace`` is an error; in a variant, a declaration that exists in the
    base must say ``replace``, and one that says ``replace`` must exist in the base."""
    merged: dict = {}
    order: list = []
    endings: list = []
    for p in prelude:
        for d in p.decls:
            k = _key(d)
            if k is not None:
                merged[k] = d
                order.append(k)
    prelude_keys = set(merged)
    decks: list = []            # the `deck` lines: a variant's `replace deck` lines replace them all
    for depth, prog in enumerate(layers):
        seen_here: set = set()
        here = [d for d in prog.decls if isinstance(d, A.Deck)]
        for d in here:
            if d.replace and depth == 0:
                diags.append(Diagnostic("RL121", ERROR, "`replace` deck: this file extends no other file",
                                        d.span, "remove `replace`, or add `extends \"base.cardrules\"`"))
            elif d.replace and not decks:
                diags.append(Diagnostic("RL122", ERROR, "`replace` deck: the base file has no deck",
                                        d.span, "to add something new, leave out `replace`"))
            elif decks and not d.replace and depth > 0:
                diags.append(Diagnostic("RL123", ERROR, "deck is already declared in the base file",
                                        d.span, "write `replace deck ...` to change it (every "
                                        "`deck` line of a variant replaces all the base's)"))
        kept = [d for d in here if not (depth > 0 and decks and not d.replace)]
        if kept:
            decks = kept
        for d in prog.decls:
            if isinstance(d, (A.Extends, A.Deck)):
                continue
            if isinstance(d, A.Ending):
                endings.append(d)
                continue
            k = _key(d)
            if k is None:
                continue
            word = _KIND_WORDS[k[0]] + (f" `{k[1]}`" if len(k) > 1 else "")
            is_replace = getattr(d, "replace", False)
            if is_replace and depth == 0 and k in seen_here:
                diags.append(Diagnostic("RL121", ERROR,
                                        f"`replace` {word}: this file extends no other file",
                                        d.span, "remove `replace`, or add `extends \"base.cardrules\"`"))
                continue
            if k in seen_here:
                diags.append(Diagnostic("RL120", ERROR, f"{word} is declared twice in this file",
                                        d.span, "give it another name, or delete one of them"))
                continue
            seen_here.add(k)
            exists = k in merged and k not in prelude_keys
            if isinstance(d, (A.GameName, A.Players, A.Teams)):
                pass                       # a variant simply restates these
            elif is_replace and depth == 0:
                diags.append(Diagnostic("RL121", ERROR,
                                        f"`replace` {word}: this file extends no other file",
                                        d.span, "remove `replace`, or add `extends \"base.cardrules\"`"))
            elif is_replace and not exists:
                diags.append(Diagnostic("RL122", ERROR,
                                        f"`replace` {word}: the base file has no {word}",
                                        d.span, did_you_mean(k[-1], [x[-1] for x in merged if x[0] == k[0]])
                                        or "to add something new, leave out `replace`"))
                continue
            elif exists and not is_replace:
                diags.append(Diagnostic("RL123", ERROR, f"{word} is already declared in the base file",
                                        d.span, f"write `replace {_KIND_WORDS[k[0]]} ...` to change it"))
                continue
            if is_replace and isinstance(d, A.Option) and k in merged:
                d = _replaced_option(merged[k], d, diags)
            if k not in merged:
                order.append(k)
            merged[k] = d
    return [merged[k] for k in order] + decks + endings


def _kind_of_value(v):
    return "yes/no" if isinstance(v, bool) else "number" if isinstance(v, int) else "word"


def _replaced_option(base: A.Option, new: A.Option, diags: list) -> A.Option:
    """``replace option x = V`` in a variant: without a range or choices of its own, the option
    keeps the base's (and its description), so that V is checked against them; V must be of the
    base's kind."""
    if _kind_of_value(base.default) != _kind_of_value(new.default) and new.low is None \
            and new.choices is None:
        diags.append(Diagnostic("RL146", ERROR, f"option `{new.name}` is a {_kind_of_value(base.default)} "
                                f"in the base file, but this sets it to the {_kind_of_value(new.default)} "
                                f"`{_show(new.default)}`", new.span,
                                f"give it a {_kind_of_value(base.default)}, e.g. `replace option "
                                f"{new.name} = {_show(base.default)}`"))
        return attrs.evolve(new, default=base.default)
    if new.low is None and new.choices is None:
        v = new.default
        allowed = None
        if base.low is not None and isinstance(v, int) and not base.low <= v <= base.high:
            allowed = f"from {base.low} to {base.high}"
        elif base.choices is not None and v not in base.choices:
            allowed = "one of " + ", ".join(_show(c) for c in base.choices)
        if allowed is not None:
            diags.append(Diagnostic("RL145", ERROR, f"option `{new.name}` must be {allowed}, "
                                    f"not `{_show(v)}`", new.span,
                                    f"the base file allows {allowed}; to allow other values, give a "
                                    f"new range: `replace option {new.name} = {_show(v)} "
                                    + (f"from {base.low} to {max(base.high, v)}`" if base.low is not None
                                       else f"one of {_show(v)}, ...`")))
            new = attrs.evolve(new, default=base.default)
        return attrs.evolve(new, low=base.low, high=base.high, choices=base.choices,
                            doc=new.doc if new.doc is not None else base.doc)
    return new
