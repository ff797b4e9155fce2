"""Files rulelang writes: the log of ``run --log``, the save of ``play --save``, the page of
``stats --report`` and ``compare --report`` (docs/security.md, "Files rulelang writes").

One rule for all of them, :func:`output_problem`: rulelang writes only to a regular file (which it
replaces whole) or to a new name in a folder that exists.  A link, a fifo, a device, a socket or
a folder is refused, never replaced or written through, so that ``--log /dev/null`` run as root
leaves the device alone, ``--save`` to a link does not write where the link points, and a fifo
does not block the game.  The file is written beside its place under a name no one else can
have made (``mkstemp``), checked again and renamed over the path: it is whole or not there.
"""
from __future__ import annotations

import os
import stat
import tempfile
from typing import Optional

HINT = "give the path of a regular file, or of a new file in a folder that exists"


class OutputError(Exception):
    """A path rulelang will not write to; ``message`` and ``hint`` in words."""

    def __init__(self, message: str, hint: Optional[str] = HINT):
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
