"""The messages a browser may send, checked before anything reads them, and the limits every
connection is held to (docs/web.md, "Protocol").

Every message is one JSON object of at most :data:`MAX_MESSAGE` bytes with a known ``type`` and
exactly the fields of that type, each of its type and within its bounds; anything else is refused
with a reason (and a connection that keeps sending such messages is closed).  A connection may
send :data:`RATE` messages a second on average (bursts of :data:`BURST`).
"""
from __future__ import annotations

import json
import re
import time
from typing import Any

MAX_MESSAGE = 1024             # bytes of one message from a browser
RATE = 20.0                    # messages a second, on average, per connection
BURST = 40                     # messages at once
MAX_BAD = 32                   # refused messages before the connection is closed
MAX_INT = 2 ** 31 - 1
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")

# type -> {field: (python type, lowest, highest)}; a str field's bounds are its length
MESSAGES: dict[str, dict[str, tuple]] = {
    "hello": {"token": (str, 16, 64)},
    "act": {"version": (int, 0, MAX_INT), "choice": (int, 0, MAX_INT)},
    "ready": {"seat": (int, 1, 64)},
    "ping": {},
    "step": {"to": (int, 0, MAX_INT), "seat": (int, 0, 64)},
}


class BadMessage(ValueError):
    """A message refused: ``str(e)`` says why, in words for the page."""


def parse(raw: Any) -> dict:
    """The checked message of the text ``raw``, or :class:`BadMessage`."""
    if not isinstance(raw, str):
        raise BadMessage("messages are JSON text")
    if len(raw) > MAX_MESSAGE or len(raw.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        raise BadMessage(f"a message is at most {MAX_MESSAGE} bytes")
    try:
        msg = json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise BadMessage("not JSON") from None
    if not isinstance(msg, dict):
        raise BadMessage("a message is a JSON object")
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in MESSAGES:
        raise BadMessage("unknown message type")
    fields = MESSAGES[kind]
    extra = set(msg) - set(fields) - {"type"}
    if extra:
        raise BadMessage("unknown field in the message")
    for name, (typ, lo, hi) in fields.items():
        if name not in msg:
            raise BadMessage(f"`{name}` is missing")
        v = msg[name]
        if typ is int:
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise BadMessage(f"`{name}` is a whole number from {lo} to {hi}")
        elif typ is str:
            if not isinstance(v, str) or not lo <= len(v) <= hi:
                raise BadMessage(f"`{name}` is text of {lo} to {hi} characters")
    if kind == "hello" and not TOKEN.fullmatch(msg["token"]):
        raise BadMessage("not a token")
    return msg


def _no_constant(name: str):
    raise ValueError(name)          # NaN, Infinity: not JSON


class Bucket:
    """A token bucket: :meth:`take` is False when the connection sends too fast."""

    def __init__(self, rate: float = RATE, burst: int = BURST, clock=time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.level = float(burst)
        self.last = clock()

    def take(self) -> bool:
        now = self.clock()
        self.level = min(self.burst, self.level + (now - self.last) * self.rate)
        self.last = now
        if self.level < 1:
            return False
        self.level -= 1
        return True
