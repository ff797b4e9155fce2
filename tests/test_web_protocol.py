"""`rulelang serve` at the protocol level (docs/web.md): the lobby's calls and the websocket of
each seat, driven by Starlette's test client.  Bad and hostile messages are refused without
harm, a seat's token never acts for another seat, a reconnecting seat finds its game where it
was, and a hundred games on one server all finish with nothing lost."""
import json
import os
import random

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from rulelang.web.hub import Hub  # noqa: E402
from rulelang.web.server import make_app  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EIGHTS = os.path.join(ROOT, "examples", "crazy_eights.cardrules")
FAST = dict(rate=1e9, burst=10 ** 9)        # a test plays faster than any person


def server(path=EIGHTS, **kw):
    hub = Hub(path)
    return hub, TestClient(make_app(hub, **kw))


def start(client, hub, seats, seed=1, **more):
    r = client.post("/api/start", json={"token": hub.host_token, "players": len(seats),
                                        "seats": seats, "seed": seed, **more})
    assert r.status_code == 200, r.text
    return r.json()


def hello(ws, token):
    ws.send_json({"type": "hello", "token": token})
    return ws.receive_json()


def next_view(ws):
    """The next frame that is a view (errors are returned too)."""
    return ws.receive_json()


# ---- the lobby -------------------------------------------------------------------------------

def test_the_lobby_answers_only_the_host():
    hub, c = server()
    with c:
        assert c.post("/api/lobby", json={"token": "x" * 24}).status_code == 403
        assert c.post("/api/lobby", json={}).status_code == 403
        wrong = hub.host_token[:-1] + ("B" if hub.host_token.endswith("A") else "A")
        assert c.post("/api/start", json={"token": wrong, "players": 2,
                                          "seats": ["human", "human"]}).status_code == 403
        r = c.post("/api/lobby", json={"token": hub.host_token})
        assert r.status_code == 200 and r.json()["game"] == "Crazy Eights"
        assert r.json()["players"] == [2, 4]
        assert {a["name"] for a in r.json()["agents"]} >= {"random", "mc", "ismcts"}


@pytest.mark.parametrize("spec, why", [
    ({"players": 5, "seats": ["human"] * 5}, "2 to 4 players"),
    ({"players": 2, "seats": ["human"]}, "one entry per player"),
    ({"players": 2, "seats": ["human", "wizard"]}, "unknown agent"),
    ({"players": 2, "seats": ["human", "mc:0"]}, "bad agent"),
    ({"players": 2, "seats": ["human", "random"], "options": {"nope": "1"}}, "nope"),
    ({"players": 2, "seats": ["human", "random"], "seed": -1}, "seed"),
    ({"players": 2, "seats": ["human", "random"], "hotseat": "yes"}, "hotseat"),
    ({"players": True, "seats": ["human"]}, "players"),
    ({"players": 2, "seats": ["human", "random"], "admin": True}, "unknown field"),
    ({"players": 2, "seats": ["human", 7]}, "seat"),
])
def test_a_bad_start_is_refused_with_its_reason(spec, why):
    hub, c = server()
    with c:
        r = c.post("/api/start", json={"token": hub.host_token, **spec})
        assert r.status_code == 400, r.text
        assert why in r.json()["error"]
        assert not hub.tables


def test_an_oversized_or_malformed_lobby_request_is_refused():
    hub, c = server()
    with c:
        big = json.dumps({"token": hub.host_token, "players": 2, "seats": ["human", "random"],
                          "options": {"x" * 10: "y" * 20000}})
        assert c.post("/api/start", content=big,
                      headers={"content-type": "application/json"}).status_code == 400
        assert c.post("/api/start", content=b"\xff\xfe{",
                      headers={"content-type": "application/json"}).status_code == 400
        assert c.post("/api/start", content=b"[1, 2]").status_code == 400
        assert c.post("/api/start", content=b"[" * 100000).status_code == 400
        assert not hub.tables


