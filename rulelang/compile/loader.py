"""Load a rule file from disk: read it and the files it ``extends``, parse, merge, check.

:func:`load` runs the front of the pipeline and returns a :class:`Game`, or raises
:class:`~rulelang.syntax.diagnostics.RuleFileError` with every diagnostic.  A :class:`Game` compiles
itself for a number of players on demand (:meth:`Game.compiled`).

It is also where rulelang decides which files it may read (:func:`find_named_file`, for every
path that a file names: `extends`, the `rules` of a rule test, the rule file of a log or a save)
and where it may write (:func:`output_problem`, for logs, saves and reports): docs/security.md.
"""
from __future__ import annotations

import errno
import functools
import os
import stat
import tempfile
from importlib import resources
from typing import Optional

from rulelang.syntax import ast as A
from rulelang.check.checker import check
from rulelang.check.model import Model
from rulelang.check.variants import merge
from rulelang.compile.compiler import CompiledGame
from rulelang.compile.passes import resolve
from rulelang.syntax.diagnostics import ERROR, Diagnostic, RuleFileError
from rulelang.syntax.parser import parse
from rulelang.syntax.recover import cascades, checkable, parse_partial

MAX_EXTENDS_DEPTH = 16


def prelude() -> list[A.Program]:
    """The parsed prelude files (parsed once per process: the nodes are immutable)."""
    return list(_prelude())


@functools.lru_cache(maxsize=1)
def _prelude() -> tuple:
    out = []
    for entry in sorted(resources.files("rulelang").joinpath("prelude").iterdir(),
                        key=lambda p: p.name):
        if entry.name.endswith(".cardrules"):
            out.append(parse(entry.read_text("utf-8"), "<prelude>"))
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Reading rule files safely (docs/security.md)
# ---------------------------------------------------------------------------------------------

MAX_FILE_BYTES = 1 << 20            # 1 MiB: the largest rule file read (RL129)
RULE_SUFFIX = ".cardrules"
_BOM = b"\xef\xbb\xbf"

class NamedBy:
    """How a file names another file that rulelang then reads: the words of the RL128 refusal
    (the same for every refused path of that kind) and of the RL125 for a path that is allowed
    but missing.  ``word``: what names the path; ``folders``: where it may lie."""

    def __init__(self, word: str, folders: str, hint: str, missing_hint: str):
        self.word, self.folders, self.hint, self.missing_hint = word, folders, hint, missing_hint


EXTENDS = NamedBy(
    "`extends`", "the folder of the file being checked (or a folder given with --include)",
    "write the base's path relative to the variant, such as `extends \"base.cardrules\"`; to "
    "use a base kept in another folder, name that folder with `--include DIR`",
    "paths in `extends` are relative to the file that says it (or to a folder given with "
    "--include)")
RULE_TEST = NamedBy(
    "`rules` in a rule test", "the folder of the test file (or a folder given with --include)",
    "write the rule file's path relative to the test file, such as `rules \"game.cardrules\"`; "
    "to use a rule file kept in another folder, name that folder with `--include DIR`",
    "the path in `rules` is relative to the test file (or to a folder given with --include)")
GAME_FILE = NamedBy(
    "a log or a save", "its own folder or the current folder (or a folder given with "
    "--include)",
    "name the rule file yourself: `rulelang replay LOG --rules FILE`, "
    "`rulelang play FILE --resume SAVE`",
    "run from the folder the game was played in, or name the rule file")

_REFUSED = f"{EXTENDS.word} can name only a .cardrules file inside {EXTENDS.folders}"
_REFUSED_HINT = EXTENDS.hint
_SHOWN_NAME = 200           # a refused name longer than this is shown cut


def refused(name: str, via, by: NamedBy = EXTENDS) -> Diagnostic:
    """The one diagnostic for every path that may not be read: it says nothing about the file
    system (not whether the path exists, not what it is), and nothing of the file."""
    shown = name if len(name) <= _SHOWN_NAME else name[:_SHOWN_NAME] + "..."
    return Diagnostic("RL128", ERROR, f"cannot use `{shown}`: {by.word} can name only a "
                      f".cardrules file inside {by.folders}", via, by.hint)


