"""``rulelang serve``: the command line of the web server.  This module needs only the standard
library to be registered (``rulelang --help`` works without the ``web`` extra); the server's
packages are imported when the command runs, and their absence is a usage error that says how to
install them."""
from __future__ import annotations

import argparse
import ipaddress
import sys
from typing import Optional

from rulelang.cli.common import (EXIT_ERRORS, EXIT_OK, Out, UsageError, _folder, _include,
                                 _load_game, _overrides, _players_usage, _positive, _set_value)

SERVE_DESCRIPTION = """\
Serve a rule file to web browsers: a lobby where the host chooses who plays each seat (a person,
or a computer agent: random, mc, ismcts, with a budget), the number of players and the options,
then one link per seat (each with a secret token), a link for spectators (public information
only) and, for one screen passed around, a hot-seat link.  The server holds the game: each
browser is sent only what its seat may see and its own choices; computer players move on the
server.  The page is plain HTML, CSS and JavaScript shipped with rulelang; nothing is fetched
from the internet.

It listens on 127.0.0.1 (this computer only) unless --host says otherwise.  Anyone who can reach
the address and holds a link plays that seat: give links only to the people who play.  Needs
pip install 'rulelang[web]'."""

SERVE_EPILOG = """\
examples:
  rulelang serve examples/crazy_eights.cardrules                    open the printed host link
  rulelang serve examples/sevens.cardrules --players 3 --set hand_size=5
  rulelang serve examples/sevens.cardrules --agents human,mc:200    a game started at once
  rulelang serve examples/crazy_eights.cardrules --host 0.0.0.0     other computers may join"""


def _port(text: str) -> int:
    from rulelang.cli.common import _whole
    return _whole(text, 0, 65535, "a port")


def _pace(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds such as 0.5, not {text!r}") from None
    if not 0 <= v <= 10:
        raise argparse.ArgumentTypeError("the pace is from 0 to 10 seconds")
    return v


def _proxy(text: str) -> str:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an IP address such as 127.0.0.1, not "
                                         f"{text!r}") from None


def proxy_options(proxies=()) -> dict:
    """uvicorn's settings for the address of a connection: the socket's peer, unless the peer
    is one of ``proxies`` (reverse proxies the host named with ``--proxy``); then the last
    address of ``X-Forwarded-For`` that is not one of them.  (uvicorn's own default believes
    the header from 127.0.0.1, or from whatever ``FORWARDED_ALLOW_IPS`` says.)"""
    proxies = list(proxies)
    return {"proxy_headers": bool(proxies), "forwarded_allow_ips": proxies or None}