def test_another_site_may_not_drive_the_lobby_nor_open_a_seat():
    hub, c = server()
    with c:
        r = c.post("/api/lobby", json={"token": hub.host_token},
                   headers={"origin": "http://evil.example"})
        assert r.status_code == 400
        links = start(c, hub, ["human", "random"])["links"]
        with pytest.raises(WebSocketDisconnect):
            with c.websocket_connect("/ws", headers={"origin": "http://evil.example"}) as ws:
                hello(ws, links["seat 1"])


def test_every_response_forbids_framing_and_other_origins():
    hub, c = server()
    with c:
        for path in ("/", "/static/app.js", "/static/style.css"):
            r = c.get(path)
            assert r.status_code == 200
            assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
            assert r.headers["x-content-type-options"] == "nosniff"
        assert c.get("/static/../hub.py").status_code == 404
        assert c.get("/rules/nosuchtable").status_code == 404


# ---- hostile messages -------------------------------------------------------------------------

def test_a_link_that_opens_no_seat_is_closed():
    hub, c = server(**FAST)
    with c:
        start(c, hub, ["human", "random"])
        for token in ("A" * 24, hub.host_token):       # a guess; the host's token is no seat
            with c.websocket_connect("/ws") as ws:
                f = hello(ws, token)
                assert f["type"] == "error"
                with pytest.raises(WebSocketDisconnect):
                    ws.receive_json()


BAD = [
    "not json", "[]", "7", '"act"', "{}", '{"type": "fly"}', '{"type": "act"}',
    '{"type": "act", "version": 0}', '{"type": "act", "version": "0", "choice": 0}',
    '{"type": "act", "version": 0, "choice": -1}', '{"type": "act", "version": 0, "choice": 1.5}',
    '{"type": "act", "version": 0, "choice": true}', '{"type": "act", "version": NaN, "choice": 0}',
    '{"type": "act", "version": 0, "choice": 99999999999}',
    '{"type": "act", "version": 0, "choice": 0, "seat": 2}',
    '{"type": "ready", "seat": 1}', '{"type": "hello", "token": "abc"}',
    '{"type": "act", "version": 0, "choice": 0, "x": "' + "y" * 2000 + '"}',
    "[" * 5000,
]


def test_bad_messages_are_refused_and_the_game_goes_on():
    hub, c = server(**FAST)
    with c:
        links = start(c, hub, ["human", "random"], seed=3)["links"]
        table = next(iter(hub.tables.values()))
        with c.websocket_connect("/ws") as ws:
            f = hello(ws, links["seat 1"])
            assert f["type"] == "view" and f["view"]["decision"]
            for raw in BAD:
                ws.send_text(raw)
                e = ws.receive_json()
                assert e["type"] == "error", raw
            ws.send_bytes(b"\x00\x01")
            assert ws.receive_json()["type"] == "error"
            assert table.version == 0 and table.moves == 0
            ws.send_json({"type": "act", "version": 0, "choice": 0})
            f = ws.receive_json()
            assert f["type"] == "view" and f["version"] == 1


def test_a_connection_that_keeps_sending_bad_messages_is_closed():
    hub, c = server(**FAST)
    with c:
        links = start(c, hub, ["human", "random"])["links"]
        with c.websocket_connect("/ws") as ws:
            hello(ws, links["seat 1"])
            with pytest.raises(WebSocketDisconnect):
                for _ in range(100):
                    ws.send_text("{}")
                    ws.receive_json()


def test_a_connection_that_sends_too_fast_is_slowed_down():
    hub, c = server()                   # the real limits
    with c:
        links = start(c, hub, ["human", "random"])["links"]
        with c.websocket_connect("/ws") as ws:
            hello(ws, links["seat 1"])
            answers = []
            for _ in range(60):
                ws.send_json({"type": "ping"})
                answers.append(ws.receive_json())
            slowed = [a for a in answers if a["type"] == "error"]
            assert slowed and "slow down" in slowed[0]["message"]
            assert answers[0]["type"] == "pong"


def test_the_first_message_must_be_hello():
    hub, c = server(**FAST)
    with c:
        start(c, hub, ["human", "random"])
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "act", "version": 0, "choice": 0})
            assert ws.receive_json()["type"] == "error"
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()


# ---- seats ---------------------------------------------------------------------------------

