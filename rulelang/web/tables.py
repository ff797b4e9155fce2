"""One game played on the server: its state, its seats (people or computer agents), the
connections watching it, and what each of them is sent.

A :class:`Table` is driven by its connections' messages (:meth:`Table.act`, :meth:`Table.ready`)
and by its computer seats, which move on the server (:meth:`Table.advance`).  Every frame a
connection is sent is made for the viewer that connection is: a seat's token sees that seat
(:func:`rulelang.web.views.table_view`), the spectator's token no seat, and the hot-seat token
the seat whose turn it is, only after a hand-over the person at the screen confirms.
"""
from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any, Callable, Optional

from rulelang.engine.display_names import Words
from rulelang.play.agents import View, make_agent
from rulelang.web.views import Cards, Story, may_decide, table_view

HUMAN = "human"


def new_token() -> str:
    """An unguessable token (144 random bits from the operating system)."""
    return secrets.token_urlsafe(18)


class Conn:
    """One open websocket: who it is (``role`` "seat", "spectator" or "hotseat"; ``seat``
    0-based for a seat), what it has been shown, and how to send it a frame."""

    def __init__(self, send: Callable, role: str, seat: Optional[int] = None):
        self.send = send
        self.role = role
        self.seat = seat
        self.shown: Optional[int] = seat     # the hot-seat screen: the seat it shows now
        self.pending: Optional[int] = None   # the hot-seat screen: the seat it hands over to
        self.told = 0                        # lines of narration sent

    def viewer(self) -> Optional[int]:
        """The seat whose view this connection is sent (None: the public view)."""
        return self.seat if self.role == "seat" else self.shown


class TableError(Exception):
    """A message a table refuses (an illegal choice, another seat's turn, a stale view)."""


