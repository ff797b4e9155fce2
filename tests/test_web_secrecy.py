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

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402

from rulelang.web.hub import Hub  # noqa: E402
from rulelang.web.server import make_app  # noqa: E402
from rulelang.web.views import table_view  # noqa: E402
from websecrets import Witness, card_pattern, words_of  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = sorted(glob.glob(os.path.join(ROOT, "rules", "*.cardrules"))
               + glob.glob(os.path.join(ROOT, "examples", "*.cardrules")))
MAX_MOVES = 150


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
