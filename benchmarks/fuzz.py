"""The fuzzer: generated and mutated rule files through ``rulelang check`` and a short ``run``.

    python -m benchmarks.fuzz --count 2000                    # seed 1, one worker
    nice -n 10 python -m benchmarks.fuzz --count 100000 --workers 2 --log fuzz.log
    python -m benchmarks.fuzz --replay tests/fuzz_findings/some.cardrules

Each input (``benchmarks/fuzzgen.py`` makes it from the seed and its number) is written to a
file in a work folder that also holds copies of ``rules/`` and ``examples/`` (so that a mutated
variant still finds its base), and checked by the command line's own code (``rulelang check
FILE``, in process) in a child forked for that input alone, with an address-space limit of
1 GB (``resource.setrlimit``) and a wall-time limit of 10 s.  When it checks clean, the child
then runs ``rulelang run FILE --max-steps 300`` (table and transcript, rendered to a buffer).

Recorded per input: exit status 3 or an uncaught exception (internal error, with its
traceback), a hang past the time limit (where it hung, from ``faulthandler``), memory past the
limit (a ``MemoryError`` or ``ru_maxrss``), a crash of the child, and rule-file text reaching
the output unescaped (control characters, or rich markup that was interpreted), plus the wall
and CPU time and ``ru_maxrss`` of each child.  Failures are grouped by class (kind, exception,
where); the first input of each class is minimised (delta debugging on lines, keeping the
class) and saved as a reproducer.
"""
from __future__ import annotations

import argparse
import collections
import faulthandler
import gc
import io
import json
import os
import re
import resource
import select
import shutil
import signal
import sys
import tempfile
import time
import traceback

from benchmarks.fuzzgen import REAL_FILES, make_input

TIME_LIMIT = 10.0               # seconds of CPU time per input (RLIMIT_CPU)
WALL_SLACK = 3.0                # and TIME_LIMIT * WALL_SLACK of wall time: the machine is shared,
                                # so wall time alone would call a slow moment a hang
STARVED_SLACK = 10.0            # a child starved of CPU by other work waits up to this many
                                # wall limits before it is called a hang (see Pool._starved)
MEM_LIMIT = 1 << 30             # bytes of address space per input
RUN_STEPS = 300                 # --max-steps of the short run
RESULT_MAX = 16000              # bytes of a child's report (a pipe holds 64 KB)
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
MARK = "FUZZMARK"


# ---- in the child ---------------------------------------------------------------------------


def _describe(exc: BaseException) -> dict:
    """An exception as the report carries it; Lark's VisitError by the exception it wraps."""
    inner = getattr(exc, "orig_exc", None) or exc
    frames = [(os.path.basename(f.filename), f.name) for f in traceback.extract_tb(exc.__traceback__)
              + traceback.extract_tb(inner.__traceback__)
              if os.sep + "rulelang" + os.sep in f.filename]
    if isinstance(inner, RecursionError) and frames:
        # the recursion's own function is the most frequent frame, not the innermost
        where = collections.Counter(frames).most_common(1)[0][0]
    else:
        where = frames[-1] if frames else ("?", "?")
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    if len(tb) > 6000:
        tb = tb[:3000] + "\n...\n" + tb[-3000:]
    return {"tb": tb, "exc": type(inner).__name__, "msg": str(inner)[:300], "where": list(where)}


_parser = None      # the command line's parser, built once (in the parent: warm_up) for all


def _run_cli(argv: list) -> tuple:
    """``rulelang ARGV`` in process: (exit status, output, traceback of an internal error).
    The command line's parser is built once and given to every call (``main`` would build it
    again each time, a quarter of the CPU time of an input that does not check): argparse
    keeps nothing of one command line for the next, and what is fuzzed is the files that the
    commands read (here and in benchmarks/fuzzfiles.py), not their command lines."""
    import rulelang.cli.commands as C
    import rulelang.cli.render as R
    global _parser
    if _parser is None:
        _parser = C.build_parser()
    caught: list = []
    original, build = R.internal_error, C.build_parser

    def spy(exc, context=""):
        caught.append(_describe(exc))
        return original(exc, context)

    R.internal_error = spy
    C.build_parser = lambda: _parser
    out = io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = out
    try:
        rc = C.main(argv)
    except BaseException as e:      # main lets nothing out but SystemExit and the like
        caught.append(_describe(e))
        rc = "uncaught"
    finally:
        sys.stdout, sys.stderr = old
        R.internal_error, C.build_parser = original, build
    return rc, out.getvalue(), (caught[0] if caught else None)


