"""The description of each statement's effects (rulelang/check/effects.py): every kind of
statement has one, each names real parts, events and fuzzer methods, and each agrees with what
the statement does when the reference interpreter (tests/reference) runs it in the games the
differential fuzzer makes (tests/wellfuzz.py): the zones whose cards change are those it
declares it writes (or reorders, when only their order changed), the events it logs are the
one it declares, and a statement declared to leave what players remember alone (or only to
make them forget) does.
"""
import re
import inspect
from collections import defaultdict

import attrs
import pytest

from rulelang.syntax import ast as A
from rulelang.syntax import to_ast_statements
from rulelang.check import effects as E
from rulelang.check.effects import EFFECTS, effects_of, part_values
from rulelang.check.ir import Zone, ZoneFamily, ZoneOf
from rulelang.compile.loader import load
from rulelang.engine.events import EVENTS
from rulelang.syntax.diagnostics import RuleFileError

from reference import ReferenceGame
from wellfuzz import GameGen

MEMORY = {E.NOTHING, E.SEEN_GO, E.FORGOTTEN, E.SHOWN, E.REVEALED, E.PICKED, E.INSIDE}
SIGHT = {E.UNSEEN, E.BY_ZONES, E.ORDER, E.TO_ONE, E.TO_ALL, E.CHOICES}


def statement_classes():
    """Every statement class of the syntax tree, found by looking, not listed."""
    return {c for c in vars(A).values()
            if isinstance(c, type) and issubclass(c, A.Stmt) and c is not A.Stmt}


def simple_words():
    """The words of ``Simple`` statements the parser makes (read from its source)."""
    return set(re.findall(r'A\.Simple\("([^"]+)"', inspect.getsource(to_ast_statements)))


def descriptions():
    """``(class, word or None, Effects)`` for every description and case."""
    for cls, e in EFFECTS.items():
        if e.by is None:
            yield cls, None, e
        else:
            for word, case in e.cases.items():
                yield cls, word, case


def test_every_statement_class_has_a_description():
    assert statement_classes() - set(EFFECTS) == set(), "add it to check/effects.py's EFFECTS"
    assert set(EFFECTS) - statement_classes() == set()
    assert set(EFFECTS[A.Simple].cases) == simple_words()
    assert [cls for cls, e in EFFECTS.items() if e.by is not None] == [A.Simple]


@pytest.mark.parametrize("cls,word,e", list(descriptions()),
                         ids=lambda x: getattr(x, "__name__", None) or str(x))
def test_a_description_names_real_parts_events_and_generators(cls, word, e):
    fields = {f.name for f in attrs.fields(cls)}
    for path in e.reads + e.writes + e.reorders + e.sets:
        assert path.split(".")[0].split("[")[0].split("(")[0] in fields, path
    assert e.event is None or e.event in EVENTS
    assert e.memory in MEMORY and e.sight in SIGHT
    assert e.control in (None, "jumps", "calls", "decides", "ends", "block")
    if e.generated:
        assert e.fuzz == "alternatives" or callable(getattr(GameGen, e.fuzz, None)), e.fuzz
    else:
        assert len(e.fuzz) > len("not generated: ")      # says why


def test_every_event_is_a_statements_but_the_turns():
    declared = {e.event for _c, _w, e in descriptions() if e.event is not None}
    assert set(EVENTS) - declared == {"turn"}          # (the game loop records a turn's end)


def test_parts_are_found_by_their_paths():
    game = load("parts.cardrules", text=GAME)
    turn = game.model.rules["turn"].decl.body
    move, choose = turn[0], turn[1]
    assert [v.name for v in part_values(move, "dest")] == ["table"]
    reads, writes, _ = E.zone_parts(choose)
    # a choice of a card reads its zone; one of several cards moves them from one zone to another
    assert [v.name for v in reads] == ["hand", "hand"]
    assert [getattr(v, "name", None) for v in writes] == ["hand", "table"]


GAME = '''game "Parts"
players 2
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone table: shared, face up
setup:
    deal 5 from stock to hand of each player
turn:
    move top card from stock to table
    choose:
        lay card c from hand:
            move c from hand to table
        two 2 cards c from hand to table:
            pass
        wait:
            pass
    end game with no winner
'''


# ---- each description against the reference interpreter ----------------------------------------

def _names(model, values):
    """The zone names the values stand for, or None when one is known only during the game."""
    out = set()
    for v in values:
        if isinstance(v, str):
            out.add(v)
            continue
        ref = model.refs.of(v, None)
        if isinstance(ref, (Zone, ZoneOf)):
            out.add(ref.name)
        elif isinstance(ref, ZoneFamily):
            out.update(ref.names)
            if ref.per_player:
                return None
        else:
            return None
    return out


