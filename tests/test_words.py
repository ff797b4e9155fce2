"""The games speak in the rulebook's words.

* ``rulelang run`` of every rule file in rules/ and examples/, at every player count, shows no
  identifier with an underscore, no row of internal variables, no bookkeeping zone, no Python
  ``True``/``False`` and no "1 cards"; every turn is numbered and the result counts the turns the
  transcript numbered.
* ``rulelang play`` driven through a pseudo-terminal (pexpect) on CIQ with 3 players and on
  Internecine from both seats: each prompt names what is decided, a table is not reprinted when
  nothing changed, and no card the seat has not seen is ever on the screen.
* The display syntax itself: names, defaults, ``not shown`` and ``shown when not empty``.
"""
import glob
import io
import os
import re
import sys

import pytest

from rulelang.cli.commands import main
from rulelang.cli.common import _play_out
from rulelang.compile.loader import load
from rulelang.engine.display_names import Words, fix_plurals, humanize, title

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = sorted(glob.glob(os.path.join(ROOT, "rules", "*.cardrules"))
               + glob.glob(os.path.join(ROOT, "examples", "*.cardrules")))


def _counts(path):
    game = load(path)
    lo, hi = game.players
    return list(range(lo, hi + 1))


CASES = [(os.path.relpath(f, ROOT), n) for f in FILES for n in _counts(f)]


def _run(capsys, path, n, seed):
    assert main(["run", os.path.join(ROOT, path), "--players", str(n), "--seed", str(seed)]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("path,players", CASES)
def test_run_transcript_reads_like_the_game(capsys, path, players):
    out = _run(capsys, path, players, 1)
    cg = load(os.path.join(ROOT, path)).compiled(players)
    words = Words(cg)
    assert not re.findall(r"\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b", out), "an identifier on screen"
    assert not re.search(r"\bTrue\b|\bFalse\b", out)
    assert not re.search(r"(?<!Player )(?<![\d.])\b1 (cards|points|turns|rounds|tricks)\b", out)
    assert not re.search(r"^\s*vars\b", out, re.M), "a row of internal variables"
    if "the table at the first decision" in out:     # only when setup itself asks a decision
        assert "the table after setup" not in out
        assert re.search(r"^ {0,3}1  .*\n(?:.*\n)*?the table at the first decision", out, re.M)
    # no variable without a display name is shown, under its own name or any other
    for name, info in cg.model.vars.items():
        if not info.decl.display:
            assert not re.search(rf"^ +{re.escape(humanize(name))} ", out, re.M | re.I), name
    for name, z in cg.model.zones.items():
        shown = words.zone(name)
        rows = re.findall(rf"^   {re.escape(shown)}  +(.*)$", out, re.M)
        if z.shown == "no":           # a bookkeeping zone: never a row, never in the narration
            assert not rows, name
            assert not re.search(rf"(from|to|of) {re.escape(shown)}\b(?! of)", out), name
        elif z.shown == "in use":     # listed only while it holds cards
            assert all("(empty)" not in r for r in rows), name
    # every turn numbered, and the result counts the turns the transcript numbered
    numbers = [int(m) for m in re.findall(r"^ {0,3}(\d+)  \S", out, re.M)]
    assert numbers == list(range(1, len(numbers) + 1))
    result = re.search(r"\((\d+) decisions?, (\d+) turns?\)", out)
    assert result and int(result.group(2)) == len(numbers)


def test_a_say_that_repeats_the_choice_is_not_told_twice(capsys):
    out = _run(capsys, "rules/internecine.cardrules", 2, 1)
    assert re.search(r"Player \d: wait\n +» Player \d has no army and no population\n", out)
    assert "no population: waits" not in out


def test_a_game_without_decisions_numbers_every_turn(capsys):
    out = _run(capsys, "rules/attack_speed.cardrules", 2, 3)
    numbers = [int(m) for m in re.findall(r"^ {0,3}(\d+)  \S", out, re.M)]
    assert len(numbers) > 5 and numbers[-1] == len(numbers)


def test_default_words():
    assert title("draw_pile") == "Draw Pile"
    assert humanize("let_it_happen") == "let it happen"
    assert fix_plurals("transfers 1 cards to player 2, 11 cards in all") == \
        "transfers 1 card to player 2, 11 cards in all"
    # a player's number is not a count: "Player 1 wins 12 chips" stays (it said "win" before)
    assert fix_plurals("Player 1 wins 12 chips, player 1 wins again") == \
        "Player 1 wins 12 chips, player 1 wins again"
    assert fix_plurals("after 1 wins") == "after 1 win"


SHOWN = '''game "Shown"
players 2
option quick_end "Quick ending" = no "end after one card"
deck type tiny:
    suits up "U"
    ranks one = 1 "1", two = 2 "2", three = 3 "3", four = 4 "4"
    extra stars: big_star "Big Star", small_star with rank star = 0 "*"
deck tiny with stars, into draw_pile
zone draw_pile: shared, face down
zone scratch: shared, face up, not shown
zone in_play "the card in play": shared, face up, shown when not empty
zone hand: per player, seen by owner
var played "Cards played" per player = 0
var secret_count = 0
setup:
    shuffle draw_pile
    deal 2 from draw_pile to hand of each player
turn:
    choose:
        put_down "put down {c}" card c from hand:
            move c from hand to in_play
            add 1 to played
            add 1 to secret_count
        give_up "give up":
            move all cards from hand to scratch
    move all cards from in_play to scratch
    if hand is empty or quick_end:
        end game with winner you
'''


def test_display_syntax(tmp_path):
    path = tmp_path / "shown.cardrules"
    path.write_text(SHOWN, encoding="utf-8")
    game = load(str(path))
    cg = game.compiled(2)
    words = Words(cg)
    assert words.zone("draw_pile") == "Draw Pile" and words.zone("in_play") == "the card in play"
    assert words.shown("scratch") == "no" and words.shown("in_play") == "in use"
    assert words.card("big_star") == "Big Star" and words.card("small_star") == "small star"
    assert words.options(game.options()) == "Quick ending: no"
    st = cg.new_game(seed=1, log=True)
    acts = {words.action(a): a for a in st.legal_actions()}
    assert "give up" in acts and all(w.startswith("put down ") for w in acts if w != "give up")
    # the machine's words are unchanged
    assert {st.action_to_string(a) for a in st.legal_actions()} >= {"give_up"}
    assert words.vars_of(st, 0) == [("Cards played", "0")]
    assert words.vars_of(st, None) == []          # secret_count has no display name


def test_display_syntax_on_screen(tmp_path, capsys):
    path = tmp_path / "shown.cardrules"
    path.write_text(SHOWN, encoding="utf-8")
    assert main(["run", str(path), "--seed", "2", "--agents", "first"]) == 0
    out = capsys.readouterr().out
    assert "Quick ending: no" in out and "Cards played" in out
    assert "Scratch" not in out and "secret" not in out.lower()
    assert "put down " in out and "Draw Pile" in out


# ---- play through a pseudo-terminal ----------------------------------------------------------

pexpect = pytest.importorskip("pexpect")

CARD = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]|(?:red|black) joker")


