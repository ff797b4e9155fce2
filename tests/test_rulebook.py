"""``rulelang rulebook``: a rule file as a rulebook in words (rulelang/cli/rulebook.py).

* Every rule file of rules/ and examples/ has a rulebook, in Markdown and in HTML, that holds
  every rule, every choice's label, every `say` text, every zone, option and value of the file,
  in its own words, and no identifier with an underscore.
* The seed games' base files have golden rulebooks (tests/golden/rulebook/; regenerate with
  RULELANG_REGEN=1 after a deliberate change).
* Every statement and expression of the language has its sentence (no node is left to a
  fallback), a variant says how it differs from its base, and the texts of a rule file are
  escaped (control characters on the terminal, HTML in HTML).
* ``rulelang play`` tells whose turn it is, and `rules` at its prompt shows the rulebook
  (through a pseudo-terminal).
"""
import glob
import os
import re
import sys

import pytest

from rulelang.cli import rulebook as RB
from rulelang.cli.commands import main
from rulelang.cli.rulebook_cmd import rulebook_of
from rulelang.compile.loader import load
from rulelang.syntax import ast as A

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = sorted(glob.glob(os.path.join(ROOT, "rules", "*.cardrules"))
               + glob.glob(os.path.join(ROOT, "examples", "*.cardrules")))
# every statement of the language, in one file (tests/test_vocabulary.py keeps it so)
EVERY = os.path.join(ROOT, "tests", "every", "statements.cardrules")
GOLDEN = os.path.join(ROOT, "tests", "golden", "rulebook")
SEEDS = ["attack", "ciq", "follow_the_leader", "internecine", "mages_wild"]


def _walk(node, out):
    if isinstance(node, tuple):
        for x in node:
            _walk(x, out)
    elif hasattr(type(node), "__attrs_attrs__"):
        out.append(node)
        for f in type(node).__attrs_attrs__:
            if f.name != "span":
                _walk(getattr(node, f.name), out)


def _nodes(game):
    out = []
    for d in game.decls:
        _walk(d, out)
    return out


@pytest.mark.parametrize("path", FILES + [EVERY], ids=lambda p: os.path.relpath(p, ROOT))
def test_every_rule_file_has_a_rulebook(path, capsys):
    assert main(["rulebook", path]) == 0
    md = capsys.readouterr().out
    assert main(["rulebook", path, "--format", "html"]) == 0
    page = capsys.readouterr().out
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    game = load(path)
    m = game.model
    plain = md.replace("\\", "")
    assert plain.startswith("# " + m.name)
    for section in ("Object of the game", "Players", "The cards", "Where the cards lie", "Setup",
                    "How the game ends"):
        assert f"\n## {section}\n" in plain
    if "turn" in m.rules:
        assert "\n## A turn\n" in plain
    for name in m.rules:
        if name not in ("setup", "turn"):
            assert f"“{RB.title(name)}”" in plain, name
    for alt, _choose in m.alternatives:
        if alt.label == "no more cards":
            continue            # the language's own "no more cards" of a choice of several cards
        label = alt.display or RB.humanize(alt.label)
        if alt.param is not None:
            label = label.replace("{" + alt.param.name + "}", alt.param.name)
        assert f"**{label}**" in plain, label
    for node in _nodes(game):
        if isinstance(node, A.Say):
            for part in node.parts:
                if isinstance(part, str):
                    assert f"“{part}”" in plain, part
    words = RB._Words(m, game.decls)
    for name in m.zones:
        assert words.zone_name(name) in plain
    for name in m.vars:
        if name.startswith(" "):     # the language's own, which no rule can name (an auction's)
            continue
        assert words.var_name(name) in plain
    for name in m.options:
        assert RB.humanize(m.options[name].decl.display or name) in plain
    if m.score is not None:
        assert "\n## Scoring\n" in plain
    # the rule file's identifiers are read as words
    words_only = re.sub(r"\S+\.cardrules", "", plain)
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", words_only), \
        re.findall(r"\b[a-z]+_[a-z_]+\b", words_only)[:5]
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", md + page)
    # every define the rules use is a term of the rulebook
    for name in words.defines:
        if words.define_name(name) in plain:
            assert f"**{words.define_name(name)}" in plain, name


def test_every_statement_and_expression_has_words():
    """A new statement or expression of the language needs its sentence here."""
    words = RB._Words
    for cls in vars(A).values():
        if isinstance(cls, type) and issubclass(cls, A.Stmt) and cls is not A.Stmt:
            assert hasattr(words, "stmt_" + cls.__name__), cls.__name__
        if isinstance(cls, type) and issubclass(cls, A.Expr) and cls is not A.Expr:
            assert hasattr(words, "expr_" + cls.__name__), cls.__name__


