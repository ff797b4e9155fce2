"""Rule files made to stress the checker and the generator (`python -m benchmarks` times how long
each takes to check and compile, beside every file of rules/ and examples/).

Each is a game that checks clean and plays, written so that a generator that wrote a construct
again at each of its uses, instead of once, would take time exponential (or quadratic) in one
number of the file:
  * towers of defines, each twice the one below (``tower``): used plainly, beside a value kept
    by a choice between values, and with a kept value at the tower's bottom;
  * rules that never decide, each calling the one below twice (``copied_rules``): written in
    place of their calls while they are small enough, then called;
  * many defines, each using the ones before (``define_web``);
  * statements nested deep, each level a choice between values of defines (``nested``).
``STRESS`` names each with its text."""
from __future__ import annotations


_HEAD = ['players 2', 'deck standard, into stock', 'zone stock: shared, face down',
         'zone hand: per player, seen by owner', 'var n per player = 1', 'var tally = 0']


def tower(k: int, shape: str = "plain") -> str:
    """``k`` defines, each twice the one below; ``shape``: ``plain`` (the top one set), ``top``
    (beside a value kept: `(base(you) if base(you) > 0 else tK(you))`), ``bottom`` (the kept
    value used at the tower's bottom, computed by the first condition through the tower)."""
    bottom = "base(p) + 1" if shape == "bottom" else "n of p + 1"
    use = {"plain": f"t{k}(you)",
           "top": f"(base(you) if base(you) > 0 else t{k}(you))",
           "bottom": f"(base(you) if t{k}(you) > 0 else base(you) + 1)"}[shape]
    lines = [f'game "Tower of {k} defines, {shape}"'] + _HEAD
    lines += ["define base(p) = n of p + size of hand of p", f"define t0(p) = {bottom}"]
    lines += [f"define t{i}(p) = t{i - 1}(p) + t{i - 1}(p)" for i in range(1, k + 1)]
    lines += ["setup:", "    shuffle stock", "    deal 5 from stock to hand of each player",
              "turn:", f"    set tally to {use}", "    move top card from stock to hand",
              "    if stock is empty:", "        end game with no winner"]
    return "\n".join(lines) + "\n"


def copied_rules(k: int) -> str:
    """``k`` rules that never decide, each calling the one below twice, the bottom one with a
    local and a define that binds a card of its own."""
    lines = ['game "Copied rules"'] + _HEAD
    lines += ["define same(c) = number of cards in hand where rank of card is rank of c"]
    lines += ["rule r0:", "    let k = size of hand", "    if hand is not empty:",
              "        add same(top of hand) + k to tally"]
    for i in range(1, k + 1):
        lines += [f"rule r{i}:", f"    r{i - 1}", f"    r{i - 1} for next player"]
    lines += ["setup:", "    shuffle stock", "    deal 5 from stock to hand of each player",
              "turn:", f"    r{k}", "    choose:", "        draw:",
              "            move top card from stock to hand", "        pass_turn:", "            pass",
              "    if stock is empty or tally > 100000:", "        end game with no winner"]
    return "\n".join(lines) + "\n"


def define_web(k: int) -> str:
    """``k`` defines, each using the two before it, some in choices between values."""
    lines = ['game "A web of defines"'] + _HEAD
    lines += ["define d0(p) = n of p + size of hand of p", "define d1(p) = d0(p) + 1"]
    for i in range(2, k + 1):
        if i % 3 == 0:
            lines.append(f"define d{i}(p) = (d{i - 1}(p) if d{i - 2}(p) > d{i - 1}(p) "
                         f"else d{i - 2}(p) + d{i - 1}(p))")
        else:
            lines.append(f"define d{i}(p) = d{i - 1}(p) + d{i - 2}(p)")
    lines += ["setup:", "    shuffle stock", "    deal 5 from stock to hand of each player",
              "turn:", f"    set tally to (d{k}(you) if d{k - 1}(you) > 0 else d{k}(next player))",
              "    move top card from stock to hand", "    if stock is empty:",
              "        end game with no winner"]
    return "\n".join(lines) + "\n"


def nested(k: int) -> str:
    """Statements nested ``k`` deep, each level testing a choice between values of defines."""
    lines = ['game "Nested statements"'] + _HEAD
    lines += ["define a(p) = n of p + size of hand of p", "define b(p) = a(p) + a(p)"]
    lines += ["setup:", "    shuffle stock", "    deal 5 from stock to hand of each player",
              "turn:"]
    for i in range(k):
        pad = "    " * (i + 1)
        lines.append(f"{pad}if (b(you) if a(you) > {i} else a(you)) >= 0:")
        lines.append(f"{pad}    add 1 to tally")
    lines += ["    move top card from stock to hand", "    if stock is empty:",
              "        end game with no winner"]
    return "\n".join(lines) + "\n"


STRESS = {
    "tower_18_plain": tower(18, "plain"),
    "tower_18_kept_top": tower(18, "top"),
    "tower_40_plain": tower(40, "plain"),
    "tower_40_kept_top": tower(40, "top"),
    "tower_40_kept_bottom": tower(40, "bottom"),
    "copied_rules_12": copied_rules(12),
    "define_web_40": define_web(40),
    "nested_30": nested(30),
}
