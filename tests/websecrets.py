"""What a viewer of a game may have seen, for the tests that look for hidden cards in what the
web server sends (tests/test_web_secrecy.py, tests/test_web_browser.py)."""
import re

from rulelang.engine.events import apply_event, seen_event, sees


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
        # (the server's thread may add events meanwhile: those read are counted, not the log's
        # length afterwards, which would skip the ones added after the slice)
        new = self.st.log[self.read:]
        self.read += len(new)
        for e in new:
            if e[0] == "move":
                moved = seen_event(cg, self.zones, e, self.viewer)
                self.names |= {cg.card_names[c] for c in moved[3] if c >= 0}
            elif e[0] == "reveal":
                self.names.add(e[2])
            elif e[0] == "say":
                self.names |= {m.group(0) for m in self.pattern.finditer(e[2])}
            apply_event(self.zones, e)
        self.names |= visible_names(self.st, self.viewer)
        return self.names


def leaks(text, st, witness, words):
    """The first card name (or display name) in ``text`` that the witness's viewer never saw."""
    everyone = set(st.game.card_names)
    never = everyone - witness.names
    pat = card_pattern(words_of(never, witness.names, words))
    if pat is None:
        return None
    found = pat.search(text)
    return found.group(0) if found else None