@pytest.mark.parametrize("name", SEEDS)
def test_golden_rulebooks_of_the_seed_games(name):
    book = rulebook_of(load(os.path.join(ROOT, "rules", name + ".cardrules")))
    text = RB.to_markdown(book)
    path = os.path.join(GOLDEN, name + ".md")
    if os.environ.get("RULELANG_REGEN"):
        os.makedirs(GOLDEN, exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    with open(path, encoding="utf-8") as fh:
        assert text == fh.read(), f"{path} differs; regenerate with RULELANG_REGEN=1 if intended"


GAME = """\
game "Tiny"
players 2 to 3
option target = 3 from 1 to 5 "cards to get rid of"
option strict = no
deck standard, into stock
zone stock: shared, face down
zone discard "Discard Pile": shared, top face up
zone hand: per player, seen by owner
var passes = 0
var scored: player = none
define fits(c) = suit of c is suit of top of discard or (not strict and rank of c is 8)
score: size of hand
game ends when hand is empty:
    end game with winner you
game ends when passes >= number of players:
    end game by lowest score

setup:
    shuffle stock
    deal 5 from stock to hand of each player
    move top card from stock to discard

turn:
    choose:
        play card c from hand where fits(c):
            move c from hand to discard
            set passes to 0
        draw_one "draw a card" if stock is not empty:
            move top card from stock to hand
        pass if stock is empty:
            add 1 to passes
            say "passes"
"""


def _tiny(tmp_path, text=GAME, name="tiny.cardrules"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_the_rulebook_says_every_condition_and_effect(tmp_path):
    book = RB.to_markdown(rulebook_of(load(_tiny(tmp_path))))
    plain = book.replace("\\", "")
    # the choices, each with its condition and what it does
    assert "**play**: with a card (call it c) from your Hand for which ‘fits’(c). Then:" in plain
    assert "**draw a card**: allowed only if the Stock is not empty. Then:" in plain
    assert "    - Move the top card of the Stock onto your Hand." in plain
    assert "    - Add 1 to passes." in plain
    # the term, with the option and the rank by name
    assert ("**‘fits’(c)**: either the suit of c is the suit of the top card of the Discard Pile "
            "or (the option “strict” is off and the rank of c is 8)") in plain
    # the endings and the score
    assert "- When your Hand is empty:\n  - The game ends: you win; every other player loses." \
        in plain
    assert "- When passes is at least the number of players:" in plain
    assert "the player with the lowest score wins" in plain
    assert "A player's score (“you” is the player scored) is the number of cards in your Hand." \
        in plain
    # setup, with the deal said in full
    assert "- Deal 5 cards from the Stock to the Hand of each player still in the game" in plain
    # the options, with their range and meaning
    assert "| target | cards to get rid of | a number from 1 to 5 | 3 | 3 |" in plain
    # the deck as dealt: 52 cards, named as the table names them
    assert "that is 52 cards" in plain and "A♣, 2♣" in plain


TAKE_UNSEEN = """\
game "Tiny Maid"
players 2 to 3
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
game ends when (number of players where yes) is 1:
    end game with loser you

setup:
    shuffle stock
    deal all from stock to hand of each player

turn:
    choose:
        take "take a card unseen" unseen card c from hand of next player:
            move c from hand of next player to hand
            if (number of cards in hand where yes) is 0:
                remove you from the game
            if (number of cards in hand of next player where yes) is 0:
                remove next player from the game
"""


def test_the_rulebook_says_what_an_implementation_needs(tmp_path):
    """What a reader writing the game from its rulebook alone needs (found by doing it,
    tests/test_rulebook_implementation.py): how a choice with a value is said, that "the player
    after P" passes over players who left, and a count of every player without "for whom yes"."""
    book = RB.to_markdown(rulebook_of(load(_tiny(tmp_path, TAKE_UNSEEN))))
    plain = book.replace("\\", "")
    assert ("A choice that takes a value is said with the value after its words (or in their "
            "place, where the words name the value): a place in a pile by its number, #1 for "
            "the bottom card (“take a card unseen #3”).") in plain
    assert "by “the player after P” and “the player before P” (the next or the one before " \
        "still in the game)" in plain
    assert "The game ends when the number of players still in the game is 1" in plain
    assert "If the number of cards in your Hand is 0:" in plain
    assert "If the number of cards in the Hand of the player after you is 0:" in plain
    assert "for whom yes" not in plain and "for which yes" not in plain
    # the number a player who leaves gets, kept by the rules, is told
    assert ("| out | for each player | number (0 while the player is in the game, then 1 for "
            "the first player to leave it, 2 for the second, and so on) | 0 | no |") in plain
    # a game whose choices take a card says so, with a card of its deck
    plain = RB.to_markdown(rulebook_of(load(_tiny(tmp_path)))).replace("\\", "")
    assert "a card as the table writes it (“play A♣”)." in plain
    # one card dealt is "1 card", dealt "once round"
    plain = RB.to_markdown(rulebook_of(load(os.path.join(ROOT, "examples", "golf.cardrules"))))
    assert "- Deal 1 card from the Stock to the Card A of each player still in the game" in plain
    assert "starting with the current player, once round (a player who is out" in plain


def test_options_in_force_are_the_ones_described(tmp_path, capsys):
    path = _tiny(tmp_path)
    assert main(["rulebook", path, "--set", "target=5"]) == 0
    assert "| target | cards to get rid of | a number from 1 to 5 | 3 | 5 |" in \
        capsys.readouterr().out.replace("\\", "")
    assert main(["rulebook", path, "--players", "7"]) == 2


def test_a_variant_says_how_it_differs(tmp_path):
    _tiny(tmp_path)
    variant = _tiny(tmp_path, 'extends "tiny.cardrules"\ngame "Tiny strict"\n'
                    "replace option strict = yes\n"
                    "replace define fits(c) = suit of c is suit of top of discard\n",
                    "strict.cardrules")
    plain = RB.to_markdown(rulebook_of(load(variant))).replace("\\", "")
    head = plain.split("## Object of the game")[0]
    assert "## How this variant differs" in head
    assert "a variant of Tiny (the rule file tiny.cardrules)" in head
    assert "- It changes the option “strict”: yes by default." in head
    assert ("- It changes the term ‘fits’: the suit of c is the suit of the top card of the "
            "Discard Pile.") in head
    base = RB.to_markdown(rulebook_of(load(str(tmp_path / "tiny.cardrules"))))
    assert "variant" not in base


def test_rule_file_text_is_escaped(tmp_path, capsys):
    evil = GAME.replace('"Tiny"', '"Tiny <script>alert(1)</script> \\u001b[2J"').replace(
        '"passes"', '"<b>passes</b> & [x](http://e.example)"')
    evil = evil.replace("\\u001b", "\x1b")
    path = _tiny(tmp_path, evil)
    assert main(["rulebook", path, "--format", "html"]) == 0
    page = capsys.readouterr().out
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "&lt;b&gt;passes&lt;/b&gt; &amp;" in page
    assert "\x1b" not in page and "\\x1b" in page
    # self-contained: nothing fetched, nothing run
    assert not re.search(r"<(script|link|img|iframe)\b|src=|@import|url\(", page)
    assert main(["rulebook", path]) == 0
    md = capsys.readouterr().out
    assert "\x1b" not in md and "\\x1b" in md
    assert "<b>" not in md and "\\<b\\>passes" in md and "\\[x\\](http" in md


def test_out_writes_the_file(tmp_path, capsys):
    out = tmp_path / "book.html"
    assert main(["rulebook", _tiny(tmp_path), "--format", "html", "--out", str(out)]) == 0
    assert capsys.readouterr().out == ""
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_a_file_with_errors_has_no_rulebook(tmp_path, capsys):
    assert main(["rulebook", _tiny(tmp_path, GAME.replace("fits(c)", "fitz(c)", 1))]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "RL" in captured.err


def test_help_teaches_with_examples(capsys):
    assert main(["rulebook", "--help"]) == 0
    text = capsys.readouterr().out
    assert "examples:" in text and "--format html" in text and "a variant" in text


# ---- rulelang play: whose turn, and `rules` at the prompt ------------------------------------

def test_play_tells_whose_turn_and_shows_the_rules():
    pexpect = pytest.importorskip("pexpect")
    path = os.path.join(ROOT, "examples", "crazy_eights.cardrules")
    child = pexpect.spawn(sys.executable, ["-m", "rulelang", "play", path, "--seed", "1"],
                          cwd=ROOT, encoding="utf-8", timeout=60, dimensions=(50, 100),
                          env=dict({k: v for k, v in os.environ.items()
                                    if k not in ("COLUMNS", "LINES")}, NO_COLOR="1",
                                   PYTHONPATH=ROOT))
    prompt = r"Choose 1-\d+ \(\? the whole table, q to quit\): "
    child.expect(prompt)
    first = child.before
    assert "Turn 1: your turn" in first
    child.sendline("rules")
    child.expect(prompt)
    shown = child.before.replace("\r\n", "\n")
    assert "# Crazy Eights" in shown and "\n## A turn\n" in shown
    assert "\n## How the game ends\n" in shown
    assert re.search(r"Your decision: play a card\n\s+1\) play", shown)   # then the choices again
    child.sendline("1")
    child.expect(prompt)
    later = child.before
    assert re.search(r"Turn \d+: your turn", later)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()


def test_play_names_another_players_turn(tmp_path, capsys, monkeypatch):
    """A decision in another player's turn is headed by that player's turn."""
    import io
    game = GAME.replace("""        pass if stock is empty:
            add 1 to passes
            say "passes"
""", """        pass if stock is empty:
            add 1 to passes
    choose by next player:
        nod:
            pass
        frown:
            pass
""")
    path = _tiny(tmp_path, game)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 40 + "q\n"))
    assert main(["play", path, "--seed", "3", "--seat", "2"]) == 0
    out = capsys.readouterr().out
    assert "Turn 1: Player 1's turn" in out
    assert "Turn 2: your turn" in out