def test_a_seat_token_never_acts_for_another_seat():
    hub, c = server(**FAST)
    with c:
        links = start(c, hub, ["human", "human"], seed=2)["links"]
        table = next(iter(hub.tables.values()))
        with c.websocket_connect("/ws") as one, c.websocket_connect("/ws") as two, \
                c.websocket_connect("/ws") as spy:
            f1, f2 = hello(one, links["seat 1"]), hello(two, links["seat 2"])
            hello(spy, links["spectator"])
            assert table.st.current_player() == 0
            assert f1["view"]["decision"] and f2["view"]["decision"] is None
            assert f1["view"]["you"] == 1 and f2["view"]["you"] == 2
            for ws in (two, spy):               # not their turn; the spectator never decides
                ws.send_json({"type": "act", "version": 0, "choice": 0})
                e = ws.receive_json()
                assert e["type"] == "error" and "not yours" in e["message"]
            assert table.moves == 0
            one.send_json({"type": "act", "version": 0, "choice": 0})
            for ws in (one, two, spy):
                assert ws.receive_json()["version"] == 1
            idle = two if table.st.current_player() == 0 else one
            idle.send_json({"type": "act", "version": 1, "choice": 0})
            assert "not yours" in idle.receive_json()["message"]
            assert table.moves == 1


def test_a_stale_or_impossible_choice_is_refused():
    hub, c = server(**FAST)
    with c:
        links = start(c, hub, ["human", "random"], seed=5)["links"]
        table = next(iter(hub.tables.values()))
        with c.websocket_connect("/ws") as ws:
            f = hello(ws, links["seat 1"])
            n = len(f["view"]["decision"]["choices"])
            ws.send_json({"type": "act", "version": 0, "choice": n})
            assert "no such choice" in ws.receive_json()["message"]
            ws.send_json({"type": "act", "version": 7, "choice": 0})
            assert "changed" in ws.receive_json()["message"]
            assert table.moves == 0


def test_a_reconnecting_seat_finds_its_game_where_it_was():
    hub, c = server(**FAST)
    with c:
        links = start(c, hub, ["human", "random"], seed=4)["links"]
        table = next(iter(hub.tables.values()))
        with c.websocket_connect("/ws") as ws:
            f = hello(ws, links["seat 1"])
            for _ in range(3):
                while not f["view"]["decision"]:
                    f = ws.receive_json()
                ws.send_json({"type": "act", "version": f["version"], "choice": 0})
                f = ws.receive_json()
        while table.computer_to_move() is not None:
            pass
        before = (table.version, table.moves)
        with c.websocket_connect("/ws") as ws:
            g = hello(ws, links["seat 1"])
            assert g["type"] == "view" and (g["version"], table.moves) == before
            assert g["story_reset"] and g["story"] == table.stories[0].lines
            assert g["view"]["you"] == 1 and g["view"]["decision"]
            ws.send_json({"type": "act", "version": g["version"], "choice": 0})
            assert ws.receive_json()["version"] == before[0] + 1


def test_a_seat_left_by_its_person_is_taken_over_by_a_computer_player():
    hub, c = server(**FAST)
    with c:
        t = start(c, hub, ["human", "human"], seed=6)
        table = hub.tables[t["table"]]
        r = c.post("/api/takeover", json={"token": hub.host_token, "table": t["table"],
                                           "seat": 1, "agent": "random"})
        assert r.status_code == 200, r.text
        assert table.seats == ["random", "human"]
        with c.websocket_connect("/ws") as ws:           # the old link now only watches
            f = hello(ws, t["links"]["seat 1"])
            assert f["role"] == "spectator" and f["view"]["you"] == 0
        assert table.st.current_player() == 1 or table.st.terminal
        r = c.post("/api/takeover", json={"token": "B" * 24, "table": t["table"], "seat": 2,
                                           "agent": "random"})
        assert r.status_code == 403