class Watched(ReferenceGame):
    """The reference game with a probe before and after each statement that runs straight
    through (no block, jump, call, decision or end), noting what it did."""

    def __init__(self, model, n, seen):
        self.seen = seen
        super().__init__(model, n)

    def block(self, body, b):
        if self.coverage is not None:
            self.count_block(body, b)
        for st in body:
            e = effects_of(st)
            if e.control is None:
                b.emit(self._before(st))
            getattr(self, "s_" + type(st).__name__)(st, b)
            if e.control is None:
                b.emit(self._after(st, e))

    def _before(self, st):
        def make(nxt):
            def before(g, fr):
                self.probe = ([z[:] for z in g.zones], len(g.log), [list(x) for x in g.shown])
                return nxt
            return before
        return make

    def _after(self, st, e):
        model, seen = self.model, self.seen
        reads, writes, reorders = (_names(model, parts) for parts in E.zone_parts(st))
        key = (type(st).__name__, getattr(st, "word", None))

        def make(nxt):
            def after(g, fr):
                zones, logged, shown = self.probe
                for zi, (was, now) in enumerate(zip(zones, g.zones)):
                    if was == now:
                        continue
                    name = self.zone_info[zi][0]
                    allowed = writes if sorted(was) != sorted(now) else (
                        None if writes is None or reorders is None else writes | reorders)
                    if allowed is not None and name not in allowed:
                        seen["wrong zone"].append((key, st.span.line, name))
                    seen["changed", key] += 1
                for ev in g.log[logged:]:
                    if ev[0] != e.event:
                        seen["wrong event"].append((key, st.span.line, ev[0]))
                    seen["event", key] += 1
                now_shown = [list(x) for x in g.shown]
                if e.memory == E.NOTHING and now_shown != shown:
                    seen["wrong memory"].append((key, st.span.line))
                elif e.memory == E.FORGOTTEN and any(x not in shown for x in now_shown):
                    seen["wrong memory"].append((key, st.span.line))    # (it only forgets)
                seen["ran", key] += 1
                return nxt
            return after
        return make


def test_each_statement_does_what_its_description_says():
    import random
    seen = defaultdict(int)
    for k in ("wrong zone", "wrong event", "wrong memory"):
        seen[k] = []
    for seed in range(100):
        try:
            game = load(f"fuzz{seed}.cardrules", text=GameGen(seed).text())
        except RuleFileError:
            continue
        n = game.players[seed % 2]
        ref = Watched(game.model, n, seen)
        st = ref.new_game(seed=seed, log=True, max_steps=4000)
        rng = random.Random(seed)
        for _ in range(400):
            if st.is_terminal():
                break
            p = st.current_players()[0]
            legal = st.legal_actions(p)
            st.apply_action(legal[rng.randrange(len(legal))], p)
    assert seen["wrong zone"] == [] and seen["wrong event"] == [] and seen["wrong memory"] == []
    # every kind that runs straight through ran, and those that change zones or log did so
    straight = {(cls.__name__, w) for cls, w, e in descriptions()
                if e.control is None and e.generated and (cls, w) != (A.Simple, "pass")}
    ran = {k for (what, k), _v in _pairs(seen) if what == "ran"}
    assert straight <= ran, straight - ran
    changers = {(cls.__name__, w) for cls, w, e in descriptions()
                if e.control is None and (e.writes or e.reorders)}
    assert changers <= {k for (what, k), _v in _pairs(seen) if what == "changed"}
    loggers = {(cls.__name__, w) for cls, w, e in descriptions()
               if e.control is None and e.event is not None}
    assert loggers <= {k for (what, k), _v in _pairs(seen) if what == "event"}


def _pairs(seen):
    return [(k, v) for k, v in seen.items() if isinstance(k, tuple)]


def test_a_wrong_description_is_caught(monkeypatch):
    """The check above has teeth: a move described as writing only where it takes from, and
    a shuffle described as logging nothing, are caught."""
    seen = defaultdict(int)
    for k in ("wrong zone", "wrong event", "wrong memory"):
        seen[k] = []
    monkeypatch.setitem(EFFECTS, A.Move, attrs.evolve(EFFECTS[A.Move], writes=("source",)))
    monkeypatch.setitem(EFFECTS, A.Shuffle, attrs.evolve(EFFECTS[A.Shuffle], event=None))
    game = load("parts.cardrules", text=GAME.replace(
        "    move top card from stock to table\n",
        "    shuffle stock\n    move top card from stock to table\n"))
    st = Watched(game.model, 2, seen).new_game(seed=1, log=True)
    assert st is not None
    assert ("Move", None) in {k for k, _line, _z in seen["wrong zone"]}
    assert [k for k, _line, ev in seen["wrong event"]] == [("Shuffle", None)]