def _unsafe_output(text: str, out: str) -> str:
    """Why the output shows rule-file text unsafely, or ''."""
    if CONTROL.search(out):
        return "control character " + repr(CONTROL.search(out).group())
    # The generators put each marked word only inside its markup (`[bold red]FUZZMARKB[/...]`):
    # the word shown without the tag before it means rich interpreted the tag.
    for word in (MARK + "B", MARK + "L"):
        if word in text and word in out and "]" + word not in out:
            return "rich markup in rule-file text was interpreted"
    return ""


def check_and_run(path: str, text: str, steps: int = RUN_STEPS) -> dict:
    """The whole test of one input (in the child): check, and a short run if it checks clean."""
    with open(path, "w", encoding="utf-8", errors="surrogatepass") as fh:
        fh.write(text)
    res: dict = {"stage": "check"}
    rc, out, err = _run_cli(["check", path])
    res.update(check=rc, unsafe=_unsafe_output(text, out), **(err or {}))
    if rc == 0 and err is None:
        res["stage"] = "run"
        # The transcript of every move, and the table at the first decision and at the end
        # (a table every few rounds would take most of the time).
        rc, out, err = _run_cli(["run", path, "--max-steps", str(steps), "--table-every", "100000"])
        res.update(run=rc, unsafe=res["unsafe"] or _unsafe_output(text, out), **(err or {}))
    return res


_warm = False


def warm_up() -> None:
    """Import and build everything a check and a run use, once per process, in the parent:
    each child starts from a copy of it instead of importing (0.6 s) again.  Besides a check
    and a run of a real file, that is what the parser builds lazily, on first need, and would
    otherwise build again in every child: the scanner of each of the parser's contextual
    lexers (a third of a child's CPU time went to compiling their regular expressions) and the
    table of example mistakes that the syntax errors' explanations are matched against."""
    global _warm
    if _warm:
        return
    d = tempfile.mkdtemp(prefix="rulelang-fuzz-warm-")
    try:
        src = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                           "examples", "crazy_eights.cardrules")
        with open(src, encoding="utf-8") as fh:
            text = fh.read()
        check_and_run(os.path.join(d, "warm.cardrules"), text, 50)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    _build_lazy_parts()
    _warm = True


def _build_lazy_parts() -> None:
    """Every scanner of the parser's contextual lexer, built now (Lark builds each when a parser
    state first needs it), and the table of the example mistakes.  Only a matter of time: a
    Lark whose lexer is laid out otherwise is left to build its scanners as it goes."""
    from rulelang.syntax.parser import _lark
    from rulelang.syntax.syntax_errors import _example_keys
    _example_keys(_lark())
    lexer = getattr(_lark().parser.lexer, "lexer", None)
    lexers = list(getattr(lexer, "lexers", {}).values()) + [getattr(lexer, "root_lexer", None)]
    for each in {id(x): x for x in lexers if x is not None}.values():
        getattr(each, "scanner", None)


# ---- the pool of children ---------------------------------------------------------------------


