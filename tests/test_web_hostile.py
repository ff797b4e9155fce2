"""`rulelang serve` against hostile clients on a real server (uvicorn on a free port, raw
sockets and a real websocket client): a browser that stops reading, one link opened in many
tabs, and the like.  Whatever one connection does, the others' games go on."""
import asyncio
import base64
import json
import os
import socket
import struct
import sys
import time

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
from websockets.sync.client import connect  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from webserver import Server  # noqa: E402

from rulelang.web.server import MAX_QUEUED  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EIGHTS = os.path.join(ROOT, "examples", "crazy_eights.cardrules")


def tokens(links):
    return {name: url.split("=", 1)[1] for name, url in links.items()}


def raw_socket(url, rcvbuf=4096):
    """A websocket opened by hand that reads nothing after its handshake (its receive buffer
    small, as a stalled browser's fills)."""
    host, port = url.split("//")[1].split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(5)
    sock.connect((host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101")
    return sock


def send_text(sock, text):
    data, mask = text.encode(), os.urandom(4)
    size = bytes([0x80 | len(data)]) if len(data) < 126 else \
        bytes([0x80 | 126]) + struct.pack("!H", len(data))
    sock.sendall(bytes([0x81]) + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))


def on_server(s, coro, timeout):
    """Run ``coro`` on the server's loop; False when it has not finished within ``timeout``."""
    fut = asyncio.run_coroutine_threadsafe(coro, s.loop)
    try:
        fut.result(timeout)
        return True
    except TimeoutError:
        return False


def test_a_browser_that_stops_reading_holds_up_nobody():
    with Server(EIGHTS) as s:
        table, links = s.start(["human", "human"], seed=2)
        tok = tokens(links)
        stalled = raw_socket(s.url)
        send_text(stalled, json.dumps({"type": "hello", "token": tok["spectator"]}))
        with connect(s.url.replace("http", "ws") + "/ws") as one:
            one.send(json.dumps({"type": "hello", "token": tok["seat 1"]}))
            f = json.loads(one.recv(5))
            deadline = time.time() + 5
            while len(table.conns) < 2 and time.time() < deadline:
                time.sleep(0.01)
            spy = next(c for c in table.conns if c.role == "spectator")
            # what a long game sends a spectator: megabytes of frames it never reads
            big = {"type": "view", "story": ["x" * 1000] * 1000}
            for _ in range(MAX_QUEUED + 16):
                if not on_server(s, table._send(spy, big), 1.0):
                    break
            t0 = time.time()
            one.send(json.dumps({"type": "act", "version": f["version"], "choice": 0}))
            g = json.loads(one.recv(3))
            assert g["type"] == "view" and g["version"] == f["version"] + 1
            assert time.time() - t0 < 2
            assert spy not in table.conns         # dropped: it reconnects by itself
        stalled.close()


def test_one_link_opens_a_bounded_number_of_tabs():
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

    from rulelang.web.hub import Hub
    from rulelang.web.server import MAX_TABS, make_app
    hub = Hub(EIGHTS)
    with TestClient(make_app(hub)) as c:
        r = c.post("/api/start", json={"token": hub.host_token, "players": 2,
                                       "seats": ["human", "human"], "seed": 1})
        links = r.json()["links"]
        table = hub.tables[r.json()["table"]]
        tabs = []
        try:
            for _ in range(MAX_TABS):
                ws = c.websocket_connect("/ws").__enter__()
                tabs.append(ws)
                ws.send_json({"type": "hello", "token": links["spectator"]})
                assert ws.receive_json()["type"] == "view"
            with c.websocket_connect("/ws") as ws:      # one more: refused, and closed
                ws.send_json({"type": "hello", "token": links["spectator"]})
                e = ws.receive_json()
                assert e["type"] == "error" and "tabs" in e["message"]
                with pytest.raises(WebSocketDisconnect):
                    ws.receive_json()
            with c.websocket_connect("/ws") as ws:      # another link is not held up
                ws.send_json({"type": "hello", "token": links["seat 1"]})
                assert ws.receive_json()["type"] == "view"
            tabs.pop().__exit__(None, None, None)       # a tab closed makes room for another
            deadline = time.time() + 5
            while len(table.conns) >= MAX_TABS and time.time() < deadline:
                time.sleep(0.01)
            with c.websocket_connect("/ws") as ws:
                ws.send_json({"type": "hello", "token": links["spectator"]})
                assert ws.receive_json()["type"] == "view"
        finally:
            for ws in tabs:
                ws.__exit__(None, None, None)


def closed_within(sock, seconds):
    """Whether the server closes ``sock`` within ``seconds`` (what it sent before is skipped)."""
    sock.settimeout(0.1)
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            data = sock.recv(65536)
        except socket.timeout:
            continue
        except ConnectionResetError:
            return True
        if not data:
            return True
    return False


def test_a_connection_that_never_finishes_its_request_is_closed():
    with Server(EIGHTS, request_timeout=0.5) as s:
        host, port = s.url.split("//")[1].split(":")
        silent = socket.create_connection((host, int(port)))          # sends nothing
        half = socket.create_connection((host, int(port)))
        half.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")                # never ends its headers
        body = socket.create_connection((host, int(port)))
        body.sendall(b"POST /api/lobby HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
        again = socket.create_connection((host, int(port)))          # a request, then half one
        again.sendall(b"GET /favicon.ico HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\n")
        for sock in (silent, half, body, again):
            assert closed_within(sock, 3)
            sock.close()
        # a websocket that has said hello is not a request in waiting
        table, links = s.start(["human", "human"])
        with connect(s.url.replace("http", "ws") + "/ws") as ws:
            ws.send(json.dumps({"type": "hello", "token": tokens(links)["seat 1"]}))
            json.loads(ws.recv(3))
            time.sleep(1.0)
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(3))["type"] == "pong"


def test_the_host_may_not_save_or_take_over_a_replay(tmp_path):
    """A replay is listed among the games (its id in the lobby); saving it or giving one of its
    seats to a computer player was an internal error (500), as was a start while it is listed."""
    from starlette.testclient import TestClient

    from rulelang.web.hub import Hub
    from rulelang.web.server import make_app
    from test_web_protocol import write_log
    hub = Hub(EIGHTS, saves=str(tmp_path / "saves"))
    replay = hub.replay(write_log(tmp_path))
    with TestClient(make_app(hub), raise_server_exceptions=False) as c:
        for call, body in (("save", {"table": replay.id}),
                           ("takeover", {"table": replay.id, "seat": 1, "agent": "random"})):
            r = c.post(f"/api/{call}", json={"token": hub.host_token, **body})
            assert r.status_code == 400 and "replay" in r.json()["error"], (call, r.text)
        r = c.post("/api/start", json={"token": hub.host_token, "players": 2,
                                       "seats": ["human", "random"]})
        assert r.status_code == 200, r.text
        r = c.post("/api/lobby", json={"token": hub.host_token})
        assert r.status_code == 200 and r.json()["tables"][0]["replay"]


def open_ws(s, source="127.0.0.1", headers=None):
    """A websocket to the server from ``source`` (any address of 127.0.0.0/8 is this
    computer), without its hello."""
    return connect(s.url.replace("http", "ws") + "/ws", proxy=None, open_timeout=5,
                   source_address=(source, 0), additional_headers=headers, legacy=True)


def refusal(ws):
    """``(code, reason)`` of a websocket the server closes at once, or None if it stays open."""
    from websockets.exceptions import ConnectionClosed
    try:
        ws.recv(0.5)
    except ConnectionClosed as e:
        return (e.rcvd.code, e.rcvd.reason) if e.rcvd else (None, "")
    except TimeoutError:
        return None
    return None


def test_one_address_holds_a_bounded_number_of_websockets():
    """Websockets that never say hello still hold the server's slots: one address may have
    MAX_PER_ADDRESS open at once, and the next is refused with a reason the page shows;
    another address is not held up, nor the same one once it has closed one.  A forwarded
    header from a peer that is not a proxy the server was told of changes nothing."""
    from rulelang.web.server import MAX_PER_ADDRESS, TRY_LATER
    with Server(EIGHTS) as s:
        table, links = s.start(["human", "human"], seed=2)
        tok = tokens(links)
        held = [open_ws(s) for _ in range(MAX_PER_ADDRESS)]
        try:
            for headers in (None, {"X-Forwarded-For": "10.9.8.7"}):
                with open_ws(s, headers=headers) as extra:
                    code, reason = refusal(extra)
                    assert code == TRY_LATER and "your address" in reason, (code, reason)
            with open_ws(s, source="127.0.0.2") as other:     # another address gets in
                other.send(json.dumps({"type": "hello", "token": tok["seat 1"]}))
                assert json.loads(other.recv(5))["type"] == "view"
            held.pop().close()                              # one closed: room for one more
            deadline = time.time() + 5
            while True:
                ws = open_ws(s)
                why = refusal(ws)
                if why is None:
                    break
                ws.close()
                assert time.time() < deadline, why
            held.append(ws)
            ws.send(json.dumps({"type": "hello", "token": tok["seat 2"]}))
            assert json.loads(ws.recv(5))["type"] == "view"
        finally:
            for ws in held:
                ws.close()


def test_one_address_opens_new_websockets_at_a_bounded_rate():
    from rulelang.web.server import TRY_LATER, Doors
    now = [0.0]                                             # the server's clock, by hand
    with Server(EIGHTS, doors=Doors(limit=100, rate=2.0, burst=3, clock=lambda: now[0])) as s:
        for _ in range(3):                                  # open and closed at once
            with open_ws(s) as ws:
                assert refusal(ws) is None
        with open_ws(s) as ws:
            code, reason = refusal(ws)
            assert code == TRY_LATER and "new connections" in reason, (code, reason)
        with open_ws(s, source="127.0.0.3") as ws:        # another address is not held up
            assert refusal(ws) is None
        now[0] += 0.5                                       # half a second: one more
        with open_ws(s) as ws:
            assert refusal(ws) is None


def test_a_forwarded_address_is_believed_from_a_named_proxy_only():
    from rulelang.web.server import TRY_LATER, Doors
    with Server(EIGHTS, doors=Doors(limit=1), proxies=("127.0.0.1",)) as s:
        with open_ws(s, headers={"X-Forwarded-For": "10.0.0.1"}) as one:
            assert refusal(one) is None
            with open_ws(s, headers={"X-Forwarded-For": "10.0.0.2"}) as two:
                assert refusal(two) is None                 # two people behind the proxy
                with open_ws(s, headers={"X-Forwarded-For": "10.0.0.1"}) as three:
                    assert refusal(three)[0] == TRY_LATER
                # a client that is not the proxy cannot pass for someone else
                with open_ws(s, source="127.0.0.2", headers={"X-Forwarded-For": "10.0.0.3"}) as a:
                    assert refusal(a) is None
                    with open_ws(s, source="127.0.0.2",
                                 headers={"X-Forwarded-For": "10.0.0.4"}) as b:
                        assert refusal(b)[0] == TRY_LATER


def test_the_addresses_remembered_are_bounded(monkeypatch):
    """Every new address is remembered (its allowance of new websockets) until the table is
    full; then those with nothing open are forgotten, the oldest first, and the ones with
    websockets open are kept (their count is what the limit reads)."""
    from rulelang.web import server
    monkeypatch.setattr(server, "MAX_ADDRESSES", 100)
    now = [0.0]
    doors = server.Doors(limit=2, rate=1.0, burst=2, clock=lambda: now[0])
    assert doors.enter("10.0.0.1") is None and doors.enter("10.0.0.1") is None
    assert "open already" in doors.enter("10.0.0.1")
    for i in range(1000):
        assert doors.enter(f"10.1.{i // 250}.{i % 250}") is None
        doors.leave(f"10.1.{i // 250}.{i % 250}")
        assert len(doors.buckets) <= 100
    assert "open already" in doors.enter("10.0.0.1")     # still counted
    doors.leave("10.0.0.1")
    assert "new connections" in doors.enter("10.0.0.1")   # its allowance remembered too
    now[0] += 1.0
    assert doors.enter("10.0.0.1") is None
    assert server.address_key("2001:db8::1") == server.address_key("2001:db8::ffff") == \
        "2001:db8::/64"
    assert server.address_key("::ffff:10.0.0.1") == "10.0.0.1"


def _get(url, source="127.0.0.1"):
    """A plain HTTP request for the page from ``source``: its status line, or None when the
    server closed the connection without an answer."""
    host, port = url.split("//")[1].split(":")
    with socket.create_connection((host, int(port)), timeout=5,
                                  source_address=(source, 0)) as sock:
        sock.sendall(f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n"
                     .encode())
        try:
            head = sock.recv(64)
        except ConnectionResetError:
            return None
        return head.split(b"\r\n")[0].decode() if head else None


def test_one_address_holds_a_bounded_number_of_connections():
    """Connections that send nothing are held until their request's time is up: one address
    may have a bounded number open at once before they become websockets, and one more is
    closed as it opens; another address is answered, and so is the first once one is closed.
    A connection that became a websocket is counted by the websockets' limits, not this one.
    (The limit is 4 here, MAX_HTTP_PER_ADDRESS in a real server.)"""
    from rulelang.web.server import MAX_HTTP_PER_ADDRESS
    assert MAX_HTTP_PER_ADDRESS > 16            # (a browser opens about 6 to one server)
    with Server(EIGHTS, per_address=4) as s:
        host, port = s.url.split("//")[1].split(":")
        silent = [socket.create_connection((host, int(port))) for _ in range(4)]
        try:
            one_more = socket.create_connection((host, int(port)))
            assert closed_within(one_more, 3)
            one_more.close()
            assert _get(s.url, "127.0.0.2") == "HTTP/1.1 200 OK"
            assert all(not closed_within(sock, 0.2) for sock in silent)
            silent.pop().close()
            deadline = time.time() + 5
            while _get(s.url) != "HTTP/1.1 200 OK":   # (once the server has seen it closed)
                assert time.time() < deadline
            for sock in silent:
                sock.close()
            silent = []
            sockets = [open_ws(s) for _ in range(4)]    # (websockets: no longer connections
            try:                                        # in waiting)
                assert all(refusal(ws) is None for ws in sockets)
                assert _get(s.url) == "HTTP/1.1 200 OK"
            finally:
                for ws in sockets:
                    ws.close()
        finally:
            for sock in silent:
                sock.close()


def test_a_named_proxy_is_not_held_to_one_address_s_connections():
    """Behind a reverse proxy named with --proxy every browser comes from the proxy's address:
    its connections are not counted as one client's."""
    with Server(EIGHTS, per_address=4, proxies=("127.0.0.1",)) as s:
        host, port = s.url.split("//")[1].split(":")
        silent = [socket.create_connection((host, int(port))) for _ in range(6)]
        try:
            assert _get(s.url) == "HTTP/1.1 200 OK"
            assert all(not closed_within(sock, 0.2) for sock in silent)
        finally:
            for sock in silent:
                sock.close()
