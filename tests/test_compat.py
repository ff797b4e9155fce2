"""A new word never breaks an old file: the rule files of tests/compat/ still check and play as
they did.

tests/compat/ holds rule files written against earlier versions of the language (each seed or
example game as it first stood in the project's history, named after the commit it comes from),
and files that use words of the language, and words likely to become ones, as names.  Each must
check without a diagnostic, and play the same seeded games as when its golden result was kept
(tests/compat/golden.json: per file and seed, the results, the number of decisions and a digest
of the transcript).  Regenerate with RULELANG_REGEN=1 only for a deliberate change of meaning.
"""
import glob
import hashlib
import json
import os

import pytest

from rulelang.compile.loader import check_file, load

from gametest import log_lines, played

HERE = os.path.dirname(os.path.abspath(__file__))
COMPAT = os.path.join(HERE, "compat")
FILES = sorted(glob.glob(os.path.join(COMPAT, "*.cardrules")))
GOLDEN = os.path.join(COMPAT, "golden.json")
SEEDS = (1, 2, 3)


def _golden():
    with open(GOLDEN, encoding="utf-8") as fh:
        return json.load(fh)


def _played(path):
    game = load(path)
    cg = game.compiled(game.model.players[0])
    out = []
    for seed in SEEDS:
        st = played(cg, seed, max_steps=2_000_000)
        digest = hashlib.sha256("\n".join(log_lines(st, scores=True)).encode("utf-8")).hexdigest()
        out.append({"seed": seed, "results": st.results(), "decisions": st.decisions,
                    "transcript": digest[:16]})
    return out


def test_the_corpus_has_old_files_and_words_as_names():
    names = [os.path.basename(p) for p in FILES]
    assert len(names) >= 10
    assert "words_as_names.cardrules" in names and "words_to_come.cardrules" in names


@pytest.mark.parametrize("path", FILES, ids=[os.path.basename(p)[:-10] for p in FILES])
def test_an_old_file_still_checks(path):
    diags, model, _ = check_file(path)
    assert model is not None
    assert [(d.code, d.span.line if d.span else None) for d in diags] == []


@pytest.mark.parametrize("path", FILES, ids=[os.path.basename(p)[:-10] for p in FILES])
def test_an_old_file_still_plays_alike(path):
    name = os.path.basename(path)
    got = _played(path)
    if os.environ.get("RULELANG_REGEN"):
        golden = _golden() if os.path.exists(GOLDEN) else {}
        golden[name] = got
        with open(GOLDEN, "w", encoding="utf-8") as fh:
            json.dump(golden, fh, indent=1, sort_keys=True)
            fh.write("\n")
    assert got == _golden()[name]


def test_a_variable_of_the_file_called_out_is_its_own_where_players_leave(tmp_path):
    path = tmp_path / "out.cardrules"
    path.write_text(
        'game "Out"\nplayers 3\ndeck standard, into stock\nzone stock: shared, face down\n'
        'var out per player = 7\nsetup:\n    shuffle stock\nturn:\n    add 1 to out of you\n'
        '    if out of you is 8:\n        remove you from the game\n'
        '    if number of players where player is not out < 2:\n        end game with winner next player\n')
    game = load(str(path))
    st = game.new_game(seed=1)
    assert st.is_terminal()
    shown = st.game.describe_vars(st)
    assert shown["out"] == ["8", "8", "7"]       # the file's variable, under its own name
    assert st.results() == ["loss", "loss", "win"]