class Pool:
    """Runs each input in a child forked from this (warmed) process, at most ``workers`` at a
    time; a child that passes its time limit is killed."""

    def __init__(self, workdir: str, workers: int = 1, time_limit: float = TIME_LIMIT,
                 mem_limit: int = MEM_LIMIT, steps: int = RUN_STEPS, target=None):
        self.target = target or check_and_run     # (path, text, steps) -> report, in the child
        self.workdir, self.workers = workdir, workers
        self.time_limit, self.mem_limit, self.steps = time_limit, mem_limit, steps
        self.wall_slack = WALL_SLACK
        self.free = list(range(workers))
        self.live: dict = {}        # pid -> [key, slot, start, fd, chunks]

    def submit(self, key, text: str) -> None:
        slot = self.free.pop()
        path = os.path.join(self.workdir, f"input{slot}.cardrules")
        hang = os.path.join(self.workdir, f"hang{slot}.txt")
        rfd, wfd = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        # The parent's objects are frozen across the fork: the child's garbage collector then
        # leaves them alone instead of visiting (and so copying) every page of the parent's heap.
        gc.freeze()
        pid = os.fork()
        if pid:
            gc.unfreeze()
        if pid == 0:                                    # the child
            code = 0
            try:
                os.close(rfd)
                # as a fresh `rulelang` process has it: the parent (pytest, hypothesis) may have
                # changed the recursion limit, and deep inputs then fail in ways no user meets
                sys.setrecursionlimit(1000)
                # 1 GB for the input's work, on top of what the parent had mapped when it forked
                # (under pytest that may hold numpy, OpenSpiel or Ray: a plain limit of 1 GB left
                # too little room, and a deep input failed growing its stack)
                limit = self.mem_limit + _mapped_bytes()
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
                cpu = max(1, int(self.time_limit + 0.999))
                resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
                with open(hang, "w") as hf:
                    # where it was when the CPU time ran out (SIGXCPU; SIGKILL a second later)
                    faulthandler.register(signal.SIGXCPU, file=hf, all_threads=False)
                    faulthandler.dump_traceback_later(max(0.5, self.wall_limit - 0.7), file=hf)
                    res = self.target(path, text, self.steps)
                    faulthandler.cancel_dump_traceback_later()
                data = json.dumps(res).encode("utf-8", "replace")
                if len(data) > RESULT_MAX:
                    res["tb"] = (res.get("tb") or "")[-(RESULT_MAX // 2):]
                    res["unsafe"] = res.get("unsafe", "")[:200]
                    data = json.dumps(res).encode("utf-8", "replace")[:RESULT_MAX]
                os.write(wfd, data)
            except BaseException as e:
                code = 70
                try:
                    os.write(wfd, json.dumps(dict(_describe(e), stage="child"))
                             .encode("utf-8", "replace")[:RESULT_MAX])
                except BaseException:
                    pass
            finally:
                os._exit(code)
        os.close(wfd)
        self.live[pid] = [key, slot, time.monotonic(), rfd, []]

    def _finish(self, pid: int, killed: bool) -> tuple:
        key, slot, start, fd, chunks = self.live.pop(pid)
        if killed:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        _, status, ru = os.wait4(pid, 0)
        wall = time.monotonic() - start
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
        os.close(fd)
        self.free.append(slot)
        try:
            res = json.loads(b"".join(chunks).decode("utf-8", "replace")) if chunks else {}
        except ValueError:
            res = {"stage": "child", "tb": "unreadable report"}
        res.update(wall=wall, cpu=ru.ru_utime + ru.ru_stime, maxrss_kb=ru.ru_maxrss)
        cpu_out = os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGKILL, signal.SIGXCPU) \
            and res["cpu"] >= self.time_limit - 0.5
        if killed or cpu_out:
            res["hang"] = True
            try:
                with open(os.path.join(self.workdir, f"hang{slot}.txt")) as hf:
                    res["hang_tb"] = hf.read()[-RESULT_MAX:]
            except OSError:
                res["hang_tb"] = ""
        if os.WIFSIGNALED(status) and not cpu_out:
            res["signal"] = os.WTERMSIG(status)
        elif os.WEXITSTATUS(status) not in (0,):
            res["child_exit"] = os.WEXITSTATUS(status)
        return key, res

    def wait(self, block: bool = True) -> list:
        """Results of the children that have ended (waiting for one if ``block``)."""
        done: list = []
        while self.live and not done:
            now = time.monotonic()
            waiting = False
            for pid, (_, _, start, _, _) in list(self.live.items()):
                if now - start > self.wall_limit:
                    if self._starved(pid, now - start):
                        waiting = True          # a busy machine, not a slow input: wait on
                    else:
                        done.append(self._finish(pid, True))
            if done:
                break
            deadline = min(v[2] for v in self.live.values()) + self.wall_limit
            if waiting:
                deadline = now + 0.5
            fds = {v[3]: pid for pid, v in self.live.items()}
            ready, _, _ = select.select(list(fds), [], [], max(0.0, deadline - now) if block else 0)
            for fd in ready:
                pid = fds[fd]
                data = os.read(fd, 65536)
                if data:
                    self.live[pid][4].append(data)
                else:
                    done.append(self._finish(pid, False))
            if not block:
                break
        return done

    def _starved(self, pid: int, wall: float) -> bool:
        """Past its wall time, has the child had too little CPU time to have used its limit?
        Then the machine is busy (other work has the cores) and the input is not the one that
        is slow: it may go on, up to STARVED_SLACK times the wall limit.  Its CPU limit still
        stops a real hang.  Without /proc (not Linux), every child past its wall time is
        stopped, as before."""
        if wall > self.wall_limit * STARVED_SLACK:
            return False
        try:
            with open(f"/proc/{pid}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return False
        return cpu < self.time_limit - 0.5

    @property
    def wall_limit(self) -> float:
        return self.time_limit * self.wall_slack

    def run(self, text: str) -> dict:
        """One input, alone (for minimising and replaying)."""
        while not self.free:
            self.wait()
        self.submit("one", text)
        while True:
            for key, res in self.wait():
                if key == "one":
                    return res


# ---- classes of failure -----------------------------------------------------------------------

FRAME = re.compile(r'File "([^"]*)", line (\d+),? in (\S+)')


def _rulelang_frames(tb: str) -> list:
    """(module file, function) of each frame of rulelang's own code, outermost first."""
    out = []
    for path, _, func in FRAME.findall(tb or ""):
        if os.sep + "rulelang" + os.sep in path:
            out.append((os.path.basename(path), func))
    return out


def _last_exception(tb: str) -> tuple:
    """(type, message) of the last exception line of a formatted traceback."""
    for line in reversed((tb or "").strip().splitlines()):
        m = re.match(r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning|Iteration)\w*)(?::\s*(.*))?$",
                     line.strip())
        if m and not line.startswith(" "):
            return m.group(1).split(".")[-1], (m.group(2) or "")
    return "?", ""


