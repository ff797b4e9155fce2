"""The ASGI application of ``rulelang serve`` (Starlette): the page, the lobby's HTTP calls and
the websocket every seat plays through (docs/web.md).

- ``GET /`` the page (``static/index.html``), ``GET /static/...`` its script and stylesheet:
  files of the package, nothing fetched from elsewhere; every response forbids framing and
  other origins (Content-Security-Policy).
- ``POST /api/lobby``, ``/api/start``, ``/api/takeover``: the host's calls, each with the host's
  token in its JSON body (at most :data:`MAX_BODY` bytes).
- ``/ws``: a websocket; its first message is ``{"type": "hello", "token": ...}`` and the token
  says which seat (or the spectator, or the hot-seat screen) it is.  Every message is checked
  by :mod:`rulelang.web.protocol`.  What it is sent goes through its :class:`Outbox`, written
  by a task of its own: a table never waits for a browser's network.

Tokens travel in message bodies, never in URLs (the page keeps its own in the address's
``#fragment``, which browsers do not send), so no log of requests holds one.
"""
from __future__ import annotations

import asyncio
import collections
import hmac
import ipaddress
import json
import os
import time
from typing import Optional
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from rulelang.web.hub import Hub, LobbyError
from rulelang.web.protocol import BURST, MAX_BAD, RATE, BadMessage, Bucket, parse
from rulelang.web.replay import Replay
from rulelang.web.tables import Conn, TableError

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
MAX_BODY = 16 * 1024            # bytes of a lobby request
MAX_CONNECTIONS = 2000          # websockets open at once on one server
HELLO_TIMEOUT = 10.0            # seconds a new websocket has to say who it is
REQUEST_TIMEOUT = 10.0          # seconds a request's headers, then its body, have to arrive
MAX_QUEUED = 64                 # frames waiting for one browser before it is dropped
MAX_TABS = 16                   # websockets one link (one token) may have open at once
MAX_PER_ADDRESS = 32            # websockets one address may have open at once
MAX_HTTP_PER_ADDRESS = 64       # connections one address may have open before they are websockets
NEW_RATE = 2.0                  # new websockets a second one address may open, on average
NEW_BURST = 32                  # ... and at once (every tab of a household reconnecting)
MAX_ADDRESSES = 10_000          # addresses remembered before the idle ones are forgotten
TRY_LATER = 1013                # the close code of a refusal that passes ("Try Again Later")
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                               "style-src 'self'; script-src 'self'; frame-src 'self' data:; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


async def _read_body(request: Request) -> bytes:
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise LobbyError(f"a request is at most {MAX_BODY} bytes")
    return data


def same_origin(headers) -> bool:
    """A request from a page of this server (or from no page at all: a test, a script).  A page
    of another site may not drive the lobby or open a seat's websocket (its token is needed
    anyway)."""
    origin = headers.get("origin")
    if origin is None:
        return True
    host = headers.get("host", "")
    return urlsplit(origin).netloc == host


class Outbox:
    """The frames on their way to one websocket, written by a task of its own: a table never
    waits for the network while it holds its lock, so a browser that stops reading (its
    connection's buffers full) holds up nobody else.  One that falls :data:`MAX_QUEUED` frames
    behind is dropped (a browser reconnects by itself and is sent the whole view again)."""

    def __init__(self, ws: WebSocket, limit: int = MAX_QUEUED):
        self.ws = ws
        self.limit = limit
        self.frames: collections.deque = collections.deque()
        self.ready = asyncio.Event()
        self.gone = False
        self.task: Optional[asyncio.Task] = None

    async def send(self, frame: dict) -> None:
        """Queue ``frame`` (never waits); ConnectionError when the browser is gone or too far
        behind (then the connection is ended)."""
        if self.gone:
            raise ConnectionError("the browser has gone")
        if len(self.frames) >= self.limit:
            self.gone = True
            if self.task is not None:
                self.task.cancel()
            raise ConnectionError("the browser does not read what it is sent")
        self.frames.append(frame)
        self.ready.set()

    def close(self, code: int) -> None:
        """Close the websocket once the frames queued before are written."""
        self.frames.append(code)
        self.ready.set()

    async def run(self) -> None:
        while True:
            await self.ready.wait()
            self.ready.clear()
            while self.frames:
                frame = self.frames.popleft()
                if isinstance(frame, int):
                    await self.ws.close(code=frame)
                    return
                await self.ws.send_json(frame)