def test_hot_seat_hands_the_screen_over_before_showing_a_hand():
    hub, c = server(**FAST)
    with c:
        links = start(c, hub, ["human", "human"], seed=2, hotseat=True)["links"]
        table = next(iter(hub.tables.values()))
        with c.websocket_connect("/ws") as ws:
            f = hello(ws, links["hotseat"])
            assert f == {"type": "handover", "seat": 1, "version": 0}
            ws.send_json({"type": "ready", "seat": 2})
            assert ws.receive_json()["type"] == "error"
            ws.send_json({"type": "act", "version": 0, "choice": 0})    # nobody shown yet
            assert "not yours" in ws.receive_json()["message"]
            ws.send_json({"type": "ready", "seat": 1})
            f = ws.receive_json()
            assert f["view"]["you"] == 1 and f["view"]["decision"]
            played = 0
            while not f["view"]["terminal"] and played < 30:
                ws.send_json({"type": "act", "version": f["version"], "choice": 0})
                f = ws.receive_json()
                if f["type"] == "handover":
                    assert set(f) == {"type", "seat", "version"}
                    ws.send_json({"type": "ready", "seat": f["seat"]})
                    f = ws.receive_json()
                    assert f["view"]["you"] == f["view"]["to_decide"][0]
                played += 1
            assert table.moves == played


# ---- many games ------------------------------------------------------------------------------

def test_a_hundred_games_at_once_all_finish_with_nothing_lost():
    from rulelang.web.server import Doors
    hub, c = server(**FAST, doors=Doors(limit=1000, burst=1000))    # (one test client's address)
    with c:
        games = [start(c, hub, ["human", "random"], seed=k) for k in range(100)]
        socks = []
        try:
            for g in games:
                ws = c.websocket_connect("/ws").__enter__()
                socks.append(ws)
                ws.send_json({"type": "hello", "token": g["links"]["seat 1"]})
            frames = [ws.receive_json() for ws in socks]
            sent = [0] * 100
            rng = random.Random(0)
            live = set(range(100))
            while live:                     # one move of each game in turn, interleaved
                for k in sorted(live):
                    f = frames[k]
                    if f["view"]["terminal"]:
                        live.discard(k)
                        continue
                    d = f["view"]["decision"]
                    if d:
                        socks[k].send_json({"type": "act", "version": f["version"],
                                            "choice": rng.randrange(len(d["choices"]))})
                        sent[k] += 1
                    g = socks[k].receive_json()
                    assert g["type"] == "view" and g["version"] > f["version"]
                    frames[k] = g
        finally:
            for ws in socks:
                ws.__exit__(None, None, None)
        for k, g in enumerate(games):
            table = hub.tables[g["table"]]
            st = table.st
            assert st.terminal
            mine = sum(1 for e in st.log if e[0] == "choice" and e[1] == 0)
            assert mine == sent[k]                      # every move sent was played, once
            assert table.moves == st.decisions == table.version
            assert frames[k]["version"] == table.version    # and its last view was seen


# ---- saving and resuming ---------------------------------------------------------------------

def test_a_saved_game_resumes_where_it_was_with_new_links(tmp_path):
    hub = Hub(EIGHTS, saves=str(tmp_path / "saves"))
    with TestClient(make_app(hub, **FAST)) as c:
        t = start(c, hub, ["human", "mc:8"], seed=11)
        table = hub.tables[t["table"]]
        with c.websocket_connect("/ws") as ws:
            f = hello(ws, t["links"]["seat 1"])
            for _ in range(4):
                while not f["view"]["decision"]:
                    f = ws.receive_json()
                ws.send_json({"type": "act", "version": f["version"], "choice": 0})
                f = ws.receive_json()
            while not f["view"]["decision"]:
                f = ws.receive_json()
        r = c.post("/api/save", json={"token": hub.host_token, "table": t["table"]})
        assert r.status_code == 200, r.text
        name = r.json()["save"]
        assert os.listdir(tmp_path / "saves") == [name]
        assert oct(os.stat(tmp_path / "saves" / name).st_mode & 0o777) == "0o600"
        assert c.post("/api/lobby", json={"token": hub.host_token}).json()["saves"] == [name]
        for bad in ("../x.json", "nope.json", "/etc/passwd", 7, "a" * 300):
            r = c.post("/api/resume", json={"token": hub.host_token, "save": bad})
            assert r.status_code == 400
        r = c.post("/api/resume", json={"token": hub.host_token, "save": name})
        assert r.status_code == 200, r.text
        again = hub.tables[r.json()["table"]]
        assert again is not table and r.json()["links"]["seat 1"] != t["links"]["seat 1"]
        assert again.st.zones == table.st.zones and again.st.vars == table.st.vars
        assert again.agents[1].rng.getstate() == table.agents[1].rng.getstate()
        with c.websocket_connect("/ws") as ws:
            g = hello(ws, r.json()["links"]["seat 1"])
            assert g["view"]["zones"] == f["view"]["zones"]
            assert g["view"]["decision"] == f["view"]["decision"]
        # both games go on alike: the same choice, the same answer of the same computer player
        st1, st2 = table.st, again.st
        a = st1.legal_actions(0)[0]
        st1.apply_action(a, 0)
        st2.apply_action(a, 0)
        assert st1.zones == st2.zones