def classify(res: dict) -> str:
    """The class of a failure (None when the input passed).  Stable across inputs: kind, stage,
    exception and the innermost frame of rulelang that raised it."""
    stage = res.get("stage", "?")
    if res.get("hang"):
        frames = _rulelang_frames("\n".join(reversed((res.get("hang_tb") or "").splitlines())))
        # by module only: where a hang is caught is a matter of when the clock ran out
        where = frames[-1][0] if frames else "?"
        run = any(f == "cmd_run" for _, f in frames)
        return f"hang:{'run' if run else 'check'}@{where}"
    if res.get("signal"):
        return f"crash:{stage}:signal{res['signal']}"
    if res.get("exc") == "MemoryError":
        return f"memory:{stage}:MemoryError@{(res.get('where') or ['?'])[0]}"
    if res.get("child_exit") or stage == "child":
        return f"crash:{stage}:child"
    tb = res.get("tb")
    if tb or res.get("check") in (3, "uncaught") or res.get("run") in (3, "uncaught"):
        exc, msg = res.get("exc") or _last_exception(tb)[0], res.get("msg", "")
        where = res.get("where")
        if not where:
            frames = _rulelang_frames(tb)
            where = frames[-1] if frames else ("?", "?")
        kind = "memory" if exc == "MemoryError" else "internal"
        detail = ""
        if "integer string conversion" in msg:     # Python's limit of 4300 digits
            return f"{kind}:{stage}:{exc}(int digits)@{where[0]}"
        if exc in ("SyntaxError", "IndentationError", "ValueError", "OverflowError"):
            detail = "(" + re.sub(r"\d+", "N", msg.split("(")[0].split(":")[0])[:40].strip() + ")"
        return f"{kind}:{stage}:{exc}{detail}@{where[0]}:{where[1]}"
    if res.get("maxrss_kb", 0) * 1024 > MEM_LIMIT:
        return f"memory:{stage}:maxrss"
    if res.get("unsafe"):
        return f"unsafe-output:{stage}:" + ("markup" if "markup" in res["unsafe"] else "control")
    return None