def add_command(sub) -> None:
    """Register ``serve`` on the subparsers of :mod:`rulelang.cli.commands`."""
    p = sub.add_parser("serve", help="play a rule file in web browsers, with friends",
                       description=SERVE_DESCRIPTION, epilog=SERVE_EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", metavar="FILE", help="the .cardrules file")
    p.add_argument("--players", "-n", type=_positive, metavar="N",
                   help="number of players the lobby starts with (default: the fewest)")
    p.add_argument("--set", action="append", type=_set_value, metavar="NAME=VALUE",
                   help="change one of the game's options (repeatable), e.g. --set decks=2")
    p.add_argument("--include", "-I", action="append", type=_folder, metavar="DIR",
                   help="a folder that `extends` may also read base files from (repeatable)")
    p.add_argument("--host", default="127.0.0.1", metavar="ADDRESS",
                   help="the address to listen on (default: 127.0.0.1, this computer only)")
    p.add_argument("--port", "-p", type=_port, default=8000, metavar="P",
                   help="the port to listen on (default: 8000; 0: any free port)")
    p.add_argument("--agents", "-a", metavar="NAMES",
                   help="start a game at once: who plays each seat, e.g. human,human,mc:200")
    p.add_argument("--hotseat", action="store_true",
                   help="with --agents: also a hot-seat link, every person on one screen")
    p.add_argument("--replay", metavar="LOG",
                   help="also serve a game log written by `rulelang run --log LOG` of this rule "
                        "file, to step through in the browser")
    p.add_argument("--saves", metavar="DIR", default="rulelang-saves",
                   help="the folder the host's saved games go to and are resumed from "
                        "(default: rulelang-saves, made on the first save)")
    p.add_argument("--proxy", action="append", type=_proxy, metavar="ADDRESS",
                   help="the address of a reverse proxy in front of the server (repeatable): "
                        "the X-Forwarded-For header of its requests says whose they are "
                        "(otherwise no such header is believed)")
    p.add_argument("--pace", type=_pace, default=0.6, metavar="SECONDS",
                   help="seconds between two moves of computer players (default: 0.6)")
    p.set_defaults(func=cmd_serve)


def exposed(host: str) -> bool:
    """Whether ``host`` may be reached from other computers (not a loopback address)."""
    if host == "localhost":
        return False
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:
        return True


def cmd_serve(args) -> int:
    out, err = Out(sys.stdout), Out(sys.stderr)
    try:
        import uvicorn
        from rulelang.web.hub import Hub, LobbyError
        from rulelang.web.server import make_app
    except ImportError as e:
        raise UsageError(f"`rulelang serve` needs the web extra ({e.name or e} is missing)",
                         "pip install 'rulelang[web]'") from None
    overrides = _overrides(args)
    game = _load_game(args.file, overrides, err, include=_include(args))
    if game is None:
        return EXIT_ERRORS
    _players_usage(game, args.players)
    hub = Hub(args.file, overrides, args.players, include=_include(args), pace=args.pace,
              saves=args.saves)
    table = None
    if args.agents is not None:
        seats = [s.strip() for s in args.agents.split(",")]
        n = args.players if args.players is not None else len(seats)
        if len(seats) == 1:
            seats = seats * n
        try:
            table = hub.start({"players": n, "seats": seats, "hotseat": args.hotseat})
        except LobbyError as e:
            raise UsageError(f"--agents: {e}") from None
    replay = None
    if args.replay is not None:
        from rulelang.cli.common import _diag_out
        from rulelang.play.saves import GameFileError
        try:
            replay = hub.replay(args.replay)
        except GameFileError as e:
            _diag_out(err, e.diagnostic, args.replay)
            return EXIT_ERRORS
    config = uvicorn.Config(make_app(hub), host=args.host, port=args.port, ws=ws_protocol(),
                            http=http_protocol(proxies=args.proxy or ()),
                            **proxy_options(args.proxy or ()),
                            ws_max_size=16 * 1024, log_level="warning", access_log=False,
                            lifespan="off")
    server = uvicorn.Server(config)

    def links():
        base = _base(server, args)
        out.write(f"rulelang serve: {game.name} at {base}/\n")
        out.write(f"  the host (lobby: seats, options, new games): {base}/#host={hub.host_token}\n")
        if table is not None:
            for name, token in table.links.items():
                out.write(f"  {name}: {base}/#{_fragment(name)}={token}\n")
        if replay is not None:
            out.write(f"  the replay of {args.replay}: {base}/#replay={replay.token}\n")
        if exposed(args.host):
            err.write("rulelang serve: warning: listening on " + args.host + ", which other "
                      "computers may reach.  Whoever holds a link plays its seat, and the "
                      "host link starts games on this computer; the connection is not "
                      "encrypted (use it on a network you trust, or behind an HTTPS proxy).\n")
        out.write("  (Ctrl-C stops the server and every game on it)\n")
        out.stream.flush()

    import asyncio

    async def main():
        task = asyncio.create_task(server.serve())
        while not server.started and not task.done():
            await asyncio.sleep(0.05)
        if server.started:
            links()
        await task
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    if not server.started:
        raise UsageError(f"cannot listen on {args.host}:{args.port}",
                         "is another server using that port? choose another with --port")
    return EXIT_OK


def ws_protocol() -> str:
    """uvicorn's implementation of websockets on the websockets package: the sans-I/O one where
    this uvicorn has it (the older one is deprecated)."""
    from uvicorn.config import WS_PROTOCOLS
    return "websockets-sansio" if "websockets-sansio" in WS_PROTOCOLS else "websockets"


def http_protocol(timeout: Optional[float] = None, proxies=(),
                  per_address: Optional[int] = None) -> type:
    """uvicorn's HTTP protocol (httptools where installed, else h11) with two bounds uvicorn
    lacks.  A connection must send a whole request's headers within ``timeout`` seconds of
    being opened or of its last response (default: :data:`rulelang.web.server.REQUEST_TIMEOUT`),
    else it is closed: without it, a connection that sends nothing, or half a request line, is
    held open for ever (uvicorn's keep-alive timer stops at the first byte of a request).  And
    one address (:func:`rulelang.web.server.address_key`) may have ``per_address`` connections
    open at once (default: :data:`rulelang.web.server.MAX_HTTP_PER_ADDRESS`) until they become
    websockets, which the server counts by address itself; one past that is closed as it opens,
    so that one client cannot take the process's connections.  The reverse proxies named in
    ``proxies`` (``--proxy``) carry every browser's connections and are not counted."""
    from uvicorn.config import HTTP_PROTOCOLS
    from uvicorn.importer import import_from_string

    from rulelang.web.server import MAX_HTTP_PER_ADDRESS, REQUEST_TIMEOUT, address_key
    try:
        import httptools  # noqa: F401
        base = import_from_string(HTTP_PROTOCOLS["httptools"])
    except ImportError:
        base = import_from_string(HTTP_PROTOCOLS["h11"])
    wait = REQUEST_TIMEOUT if timeout is None else timeout
    limit = MAX_HTTP_PER_ADDRESS if per_address is None else per_address
    trusted = {_plain(str(p)) for p in proxies}
    opened: dict = {}                   # address -> its connections open (this server's)

    class Guarded(base):  # type: ignore[misc, valid-type]  # a class chosen at run time
        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            peer = transport.get_extra_info("peername")
            host = peer[0] if isinstance(peer, (tuple, list)) and peer else None
            self._counted = None
            if host is not None and _plain(host) not in trusted:
                key = address_key(host)
                if opened.get(key, 0) >= limit:
                    transport.close()       # (one too many from that address)
                    return
                opened[key] = opened.get(key, 0) + 1
                self._counted = key
            self._watch()

        def _release(self) -> None:
            key, self._counted = self._counted, None
            if key is not None:
                opened[key] -= 1
                if not opened[key]:
                    del opened[key]

        def connection_lost(self, exc) -> None:
            self._release()
            super().connection_lost(exc)

        def handle_websocket_upgrade(self, *args) -> None:
            self._release()                 # (a websocket now: the server's Doors count it)
            super().handle_websocket_upgrade(*args)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._watch()

        def _watch(self) -> None:
            cycle = self.cycle
            self.loop.call_later(wait, self._no_request, cycle)

        def _no_request(self, cycle) -> None:
            # no new request began since (a websocket has a protocol of its own by now)
            t = self.transport
            if self.cycle is cycle and not t.is_closing() and t.get_protocol() is self:
                t.close()

    return Guarded


def _plain(host: str) -> str:
    """An address as :func:`ipaddress.ip_address` writes it, an IPv4 address mapped into IPv6
    (a dual-stack socket's ``::ffff:127.0.0.1``) written as IPv4; a name as it is."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    mapped = getattr(ip, "ipv4_mapped", None)
    return str(mapped if mapped is not None else ip)


def _fragment(name: str) -> str:
    return "seat" if name.startswith("seat") else name


def _base(server, args) -> str:
    host = args.host
    port = args.port
    try:
        for s in server.servers:
            for sock in s.sockets:
                port = sock.getsockname()[1]
                break
    except (AttributeError, IndexError, OSError):
        pass
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"
