"""A game log of ``rulelang run --log`` stepped through in the browser (``rulelang serve FILE
--replay LOG``): the table after any move, seen as any seat sees it or as the public sees it,
with the narration up to there.

The log is read as ``rulelang replay`` reads it (:func:`rulelang.play.saves.read_log`: its size
bounded, its rule text checked against the file served, every move checked as it is replayed).
The page asks for a move and a viewpoint (``{"type": "step", "to": K, "seat": S}``); the view is
made exactly as for a game being played (:func:`rulelang.web.views.table_view`).
"""
from __future__ import annotations

import asyncio
from typing import Optional

from rulelang.engine.display_names import Words
from rulelang.web.tables import Conn, TableError, new_token
from rulelang.web.views import Cards, Story, table_view


class Replay:
    """A log on the server, with one link (its token) that anyone holding it may step through."""

    def __init__(self, game, data: dict):
        from rulelang.play.saves import replay_state
        self.id = new_token()
        self.game = game
        self.data = data
        self.n = data["players"]
        self.cg = game.compiled(self.n)
        self.words = Words(self.cg)
        self.cards = Cards(self.cg, self.words)
        self.moves = len(data["actions"])
        replay_state(self.cg, data)         # every move checked once (GameFileError: RL522)
        self.token = new_token()
        self.tokens = {self.token: ("replay", None)}
        self.links = {"replay": self.token}
        self.conns: set = set()
        self.lock = asyncio.Lock()
        self.version = 0
        self._rulebook: Optional[str] = None

    def state_at(self, k: int):
        from rulelang.play.saves import replay_state
        return replay_state(self.cg, self.data, upto=k)

    def frame(self, k: int, seat: int) -> dict:
        """The table after ``k`` moves as ``seat`` (1-based; 0: the public) sees it."""
        st = self.state_at(k)
        viewer = seat - 1 if seat else None
        story = Story(self.words, st, viewer)
        story.more()
        return {"type": "view", "version": k, "role": "replay", "game": self.game.name,
                "table": self.id, "thinking": False,
                "view": table_view(st, self.words, self.cards, viewer) | {"decision": None},
                "story": list(story.lines), "story_reset": True,
                "seats": list(self.data["agents"]),
                "replay": {"at": k, "of": self.moves, "seat": seat}}

    async def join(self, conn: Conn) -> None:
        self.conns.add(conn)
        await conn.send(self.frame(0, 0))

    def leave(self, conn: Conn) -> None:
        self.conns.discard(conn)

    async def step(self, conn: Conn, to: int, seat: int) -> None:
        if not 0 <= seat <= self.n:
            raise TableError("no such seat")
        to = max(0, min(to, self.moves))
        async with self.lock:
            await conn.send(await asyncio.to_thread(self.frame, to, seat))

    async def act(self, conn, version, choice):
        raise TableError("a replay takes no choices")

    async def ready(self, conn, seat):
        raise TableError("a replay takes no choices")

    async def advance(self) -> None:
        return None

    def rulebook(self) -> str:
        if self._rulebook is None:
            from rulelang.cli.rulebook import to_html
            from rulelang.cli.rulebook_cmd import rulebook_of
            self._rulebook = to_html(rulebook_of(self.game, self.n))
        return self._rulebook

    def summary(self) -> dict:
        return {"table": self.id, "players": self.n, "seats": list(self.data["agents"]),
                "moves": self.moves, "over": True, "turn": 0, "replay": True}
