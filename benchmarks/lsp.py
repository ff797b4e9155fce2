"""How quickly `rulelang lsp` answers an editor: `python -m benchmarks.lsp [--edits N]`.

Through a real client (pygls's) talking to `python -m rulelang lsp` over stdio, on the largest
rule file of rules/ and examples/:

  * diagnostics after an edit: the time from sending `didChange` to receiving the
    `publishDiagnostics` of that version, for edits in a rule that keep the file clean (a
    comment) and edits that make an error (an unknown name) in turn, 0.1 s apart as in typing,
    and for a line added or removed at the top of the file (which moves every declaration, so
    that all are parsed again); the checker's diagnostics
    are published then, the compiler's (compiling the game for each allowed number of players,
    as `check` does) afterwards, when they add something: their time is measured apart, in
    this process (target: 100 ms for the first);
  * completion: the time from sending a completion request to its answer, at the start of a
    statement, after `move top card from ` and after a zone's `per player, ` (target: 50 ms).

Prints the median, 90th percentile and worst of each.  Needs pygls (the `lsp` extra).
"""
from __future__ import annotations

import argparse
import asyncio
import glob
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGETS = {"diagnostics": 0.100, "completion": 0.050}


def largest_rule_file() -> str:
    files = glob.glob(os.path.join(ROOT, "rules", "*.cardrules")) + glob.glob(
        os.path.join(ROOT, "examples", "*.cardrules"))
    return max(files, key=os.path.getsize)


def summary(name: str, times: list) -> str:
    times = sorted(times)
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    target = TARGETS.get(name.split(" ")[0])
    verdict = "" if target is None else ("  (target %d ms: %s)" % (target * 1000, "met" if
                                          statistics.median(times) <= target else "NOT met"))
    return (f"{name:<42} median {statistics.median(times) * 1000:6.1f} ms   p90 {p90 * 1000:6.1f} ms"
            f"   worst {times[-1] * 1000:6.1f} ms   ({len(times)} runs){verdict}")


async def run(edits: int) -> None:
    from lsprotocol import types as T
    from pygls.lsp.client import LanguageClient
    from pygls.uris import from_fs_path

    path = largest_rule_file()
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    uri = from_fs_path(path)
    client = LanguageClient("benchmark", "1")
    published: dict = {}
    waiting: dict = {}

    @client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: T.PublishDiagnosticsParams):
        published[params.version] = (time.perf_counter(), params.diagnostics)
        fut = waiting.pop(params.version, None)
        if fut is not None and not fut.done():
            fut.set_result(None)

    await client.start_io(sys.executable, "-m", "rulelang", "lsp", cwd=ROOT)
    await client.initialize_async(T.InitializeParams(capabilities=T.ClientCapabilities(),
                                                     root_uri=from_fs_path(ROOT)))
    client.initialized(T.InitializedParams())

    async def publish_of(version: int, send) -> tuple:
        fut = asyncio.get_running_loop().create_future()
        waiting[version] = fut
        t0 = time.perf_counter()
        send()
        await asyncio.wait_for(fut, 60)
        t1, diags = published[version]
        return t1 - t0, diags

    first, diags = await publish_of(1, lambda: client.text_document_did_open(T.DidOpenTextDocumentParams(
        text_document=T.TextDocumentItem(uri=uri, language_id="cardrules", version=1, text=text))))
    assert not diags, [d.message for d in diags]
    lines = text.split("\n")
    turn = next(i for i, line in enumerate(lines) if line.startswith("turn:"))
    clean, broken = [], []
    version = 1
    for k in range(edits):
        version += 1
        bad = k % 2 == 1
        new = lines[:turn + 1] + ([f"    say unknown_{k}"] if bad else [f"    # edit {k}"]) + lines[turn + 1:]
        edited = "\n".join(new)
        took, diags = await publish_of(version, lambda edited=edited, version=version: client.text_document_did_change(
            T.DidChangeTextDocumentParams(
                text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[T.TextDocumentContentChangeWholeDocument(text=edited)])))
        assert bool(diags) == bad, [d.message for d in diags]
        (broken if bad else clean).append(took)
        await asyncio.sleep(0.1)           # typing: the compiler's pass waits for a pause

    shifted = []                           # a line added or removed at the top: every
    for k in range(max(4, edits // 2)):    # declaration below is parsed again
        version += 1
        edited = ("# a note\n" if k % 2 == 0 else "") + text
        took, diags = await publish_of(version, lambda edited=edited, version=version: client.text_document_did_change(
            T.DidChangeTextDocumentParams(
                text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[T.TextDocumentContentChangeWholeDocument(text=edited)])))
        shifted.append(took)
        await asyncio.sleep(0.1)

    version += 1
    await publish_of(version, lambda: client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[T.TextDocumentContentChangeWholeDocument(text=text)])))
    await asyncio.sleep(0.5)
    places = []
    for i, line in enumerate(lines):
        if line.strip().startswith("move top card from ") and not places:
            places.append((i, line.index("move top card from ") + len("move top card from ")))
    places.append((turn + 1, len(lines[turn + 1]) - len(lines[turn + 1].lstrip())))
    zone = next(i for i, line in enumerate(lines) if line.startswith("zone ") and "per player," in line)
    places.append((zone, lines[zone].index("per player,") + len("per player, ")))
    completions = []
    for _round in range(max(3, edits // 2)):
        for line, col in places:
            t0 = time.perf_counter()
            got = await client.text_document_completion_async(T.CompletionParams(
                text_document=T.TextDocumentIdentifier(uri=uri), position=T.Position(line=line, character=col)))
            completions.append(time.perf_counter() - t0)
            assert got is not None and got.items

    from rulelang.lsp.analysis import analyse, compile_diagnostics
    a = analyse(text, path)
    compile_times = []
    for _ in range(5):
        t0 = time.perf_counter()
        compile_diagnostics(a)
        compile_times.append(time.perf_counter() - t0)

    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    print(f"{os.path.relpath(path, ROOT)} ({len(text):,} characters, {len(lines)} lines)")
    print(summary("diagnostics after opening", [first]))
    print(summary("diagnostics after an edit (clean)", clean))
    print(summary("diagnostics after an edit (an error)", broken))
    print(summary("diagnostics after a line added at the top", shifted))
    print(summary("compiler's diagnostics, later (in-process)", compile_times))
    print(summary("completion", completions))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--edits", type=int, default=20, help="edits to time (default 20)")
    args = ap.parse_args()
    asyncio.run(run(args.edits))


if __name__ == "__main__":
    main()
