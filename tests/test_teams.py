"""Partnerships (docs/language.md, "Partnerships"): teams named by seats, partners sitting
opposite and teams formed in play; `the team of P`, `partner of P`, a team's score and a team's
result for every kind of ending, on the generated code, the fast path and the reference
interpreter alike."""

import pytest

from rulelang.compile.loader import check_file, load

from gametest import log_lines, played
from reference import ReferenceGame

HEAD = """game "Teams"
players {players}
teams: {teams}
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
var pts per player = 0
score: pts
setup:
    shuffle stock
    deal 2 from stock to hand of each player
"""


def write(tmp_path, text, name="teams.cardrules"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def ended(tmp_path, players, teams, turn, seed=1):
    """The game whose turn is ``turn`` played to its end (seed ``seed``), on the generated code,
    checked against the reference interpreter."""
    game = load(write(tmp_path, HEAD.format(players=players, teams=teams) + turn))
    cg = game.compiled(players)
    st, ref = played(cg, seed), played(ReferenceGame(game.model, players), seed)
    assert log_lines(st, scores=True) == log_lines(ref, scores=True)
    assert st.results() == ref.results() and st.teams() == ref.teams()
    return st


def test_partners_sit_opposite_in_a_game_of_six(tmp_path):
    st = ended(tmp_path, 6, "partners sit opposite",
               "turn:\n    say the team of you, partner of you\n"
               "    if number of turns >= 6:\n        end game with winner player 2\n")
    assert st.teams() == [[0, 3], [1, 4], [2, 5]]
    said = [e[2] for e in st.log if e[0] == "say"]
    assert said[:3] == ["1 player 4", "2 player 5", "3 player 6"]
    assert st.results() == ["loss", "win", "loss", "loss", "win", "loss"]
    assert st.returns() == [-1.0, 1.0, -1.0, -1.0, 1.0, -1.0]


def test_teams_of_three_go_over_their_team_and_add_up_its_scores(tmp_path):
    turn = ("turn:\n    add 1 + the team of you to pts of you\n"
            "    for each player p in the team of you:\n        say p\n"
            "    say number of players in the team of you, score of the team of you\n"
            "    if number of turns >= 6:\n        end game by lowest score\n")
    st = ended(tmp_path, 6, "players 1 and 3 and 5, players 2 and 4 and 6", turn)
    said = [e[2] for e in st.log if e[0] == "say"]
    assert said[:4] == ["player 1", "player 3", "player 5", "3 2"]
    # team 1 scores 2 a turn, team 2 scores 3 (player 1 has had two turns): team 1's total (8)
    # is the lowest (9), though player 1's own score (4) is the highest
    assert st.log[-1][3] == [4, 3, 2, 3, 2, 3]          # the players' own scores stay theirs
    assert st.results() == ["win", "loss"] * 3 and st.winners == [0, 2, 4]


def test_a_loser_takes_their_team_down(tmp_path):
    st = ended(tmp_path, 4, "players 1 and 2, players 3 and 4",
               "turn:\n    end game with loser player 2\n")
    assert st.results() == ["loss", "loss", "win", "win"]


def test_winners_where_gives_a_team_the_best_result_of_its_players(tmp_path):
    turn = ("turn:\n    end game with winners where player is player 1, "
            "losers where player is player 4\n")
    st = ended(tmp_path, 6, "players 1 and 2, players 3 and 4, players 5 and 6", turn)
    # team 1 has a winner; team 2 a loser; team 3 neither: it draws
    assert st.results() == ["win", "win", "loss", "loss", "draw", "draw"]
    assert st.returns() == [1.0, 1.0, -1.0, -1.0, 0.0, 0.0]


CALLED = HEAD.format(players=4, teams="formed in play") + """\
    choose by player 1:
        call player p from players where p is not you:
            set the team of p to the team of you
turn:
    say the team of you, partner of you
    if number of turns >= 4:
        end game with winner player 1
"""


def test_a_partner_called_in_play_joins_the_callers_team(tmp_path):
    game = load(write(tmp_path, CALLED))
    st = game.new_game(4, seed=2, log=True)
    assert st.teams() == [[0], [1], [2], [3]]
    assert [st.action_to_string(a) for a in st.legal_actions()] == \
        ["call player 2", "call player 3", "call player 4"]
    st.apply_action(st.legal_actions()[1])              # player 3
    assert st.teams() == [[0, 2], [1], [3]]
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    said = [e[2] for e in st.log if e[0] == "say"]
    assert said[:4] == ["1 player 3", "2 nobody", "1 player 1", "4 nobody"]
    assert st.results() == ["win", "loss", "win", "loss"]
    # the fast path and the reference interpreter call the same partner
    cg = game.compiled(4)
    fast = cg.playout(2, lambda seat, k: 1 if k == 3 else 0)
    assert fast.teams() == [[0, 2], [1], [3]] and fast.results() == st.results()
    ref = ReferenceGame(game.model, 4)
    for seed in range(5):
        a, b = played(cg, seed), played(ref, seed)
        assert log_lines(a, scores=True) == log_lines(b, scores=True) and a.teams() == b.teams()


def test_a_team_number_no_team_has_stops_the_game(tmp_path):
    text = CALLED.replace("set the team of p to the team of you",
                          "set the team of p to number of turns + 7")
    game = load(write(tmp_path, text))
    st = game.new_game(4, seed=1)
    st.apply_action(st.legal_actions()[0])
    assert st.is_terminal() and st.problem["code"] == "RL304"
    assert "no team 7" in st.problem["message"]
    ref = ReferenceGame(game.model, 4).new_game(seed=1)
    ref.apply_action(ref.legal_actions()[0])
    assert ref.problem["code"] == "RL304"


def test_a_files_own_partner_keeps_its_meaning(tmp_path):
    text = HEAD.format(players=4, teams="partners sit opposite").replace(
        "var pts per player = 0", "var pts per player = 0\nvar partner: player per player = none") + (
        "turn:\n    set partner of you to next player\n    say partner of you\n"
        "    end game with winner you\n")
    diags, model, _ = check_file(write(tmp_path, text))
    assert [d.code for d in diags] == []
    st = load(write(tmp_path, text)).new_game(4, seed=1, log=True)
    assert [e[2] for e in st.log if e[0] == "say"] == ["player 2"]
    assert st.results() == ["win", "loss", "win", "loss"]


def test_the_teams_are_public_values_in_every_observation(tmp_path):
    game = load(write(tmp_path, HEAD.format(players=4, teams="partners sit opposite")
                      + "turn:\n    end game with winner you\n"))
    st = game.new_game(4, seed=1)
    for p in range(4):
        v = st.observation(p)["vars"]
        assert v["(team)"] == ["1", "2", "1", "2"]
        assert v["(partner)"] == ["player 3", "player 4", "player 1", "player 2"]


@pytest.mark.parametrize("teams", ["players 1 and 3, players 2 and 4", "partners sit opposite"])
def test_turn_order_and_the_deal_do_not_change(tmp_path, teams):
    plain = HEAD.format(players=4, teams=teams).replace(f"teams: {teams}\n", "")
    body = "turn:\n    say hand\n    if number of turns >= 5:\n        end game with winner you\n"
    a = load(write(tmp_path, HEAD.format(players=4, teams=teams) + body, "a.cardrules"))
    b = load(write(tmp_path, plain + body, "b.cardrules"))
    sa, sb = a.new_game(4, seed=3, log=True), b.new_game(4, seed=3, log=True)
    assert [e for e in sa.log if e[0] != "end"] == [e for e in sb.log if e[0] != "end"]
    assert sb.winners == [1] and sorted(sa.winners) == [1, 3]


def test_teams_read_before_the_teams_line_is_checked_are_reported_not_a_crash(tmp_path):
    """An attribute's or a variable's first value is checked before the teams: reading a team
    there is RL269, never an internal error (a finding of the grammar fuzzer)."""
    text = ('game "x"\nplayers 4\nattribute w:\n    otherwise: the team of 1\n'
            'var q = partner of 2\ndeck standard, into stock\n')
    diags, _model, _ = check_file(write(tmp_path, text))
    assert "RL269" in [d.code for d in diags] and "RL999" not in [d.code for d in diags]


def test_a_change_of_team_is_an_event_every_seat_is_told(tmp_path):
    """`set the team of P to T` is the event ("team", seat, team) of the log, which every seat
    sees as it is (engine/events.py), in the generated code and the reference alike; the
    transcript tells it: "Player 3 joins team 1" ("You join team 1" to that player)."""
    from rulelang.cli.narration import Narrator
    from rulelang.engine.display_names import Words
    from rulelang.engine.events import events_seen
    game = load(write(tmp_path, CALLED))
    cg = game.compiled(4)
    st = cg.new_game(seed=2, log=True)
    start = [z[:] for z in st.zones]
    told = {v: Narrator(Words(cg), st, v) for v in (None, 0, 1, 2, 3)}
    st.apply_action(st.legal_actions()[1])              # player 3 joins player 1's team
    assert [e for e in st.log if e[0] == "team"] == [("team", 2, 1)]
    for v in range(4):
        assert ("team", 2, 1) in events_seen(cg, start, st.log, v)
    lines = {v: [ln.plain for ln in n.lines()] for v, n in told.items()}
    for v in (None, 0, 1, 3):
        assert any(ln.endswith("Player 3 joins team 1") for ln in lines[v]), lines[v]
    assert any(ln.endswith("You join team 1") for ln in lines[2]), lines[2]
    ref = ReferenceGame(game.model, 4)
    r = ref.new_game(seed=2, log=True)
    r.apply_action(r.legal_actions()[1])
    assert [e for e in r.log if e[0] == "team"] == [("team", 2, 1)]
