"""Who decides a choice, in every nesting (docs/language.md, "Who `you` is"): a `choose:` without
`by` is decided by `you` where it is written, so inside an alternative of `choose by P`, of a
simultaneous choice or of a claim, by that alternative's chooser, among their zones. The same in
every backend: the generated code through the API, the playout fast path (from a state and from
the seed), the reference interpreter (tests/reference/) and the narration of `run`; and the
checker says it where the player whose turn it is could be meant (RL198)."""
import functools
import random

import pytest

from rulelang.cli.commands import main
from rulelang.compile.loader import check_file, load

from closures import three_ways

# The defect's reproducer: player 2 answers player 1's turn, then chooses among their own cards.
REPRO = '''game "Nested choose"
players 2

deck standard, into stock

zone stock: shared, face down
zone hand: per player, seen by owner
zone pile: shared, face up

game ends when pile is not empty:
    end game with winner you

setup:
    shuffle stock
    deal 2 from stock to hand of each player

turn:
    choose by next player:
        first "pick a card of mine" card a from hand:
            say "chose", a
            choose:
                second "play a card of mine" card d from hand:
                    move d from hand to pile
'''


def test_the_nested_choice_is_the_outer_choosers_among_their_cards(tmp_path, capsys, monkeypatch):
    path = tmp_path / "nested.cardrules"
    path.write_text(REPRO, encoding="utf-8")
    cg = load(str(path)).compiled(2)
    hand = cg.zone_base["hand"]
    for seed in range(6):
        st = cg.new_game(seed=seed, log=True)
        assert st.current_player() == 1                 # `choose by next player`
        st.apply_action(st.legal_actions()[0])
        assert st.current_player() == 1                 # the inner `choose:`: still player 2
        offered = sorted(cg.card_names[a & 1023] for a in st.legal_actions())
        assert offered == sorted(cg.card_names[c] for c in st.zones[hand + 1])
        st.apply_action(st.legal_actions()[0])
        assert [e[1] for e in st.log if e[0] == "choice"] == [1, 1]
        assert [e[1] for e in st.log if e[0] == "move"][-1] == hand + 1
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "120")
    assert main(["run", str(path), "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "Player 2: play a card of mine" in out and "Player 1: play" not in out


HEAD = '''game "Who decides"
players 3
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone pile: shared, face up

game ends when size of pile >= 8:
    end game with winner you

setup:
    shuffle stock
    deal 3 from stock to hand of each player
'''

INNER = '''choose:
    second "play" card d from hand:
        move d from hand to pile
    give_up "give up" if hand is empty:
        pass'''


def _indent(text, k):
    return "\n".join(" " * k + ln for ln in text.split("\n"))


# Each shape says "answers" as `you` just before the inner choice: its chooser must be that
# player. `other` is whether that player is never the one whose turn it is.
SHAPES = {
    "choose by": (True, f'''turn:
    say "turn"
    choose by next player:
        first "answer":
            say "answers"
{_indent(INNER, 12)}
    move top card from stock to pile
'''),
    "simultaneous": (False, f'''turn:
    say "turn"
    simultaneously choose by each player:
        first "answer":
            say "answers"
{_indent(INNER, 12)}
    move top card from stock to pile
'''),
    "claim": (True, f'''turn:
    say "turn"
    any opponent may choose:
        first "answer":
            say "answers"
{_indent(INNER, 12)}
    move top card from stock to pile
'''),
    "two levels": (True, f'''turn:
    say "turn"
    choose by next player:
        first "answer":
            say "answers"
            choose:
                middle "go on":
{_indent(INNER, 20)}
    move top card from stock to pile
'''),
    "in a called rule": (True, f'''rule answer:
    choose by player after you:
        first "answer":
            say "answers"
{_indent(INNER, 12)}

turn:
    say "turn"
    answer
    move top card from stock to pile
'''),
    "listed before": (True, '''turn:
    say "turn"
    choose by next player:
        first "answer":
            say "answers"
            if any card in hand where rank of card > 5:
                choose:
                    second "play" card d from hand where rank of d > 5:
                        move d from hand to pile
    move top card from stock to pile
'''),
    "several cards": (True, '''turn:
    say "turn"
    choose by next player:
        first "answer":
            say "answers"
            choose:
                second "play" 2 cards d from hand to pile:
                    pass
                give_up "give up" if size of hand < 2:
                    pass
    move top card from stock to pile
'''),
    "unseen": (True, '''turn:
    say "turn"
    choose by next player:
        first "answer":
            say "answers"
            choose:
                second "play" unseen card d from hand:
                    move d from hand to pile
                give_up "give up" if hand is empty:
                    pass
    move top card from stock to pile
'''),
    "by you": (True, '''turn:
    say "turn"
    choose by next player:
        first "answer":
            say "answers"
            choose by you:
                second "play" card d from hand:
                    move d from hand to pile
                give_up "give up" if hand is empty:
                    pass
    move top card from stock to pile
'''),
}


def _answers(cg, log):
    """(the player who said "answers", whose turn it was, the inner choice's seat, the zone its
    card left) for each inner choice of the log."""
    hand = cg.zone_base["hand"]
    out, turn, said = [], None, None
    for i, e in enumerate(log):
        if e[0] == "say" and e[2] == "turn":
            turn = e[1]
        elif e[0] == "say" and e[2] == "answers":
            said = e[1]
        elif e[0] == "choice" and cg.alternatives[e[2] >> 10].label in ("second", "give_up"):
            move = next((x for x in log[i + 1:] if x[0] == "move"), None)
            src = move[1] - hand if move is not None and cg.alternatives[e[2] >> 10].label == \
                "second" else None
            out.append((said, turn, e[1], src))
    return out


@pytest.mark.parametrize("shape", SHAPES, ids=list(SHAPES))
def test_every_backend_gives_a_nested_choice_to_the_chooser_around_it(shape, tmp_path, monkeypatch):
    other, body = SHAPES[shape]
    path = tmp_path / "shape.cardrules"
    path.write_text(HEAD + "\n" + body, encoding="utf-8")
    diags, _model, _decls = check_file(str(path))
    assert [d.code for d in diags if d.severity == "error"] == []
    inner = 0
    for seed in range(5):
        # the reference interpreter, the generated code and the fast path: the same log and game
        st = three_ways(str(path), 3, seed, monkeypatch, ("zones", "winners"))
        cg = st.game
        for said, turn, seat, src in _answers(cg, st.log):
            inner += 1
            assert seat == said, (shape, seed, st.log)
            assert src is None or src == seat, (shape, seed)      # a card of the chooser's hand
            if other:
                assert seat != turn, (shape, seed)
        # the same game from the seed, in the playout variants; the seats the policy was asked for
        asked = []

        def pick(p, k, rng):
            asked.append(p)
            return rng.randrange(k)
        rng = random.Random(seed)
        seeded = cg.playout(seed, [functools.partial(pick, p, rng=rng) for p in range(3)])
        assert seeded.to_json() == st.to_json(), (shape, seed)
        if shape not in ("simultaneous", "claim"):      # (the API's seats, one decision at a time)
            assert asked == [e[1] for e in st.log if e[0] == "choice"], (shape, seed)
    assert inner >= 5


def test_rl198_names_a_plain_choice_inside_another_players_choice(tmp_path):
    warned = {}
    for shape, (_other, body) in SHAPES.items():
        path = tmp_path / "shape.cardrules"
        path.write_text(HEAD + "\n" + body, encoding="utf-8")
        diags, _model, _decls = check_file(str(path))
        warned[shape] = [(d.span.line, d.severity) for d in diags if d.code == "RL198"]
        for d in diags:
            if d.code == "RL198":
                assert "choose by you:" in d.hint and "choose by current player:" in d.hint
    lines = (HEAD + "\n" + SHAPES["two levels"][1]).split("\n")
    plain = [i + 1 for i, ln in enumerate(lines) if ln.strip() == "choose:"]
    assert warned["two levels"] == [(n, "warning") for n in plain] and len(plain) == 2
    assert warned["by you"] == [] and all(warned[s] for s in SHAPES if s != "by you")
    # a plain choice inside a plain choice, or in a rule's own body, is the rule's `you`'s: no word
    for f in ("examples/crazy_eights.cardrules", "examples/thirteens.cardrules",
              "examples/colour_clash.cardrules"):
        assert "RL198" not in [d.code for d in check_file(f)[0]]
