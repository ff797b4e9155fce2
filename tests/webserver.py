"""A `rulelang serve` server for tests and scripts: uvicorn in a thread of this process, on a
free port of 127.0.0.1, so that a real browser (Playwright on the machine's Chromium) can play."""
import asyncio
import os
import shutil
import threading
import time

CHROMIUM = "/usr/bin/chromium"


def chromium_missing():
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed"
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


class Server:
    """``with Server(path) as s:`` ``s.url``, ``s.hub``; stopped at the end."""

    def __init__(self, path, pace=0.0, request_timeout=None, doors=None, proxies=(),
                 per_address=None, **hub_args):
        from rulelang.web.hub import Hub
        self.hub = Hub(path, pace=pace, **hub_args)
        self.doors = doors                          # None: the server's own limits
        self.proxies = proxies                      # as --proxy
        self.per_address = per_address              # None: the server's own HTTP limit
        self.url = None
        self.request_timeout = request_timeout      # None: the server's own

    def __enter__(self):
        import uvicorn
        from rulelang.web.command import http_protocol, proxy_options, ws_protocol
        from rulelang.web.server import REQUEST_TIMEOUT, make_app
        wait = self.request_timeout or REQUEST_TIMEOUT
        config = uvicorn.Config(make_app(self.hub, request_timeout=wait, doors=self.doors),
                                host="127.0.0.1", port=0, ws=ws_protocol(),
                                http=http_protocol(wait, self.proxies, self.per_address),
                                **proxy_options(self.proxies),
                                log_level="warning", access_log=False, lifespan="off")
        self.server = uvicorn.Server(config)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_until_complete,
                                       args=(self.server.serve(),), daemon=True)
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            if time.time() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        return self

    def start(self, seats, seed=1, **more):
        """A new game started through the lobby's HTTP call; its links as URLs."""
        import httpx
        r = httpx.post(self.url + "/api/start", json={"token": self.hub.host_token,
                                                      "players": len(seats), "seats": seats,
                                                      "seed": seed, **more})
        r.raise_for_status()
        data = r.json()
        links = {name: f"{self.url}/#{'seat' if name.startswith('seat') else name}={token}"
                 for name, token in data["links"].items()}
        return self.hub.tables[data["table"]], links

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(10)