class Table:
    """A game on the server.  ``seats``: one entry per seat, ``"human"`` or an agent's name
    (``random``, ``mc:200``, ...).  ``pace``: seconds between two computer moves, so that the
    people at the table can follow them (0 in tests)."""

    def __init__(self, game, n: int, seats: list, seed: int, hotseat: bool = False,
                 pace: float = 0.0, state=None, file: str = "", overrides: Optional[dict] = None):
        self.id = new_token()
        self.game = game
        self.file = file
        self.overrides = dict(overrides or {})
        self.n = n
        self.cg = game.compiled(n)
        self.seed = seed
        self.seats = list(seats)
        self.pace = pace
        resumed = state is not None
        self.st = state if resumed else self.cg.new_game(seed=seed, log=True)
        if self.st.log is None:
            self.st.log = []
        self.words = Words(self.cg)
        self.cards = Cards(self.cg, self.words)
        self.agents: list = [None if s == HUMAN else make_agent(s, p, seed)
                             for p, s in enumerate(self.seats)]
        self.tokens: dict = {}               # token -> (role, seat)
        self.links: dict = {}                # "seat 1", "spectator", "hotseat" -> token
        for p, s in enumerate(self.seats):
            if s == HUMAN:
                t = new_token()
                self.tokens[t] = ("seat", p)
                self.links[f"seat {p + 1}"] = t
        t = new_token()
        self.tokens[t] = ("spectator", None)
        self.links["spectator"] = t
        if hotseat:
            t = new_token()
            self.tokens[t] = ("hotseat", None)
            self.links["hotseat"] = t
        self.stories: dict = {p: Story(self.words, self.st, p, resumed) for p in range(n)}
        self.stories[None] = Story(self.words, self.st, None, resumed)
        self.conns: set = set()
        self.version = 0
        self.moves = 0
        self.lock = asyncio.Lock()
        self.touched = time.monotonic()
        self.thinking = False
        self._rulebook: Optional[str] = None

    # ---- who may do what ---------------------------------------------------------------------
    def humans(self) -> list:
        return [p for p, s in enumerate(self.seats) if s == HUMAN]

    def next_human(self) -> Optional[int]:
        """The first person who must decide now (for the hot-seat screen), or None."""
        for p in self.st.current_players():
            if self.seats[p] == HUMAN and may_decide(self.st, p):
                return p
        return None

    def may_act(self, conn: Conn) -> Optional[int]:
        """The seat ``conn`` may decide for now, or None: a seat's connection for its own seat
        only, the hot-seat screen for the seat it shows (after the hand-over)."""
        p = conn.viewer()
        if conn.role == "spectator" or p is None or self.seats[p] != HUMAN:
            return None
        return p if may_decide(self.st, p) else None

    # ---- frames ------------------------------------------------------------------------------
    def frame(self, conn: Conn, whole: bool = False) -> dict:
        """What ``conn`` is sent now: a hand-over (nothing of any seat), or its viewer's view
        with the lines of narration it has not been sent (all of them when ``whole``)."""
        if conn.role == "hotseat" and conn.pending is not None:
            return {"type": "handover", "seat": conn.pending + 1, "version": self.version}
        viewer = conn.viewer()
        story = self.stories[viewer]
        story.more()            # told when someone watches: a seat nobody watches catches up later
        new = story.told - conn.told
        reset = whole or new < 0 or new > len(story.lines)
        lines = list(story.lines) if reset else (story.lines[-new:] if new else [])
        conn.told = story.told
        return {"type": "view", "version": self.version, "role": conn.role,
                "game": self.game.name, "table": self.id, "thinking": self.thinking,
                "view": table_view(self.st, self.words, self.cards, viewer),
                "story": lines, "story_reset": reset,
                "seats": [s if s != HUMAN else HUMAN for s in self.seats]}

    def _hand_over(self, conn: Conn) -> None:
        """The hot-seat screen: when another person must decide, hide the table until they say
        they are at the screen."""
        if conn.role != "hotseat":
            return
        nxt = self.next_human()
        if nxt is not None and nxt != conn.shown and conn.pending != nxt:
            conn.shown, conn.pending = None, nxt
            conn.told = 0

    async def broadcast(self) -> None:
        for conn in list(self.conns):
            self._hand_over(conn)
            await self._send(conn, self.frame(conn))

    async def _send(self, conn: Conn, frame: dict) -> None:
        try:
            await conn.send(frame)
        except Exception:               # a connection that went away: it will reconnect
            self.conns.discard(conn)

    async def join(self, conn: Conn) -> None:
        self.touched = time.monotonic()
        async with self.lock:
            self.conns.add(conn)
            if conn.role == "hotseat":
                conn.shown = None
                nxt = self.next_human()
                humans = self.humans()
                conn.pending = nxt if nxt is not None else (humans[0] if humans else None)
            await self._send(conn, self.frame(conn, whole=True))

    def leave(self, conn: Conn) -> None:
        self.conns.discard(conn)

    # ---- moves -------------------------------------------------------------------------------
    async def act(self, conn: Conn, version: int, choice: int) -> None:
        """A person's choice: the ``choice``-th of the legal choices of the view ``version``."""
        self.touched = time.monotonic()
        async with self.lock:
            p = self.may_act(conn)
            if p is None:
                raise TableError("it is not yours to decide now")
            if version != self.version:
                raise TableError("the table has changed since; choose again")
            legal = self.st.legal_actions(p)
            if not 0 <= choice < len(legal):
                raise TableError("no such choice")
            self._apply(legal[choice], p)
            await self.broadcast()
        await self.advance()

    async def step(self, conn: Conn, to: int, seat: int) -> None:
        raise TableError("only a replay steps through its moves")

    async def ready(self, conn: Conn, seat: int) -> None:
        """The hot-seat screen: the person of ``seat`` is at the screen."""
        async with self.lock:
            if conn.role != "hotseat" or conn.pending is None or conn.pending != seat:
                raise TableError("no hand-over to that seat now")
            conn.shown, conn.pending = seat, None
            await self._send(conn, self.frame(conn, whole=True))

    def _apply(self, action: int, p: int) -> None:
        st = self.st
        st.apply_action(action, p)
        self.moves += 1
        self.version += 1
        for ag in self.agents:
            if ag is not None and hasattr(ag, "observe"):
                ag.observe(View(st, ag.seat))

    def computer_to_move(self) -> Optional[int]:
        st = self.st
        if st.terminal:
            return None
        for p in st.current_players():
            if self.agents[p] is not None and may_decide(st, p):
                return p
        return None

    async def advance(self) -> None:
        """The computer seats' moves, until a person must decide or the game is over.  A search
        (``mc``, ``ismcts``) runs in a worker thread, so the server answers meanwhile."""
        while True:
            async with self.lock:
                p = self.computer_to_move()
                if p is None:
                    if self.thinking:
                        self.thinking = False
                        await self.broadcast()
                    return
                agent = self.agents[p]
                view = View(self.st, p)
                cheap = agent.name in ("random", "first")
                if not cheap and not self.thinking:
                    self.thinking = True
                    await self.broadcast()
                a = agent.act(view) if cheap else await asyncio.to_thread(agent.act, view)
                self._apply(a, p)
                if self.computer_to_move() is None:
                    self.thinking = False
                await self.broadcast()
            if self.pace:
                await asyncio.sleep(self.pace)
            else:
                await asyncio.sleep(0)

    async def take_over(self, seat: int, agent: str) -> None:
        """A seat whose person left is played by a computer agent from now on."""
        async with self.lock:
            if not 0 <= seat < self.n or self.seats[seat] != HUMAN:
                raise TableError("no such seat played by a person")
            self.agents[seat] = make_agent(agent, seat, self.seed)
            self.seats[seat] = agent
            for t, (role, s) in list(self.tokens.items()):
                if role == "seat" and s == seat:
                    self.tokens[t] = ("spectator", None)
            for conn in self.conns:
                if conn.role == "seat" and conn.seat == seat:
                    conn.role, conn.seat, conn.told = "spectator", None, 0
            await self.broadcast()
        await self.advance()

    def rulebook(self) -> str:
        """The rulebook of this game as one HTML page (``rulelang rulebook --format html``)."""
        if self._rulebook is None:
            from rulelang.cli.rulebook import to_html
            from rulelang.cli.rulebook_cmd import rulebook_of
            self._rulebook = to_html(rulebook_of(self.game, self.n))
        return self._rulebook

    def summary(self) -> dict[str, Any]:
        st = self.st
        return {"table": self.id, "players": self.n, "seats": list(self.seats),
                "moves": self.moves, "over": bool(st.terminal),
                "turn": st.turns + 1}