def _public_names(text):
    return set(CARD.findall(text))


def _replica(path, n, seat, seed):
    """The same game as ``rulelang play --seed S --seat K`` answering 1 at every prompt, played
    in this process: for each prompted decision, the card names the seat has never seen before
    it (no copy of that card in any of its observations, nor in what the rules said or revealed)."""
    from rulelang.play.agents import HumanAgent, make_agent
    cg = load(path).compiled(n)
    st = cg.new_game(seed=seed, log=True)
    you = seat - 1
    names = set(cg.card_names)
    seen = set()
    logged = [0]
    secrets = []

    def look():
        obs = st.observation(you)
        for v in obs["zones"].values():
            if isinstance(v, list):
                seen.update(v)
            elif isinstance(v, dict) and v.get("top"):
                seen.add(v["top"])
        for e in st.log[logged[0]:]:
            if e[0] in ("say", "reveal"):
                seen.update(c for c in names if c in str(e[2]))
        logged[0] = len(st.log)

    def ask(view):
        look()
        if len(view.legal) > 1:
            secrets.append({c for c in names if c not in seen})
        return view.legal[0]

    agents = [make_agent("random", p, seed) for p in range(n)]
    agents[you] = HumanAgent(you, seed, ask=ask)
    _play_out(st, agents, lambda before: look())
    return cg, secrets


def _display(cg, name):
    return Words(cg).card(name)


