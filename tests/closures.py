"""Games loaded as the reference interpreter's (tests/reference: closures only, no generated
code).  Tests compare such games with the generated ones, move by move."""
import rulelang.compile.compiler as C
import rulelang.compile.loader as L
import rulelang.play.simulate as S

from reference import ReferenceGame


def closures_only(monkeypatch):
    """From here on in the test, games compile to the reference interpreter: every place that
    makes a ``CompiledGame`` makes a ``ReferenceGame`` (a game compiled before keeps its
    compiled form: ``Game.compiled`` keeps it)."""
    for module in (C, L, S):
        monkeypatch.setattr(module, "CompiledGame", ReferenceGame)


def not_generated(cg) -> list:
    """The names of the rules of a compiled game (``<ending>`` for an ending's body) whose
    function is not generated code: none in a ``CompiledGame`` (the generator writes every rule
    or the game does not build), every one in a ``ReferenceGame``."""
    return [cg.proc_names[pid] for pid, fn in enumerate(cg.procs)
            if pid not in (cg.root, cg.turn_top) and fn.__code__.co_filename != "<rulelang>"]


def seeded_game(path, n, seed, closures, monkeypatch):
    """A game of the rule file ``path`` for ``n`` players, with a log, played to its end by
    uniform random choices drawn from ``random.Random(seed)``: compiled to the reference
    interpreter (``closures``: from here on in ``monkeypatch``'s context) or to generated code."""
    import random
    if closures:
        closures_only(monkeypatch)
    st = L.load(path).compiled(n).new_game(seed=seed, log=True)
    rng = random.Random(seed)
    while not st.is_terminal():
        legal = st.legal_actions()
        st.apply_action(legal[rng.randrange(len(legal))])
    return st


def three_ways(path, n, seed, monkeypatch, fields):
    """The game of ``seeded_game`` played by the reference interpreter, by the generated code
    and on the playout fast path (the same draws): the same log, the same ``fields`` of the
    final state in the first two, the same save in the last two.  Returns the generated code's
    game."""
    import random
    with monkeypatch.context() as m:
        ref = seeded_game(path, n, seed, True, m)
    st = seeded_game(path, n, seed, False, monkeypatch)
    assert st.log == ref.log, (path, seed, n)
    assert [getattr(st, f) for f in fields] == [getattr(ref, f) for f in fields], (path, seed, n)
    fast = L.load(path).compiled(n).new_game(seed=seed)
    fast.playout([random.Random(seed).randrange] * n)
    assert fast.to_json() == st.to_json(), (path, seed, n)
    return st
