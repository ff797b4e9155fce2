"""The hints of the checker's diagnostics: "did you mean" (with a budget of name comparisons for
each check, so that a file of many mistakes stays quick), what to write when a value is of the
wrong kind, and how an option's value is shown in a message."""
from __future__ import annotations

from rulelang.kinds import CARD, FLAG, NUMBER, PLAYER, PLAYERS, SYMBOL, ZONE
from rulelang.syntax.diagnostics import did_you_mean as _closest


# A "did you mean" hint compares a name with every known name: for a file with thousands of
# unknown names and thousands of known ones that is quadratic.  Each check gets this many name
# comparisons for its hints (a file of a few hundred names with a hundred mistakes needs a
# tenth of it); the diagnostics after that come without a hint.
HINT_BUDGET = 50_000
_hint_budget = [HINT_BUDGET]


def did_you_mean(name, candidates):
    if len(name) > 64:                      # nobody misspells a name that long
        return None
    if not hasattr(candidates, "__len__"):
        candidates = list(candidates)
    if _hint_budget[0] < len(candidates):
        return None
    _hint_budget[0] -= len(candidates)
    return _closest(name, candidates)


def _type_hint(want, got):
    if want == ZONE and got == CARD:
        return "a card is not a zone; did you mean the zone it is in?"
    if want == NUMBER and got == CARD:
        return "use an attribute of the card, e.g. `rank of c` or `value of c`"
    if want == PLAYER and got == ZONE:
        return "a zone is not a player; `hand of p` is p's hand"
    if want == CARD and got == ZONE:
        return "a zone holds cards; take one with `top of ZONE`"
    if want == FLAG:
        return "a condition is yes or no, e.g. `size of hand is 0`"
    if want == CARD and got == NUMBER:
        return "a number is not a card; take a card with `top of ZONE`, or choose one with `card c from ZONE`"
    if want == PLAYER and got == NUMBER:
        return "a number is not a player; a seat is written `player 2`"
    if want == PLAYER and got == PLAYERS:
        return ("to let a set of players choose, write `simultaneously choose by each opponent:` "
                "(or `each player where ...`); one player is chosen with `player p from opponents`")
    if want == ZONE and got == PLAYER:
        return "a player is not a zone; `hand of p` is p's hand"
    if want == NUMBER and got == FLAG:
        return "yes/no is not a number; `(1 if C else 0)` turns a condition into a number"
    if want == FLAG and got == NUMBER:
        return "compare the number with something, e.g. `x > 0`"
    if want == NUMBER and got == ZONE:
        return "a zone is not a number; did you mean `size of` it?"
    if got == SYMBOL or want == SYMBOL:
        return "words are the values of an option or an attribute; compare them with `is`"
    if {want, got} == {NUMBER, FLAG} or want != got:
        return f"compare or combine values of the same kind (here a {want} and a {got})"
    return None


# What a value of each kind looks like, for the hint of a `set` to a value of another kind.
_EXAMPLES = {"suit": "`hearts` or `suit of c`", "number": "`0` or `size of hand`",
             "player": "`you` or `next player`", "card": "`top of pile`",
             "yes/no": "`yes` or `no`", "zone": "a zone's name, such as `pile`"}


def set_hint(want, got, name):
    """The hint of RL102 for `set NAME to VALUE` with a value of the wrong kind: what the
    variable holds, unless a hint for the two kinds says more (`size of` a zone)."""
    h = _type_hint(want, got)
    if h is not None and not h.startswith(("compare", "words are")):
        return h
    example = _EXAMPLES.get(str(want))
    return f"`{name}` holds a {want}: set it to a {want}" + (f", such as {example}" if example else "")


def _show(v):
    return "yes" if v is True else "no" if v is False else str(v)
