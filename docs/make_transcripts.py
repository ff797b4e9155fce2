"""Writes docs/transcripts.md from what rulelang prints now (run it after a change of the words;
tests/test_words.py checks the file against rulelang)."""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd):
    args = cmd.split()[1:]
    r = subprocess.run(
        [sys.executable, "-m", "rulelang"] + args,
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"NO_COLOR": "1", "PATH": "/usr/bin:/bin", "COLUMNS": "80"},
    )
    return [l.rstrip() for l in r.stdout.split("\n")]


def find(lines, pat, start=0):
    for i in range(start, len(lines)):
        if re.search(pat, lines[i]):
            return i
    raise SystemExit(f"no {pat}")


parts = []


def block(cmd, ranges):
    lines = run(cmd)
    out = ["```text", "$ " + cmd]
    for k, (a, b) in enumerate(ranges):
        if k or a > 0:
            out.append("...")
        out.extend(lines[a:b])
    if ranges[-1][1] < len([l for l in lines if l]):
        out.append("...")
    out.append("```")
    return "\n".join(out), lines


doc = []


def para(t):
    doc.append(t.strip("\n"))


para("""# What a game looks like now

`rulelang run` and `rulelang play` show a game in the rulebook's words: the names the
rule files give their zones, choices and values ([docs/language.md](language.md#how-the-game-is-shown-display-names-and-bookkeeping)),
the table laid out by player, every turn numbered in the margin, and lines starting `·` for what
the rules did between the choices (cards moving, piles turned over, shuffles, skips, reversals).
A line starting `»` is a `say` of the rule file. `...` marks lines left out here;
tests/test_words.py checks that every other line is what the command prints (docs/make_transcripts.py
writes this page again).""")
# CIQ
cmd = "rulelang run rules/ciq.cardrules --players 3 --seed 1"
lines = run(cmd)
a = find(lines, r"^ Player 1")
t3 = find(lines, r"^   3  ")
t5 = find(lines, r"^   5  ")
t37 = find(lines, r"^  37  ")
para("""## CIQ

Three players, each with an Attack Pile (face down), a Damage Pile and a Defense Pile (face up)
and a hand. The attack being played is shown only while it is on the table (`zone attack "the
attack": shared, face up, shown when not empty`); the pack and the pile of transferred cards are
bookkeeping (`not shown`). Each Defense Pile carries its owner's Defense, the value of its top
card (`show "Defense" with defense_pile: defense(you)`). The Jack, the Queen and the King
act through the transfers told with `·`.""")
b, _ = block(cmd, [(0, a + 16), (t3, t5 + 6)])
para(b)
para("""Player 1 blocks Player 3's 8♦: the 8♦ still lands on the Damage Pile, with nothing transferred.
A King transfers the whole Damage Pile; when the draw at the start of the turn empties the Attack
Pile, the Damage Pile is turned over into it at once, and the lines tell it in that order (the
draw, then the pile's 76 cards):""")
b, _ = block(cmd, [(t37, t37 + 2)])
para(b)
# Follow the leader
cmd = "rulelang run rules/follow_the_leader_jokers.cardrules --players 3 --seed 2"
lines = run(cmd)
t4 = find(lines, r"^   4  ")
t8 = find(lines, r"^   8  ")
t62 = find(lines, r"^  62  ")
t65 = find(lines, r"^  65  ")
para("""## Follow the Leader (with jokers)

The options are printed as words (`jokers: yes`). After a joker, the *next* player says what it
counted as (`joker_was "the joker counts as a {r}" rank r`); a drawn card that can be played is
played at once, and the reshuffle of the discard pile is told before the rule's own words:""")
b, _ = block(cmd, [(0, 2), (t4, t8), (t62, t65)])
para(b)
# Attack
cmd = "rulelang run rules/attack.cardrules --seed 1"
lines = run(cmd)
t2 = find(lines, r"^   2  ")
para("""## Attack!

Setup asks a decision (who attacks first), so the table comes at that decision, after what setup
did. Each player's Fight Deck, hand, Field of Battle, Victory Deck and Deck of Champions lie
together; `winner` and `over`, the rules' bookkeeping, are not shown.""")
b, _ = block(cmd, [(0, t2 + 1)])
para(b)
# Attack speed
cmd = "rulelang run rules/attack_speed.cardrules --seed 1"
lines = run(cmd)
t1 = find(lines, r"^   1  ")
t3 = find(lines, r"^   3  ")
end = find(lines, r"wins!|No winner")
para("""Speed Attack! has one decision in the whole game; every turn still has its number, and the
result counts the turns the transcript numbered:""")
b, _ = block(cmd, [(t1 + 6, t3), (end, end + 2)])
para(b)
# Internecine
cmd = "rulelang run rules/internecine.cardrules --seed 1"
lines = run(cmd)
a = find(lines, r"^   1  ")
t7 = find(lines, r"^   7  ")
para("""## Internecine

Each player's colour is a shown value (`var side "Colour" per player = ...`); the war piles are
listed only while a war is on (`shown when not empty`). Civilians and the graveyard are face
down: a card going there is "a card". A `say` that names its subject is told as it stands
("A civilian of Player 1 is killed, unseen"); one that starts with a verb is about the player
whose rule runs ("Player 1 wins the battle").""")
b, _ = block(cmd, [(0, a + 30)])
para(b)
# Mages wild
cmd = "rulelang run rules/mages_wild.cardrules --players 3 --seed 2"
lines = run(cmd)
a = find(lines, r"^   1  ")
t8 = find(lines, r"^   8  ")
t19 = find(lines, r"^  19  ")
t23 = find(lines, r"^  23  ")
para("""## Mages Wild

Cards of several words are listed with commas. The declared suit and the cards each player must
pick up are shown values; a warrior's lost turn and a fool's reversal are told by the runtime
(`skip next player`, `reverse direction`), not by the rule file:""")
b, _ = block(cmd, [(0, t8), (t19, t23)])
para(b)
# play
para("""## Playing a seat

`rulelang play` shows the whole table at the first prompt, then only the rows that changed
(`?` prints it all again). The prompt names the decision, and whose turn it is when it is not
yours; a decision with a single legal choice is made for you. Here Internecine from the black
seat, answering `1` each time (`printf '1\\n1\\n1\\nq\\n' | rulelang play rules/internecine.cardrules --seat 2 --seed 3`):""")
r = subprocess.run(
    [sys.executable, "-m", "rulelang", "play", "rules/internecine.cardrules", "--seat", "2", "--seed", "3"],
    cwd=ROOT,
    capture_output=True,
    text=True,
    input="1\n1\n1\nq\n",
    env={"NO_COLOR": "1", "PATH": "/usr/bin:/bin", "COLUMNS": "80"},
)
pl = [l.rstrip() for l in r.stdout.split("\n")]
para(
    "```text\n$ printf '1\\n1\\n1\\nq\\n' | rulelang play rules/internecine.cardrules --seat 2 --seed 3\n"
    + "\n".join(pl).rstrip()
    + "\n```"
)
open(ROOT + "/docs/transcripts.md", "w").write("\n\n".join(doc) + "\n")