# ---- minimising -------------------------------------------------------------------------------


def minimise(pool: Pool, text: str, cls: str, budget_s: float = 120.0) -> str:
    """Delta debugging on lines: a smallest set of lines (found greedily) with the same class."""
    t0 = time.monotonic()
    lines = text.split("\n")
    cache: dict = {}

    def same(cand: list) -> bool:
        key = "\n".join(cand)
        if key not in cache:
            cache[key] = classify(pool.run(key)) == cls
        return cache[key]

    saved_limit = pool.time_limit
    pool.time_limit = min(saved_limit, 3.0)     # a hang past 10 s is a hang past 3 s
    try:
        return _ddmin(lines, same, t0, budget_s)
    finally:
        pool.time_limit = saved_limit


def _ddmin(lines: list, same, t0: float, budget_s: float) -> str:
    n = 2
    while len(lines) >= 2 and time.monotonic() - t0 < budget_s:
        chunk = max(1, len(lines) // n)
        parts = [lines[i:i + chunk] for i in range(0, len(lines), chunk)]
        reduced = False
        for i in range(len(parts)):
            if time.monotonic() - t0 > budget_s:
                break
            comp = [ln for j, p in enumerate(parts) if j != i for ln in p]
            if comp and same(comp):
                lines, n, reduced = comp, max(n - 1, 2), True
                break
        if not reduced:
            if chunk == 1:
                break
            n = min(len(lines), n * 2)
    return "\n".join(lines)


def slug(cls: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", cls).strip("_")[:90]


# ---- a campaign ---------------------------------------------------------------------------------


class Campaign:
    """Inputs ``start .. start+count-1`` of ``seed``: figures, classes and first examples."""

    def __init__(self, seed: int = 1, workers: int = 1, time_limit: float = TIME_LIMIT,
                 mem_limit: int = MEM_LIMIT, steps: int = RUN_STEPS, workdir: str = None):
        self.seed = seed
        self.own_dir = workdir is None
        self.workdir = workdir or tempfile.mkdtemp(prefix="rulelang-fuzz-")
        for p in REAL_FILES:                    # bases for `extends`
            shutil.copy(p, self.workdir)
        self.pool = Pool(self.workdir, workers, time_limit, mem_limit, steps)
        self.tried = 0
        self.by_stage: collections.Counter = collections.Counter()
        self.classes: dict = {}                 # class -> {"count", "first": (index, source, tags)}
        self.slowest = (0.0, None)              # (wall, index)
        self.slowest_cpu = (0.0, None)
        self.largest = (0, None)                # (maxrss KB, index)
        self.t0 = time.monotonic()
        self.log = None
        self.cpu_by_source: collections.Counter = collections.Counter()
        self.n_by_source: collections.Counter = collections.Counter()

    def record(self, index: int, source: str, tags, res: dict) -> None:
        self.tried += 1
        cls = classify(res)
        self.by_stage[(source, res.get("stage", "?"), "fail" if cls else
                       ("clean" if res.get("stage") == "run" else "diagnostics"))] += 1
        if res["wall"] > self.slowest[0] and not res.get("hang"):
            self.slowest = (res["wall"], index)
        if res["cpu"] > self.slowest_cpu[0]:
            self.slowest_cpu = (res["cpu"], index)
        if res["maxrss_kb"] > self.largest[0]:
            self.largest = (res["maxrss_kb"], index)
        if cls:
            if cls not in self.classes and self.log is not None:
                self.log.write(f"[{time.strftime('%H:%M:%S')}] new class {cls}: input {index} "
                               f"({source}, {' '.join(tags)}){' [known]' if known_class(cls) else ''}\n")
            c = self.classes.setdefault(cls, {"count": 0, "first": (index, source, tags),
                                              "tb": (res.get("tb") or res.get("hang_tb") or "")[-3000:]})
            c["count"] += 1
        self.cpu_by_source[source] += res["cpu"]
        self.n_by_source[source] += 1

    def run(self, count: int, start: int = 0, log=None, every: float = 30.0, stop_at: float = None,
            skip=None) -> None:
        """``skip(source, text, tags)`` true: do not run that input (it is counted as skipped)."""
        self.skipped = getattr(self, "skipped", 0)
        self.log = log
        last = time.monotonic()
        pending: dict = {}
        i = start
        while i < start + count or pending:
            if stop_at is not None and time.monotonic() > stop_at:
                break
            while i < start + count and self.pool.free:
                source, text, tags = make_input(self.seed, i)
                if skip is not None and skip(source, text, tags):
                    self.skipped += 1
                    i += 1
                    continue
                pending[i] = (source, tags)
                self.pool.submit(i, text)
                i += 1
            if not pending:
                continue
            for key, res in self.pool.wait():
                source, tags = pending.pop(key)
                self.record(key, source, tags, res)
            if log is not None and time.monotonic() - last > every:
                last = time.monotonic()
                log.write(self.progress() + "\n")
                log.flush()
        while self.pool.live:
            for key, res in self.pool.wait():
                source, tags = pending.pop(key)
                self.record(key, source, tags, res)
        if log is not None:
            log.write(self.progress() + "\n")
            log.flush()

    def progress(self) -> str:
        el = time.monotonic() - self.t0
        return (f"[{time.strftime('%H:%M:%S')}] seed {self.seed}: {self.tried} inputs in {el:.0f} s "
                f"({self.tried / max(el, 1e-9):.1f}/s), {len(self.classes)} classes "
                f"({sum(c['count'] for c in self.classes.values())} failing inputs); slowest "
                f"{self.slowest[0]:.2f} s (#{self.slowest[1]}), most CPU {self.slowest_cpu[0]:.2f} s "
                f"(#{self.slowest_cpu[1]}), largest {self.largest[0] / 1024:.0f} MB (#{self.largest[1]})")

    def summary(self) -> dict:
        el = time.monotonic() - self.t0
        return {"seed": self.seed, "inputs": self.tried, "skipped": getattr(self, "skipped", 0),
                "seconds": round(el, 1), "rate_per_s": round(self.tried / max(el, 1e-9), 2),
                "slowest": {"wall_s": round(self.slowest[0], 3), "index": self.slowest[1]},
                "most_cpu": {"cpu_s": round(self.slowest_cpu[0], 3), "index": self.slowest_cpu[1]},
                "largest": {"maxrss_mb": round(self.largest[0] / 1024, 1), "index": self.largest[1]},
                "cpu_ms_per_input": {k: round(1000 * v / self.n_by_source[k], 1)
                                     for k, v in sorted(self.cpu_by_source.items())},
                "outcomes": {"/".join(k): v for k, v in sorted(self.by_stage.items())},
                "classes": {k: {"count": v["count"], "first_index": v["first"][0],
                                "source": v["first"][1], "tags": list(v["first"][2])}
                            for k, v in sorted(self.classes.items())}}

    def save_findings(self, folder: str, budget_s: float = 120.0, known: dict = None) -> list:
        """Minimise the first input of each class and write it to ``folder``; returns paths."""
        os.makedirs(folder, exist_ok=True)
        saved = []
        for cls, c in sorted(self.classes.items()):
            name = os.path.join(folder, slug(cls) + ".cardrules")
            if os.path.exists(name):
                continue
            index, source, tags = c["first"]
            _, text, _ = make_input(self.seed, index)
            small = minimise(self.pool, text, cls, budget_s)
            head = [f"# fuzz finding: {cls}",
                    f"# from input {index} of seed {self.seed} ({source}), minimised on lines;",
                    f"# replay: python -m benchmarks.fuzz --replay {os.path.relpath(name)}"]
            if known and known_class(cls, known):
                head.append(f"# known: {known_class(cls, known)}")
            with open(name, "w", encoding="utf-8", errors="surrogatepass") as fh:
                fh.write("\n".join(head) + "\n" + small + ("\n" if not small.endswith("\n") else ""))
            saved.append(name)
        return saved

    def close(self) -> None:
        while self.pool.live:
            self.pool.wait()
        if self.own_dir:
            shutil.rmtree(self.workdir, ignore_errors=True)


# Failure classes other changes are fixing: class pattern (a regular expression
# matched at the start of the class) -> what fixes it.  The CI test does not fail on these; the
# lead removes an entry once the fix is merged.
def _mapped_bytes() -> int:
    """The address space this process has mapped now (0 where /proc cannot tell)."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


KNOWN: dict = {
    # (empty: the last class, a `none` player used as a player, is now RL197 and RL912)
}


# Extremes of the generators (their tags) whose inputs take seconds each (a hang costs the
# whole time limit): the CI test skips inputs with these tags.  Empty: the resource limits
# (docs/security.md) bound every input, so every input is tried.
KNOWN_SLOW_TAGS: dict = {}


def skip_known_slow(source: str, text: str, tags) -> bool:
    return any(t in KNOWN_SLOW_TAGS for t in tags)


def known_class(cls: str, known: dict = None) -> str:
    for pat, why in (KNOWN if known is None else known).items():
        if re.match(pat, cls):
            return why
    return ""


# ---- command line ---------------------------------------------------------------------------------


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.fuzz", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=2000, help="inputs to try (default 2000)")
    ap.add_argument("--start", type=int, default=0, help="number of the first input")
    ap.add_argument("--workers", type=int, default=1, help="children at a time (default 1)")
    ap.add_argument("--time-limit", type=float, default=TIME_LIMIT,
                    help="seconds of CPU time per input (default 10; wall time: 3 times that)")
    ap.add_argument("--mem-limit-mb", type=int, default=MEM_LIMIT >> 20)
    ap.add_argument("--log", help="append progress lines to this file (default: stderr)")
    ap.add_argument("--every", type=float, default=30.0, help="seconds between progress lines")
    ap.add_argument("--json", help="write the summary to this file")
    ap.add_argument("--findings", help="minimise one input of each class into this folder")
    ap.add_argument("--minimise-budget", type=float, default=120.0, help="seconds per class")
    ap.add_argument("--replay", nargs="+", metavar="FILE", help="run these rule files instead")
    ap.add_argument("--max-seconds", type=float, metavar="S",
                    help="stop starting inputs after S seconds and report (for a long run)")
    ap.add_argument("--skip-known-slow", action="store_true",
                    help="skip inputs with the tags of KNOWN_SLOW_TAGS (as the CI test does)")
    ap.add_argument("--show", type=int, metavar="N", help="print input N of --seed and stop")
    args = ap.parse_args(argv)
    if args.show is not None:
        source, text, tags = make_input(args.seed, args.show)
        sys.stdout.write(f"# input {args.show} of seed {args.seed}: {source} {tags}\n{text}")
        return 0
    warm_up()
    camp = Campaign(args.seed, args.workers, args.time_limit, args.mem_limit_mb << 20)
    try:
        if args.replay:
            bad = 0
            for path in args.replay:
                with open(path, encoding="utf-8", newline="") as fh:     # a lone \r stays
                    res = camp.pool.run(fh.read())
                cls = classify(res)
                bad += cls is not None
                print(f"{path}: {cls or 'ok'} ({res['wall']:.2f} s, {res['maxrss_kb'] / 1024:.0f} MB, "
                      f"check exit {res.get('check')}, run exit {res.get('run', '-')})")
                if cls and (res.get("tb") or res.get("hang_tb")):
                    print("    " + (res.get("tb") or res.get("hang_tb")).strip().replace("\n", "\n    ")[-2500:])
            return 1 if bad else 0
        log = open(args.log, "a") if args.log else sys.stderr
        camp.run(args.count, args.start, log=log, every=args.every,
                 skip=skip_known_slow if args.skip_known_slow else None,
                 stop_at=time.monotonic() + args.max_seconds if args.max_seconds else None)
        summary = camp.summary()
        if args.findings:
            summary["findings"] = camp.save_findings(args.findings, args.minimise_budget)
        text = json.dumps(summary, indent=2)
        if args.json:
            with open(args.json, "w") as fh:
                fh.write(text + "\n")
        log.write(text + "\n")
        log.flush()
        return 1 if any(not known_class(c) for c in camp.classes) else 0
    finally:
        camp.close()


if __name__ == "__main__":
    sys.exit(main())