def test_saving_is_refused_when_it_is_off_or_the_table_is_unknown():
    hub, c = server(**FAST)
    with c:
        t = start(c, hub, ["human", "random"])
        r = c.post("/api/save", json={"token": hub.host_token, "table": t["table"]})
        assert r.status_code == 400 and "--saves" in r.json()["error"]
        hub.saves = "/nonexistent-folder-for-sure/x"
        r = c.post("/api/save", json={"token": hub.host_token, "table": "nope"})
        assert r.status_code == 400 and "no such table" in r.json()["error"]


# ---- replays of game logs --------------------------------------------------------------------

def write_log(tmp_path, path=EIGHTS, seed=3):
    from rulelang.cli.commands import main
    log = str(tmp_path / "game.json")
    assert main(["run", path, "--seed", str(seed), "--log", log, "--quiet"]) == 0
    return log


def test_a_game_log_is_stepped_through_as_any_seat_or_the_public_sees_it(tmp_path):
    from rulelang.play.saves import read_log, replay_state
    log = write_log(tmp_path)
    hub = Hub(EIGHTS)
    replay = hub.replay(log)
    data = read_log(log)
    with TestClient(make_app(hub, **FAST)) as c:
        with c.websocket_connect("/ws") as ws:
            f = hello(ws, replay.token)
            assert f["replay"] == {"at": 0, "of": len(data["actions"]), "seat": 0}
            assert f["view"]["decision"] is None and f["view"]["you"] == 0
            ws.send_json({"type": "step", "to": 5, "seat": 2})
            g = ws.receive_json()
            st = replay_state(replay.cg, data, upto=5)
            assert g["replay"]["at"] == 5 and g["view"]["you"] == 2
            hand = next(z for z in g["view"]["zones"] if z["key"] == "hand/2")
            assert [c["name"] for c in hand["cards"]] == st.observation(1)["zones"]["hand/2"]
            assert "cards" not in next(z for z in g["view"]["zones"] if z["key"] == "hand/1")
            ws.send_json({"type": "step", "to": 10 ** 6, "seat": 0})
            end = ws.receive_json()
            assert end["replay"]["at"] == len(data["actions"]) and end["view"]["terminal"]
            ws.send_json({"type": "step", "to": 1, "seat": 9})
            assert ws.receive_json()["type"] == "error"
            ws.send_json({"type": "act", "version": 0, "choice": 0})
            assert ws.receive_json()["type"] == "error"


def test_a_log_of_another_rule_text_is_refused(tmp_path):
    from rulelang.play.saves import GameFileError
    log = write_log(tmp_path, os.path.join(ROOT, "examples", "sevens.cardrules"))
    with pytest.raises(GameFileError):
        Hub(EIGHTS).replay(log)
    (tmp_path / "bad.json").write_text('{"format": "rulelang-log"}')
    with pytest.raises(GameFileError):
        Hub(EIGHTS).replay(str(tmp_path / "bad.json"))


def test_a_game_table_takes_no_steps():
    hub, c = server(**FAST)
    with c:
        links = start(c, hub, ["human", "random"])["links"]
        with c.websocket_connect("/ws") as ws:
            hello(ws, links["seat 1"])
            ws.send_json({"type": "step", "to": 0, "seat": 0})
            assert "replay" in ws.receive_json()["message"]