def _too_large(path: str, size: Optional[int], via) -> Diagnostic:
    what = f"{size:,} bytes" if size is not None else f"more than {MAX_FILE_BYTES:,} bytes"
    return Diagnostic("RL129", ERROR, f"`{path}` is too large for a rule file ({what}; the limit "
                      f"is {MAX_FILE_BYTES:,} bytes)", via or A.Span(path, 0, 0, 0, 0),
                      "split the game into a base file and variants that `extends` it")


def decode_rule_text(data: bytes, path: str):
    """(text, None) for UTF-8 bytes (a BOM at the start is dropped), or (None, a diagnostic at
    the first byte that is not UTF-8)."""
    if data.startswith(_BOM):
        data = data[len(_BOM):]
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as err:
        before = data[:err.start]
        line = before.count(b"\n") + 1
        col_bytes = before[before.rfind(b"\n") + 1:]
        col = len(col_bytes.decode("utf-8", "replace")) + 1
        return None, Diagnostic(
            "RL126", ERROR, f"`{path}` is not UTF-8 text: byte 0x{data[err.start]:02x} at line "
            f"{line}, column {col} is not a character", A.Span(path, line, col, line, col + 1),
            "save the file as UTF-8 (rule files are plain text)")


def read_rule_bytes(path: str, limit: int = MAX_FILE_BYTES, follow: bool = True):
    """The bytes of a regular file of at most ``limit`` bytes: ``(data, None)``, or ``(None,
    reason)`` with reason ``"missing"``, ``"not-regular"``, ``"too-large"`` or an OSError.
    The file type is checked before the file is opened (a fifo, a device or /proc file is never
    opened) and again on the open file; at most ``limit + 1`` bytes are read.  ``follow=False``
    (for a path already resolved by ``realpath``) refuses a link put in its place meanwhile."""
    import stat
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None, "missing"
    except (OSError, ValueError) as err:
        return None, err
    if not stat.S_ISREG(st.st_mode):
        return None, "not-regular"
    if st.st_size > limit:
        return None, "too-large"
    try:
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
        if not follow:
            flags |= getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None, "missing"
    except OSError as err:
        if not follow and err.errno == errno.ELOOP:
            return None, "not-regular"         # a link appeared where the resolved file was
        return None, err
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):      # swapped for something else meanwhile
            return None, "not-regular"
        chunks, got = [], 0
        while got <= limit:
            chunk = os.read(fd, limit + 1 - got)
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:
            return None, "too-large"
        return b"".join(chunks), None
    except OSError as err:
        return None, err
    finally:
        os.close(fd)


def read_rule_text(path: str) -> Optional[str]:
    """The text of a rule file read as :func:`read_layers` reads it, or None (for quoting source
    lines in diagnostics: never reads what the loader would not)."""
    data, _why = read_rule_bytes(path)
    if data is None:
        return None
    text, _diag = decode_rule_text(data, path)
    return text


def read_named_main(path: str, diags: list, kind: str = "a .cardrules file") -> Optional[str]:
    """The text of a file named on the command line (a rule file, or given to :func:`load`; a
    rule test), or None after adding a diagnostic.  The file is the user's choice and may be
    anywhere, except that a link to a file outside its own folder is refused (RL128), so that
    `rulelang check DIR` or `rulelang test DIR` over a folder of contributed files reads only
    that folder; then as :func:`read_rule_bytes` (a regular file of at most 1 MiB, UTF-8)."""
    try:
        real = os.path.realpath(path)
        folder = os.path.realpath(os.path.dirname(os.path.abspath(path)))
    except (OSError, ValueError):
        real, folder = None, ""
    if real is None or not _inside(real, [folder]):
        diags.append(Diagnostic(
            "RL128", ERROR, f"cannot use `{path}`: it is a link to a file outside its folder",
            None, "name the file it links to instead (rulelang reads files only inside the "
            "folder of the file named, so that a folder of contributed files cannot point it "
            "elsewhere)"))
        return None
    return _read_main(path, diags, kind)


