"""Secrets stay on the server (docs/web.md, "Security"): every frame a seat's websocket is sent
is the same in every world that seat cannot tell from the real one (the hidden cards dealt
again: ``State.determinize``), and no card the seat has never been allowed to see appears in any
of its frames, the narration included; the spectator's frames hold no card that any hand hides.

Every seed game and example is played to its end through the protocol, every seat a person
choosing at random, so that all the kinds of decisions of the language are met."""
import glob
import json
import os
import random
import re

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402

from rulelang.engine.events import apply_event, seen_event, sees  # noqa: E402
from rulelang.web.hub import Hub  # noqa: E402
from rulelang.web.server import make_app  # noqa: E402
from rulelang.web.views import table_view  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = sorted(glob.glob(os.path.join(ROOT, "rules", "*.cardrules"))
               + glob.glob(os.path.join(ROOT, "examples", "*.cardrules")))
MAX_MOVES = 150


def card_pattern(names):
    alts = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(r"(?<![\w])(" + alts + r")(?![\w])") if alts else None


def visible_names(st, viewer):
    """The card names ``viewer`` (a seat, or -1 for nobody's) may see now."""
    cg = st.game
    out = set()
    for zi, cards in enumerate(st.zones):
        for pos, c in enumerate(cards):
            if sees(cg, zi, pos, len(cards), viewer):
                if viewer == -1 and cg.zone_info[zi][2] == "owner":
                    continue
                out.add(cg.card_names[c])
    if viewer >= 0:
        for key, cards in st.observation(viewer).get("known", {}).items():
            out.update(cards)
    return out


def words_of(names, seen, words):
    """Every way a card of ``names`` may be written (its name, its display name), but for
    those that are part of the words of a card seen (``Wild`` of ``Wild Draw Four``)."""
    out = {n for n in names} | {words.card(n) for n in names}
    known = " | ".join({n for n in seen} | {words.card(n) for n in seen})
    return {w for w in out if w not in known}


class Witness:
    """The cards a viewer saw at some moment of the game, moment by moment (not only at the
    decisions): each move as the viewer sees it (``seen_event``), the cards revealed and named
    by what the rules say to everyone, read from the game's log as it grows."""

    def __init__(self, st, viewer):
        self.st, self.viewer = st, viewer
        self.zones = [z[:] for z in st.game.start_zones()]
        self.read = 0
        self.names = set()
        self.pattern = card_pattern(set(st.game.card_names))

    def update(self):
        cg = self.st.game
        for e in self.st.log[self.read:]:
            if e[0] == "move":
                moved = seen_event(cg, self.zones, e, self.viewer)
                self.names |= {cg.card_names[c] for c in moved[3] if c >= 0}
            elif e[0] == "reveal":
                self.names.add(e[2])
            elif e[0] == "say":
                self.names |= {m.group(0) for m in self.pattern.finditer(e[2])}
            apply_event(self.zones, e)
        self.read = len(self.st.log)
        self.names |= visible_names(self.st, self.viewer)
        return self.names


def play(path, seed):
    """Play the game at ``path`` through the protocol with every seat a person; check each
    frame of each seat as it arrives."""
    hub = Hub(path)
    n = hub.game.players[0]
    checked = 0
    with TestClient(make_app(hub, rate=1e9, burst=10 ** 9)) as c:
        r = c.post("/api/start", json={"token": hub.host_token, "players": n,
                                       "seats": ["human"] * n, "seed": seed})
        links = r.json()["links"]
        table = hub.tables[r.json()["table"]]
        st, words = table.st, table.words
        socks = [c.websocket_connect("/ws").__enter__() for _ in range(n + 1)]
        seen = [Witness(st, p) for p in range(n)] + [Witness(st, -1)]   # the last: the spectator
        try:
            frames = []
            for p, ws in enumerate(socks):
                ws.send_json({"type": "hello", "token": links[f"seat {p + 1}"] if p < n
                              else links["spectator"]})
                frames.append(ws.receive_json())
            rng = random.Random(seed)
            for move in range(MAX_MOVES + 1):
                for w in seen:
                    w.update()
                everyone_hidden = {st.game.card_names[c] for c in range(len(st.game.card_names))}
                for p in range(n + 1):
                    f = frames[p]
                    assert f["type"] == "view" and f["version"] == table.version
                    text = json.dumps(f, ensure_ascii=False)
                    if p < n:
                        # the same frame in a world where the hidden cards lie elsewhere
                        other = st.determinize(p, 1000 * move + p)
                        assert f["view"] == json.loads(json.dumps(
                            table_view(other, words, table.cards, p), ensure_ascii=False)), \
                            (path, seed, move, p)
                    never = everyone_hidden - seen[p].names
                    pat = card_pattern(words_of(never, seen[p].names, words))
                    if pat is not None:
                        found = pat.search(text)
                        assert found is None, (path, seed, move, p, found and found.group(0))
                    checked += 1
                if st.terminal or move == MAX_MOVES:
                    break
                deciders = [p for p in range(n) if frames[p]["view"]["decision"]]
                p = rng.choice(deciders)
                k = rng.randrange(len(frames[p]["view"]["decision"]["choices"]))
                socks[p].send_json({"type": "act", "version": table.version, "choice": k})
                frames = [ws.receive_json() for ws in socks]
        finally:
            for ws in socks:
                ws.__exit__(None, None, None)
    return checked


@pytest.mark.parametrize("path", GAMES, ids=[os.path.basename(p)[:-10] for p in GAMES])
def test_no_frame_holds_a_card_hidden_from_its_seat(path):
    assert play(path, seed=7) > 0