def address_key(host: Optional[str]) -> str:
    """What the per-address limits count by: an IPv4 address, or the /64 network of an IPv6
    one (the block one household or one machine is given: its addresses cost it nothing)."""
    if not host:
        return ""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class Doors:
    """The websockets each address has open and how fast it opens new ones: one address may
    have ``limit`` open at once and open ``rate`` a second on average (``burst`` at once).
    :meth:`enter` says why a new one is refused (None: it may come in); every entry is
    followed by one :meth:`leave`.  At most :data:`MAX_ADDRESSES` addresses are remembered:
    past that, those with nothing open and their allowance whole again are forgotten."""

    def __init__(self, limit: int = MAX_PER_ADDRESS, rate: float = NEW_RATE,
                 burst: int = NEW_BURST, clock=time.monotonic):
        self.limit, self.rate, self.burst, self.clock = limit, rate, burst, clock
        self.open: dict[str, int] = {}
        self.buckets: dict[str, Bucket] = {}

    def enter(self, key: str) -> Optional[str]:
        if self.open.get(key, 0) >= self.limit:
            return f"{self.limit} connections from your address are open already: close one"
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= MAX_ADDRESSES:
                self._forget()
            bucket = self.buckets[key] = Bucket(self.rate, self.burst, self.clock)
        if not bucket.take():
            return "too many new connections from your address: try again in a moment"
        self.open[key] = self.open.get(key, 0) + 1
        return None

    def leave(self, key: str) -> None:
        self.open[key] -= 1
        if not self.open[key]:
            del self.open[key]

    def _forget(self) -> None:
        """Forget the addresses with nothing open whose allowance is whole again; if that
        leaves more than half, the longest remembered of those with nothing open too (so this
        runs at most once every MAX_ADDRESSES // 2 new addresses: at most MAX_CONNECTIONS of
        them have something open)."""
        now = self.clock()
        for key, b in list(self.buckets.items()):
            if key not in self.open and b.level + (now - b.last) * b.rate >= b.burst:
                del self.buckets[key]
        for key in list(self.buckets):
            if len(self.buckets) <= MAX_ADDRESSES // 2:
                break
            if key not in self.open:
                del self.buckets[key]