def _read_main(path: str, diags: list, kind: str = "a .cardrules file") -> Optional[str]:
    """The text of the file named on the command line (or given to :func:`load`)."""
    data, why = read_rule_bytes(path)
    if why == "missing":
        diags.append(Diagnostic("RL125", ERROR, f"cannot find the file `{path}`", None,
                                f"give the path of {kind}"))
    elif why == "not-regular":
        diags.append(Diagnostic("RL125", ERROR, f"`{path}` is not a regular file", None,
                                f"give the path of {kind}"))
    elif why == "too-large":
        diags.append(_too_large(path, _size(path), None))
    elif why is not None:
        diags.append(Diagnostic("RL126", ERROR, f"cannot read `{path}`: "
                                f"{getattr(why, 'strerror', None) or why}", None, None))
    else:
        text, bad = decode_rule_text(data, path)
        if bad is not None:
            diags.append(bad)
        return text
    return None


def _size(path: str) -> Optional[int]:
    try:
        return os.stat(path).st_size
    except OSError:
        return None


def _inside(real: str, roots) -> bool:
    return any(real == r or real.startswith(r.rstrip(os.sep) + os.sep) for r in roots)


def find_named_file(name, bases, roots: list, via, diags: list,
                    by: NamedBy = EXTENDS) -> Optional[tuple]:
    """May this file be read?  The one answer for every path that a file rulelang reads names:
    the base of ``extends``, the `rules` of a rule test, the rule file of a log or a save.

    (path, text) of the file ``name`` names, or None after adding a diagnostic.  The name must
    be relative, end in .cardrules and hold no NUL; it is looked up in each folder of ``bases``
    in turn, and whatever it resolves to (after links) must be a regular .cardrules file inside
    one of ``roots`` (real paths).  A refusal is always the same RL128, decided before anything
    is opened; RL125 (missing) only when every place looked at is inside ``roots``."""
    if (not isinstance(name, str) or not name or "\x00" in name or os.path.isabs(name)
            or name.startswith("~") or not name.endswith(RULE_SUFFIX) or len(name) > 4096):
        diags.append(refused(name if isinstance(name, str) else repr(name), via, by))
        return None
    outside_any = False
    for base in bases:
        candidate = os.path.join(base, name)
        try:
            real = os.path.realpath(candidate)
        except (OSError, ValueError):
            outside_any = True
            continue
        if not _inside(real, roots):
            outside_any = True          # never "cannot find" for a path that leads out
            continue
        data, why = read_rule_bytes(real, follow=False)
        if why == "missing":
            continue
        if why == "not-regular":
            diags.append(refused(name, via, by))
            return None
        if why == "too-large":
            diags.append(_too_large(name, _size(real), via))
            return None
        if why is not None:
            diags.append(Diagnostic("RL126", ERROR, f"cannot read `{name}`: "
                                    f"{getattr(why, 'strerror', None) or why}", via, None))
            return None
        text, bad = decode_rule_text(data, candidate)
        if bad is not None:
            diags.append(bad)
            return None
        return candidate, text
    if outside_any:
        diags.append(refused(name, via, by))
    else:
        diags.append(Diagnostic("RL125", ERROR, f"cannot find the file `{name}`", via,
                                by.missing_hint))
    return None


def include_roots(path: str, include=()) -> list:
    """The folders `extends` may read from: the folder of ``path`` first, then ``include``."""
    roots = [os.path.realpath(os.path.dirname(os.path.abspath(path)))]
    for d in include or ():
        r = os.path.realpath(d)
        if r not in roots:
            roots.append(r)
    return roots


