"""Variables of a team (docs/language.md, "Variables of a team"): `var points per team` is one
value for each team, read and set as `points of the team of P`; it belongs to the team, not to
its players.  Played on the generated code, the fast path and the reference interpreter alike,
shown by team, kept through clones and saves, and its misuse diagnosed (RL350-RL352)."""

import json
import random

from rulelang.compile.loader import check_file, load
from rulelang.engine.runtime import State

from gametest import log_lines, played
from reference import ReferenceGame

HEAD = """game "Team variables"
players 4
teams: {teams}
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone pile: shared, face up
var points "points" per team
var bags: number per team = 2
var named: set of suits per team
setup:
    shuffle stock
    deal 3 from stock to hand of each player
"""

PLAY = """turn:
    choose:
        play card c from hand:
            move c from hand to pile
            add rank of c to points of the team of you
            add suit of c to named of the team of you
            subtract 1 from bags of the team of you
    if size of pile >= 8:
        end game by highest score
score: points of the team of you
"""


def write(tmp_path, text, name="teamvars.cardrules"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def game_of(tmp_path, teams="partners sit opposite", body=PLAY):
    return load(write(tmp_path, HEAD.format(teams=teams) + body))


def test_each_team_has_its_own_value_added_to_by_both_partners(tmp_path):
    game = game_of(tmp_path)
    st = game.new_game(4, seed=3, log=True)
    played_ranks = {1: 0, 2: 0}
    while not st.is_terminal():
        p = st.current_player()
        before = list(st.zones[st.game.zone_base["pile"]])
        st.apply_action(st.legal_actions()[0])
        card = [c for c in st.zones[st.game.zone_base["pile"]] if c not in before][0]
        played_ranks[1 + p % 2] += st.game.rank_of[card]
    v = st.variables()
    assert v["points"] == played_ranks                    # {team 1: ..., team 2: ...}
    assert v["bags"] == {1: -2, 2: -2}                    # 2 at first, 4 cards played each
    shown = st.game.describe_vars(st)
    assert shown["points"] == {"team 1": str(played_ranks[1]), "team 2": str(played_ranks[2])}
    # the score of each player is their team's points; a team's score adds its two players'
    assert st.scores() == [played_ranks[1], played_ranks[2]] * 2
    for p in range(4):
        assert st.observation(p)["vars"]["points"] == shown["points"]


def test_the_generated_code_the_fast_path_and_the_reference_agree(tmp_path):
    for teams in ("partners sit opposite", "players 1 and 2, players 3 and 4"):
        game = game_of(tmp_path, teams)
        cg = game.compiled(4)
        ref = ReferenceGame(game.model, 4)
        for seed in range(6):
            a, b = played(cg, seed), played(ref, seed)
            assert log_lines(a, scores=True) == log_lines(b, scores=True)
            assert cg.describe_vars(a) == ref.describe_vars(b)
            assert a.vars == b.vars
            fast = cg.playout(seed, [random.Random(seed * 10 + p).randrange for p in range(4)])
            api = cg.new_game(seed=seed)
            rngs = [random.Random(seed * 10 + p) for p in range(4)]
            while not api.is_terminal():
                acts = api.legal_actions()
                api.apply_action(acts[rngs[api.current_player()].randrange(len(acts))])
            assert fast.vars == api.vars and fast.winners == api.winners


FORMED = """turn:
    if number of turns is 1:
        set the team of player 3 to the team of player 1
    add 10 to points of the team of you
    say you, the team of you, points of the team of you
    if number of turns is 5:
        set the team of player 3 to 3
    if number of turns >= 7:
        end game by highest score
score: points of the team of you
"""


def test_the_value_belongs_to_the_team_not_to_its_players(tmp_path):
    """Formed in play: each player starts alone in the team of their seat's number, with its
    own value; a player who joins another team reads that team's value, and the team they left
    keeps its own."""
    game = game_of(tmp_path, "formed in play", FORMED)
    st = game.new_game(4, seed=1, log=True)
    said = [e[2] for e in st.log if e[0] == "say"]
    assert said[:2] == ["player 1 1 10", "player 2 2 10"]    # each alone, each team its value
    assert said[2] == "player 3 1 20"                 # player 3 joined team 1: its points
    assert said[3:5] == ["player 4 4 10", "player 1 1 30"]
    # player 3 goes back to team 3, whose value is still 0: nobody added to it meanwhile
    assert said[5:8] == ["player 2 2 20", "player 3 3 10", "player 4 4 20"]
    assert st.variables()["points"] == {1: 30, 2: 20, 3: 10, 4: 20}
    ref = played(ReferenceGame(game.model, 4), 1)
    assert log_lines(st, scores=True) == log_lines(ref, scores=True)
    fast = game.compiled(4).playout(1, lambda seat, k: 0)
    assert fast.vars == st.vars


def test_a_team_variable_is_kept_through_clones_and_saves(tmp_path):
    game = game_of(tmp_path)
    st = game.new_game(4, seed=2)
    for _ in range(3):
        st.apply_action(st.legal_actions()[0])
    copy = st.clone()
    again = State.from_json(st.game, json.loads(json.dumps(st.to_json())))
    assert copy.variables() == st.variables() == again.variables()
    assert st.variables()["points"][1] > 0
    for s in (st, copy, again):
        while not s.is_terminal():
            s.apply_action(s.legal_actions()[0])
    assert st.variables() == copy.variables() == again.variables()
    assert st.winners == copy.winners == again.winners


def test_a_player_block_shows_their_teams_value(tmp_path):
    """The transcript's and the table's words (``vars_of``): each player shows their team's
    value of a variable with a display name; the shared variables do not repeat it."""
    from rulelang.engine.display_names import Words
    game = game_of(tmp_path)
    st = game.new_game(4, seed=3)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    words = Words(st.game)
    pts = st.variables()["points"]
    for p in range(4):
        assert ("points", str(pts[1 + p % 2])) in words.vars_of(st, p)
    assert all(label != "points" for label, _ in words.vars_of(st, None))


def codes(tmp_path, text):
    diags, _model, _ = check_file(write(tmp_path, text))
    return [d.code for d in diags]


def test_a_team_variable_in_a_game_without_teams_is_rl350(tmp_path):
    text = HEAD.format(teams="x").replace("teams: x\n", "") + "turn:\n    end game with winner you\n"
    assert "RL350" in codes(tmp_path, text)


def test_a_team_variable_read_without_its_team_is_rl351(tmp_path):
    text = HEAD.format(teams="partners sit opposite") + PLAY.replace(
        "score: points of the team of you", "score: points")
    assert codes(tmp_path, text) == ["RL351"]
    text = HEAD.format(teams="partners sit opposite") + PLAY.replace(
        "subtract 1 from bags of the team of you", "subtract 1 from bags")
    assert codes(tmp_path, text) == ["RL351"]


def test_a_team_variable_read_by_a_player_or_a_number_is_rl352(tmp_path):
    for wrong in ("points of you", "points of 1"):
        text = HEAD.format(teams="partners sit opposite") + PLAY.replace(
            "score: points of the team of you", f"score: {wrong}")
        assert codes(tmp_path, text) == ["RL352"], wrong
    text = HEAD.format(teams="partners sit opposite") + PLAY.replace(
        "add rank of c to points of the team of you", "add rank of c to points of you")
    assert codes(tmp_path, text) == ["RL352"]


def test_per_team_is_a_keyword_only_there(tmp_path):
    """A file's own `team` (a zone, a variable) keeps its meaning beside `per team`."""
    text = HEAD.format(teams="partners sit opposite").replace(
        'var points "points" per team', 'var points "points" per team\nvar team per player = 1') \
        + PLAY.replace("score: points of the team of you", "score: team + points of the team of you")
    assert codes(tmp_path, text) == []


def test_the_rulebook_says_a_value_of_each_team(tmp_path, capsys):
    from rulelang.cli.commands import main
    assert main(["rulebook", write(tmp_path, HEAD.format(teams="partners sit opposite") + PLAY)]) == 0
    out = capsys.readouterr().out
    assert "| points | for each team | number | 0 | yes |" in out
    assert "| named | for each team | a set of suits" in out
    assert "Add the rank of c to the points of your team." in out
    assert "A player's score (“you” is the player scored) is the points of your team." in out


def test_run_json_gives_each_team_its_variables(tmp_path, capsys):
    from rulelang.cli.commands import main
    path = write(tmp_path, HEAD.format(teams="partners sit opposite") + PLAY)
    main(["run", path, "--seed", "4", "--json"])
    res = json.loads(capsys.readouterr().out)
    teams = res["teams"]
    assert [t["players"] for t in teams] == [[1, 3], [2, 4]]
    assert set(teams[0]["vars"]) == {"points", "bags", "named"}
    # each player's score is their team's points
    assert res["scores"] == [teams[0]["vars"]["points"], teams[1]["vars"]["points"]] * 2


def test_the_terminal_table_shows_a_team_variable_by_team(tmp_path):
    from rich.console import Console
    from rulelang.cli.table import observation_table
    st = game_of(tmp_path).new_game(4, seed=3)
    st.apply_action(st.legal_actions()[0])
    console = Console(width=200, record=True)
    console.print(observation_table(st.observation(0)))
    text = console.export_text()
    pts = st.variables()["points"]
    assert f"points = team 1: {pts[1]}, team 2: {pts[2]}" in text


def test_a_first_value_that_reads_you_is_rl353(tmp_path):
    text = HEAD.format(teams="partners sit opposite").replace(
        "var bags: number per team = 2", "var bags: number per team = 2 + score of you") + PLAY
    assert codes(tmp_path, text) == ["RL353"]


def test_the_rulebooks_teams_section_says_what_each_team_keeps(tmp_path, capsys):
    from rulelang.cli.commands import main
    path = write(tmp_path, HEAD.format(teams="formed in play") + FORMED)
    assert main(["rulebook", path]) == 0
    out = capsys.readouterr().out
    assert ("Each team keeps its own points, bags and named: they belong to the team, not to its "
            "players (a player who joins another team counts with that team's from then on).") in out


def test_a_variant_replaces_a_variable_of_each_team(tmp_path):
    write(tmp_path, HEAD.format(teams="partners sit opposite") + PLAY, "base.cardrules")
    variant = write(tmp_path, 'extends "base.cardrules"\nreplace var bags: number per team = 7\n',
                    "variant.cardrules")
    st = load(variant).new_game(4, seed=1)
    assert st.variables()["bags"] == {1: 7, 2: 7}            # (before the first play)