class _Server:
    def __init__(self, hub: Hub, rate: float = RATE, burst: int = BURST,
                 request_timeout: float = REQUEST_TIMEOUT, doors: Optional[Doors] = None):
        self.hub = hub
        self.rate, self.burst = rate, burst
        self.request_timeout = request_timeout
        self.connections = 0
        self.open: dict[str, int] = {}          # token -> its websockets that said hello
        self.doors = doors if doors is not None else Doors()

    # ---- HTTP --------------------------------------------------------------------------------
    async def page(self, request: Request) -> Response:
        return FileResponse(os.path.join(STATIC, "index.html"), headers=HEADERS)

    async def rules(self, request: Request) -> Response:
        """The rulebook of a table's game (its options, its players): public, as the rule file
        is; a page of its own, with no script (``rulelang rulebook --format html``)."""
        table = self.hub.tables.get(request.path_params["table"])
        if table is None:
            return Response("no such game", 404, headers=HEADERS)
        return Response(table.rulebook(), media_type="text/html; charset=utf-8",
                        headers={**HEADERS, "Content-Security-Policy":
                                 "default-src 'none'; style-src 'unsafe-inline'; "
                                 "frame-ancestors 'self'"})

    async def _body(self, request: Request) -> dict:
        if not same_origin(request.headers):
            raise LobbyError("a request from another site")
        size = request.headers.get("content-length")
        if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
            raise LobbyError(f"a request is at most {MAX_BODY} bytes")
        try:
            data = await asyncio.wait_for(_read_body(request), self.request_timeout)
        except asyncio.TimeoutError:
            raise LobbyError(f"a request's body arrives within {self.request_timeout:g} "
                             "seconds") from None
        try:
            body = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise LobbyError("not JSON") from None
        if not isinstance(body, dict):
            raise LobbyError("a request is a JSON object")
        token = body.pop("token", None)
        if not isinstance(token, str) or not hmac.compare_digest(
                token.encode("utf-8", "replace"), self.hub.host_token.encode()):
            raise PermissionError
        return body

    async def _call(self, request: Request, fn) -> Response:
        try:
            body = await self._body(request)
            result = await fn(body)
        except PermissionError:
            return JSONResponse({"error": "this link is not the host's"}, 403, headers=HEADERS)
        except (LobbyError, TableError) as e:
            return JSONResponse({"error": str(e)}, 400, headers=HEADERS)
        return JSONResponse(result, headers=HEADERS)

    async def lobby(self, request: Request) -> Response:
        async def fn(body):
            if body:
                raise LobbyError("unknown field in the request")
            return self.hub.info()
        return await self._call(request, fn)

    async def start(self, request: Request) -> Response:
        async def fn(body):
            table = self.hub.start(body)
            self._spawn(table.advance())         # computer seats that move first
            return {"table": table.id, "links": table.links}
        return await self._call(request, fn)

    async def save(self, request: Request) -> Response:
        async def fn(body):
            if set(body) != {"table"}:
                raise LobbyError("a save names a table")
            table = self.hub.tables.get(body["table"]) if isinstance(body["table"], str) else None
            if table is None:
                raise LobbyError("no such table")
            if isinstance(table, Replay):
                raise LobbyError("a replay is not saved: its log is the record")
            async with table.lock:              # between two moves
                return {"save": self.hub.save(body["table"])}
        return await self._call(request, fn)

    async def resume(self, request: Request) -> Response:
        async def fn(body):
            if set(body) - {"save", "hotseat"} or not isinstance(body.get("hotseat", False), bool):
                raise LobbyError("a resume names a saved game")
            table = self.hub.resume(body.get("save"), body.get("hotseat", False))
            self._spawn(table.advance())
            return {"table": table.id, "links": table.links}
        return await self._call(request, fn)

    async def takeover(self, request: Request) -> Response:
        async def fn(body):
            from rulelang.web.hub import start_spec    # (checks an agent's name)
            tid, seat, agent = body.get("table"), body.get("seat"), body.get("agent")
            if set(body) - {"table", "seat", "agent"} or not isinstance(tid, str) or \
                    not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(agent, str):
                raise LobbyError("a take-over names a table, a seat and an agent")
            table = self.hub.tables.get(tid)
            if table is None:
                raise LobbyError("no such table")
            if isinstance(table, Replay):
                raise LobbyError("a replay has no seats to take over")
            start_spec({"players": 1, "seats": [agent]}, (1, 1))
            if agent.strip().lower() == "human":
                raise LobbyError("a seat is taken over by a computer agent")
            await table.take_over(seat - 1, agent.strip().lower())
            return table.summary()
        return await self._call(request, fn)

    def _spawn(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.hub.tasks.add(task)
        task.add_done_callback(self.hub.tasks.discard)

    # ---- the websocket -----------------------------------------------------------------------
    async def socket(self, ws: WebSocket) -> None:
        if not same_origin(ws.headers):
            await ws.close(code=1008)
            return
        if self.connections >= MAX_CONNECTIONS:
            await self._refuse(ws, "this server has as many connections as it takes: try later")
            return
        key = address_key(ws.client.host if ws.client else None)
        why = self.doors.enter(key)
        if why is not None:
            await self._refuse(ws, why)
            return
        self.connections += 1
        try:
            await ws.accept()
            await self._serve(ws)
        except WebSocketDisconnect:
            pass
        finally:
            self.connections -= 1
            self.doors.leave(key)

    async def _refuse(self, ws: WebSocket, why: str) -> None:
        """Refuse a websocket with a reason the page can show: accepted, then closed at once
        with :data:`TRY_LATER` and ``why`` (a websocket refused before it is accepted is an
        HTTP error, whose reason a page never sees)."""
        try:
            await ws.accept()
            await ws.close(code=TRY_LATER, reason=why)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass

    async def _receive(self, ws: WebSocket, timeout: Optional[float] = None):
        """The text of the next message (None: the browser went away).  A binary message is
        refused as a bad one (its text is None too, but the socket stays open)."""
        if timeout is None:
            m = await ws.receive()
        else:
            m = await asyncio.wait_for(ws.receive(), timeout)
        if m["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(m.get("code", 1000))
        return m.get("text")

    async def _serve(self, ws: WebSocket) -> None:
        bucket = Bucket(self.rate, self.burst)
        try:
            raw = await self._receive(ws, HELLO_TIMEOUT)
        except asyncio.TimeoutError:
            await ws.close(code=1008)
            return
        try:
            msg = parse(raw)
            if msg["type"] != "hello":
                raise BadMessage("say hello with your token first")
        except BadMessage as e:
            await ws.send_json({"type": "error", "message": str(e)})
            await ws.close(code=1008)
            return
        found = self.hub.lookup(msg["token"])
        if found is None:
            await ws.send_json({"type": "error", "message": "this link opens no seat"})
            await ws.close(code=1008)
            return
        token = msg["token"]
        if self.open.get(token, 0) >= MAX_TABS:
            await ws.send_json({"type": "error", "message": f"this link is open in {MAX_TABS} "
                                "tabs already: close one"})
            await ws.close(code=1008)
            return
        self.open[token] = self.open.get(token, 0) + 1
        try:
            await self._play(ws, found, bucket)
        finally:
            self.open[token] -= 1
            if not self.open[token]:
                del self.open[token]

    async def _play(self, ws: WebSocket, found: tuple, bucket: Bucket) -> None:
        table, role, seat = found
        outbox = Outbox(ws)
        conn = Conn(outbox.send, role, seat)
        loop = asyncio.get_running_loop()
        writer = loop.create_task(outbox.run())
        outbox.task = writer
        reader: Optional[asyncio.Task] = None
        try:
            await table.join(conn)          # the whole view first, before any answer
            reader = loop.create_task(self._read(ws, table, conn, outbox, bucket))
            done, _ = await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
            if reader in done and not reader.cancelled() and reader.exception() is None:
                # closed for its messages: the refusals and the close are written first
                await asyncio.wait({writer}, timeout=HELLO_TIMEOUT)
        finally:
            table.leave(conn)
            if reader is not None:
                reader.cancel()
            writer.cancel()
        for task in done:
            e = None if task.cancelled() else task.exception()
            if e is not None and not isinstance(e, (WebSocketDisconnect, ConnectionError)):
                raise e

    async def _read(self, ws: WebSocket, table, conn: Conn, outbox: Outbox, bucket) -> None:
        """The messages of a connection that has said hello, until it goes away or is closed;
        what it is answered goes through its outbox, after the frames queued before."""
        bad = 0
        while True:
            raw = await self._receive(ws)
            try:
                if not bucket.take():
                    raise BadMessage("too many messages; slow down")
                msg = parse(raw)
                await self._handle(table, conn, msg, outbox)
            except (BadMessage, TableError) as e:
                bad += 1
                await outbox.send({"type": "error", "message": str(e), "version": table.version})
                if bad >= MAX_BAD:
                    outbox.close(1008)
                    return

    async def _handle(self, table, conn: Conn, msg: dict, outbox: Outbox) -> None:
        kind = msg["type"]
        if kind == "act":
            await table.act(conn, msg["version"], msg["choice"])
        elif kind == "ready":
            await table.ready(conn, msg["seat"] - 1)
        elif kind == "step":
            await table.step(conn, msg["to"], msg["seat"])
        elif kind == "ping":
            await outbox.send({"type": "pong", "version": table.version})
        else:               # hello again
            raise BadMessage("this connection has said hello already")


def make_app(hub: Hub, rate: float = RATE, burst: int = BURST,
             request_timeout: float = REQUEST_TIMEOUT, doors: Optional[Doors] = None):
    """The application serving ``hub``'s games; ``rate`` and ``burst``: the messages a second
    each connection may send (:class:`~rulelang.web.protocol.Bucket`); ``request_timeout``: the
    seconds a lobby request's body has to arrive in; ``doors``: the websockets one address may
    open (:class:`Doors`, by default :data:`MAX_PER_ADDRESS` at once)."""
    s = _Server(hub, rate, burst, request_timeout, doors)
    routes = [
        Route("/", s.page),
        Route("/rules/{table}", s.rules),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Route("/api/lobby", s.lobby, methods=["POST"]),
        Route("/api/start", s.start, methods=["POST"]),
        Route("/api/takeover", s.takeover, methods=["POST"]),
        Route("/api/save", s.save, methods=["POST"]),
        Route("/api/resume", s.resume, methods=["POST"]),
        WebSocketRoute("/ws", s.socket),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.server = s
    return _with_headers(app)


def _with_headers(app):
    """Every HTTP response with :data:`HEADERS` (those it does not set itself)."""
    extra = [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]

    async def wrapped(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)

        async def send_with(message):
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [
                    (k, v) for k, v in extra if k not in have]
            await send(message)
        return await app(scope, receive, send_with)
    wrapped.state = app.state               # (tests reach the server through it)
    return wrapped