def read_layers(path: str, diags: list, text: Optional[str] = None, include=(),
                partials: Optional[list] = None, parser=parse) -> list[A.Program]:
    """The file and every file it extends, base first.  Cycles, missing files and paths that
    `extends` may not read are diagnostics (see :func:`_find_base`).  A file with syntax errors
    ends the chain, unless ``partials`` is a list: then every syntax error is reported, the parts
    of the file that parse are its layer, and its :class:`~rulelang.syntax.recover.Partial` is
    added to ``partials``.  ``parser``: what parses each file's text (``parse(text, path)``; the
    language server's keeps the declarations that did not change since the last edit); a parser
    other than :func:`parse` reads whole files only (no ``partials``)."""
    roots = include_roots(path, include)
    layers: list = []
    seen: list = []
    if text is None:
        src_text = read_named_main(path, diags)
        if src_text is None:
            return layers
    else:
        src_text = text[1:] if text.startswith("\ufeff") else text
        if len(src_text) * 4 > MAX_FILE_BYTES and len(src_text.encode("utf-8")) > MAX_FILE_BYTES:
            diags.append(_too_large(path, len(src_text.encode("utf-8")), None))
            return layers
    current, via = path, None
    first_via = None        # the `extends` line of the file being checked
    while True:
        real = os.path.realpath(current)
        if real in seen:
            diags.append(Diagnostic("RL124", ERROR, "these files extend each other in a circle: "
                                    + " -> ".join(os.path.basename(s) for s in seen + [real]),
                                    first_via or via, "one of them must be the base and extend nothing"))
            break
        seen.append(real)
        if partials is not None and parser is parse:
            part = parse_partial(src_text, current)
            partials.append(part)
            diags.extend(part.diagnostics)
            prog = part.program
        else:
            try:
                prog = parser(src_text, current)
            except RuleFileError as err:
                diags.extend(err.diagnostics)
                break
        layers.append(prog)
        ext = [d for d in prog.decls if isinstance(d, A.Extends)]
        if len(ext) > 1:
            diags.append(Diagnostic("RL127", ERROR, "a file can extend only one other file",
                                    ext[1].span, "keep one `extends` line"))
        if not ext:
            break
        if len(seen) > MAX_EXTENDS_DEPTH:
            diags.append(Diagnostic("RL124", ERROR, "too many files extend one another", ext[0].span,
                                    None))
            break
        via = ext[0].span
        if first_via is None:
            first_via = via
        found = find_named_file(ext[0].path, [os.path.dirname(current)] + roots[1:], roots, via,
                                diags)
        if found is None:
            break
        current, src_text = found
    layers.reverse()
    return layers



# ---------------------------------------------------------------------------------------------
# Writing files safely (docs/security.md, "Files rulelang writes")
# ---------------------------------------------------------------------------------------------
# The log of ``run --log``, the save of ``play --save``, the page of ``stats --report`` and
# ``compare --report`` follow one rule, :func:`output_problem`: rulelang writes only to a regular
# file (which it replaces whole) or to a new name in a folder that exists.  A link, a fifo, a
# device, a socket or a folder is refused, never replaced or written through, so that
# ``--log /dev/null`` run as root leaves the device alone, ``--save`` to a link does not write
# where the link points, and a fifo does not block the game.  The file is written beside its
# place under a name no one else can have made (``mkstemp``), checked again and renamed over the
# path: it is whole or not there.

OUTPUT_HINT = "give the path of a regular file, or of a new file in a folder that exists"


class OutputError(Exception):
    """A path rulelang will not write to; ``message`` and ``hint`` in words."""

    def __init__(self, message: str, hint: Optional[str] = OUTPUT_HINT):
        super().__init__(message)
        self.message, self.hint = message, hint


