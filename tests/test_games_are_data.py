"""Games are data: nothing in the package or the grammar names a seed game, its zones or its card
roles (not even in a comment).  A game that needs something new gets a general construct."""
import os
import re

import pytest

ROOT = os.path.join(os.path.dirname(__file__), "..")

# The seed games' names, and the zones and card roles their rule texts give.
SEED_WORDS = re.compile(
    r"\b(ciq|internecine|mages?|mages_wild|viashi|follow_the_leader|follow the leader|attack!"
    r"|damage_pile|damage pile|defense_pile|defense pile|attack_pile|attack pile"
    r"|civilians?|champions?|fight_deck|fight deck|victory_deck|victory deck|population"
    r"|sneak|warriors?|fools?|gods?|spy|spies)\b", re.IGNORECASE)


def package_files():
    for top in ("rulelang", "grammar"):
        for folder, _dirs, files in os.walk(os.path.join(ROOT, top)):
            if "__pycache__" in folder:
                continue
            for name in sorted(files):
                if name.endswith((".py", ".lark", ".cardrules", ".md")):
                    yield os.path.join(folder, name)


FILES = sorted(set(os.path.realpath(p) for p in package_files()))


def test_the_package_has_files_to_search():
    names = {os.path.basename(p) for p in FILES}
    assert {"compiler.py", "checker.py", "cardrules.lark", "standard.cardrules"} <= names


@pytest.mark.parametrize("path", FILES, ids=lambda p: os.path.relpath(p, os.path.realpath(ROOT)))
def test_no_seed_game_named(path):
    with open(path, encoding="utf-8") as f:
        found = [(i, m.group(0)) for i, line in enumerate(f, 1) for m in SEED_WORDS.finditer(line)]
    assert not found, f"names of seed games in {path}: {found}"


def test_the_pattern_finds_what_it_must():
    assert SEED_WORDS.search("move top card from damage_pile to hand")
    assert SEED_WORDS.search("# the Civilians of Internecine")
    assert not SEED_WORDS.search("var leader: player = none   # a goodly stock")
