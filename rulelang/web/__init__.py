"""``rulelang serve``: a game played in web browsers (the optional ``web`` extra).

The server holds every game's state; each seat's browser gets only that seat's view
(:mod:`rulelang.web.views`), made on the server from the seat's observation and legal choices.
:mod:`rulelang.web.tables` holds the games and their seats, :mod:`rulelang.web.protocol` checks
every message, :mod:`rulelang.web.server` is the ASGI application and :mod:`rulelang.web.command`
the command line.  docs/web.md describes the protocol and its security.
"""