def _play_screen(path, n, seat, seed, max_prompts=60):
    child = pexpect.spawn(sys.executable, ["-m", "rulelang", "play", path, "--players", str(n),
                                           "--seat", str(seat), "--seed", str(seed)],
                          cwd=ROOT, encoding="utf-8", timeout=60, dimensions=(50, 100),
                          # (not COLUMNS and LINES: pytest-xdist's workers set 80 x 24, over the pty's size)
                          env=dict({k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")},
                                   NO_COLOR="1", PYTHONPATH=ROOT))
    screens = []        # the text up to each prompt
    text = ""
    asked_table = False
    while len(screens) < max_prompts:
        i = child.expect([r"Choose 1-\d+ \(\? the whole table, q to quit\): ", pexpect.EOF])
        text += child.before
        if i == 1:
            break
        screens.append(text)
        text += child.after
        if len(screens) == 3 and not asked_table:
            asked_table = True
            child.sendline("?")
            child.expect(r"Choose 1-\d+ \(\? the whole table, q to quit\): ")
            text += "\n<<?>>" + child.before + child.after
        child.sendline("1")
    child.sendline("q")
    child.expect(pexpect.EOF)
    text += child.before
    child.close()
    return screens, text.replace("\r\n", "\n")


def _rows(block):
    """The rows of a table block: (player heading, row label) -> value."""
    rows = {}
    head = None
    for line in block.split("\n"):
        m = re.match(r"^ (\S.*?)\s*$", line)
        if m and not line.startswith("  "):
            head = m.group(1)
            continue
        m = re.match(r"^   (\S.*?)  +(\S.*?)\s*$", line)
        if m:
            rows[(head, m.group(1))] = m.group(2)
    return rows


PLAYS = [("rules/ciq.cardrules", 3, 1, 5), ("rules/ciq.cardrules", 3, 2, 8),
         ("rules/internecine.cardrules", 2, 1, 3), ("rules/internecine.cardrules", 2, 2, 3)]


@pytest.mark.parametrize("path,players,seat,seed", PLAYS)
def test_play_through_a_terminal(path, players, seat, seed):
    full = os.path.join(ROOT, path)
    screens, text = _play_screen(full, players, seat, seed)
    assert len(screens) >= 5
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
    screens = [s.replace("\r\n", "\n") for s in screens]
    # each prompt says what is decided (and, in another player's turn, whose turn it is)
    for s in screens:
        tail = s.rstrip().split("\n")
        heading = [ln for ln in tail if re.search(r"[Yy]our decision", ln)][-1]
        assert re.search(r"[Yy]our decision[^:]*: \S", heading)
        assert re.search(r"^\s+1\) \S", s, re.M)
    assert "You are player %d of %d" % (seat, players) in text
    if "internecine" in path:     # the seat's colour is told
        assert "your Colour: " + ("red" if seat == 1 else "black") in text
    # the whole table once at the first prompt and once for `?`; otherwise only what changed
    assert text.count("\nThe table\n") == 2
    last = {}
    blocks = re.split(r"\n(?=The table)", text)
    for b in blocks[1:]:
        rows = _rows(b.split("\n\n")[0].split("your decision")[0].split("Your decision")[0])
        if b.startswith("The table: what changed"):
            for key, value in rows.items():
                assert last.get(key) != value, f"an unchanged row reprinted: {key} {value}"
        last.update(rows)
    # never a card the seat has not seen
    cg, secrets = _replica(full, players, seat, seed)
    assert len(secrets) >= len(screens)
    for k, s in enumerate(screens):
        shown = _public_names(s)
        hidden = {_display(cg, c) for c in secrets[k]}
        assert not (shown & hidden), f"prompt {k + 1} shows cards the seat never saw: {shown & hidden}"


def test_only_choice_is_not_a_question(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
    assert main(["play", os.path.join(ROOT, "rules/ciq.cardrules"), "--players", "3",
                 "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "(your only choice, made for you)" in out
    for m in re.finditer(r"\(your only choice, made for you\)\n(.*)", out):
        assert "Choose" not in m.group(1)


# ---- docs/transcripts.md shows what the commands print ---------------------------------------

def _doc_blocks():
    text = open(os.path.join(ROOT, "docs", "transcripts.md"), encoding="utf-8").read()
    return re.findall(r"```text\n\$ ([^\n]*)\n(.*?)```", text, re.S)


@pytest.mark.parametrize("command,body", _doc_blocks())
def test_transcripts_doc_is_what_rulelang_prints(command, body, capsys, monkeypatch):
    stdin = None
    m = re.match(r"printf '(.*)' \| rulelang (.*)", command)
    if m:
        stdin, args = m.group(1).replace("\\n", "\n"), m.group(2).split()
    else:
        args = command.split()[1:]
    monkeypatch.chdir(ROOT)              # paths as the doc writes them (play prints them back)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    assert main(args) == 0
    out = [ln.rstrip() for ln in capsys.readouterr().out.split("\n")]
    pos = 0
    for chunk in body.rstrip("\n").split("\n...\n") if "\n...\n" in body.strip("\n") else [body]:
        lines = [ln for ln in chunk.strip("\n").split("\n") if ln != "..."]
        if not lines:
            continue
        for i in range(pos, len(out) - len(lines) + 1):
            if out[i:i + len(lines)] == lines:
                pos = i + len(lines)
                break
        else:
            raise AssertionError(f"not printed by `{command}`:\n" + "\n".join(lines))


def test_moves_are_told_as_the_viewer_sees_them(tmp_path):
    from rulelang.cli.narration import move_line
    from rulelang.engine.events import seen_event
    path = tmp_path / "shown.cardrules"
    path.write_text(SHOWN, encoding="utf-8")
    cg = load(str(path)).compiled(2)
    words = Words(cg)
    st = cg.new_game(seed=1)
    zi = {(name, owner): i for i, (name, owner, _v, _s) in enumerate(cg.zone_info)}
    draw, hand0 = zi[("draw_pile", -1)], zi[("hand", 0)]
    zones = [z[:] for z in st.zones]
    card = zones[draw][-1]
    n = len(zones[draw])
    name = words.card(cg.card_names[card])

    def told(bottom, viewer):
        e = ("move", draw, hand0, (card,), bottom)   # under the cards already in the hand
        return move_line(words, seen_event(cg, zones, e, viewer), n, n - 1, viewer).plain
    assert told(True, None) == f"  · {name} from Draw Pile to the bottom of Hand of Player 1"
    assert told(True, 1) == "  · a card from Draw Pile to the bottom of Hand of Player 1"
    assert told(True, 0) == f"  · {name} from Draw Pile to the bottom of your Hand"
    assert told(False, None) == f"  · {name} from Draw Pile to Hand of Player 1"


# ---- who reveals a card ------------------------------------------------------------------------

REVEALS = '''game "Show and tell"
players 2
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone table: shared, face up
setup:
    deal 2 from stock to hand of each player
    move top card from stock to table
turn:
    choose:
        peek:
            reveal top of hand of next player
            reveal top of table
            reveal top of hand
            end game with winner you
'''


def test_a_reveal_is_told_of_the_player_whose_card_it_is(tmp_path, capsys):
    # Player 1's rule reveals player 2's card, a card on the shared table, and player 1's own
    # card: told as player 2's, nobody's, player 1's (it used to be player 1 for all three).
    path = tmp_path / "reveals.cardrules"
    path.write_text(REVEALS, encoding="utf-8")
    cg = load(str(path)).compiled(2)
    st = cg.new_game(seed=1, log=True)
    theirs = cg.card_names[st.zones[cg.zone_base["hand"] + 1][-1]]
    table = cg.card_names[st.zones[cg.zone_base["table"]][-1]]
    mine = cg.card_names[st.zones[cg.zone_base["hand"]][-1]]
    st.apply_action(st.legal_actions()[0])
    assert [(e[1], e[2]) for e in st.log if e[0] == "reveal"] == [(1, theirs), (-1, table), (0, mine)]
    assert main(["run", str(path), "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert f"Player 2 reveals {theirs}" in out and f"{table} is revealed" in out
    assert f"Player 1 reveals {mine}" in out
    assert f"Player 1 reveals {theirs}" not in out


# ---- a value shown with a zone -------------------------------------------------------------------

def test_the_defense_is_shown_beside_the_defense_pile(capsys):
    # `show "Defense" with defense_pile: defense(you)` in ciq.cardrules: every table row of a
    # Defense Pile carries its owner's Defense, the value of its top card.
    assert main(["run", os.path.join(ROOT, "rules", "ciq.cardrules"), "--players", "3",
                 "--seed", "2", "--table-every", "5"]) == 0
    out = capsys.readouterr().out
    rows = re.findall(r"^ +Defense Pile +(.*)$", out, re.M)
    assert len(rows) >= 6
    values = {"A": 1, "J": 11, "Q": 12, "K": 13}
    for row in rows:
        if row.startswith("(empty)"):
            assert "Defense:" not in row            # shown only while the pile holds cards
            continue
        top = re.findall(r"(10|[2-9AJQK])[♠♥♦♣]", row.split("Defense:")[0])[-1]
        assert row.rstrip().endswith(f"Defense: {values.get(top) or int(top)}"), row


SHOWN_WITH = '''game "Show with"
players 2
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone pile: per player, face up
zone table: shared, face up
define points(p) = total rank of pile of p
show "Points" with pile: points(you)
show "Cards left" with stock: size of stock
show "Leader" with table: (player 1 if points(player 1) >= points(player 2) else player 2)
setup:
    deal 3 from stock to hand of each player
    move top card from stock to table
turn:
    choose:
        play card c from hand:
            move c from hand to pile
game ends when hand is empty:
    end game with winner you
'''


def test_show_with_a_zone(tmp_path):
    path = tmp_path / "showwith.cardrules"
    path.write_text(SHOWN_WITH, encoding="utf-8")
    cg = load(str(path)).compiled(2)
    st = cg.new_game(seed=1, log=True)
    pile1, pile2 = cg.zone_base["pile"], cg.zone_base["pile"] + 1
    assert cg.shown_with(st, pile1) is None                  # empty: nothing shown
    assert cg.shown_with(st, cg.zone_base["stock"]) == ("Cards left", "45")
    st.apply_action(st.legal_actions()[0])
    st.apply_action(st.legal_actions()[0])
    r1, r2 = (sum(cg.cards[c][1] for c in st.zones[z]) for z in (pile1, pile2))
    assert cg.shown_with(st, pile1) == ("Points", str(r1))   # `you` is the pile's owner
    assert cg.shown_with(st, pile2) == ("Points", str(r2))
    assert cg.shown_with(st, cg.zone_base["table"]) == ("Leader", "player 1" if r1 >= r2 else "player 2")
    words = Words(cg)
    from rulelang.cli.narration import zone_rows
    text = "\n".join(f"{a.plain} {b.plain}" for _k, a, b in zone_rows(words, st.zones, None, st))
    assert f"Points: {r1}" in text and "Cards left: 45" in text and "Leader: Player" in text


def test_a_say_that_names_its_own_subject_is_not_credited(tmp_path):
    # Mages Wild's `say "there is nothing left to draw"` read "Player 2 there is nothing left to
    # draw"; a sentence that begins with a verb is still about the player whose rule runs.
    from rulelang.cli.narration import said_text
    path = tmp_path / "showwith.cardrules"
    path.write_text(SHOWN_WITH, encoding="utf-8")
    words = Words(load(str(path)).compiled(2))
    assert said_text(words, 1, "there is nothing left to draw").plain == \
        "  » There is nothing left to draw"
    assert said_text(words, 1, "finds nothing left to draw").plain == \
        "  » Player 2 finds nothing left to draw"


def test_a_say_about_the_seat_is_told_to_it_as_yours():
    # Shown to player 2 itself: "the army of you is discarded" and "a civilian of you is killed"
    # read as "your army", "a civilian of yours"; the spectator reads "of Player 2".
    words = Words(load(os.path.join(ROOT, "rules", "internecine.cardrules")).compiled(2))
    said = "makes a sneak attack with a Joker: the army of player 2 is discarded"
    assert words.text(said, 1) == "makes a sneak attack with a Joker: your army is discarded"
    assert words.text(said, None).endswith("the army of Player 2 is discarded")
    assert words.text("a civilian of player 2 is killed, unseen", 1) == \
        "a civilian of yours is killed, unseen"
    assert words.text("the cards on the field go to player 2", 1) == "the cards on the field go to you"


def test_a_say_naming_the_seat_first_is_told_in_the_second_person(tmp_path):
    # `say p, "takes the trick"` shown to p read "You takes the trick".
    from rulelang.cli.narration import said_text
    path = tmp_path / "showwith.cardrules"
    path.write_text(SHOWN_WITH, encoding="utf-8")
    words = Words(load(str(path)).compiled(2))
    assert said_text(words, 0, "player 2 takes the trick", 1).plain == "  » You take the trick"
    assert said_text(words, 0, "player 2 has 21", 1).plain == "  » You have 21"
    assert said_text(words, 0, "player 2 takes the trick", 0).plain == "  » Player 2 takes the trick"