def output_problem(path: str) -> Optional[str]:
    """Why rulelang may not write to ``path`` ("it is a link" ...), or None when it may: ``path``
    is a regular file, or nothing is there and its folder exists.  Links are not followed."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        folder = os.path.dirname(path) or os.curdir
        try:
            fst = os.stat(folder)
        except FileNotFoundError:
            return f"the folder `{folder}` does not exist"
        except (OSError, ValueError) as e:
            return f"its folder cannot be reached ({getattr(e, 'strerror', None) or e})"
        if not stat.S_ISDIR(fst.st_mode):
            return f"`{folder}` is not a folder"
        return None
    except NotADirectoryError:
        return "a part of it that should be a folder is a file"
    except ValueError:
        return "it is not a path (it holds a NUL character)"
    except OSError as e:
        return f"it cannot be reached ({e.strerror or e})"
    mode = st.st_mode
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return "it is a link (rulelang does not write through links nor replace them)"
    if stat.S_ISDIR(mode):
        return "it is a folder"
    if stat.S_ISFIFO(mode):
        return "it is a fifo (a named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "it is a device"
    if stat.S_ISSOCK(mode):
        return "it is a socket"
    return "it is not a regular file"


def check_output(path: str, what: str) -> None:
    """Raise :class:`OutputError` when rulelang may not write ``what`` (``"the log"``) to
    ``path``."""
    problem = output_problem(path)
    if problem is not None:
        raise OutputError(f"cannot write {what} to `{path}`: {problem}")


def write_whole(path: str, text: str, what: str, private: bool = False) -> None:
    """Write ``text`` to ``path`` whole or not at all, if :func:`output_problem` allows it (checked
    before and again just before the rename).  ``private``: readable by its owner only (a save
    holds every hidden card); otherwise as the umask says, like any new file.  Raises
    :class:`OutputError`, or OSError when the folder cannot be written."""
    check_output(path, what)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path)[:64] + ".", suffix=".tmp",
                               dir=folder)
    try:
        if not private:
            umask = os.umask(0o022)
            os.umask(umask)
            os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fd = None
            fh.write(text)
        check_output(path, what)        # nothing else put in its place meanwhile
        os.replace(tmp, path)
    except BaseException:
        if fd is not None:
            os.close(fd)
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class Game:
    """A checked rule file with its option values, ready to compile for any allowed number of
    players."""

    def __init__(self, model: Model, diagnostics: list, decls, file, overrides):
        self.model = model
        self.diagnostics = diagnostics
        self.decls = decls
        self.file = file
        self.overrides = overrides
        self.include: tuple = ()          # the folders besides the file's own that it may extend from
        self._compiled: dict = {}
        # The optimisations it is compiled with (compile/passes.py: resolve's spelling; None:
        # the environment variable RULELANG_OPT, else all).
        self.optimize = None

    @property
    def name(self) -> str:
        return self.model.name

    @property
    def players(self) -> tuple:
        return self.model.players

    def options(self) -> dict:
        return {k: v.value for k, v in self.model.options.items()}

    def compiled(self, n_players: int, optimize=None) -> CompiledGame:
        """The game compiled for ``n_players`` (once), with the optimisations ``optimize``
        (compile/passes.py; None: the game's own, ``load(..., optimize=...)``)."""
        lo, hi = self.model.players
        if not lo <= n_players <= hi:
            raise RuleFileError([Diagnostic(
                "RL132", ERROR, f"this game is for {lo} to {hi} players, not {n_players}", None,
                f"choose a number of players from {lo} to {hi}")])
        opts = resolve(self.optimize if optimize is None else optimize)
        cg = self._compiled.get((n_players, opts))
        if cg is None:
            cg = CompiledGame(self.model, n_players, optimize=opts)
            if cg.problems:
                raise RuleFileError([Diagnostic(code, ERROR, msg, span)
                                     for code, msg, span in cg.problems])
            self._compiled[(n_players, opts)] = cg
        return cg

    def layout_diagnostics(self, n_players: int) -> list:
        """The diagnostics of laying the game out for ``n_players``, its rules not written
        (:meth:`CompiledGame.layout_problems`): what a number of players can cause, found
        without compiling the game again for it (none for a number already compiled)."""
        if any(k == n_players for k, _opts in self._compiled):
            return []
        return [Diagnostic(code, ERROR, msg, span)
                for code, msg, span in CompiledGame.layout_problems(self.model, n_players)]

    def new_game(self, n_players: Optional[int] = None, seed: int = 0, log: bool = False,
                 max_steps: Optional[int] = None):
        n = n_players if n_players is not None else self.model.players[0]
        return self.compiled(n).new_game(seed=seed, log=log, max_steps=max_steps)


def check_file(path: str, overrides: Optional[dict] = None, text: Optional[str] = None,
               players: Optional[int] = None, include=(), keep_partial: bool = False, parser=parse):
    """Every diagnostic of a rule file, and the model (None when it could not be built).
    ``include``: more folders that `extends` may read from (the file's own folder always);
    ``parser``: as :func:`read_layers`.

    Every syntax error is reported (:mod:`rulelang.syntax.recover`), and the checker then runs
    on the parts that parse; its diagnostics that the parts left out may cause are not reported
    (:func:`~rulelang.syntax.recover.cascades`).  The model and declarations of a file with
    syntax errors are None, unless ``keep_partial`` (an editor's view of a file being written:
    those of the parts that parse)."""
    diags: list = []
    partials: list = []
    layers = read_layers(path, diags, text, include, partials, parser)
    syntax = {id(d) for p in partials for d in p.diagnostics}
    if not layers or any(d.is_error and id(d) not in syntax for d in diags):
        return diags, None, None
    broken = any(not p.ok for p in partials)
    if broken and not checkable(partials):
        return diags, None, None
    decls = merge(layers, prelude(), diags)
    more, model = check(decls, path, overrides, players)
    if broken:
        diags.extend(cascades(more, partials))
        if not keep_partial:
            return diags, None, None
    else:
        diags.extend(more)
    if model is not None:
        model.digest = game_digest(layers)
    return diags, model, decls


def counts_to_compile(model):
    """The numbers of players ``check`` compiles the game for: all of a small range; of a large
    one (up to MAX_PLAYERS counts) the first, the last and those whose deck the checker could
    not count (compiling is what finds the count-dependent problems, RL172: the checker has
    already tried the others)."""
    from rulelang.check.deals import _checker_deck_size
    lo, hi = model.players
    if hi - lo < 4:
        return range(lo, hi + 1)
    return sorted({lo, hi} | {n for n in range(lo + 1, hi) if _checker_deck_size(model, n) is None})


def compiler_diagnostics(game: Game, known=(), players: Optional[int] = None) -> list:
    """The diagnostics that only compiling finds (``check`` and the language server add them to
    the checker's): the game compiled for ``players``, or for each of :func:`counts_to_compile`;
    a diagnostic already in ``known`` (or found for another count) is given once."""
    counts = [players] if players is not None else counts_to_compile(game.model)
    seen = {(d.code, d.message) for d in known}
    out = []
    # The rules are written once, for the first number of players that lays out without a
    # problem; of the other numbers only the layout is made, which is all that a number of
    # players changes in a way that can make a problem.
    done = False
    for k in counts:
        if done:
            found = game.layout_diagnostics(k)
        else:
            try:
                game.compiled(k)
                done, found = True, []
            except RuleFileError as e:
                found = e.diagnostics
        for d in found:
            if (d.code, d.message) not in seen:
                seen.add((d.code, d.message))
                out.append(d)
    return out


def game_digest(layers: list) -> str:
    """The identity of a rule file's text: a SHA-256 of the prelude, the files it extends and
    the file itself (their text, not their paths), each layer's length before it.  A save
    (``State.to_json``) carries it, so that it resumes only with the same rules."""
    import hashlib
    h = hashlib.sha256()
    for prog in list(_prelude()) + list(layers):
        data = prog.source.encode("utf-8")
        h.update(b"%d:" % len(data))
        h.update(data)
    return h.hexdigest()


def load(path: str, overrides: Optional[dict] = None, text: Optional[str] = None,
         include=(), optimize=None) -> Game:
    """Load and check a rule file.  Raises RuleFileError when it has errors.  ``include``: more
    folders that `extends` may read from (see docs/security.md).  ``optimize``: the
    optimisations it is compiled with (compile/passes.py: a set of names, "all", "none" or
    "-name,..."; None: the environment variable RULELANG_OPT, else all)."""
    if optimize is not None:
        resolve(optimize)               # (a name that is no optimisation: at once)
    diags, model, decls = check_file(path, overrides, text, include=include)
    if model is None or any(d.is_error for d in diags):
        raise RuleFileError([d for d in diags if d.is_error] or diags)
    game = Game(model, diags, decls, path, overrides or {})
    game.include = tuple(include or ())
    game.optimize = optimize
    return game
