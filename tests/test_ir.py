"""The typed references between the checker and the generators (rulelang/check/ir.py):
the checker stores only typed references, the generators read them only through
``model.refs.of(node)``, kinds are a type whose values are the words messages show, and the
frame's offsets are named once.  The model's other side tables (types, say_as, labels,
choose_slots, picks, unseen, seat_uses) are typed the same way, and no module outside
check/ir.py looks any of them up by ``id()``."""
from __future__ import annotations

import glob
import os
import re

import attrs
import pytest

import rulelang
from rulelang.check import ir
from rulelang.check.model import Expanded
from rulelang.compile.loader import check_file
from rulelang.kinds import ANY, FLAG, NUMBER, Frame, Kind
from rulelang.syntax import ast as A

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULE_FILES = sorted(glob.glob(os.path.join(ROOT, "rules", "*.cardrules"))
                    + glob.glob(os.path.join(ROOT, "examples", "*.cardrules"))
                    + glob.glob(os.path.join(ROOT, "tests", "every", "*.cardrules")))
REF_CLASSES = {c for c in vars(ir).values()
               if isinstance(c, type) and issubclass(c, ir.Ref) and c is not ir.Ref}


def test_refs_refuses_anything_but_a_typed_reference():
    refs = ir.Refs()
    node = A.Name("x", None)
    for untyped in [("var", "x", False, -1), ("slot", 0), 3, ("expanded", None), "zone"]:
        with pytest.raises(TypeError, match="resolved references"):
            refs[id(node)] = untyped
    assert id(node) not in refs
    refs.set(node, ir.Var("x", False, -1))
    assert refs.of(node) == ir.Var("x", False, -1)
    with pytest.raises(KeyError):
        refs.of(A.Name("y", None))
    assert refs.of(A.Name("y", None), None) is None


def test_every_reference_class_is_frozen_and_compares_by_value():
    for cls in REF_CLASSES:
        assert attrs.has(cls), cls
        assert attrs.fields(cls) is not None
    assert ir.Local(2) == ir.Local(2) and ir.Local(2) != ir.Slot(2)
    assert hash(ir.Zone("hand", True, -1)) == hash(ir.Zone("hand", True, -1))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        ir.Const(1).value = 2


@pytest.mark.parametrize("path", RULE_FILES, ids=os.path.basename)
def test_the_checker_stores_only_typed_references(path):
    model = rulelang.load(path).model
    assert isinstance(model.refs, ir.Refs)
    wrong = [v for v in model.refs.values() if not isinstance(v, ir.Ref)]
    assert not wrong
    assert model.refs, "a rule file resolves names"
    # a define's copy is shared: each DefineUse points at a checked Expanded
    for v in model.refs.values():
        if isinstance(v, ir.DefineUse):
            assert isinstance(v.expanded, Expanded)


def test_the_rule_files_use_the_kinds_of_reference():
    """Each kind of reference is made by the checker for some rule file of the repository or of
    this test (so none is dead, and the generators are tested on each)."""
    seen = set()
    for path in RULE_FILES:
        seen |= {type(v) for v in rulelang.load(path).model.refs.values()}
    extra = '''game "refs"
players 2
deck standard with jokers, into stock
zone stock: shared, face down
zone column 1 to 2: shared, face up
define top_queen = queen of spades
turn:
    move top card from stock to column(1)
    if top of column(1) is Q♠ or top_queen is Q♠ or top of stock is red_joker:
        say "queen"
    end game with no winner
'''
    model = rulelang.load("refs.cardrules", text=extra).model
    seen |= {type(v) for v in model.refs.values()}
    missing = REF_CLASSES - seen
    assert not missing, sorted(c.__name__ for c in missing)


def test_the_generators_read_references_only_through_the_typed_accessor():
    """No module of the compiler looks up ``refs`` by ``id()`` or takes a reference apart by
    position or tag: every site reads ``model.refs.of(node)`` and the reference's attributes."""
    wrong = []
    for path in sorted(glob.glob(os.path.join(ROOT, "rulelang", "compile", "*.py"))):
        text = open(path, encoding="utf-8").read()
        for pattern in (r"\.refs\[", r"\.refs\.get\(", r"\bref\[\d", r"ref\[0\] ==",
                        r"\"(expanded|var_of|zone_of|card_lit|card_name|zone_family)\""):
            for m in re.finditer(pattern, text):
                line = text.count("\n", 0, m.start()) + 1
                wrong.append(f"{os.path.basename(path)}:{line}: {m.group(0)}")
    assert not wrong, "\n".join(wrong)


# The model's side tables: (attribute of the model, table class, a value it holds, untyped values
# of the kind it used to hold, which it must refuse).
TABLES = [
    ("refs", ir.Refs, ir.Local(0), [("slot", 0), 3]),
    ("types", ir.TypesTable, Kind.NUMBER, ["number", 3, ("var", "x")]),
    ("say_as", ir.SayAsTable, Kind.RANK, ["rank", 1]),
    ("labels", ir.LabelsTable, ir.AltId(3), [3, ("alt", 3)]),
    ("choose_slots", ir.ChooseSlotsTable, ir.ChooseSlots(0, (1, None), None),
     [(0, [1, None], None), 0]),
    ("picks", ir.PicksTable, ir.PickSlots((1, 2, 3, 4, 5, 6), 7), [((1, 2, 3, 4, 5, 6), 7)]),
    ("unseen", ir.UnseenTable, ir.Slot(4), [4, ("slot", 4)]),
]
TABLE_NAMES = ["refs", "types", "say_as", "labels", "choose_slots", "picks", "unseen", "seat_uses"]
_NAMES = "|".join(TABLE_NAMES)
# a table subscripted, .get() or .add()ed, or asked `in`, with id(...)
ID_READS = [rf"\b({_NAMES})\[id\(", rf"\b({_NAMES})\.(get|pop|setdefault|add)\(id\(",
            rf"\bid\([^()]*(\([^()]*\))?[^()]*\) (not )?in [\w.]*\b({_NAMES})\b"]


@pytest.mark.parametrize("name,cls,good,untyped", TABLES, ids=[t[0] for t in TABLES])
def test_each_table_refuses_untyped_values(name, cls, good, untyped):
    table = cls()
    node, other = A.Name("x", None), A.Name("y", None)
    for value in untyped:
        with pytest.raises(TypeError, match=f"model.{name} holds"):
            table.set(node, value)
        with pytest.raises(TypeError):
            table[id(node)] = value
    assert not table.has(node) and len(table) == 0
    assert table.set(node, good) is good
    assert table.has(node) and not table.has(other)
    assert table.of(node) == good
    with pytest.raises(KeyError):
        table.of(other)
    assert table.of(other, None) is None


def test_the_seat_uses_are_a_set_of_nodes():
    uses = ir.NodeSet()
    node, same_fields = A.Name("x", None), A.Name("x", None)
    uses.add(node)
    assert uses.has(node) and not uses.has(same_fields) and len(uses) == 1
    assert not hasattr(uses, "__contains__") and not hasattr(uses, "__iter__")


def test_the_table_values_are_frozen_with_named_fields():
    for cls in (ir.AltId, ir.ChooseSlots, ir.PickSlots):
        assert attrs.has(cls) and attrs.fields(cls)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        ir.ChooseSlots(0, (), None).chooser = 1
    with pytest.raises(TypeError):
        ir.PickSlots((1,), 2)[0]            # no taking apart by position


@pytest.mark.parametrize("path", RULE_FILES, ids=os.path.basename)
def test_the_checker_fills_every_table_with_typed_values(path):
    model = rulelang.load(path).model
    assert isinstance(model.seat_uses, ir.NodeSet)
    for name, cls, good, _ in TABLES:
        table = getattr(model, name)
        assert type(table) is cls, name
        wrong = [v for v in table.values() if not isinstance(v, cls.holds)]
        assert not wrong, (name, wrong[:3])
    # every alternative of every choice has its number, and the numbers are the alternatives'
    for aid, (alt, st) in enumerate(model.alternatives):
        assert model.labels.of(alt) == ir.AltId(aid)
        slots = model.choose_slots.of(st)
        assert len(slots.params) == len(st.alternatives) and isinstance(slots.params, tuple)
        assert (slots.extra is not None) == bool(st.simultaneous)


def test_the_rule_files_fill_every_table():
    """Each table is filled for some rule file of the repository (so each typed read is run)."""
    filled = set()
    for path in RULE_FILES:
        model = rulelang.load(path).model
        filled |= {name for name, *_ in TABLES if len(getattr(model, name))}
        if len(model.seat_uses):
            filled.add("seat_uses")
    assert filled == set(TABLE_NAMES), sorted(set(TABLE_NAMES) - filled)


def test_no_module_reads_a_model_table_by_id():
    """Outside check/ir.py (the table classes), no module of any wing subscripts a model's table
    with ``id()``, asks ``id(node) in`` one, or ``.get(id(...))``s it: the checker writes with
    ``.set(node, value)``, everyone reads with ``.of(node)`` / ``.has(node)``."""
    wrong = []
    files = sorted(glob.glob(os.path.join(ROOT, "rulelang", "**", "*.py"), recursive=True))
    assert len(files) > 50
    for path in files:
        if path.endswith(os.path.join("check", "ir.py")):
            continue
        text = open(path, encoding="utf-8").read()
        for pattern in ID_READS:
            for m in re.finditer(pattern, text):
                line = text.count("\n", 0, m.start()) + 1
                wrong.append(f"{os.path.relpath(path, ROOT)}:{line}: {m.group(0)}")
    assert not wrong, "\n".join(wrong)


def test_the_id_pattern_catches_the_old_reads():
    """The patterns of the test above catch each way the tables used to be read."""
    old = ["aid = cg.model.labels[id(alt)]", "if id(alt) in cg.model.picks:",
           "if id(e) in self.seat_uses:", "t = cg.model.types.get(id(node))",
           "self.refs[id(st)] = You(s.you_slot)", "self.seat_uses.add(id(e))",
           "none_aid = self.model.labels[id(st.alternatives[-1])] if st.claim else None"]
    for line in old:
        assert any(re.search(p, line) for p in ID_READS), line
    assert not any(re.search(p, "if cg.model.picks.has(alt):") for p in ID_READS)


def test_kinds_are_a_type_shown_by_their_words():
    assert isinstance(FLAG, Kind) and isinstance(NUMBER, Kind)
    assert f"{FLAG}" == "yes/no" and str(FLAG) == "yes/no" and FLAG == "yes/no"
    assert {k.value for k in Kind} >= {"number", "yes/no", "card", "player", "any"}
    assert ANY is Kind("any")


def test_a_kind_reaches_a_message_as_its_word(tmp_path):
    text = '''game "k"
players 2
deck standard, into stock
zone stock: shared, face down
var flagged = no
turn:
    set flagged to 3
    end game with no winner
'''
    diags, _, _ = check_file(str(tmp_path / "k.cardrules"), text=text)
    messages = [d.message for d in diags if d.is_error]
    assert messages and any("yes/no" in m for m in messages), messages
    assert not any("Kind." in m for m in messages)


def test_the_frame_layout_is_named_once():
    assert (Frame.RULE, Frame.POSITION, Frame.YOU) == (0, 1, 2)
    assert Frame.slot(-1) == Frame.YOU and Frame.slot(0) == Frame.SLOTS
    assert ir.Slot(4).index == Frame.slot(4) == ir.Local(4).index
    assert ir.You(-1).index == Frame.YOU


def test_a_new_game_frame_has_you_and_the_slots_where_the_layout_says():
    """The turn's frame, waiting for the first decision: `you` and the turn's slots in place."""
    game = rulelang.load(os.path.join(ROOT, "examples", "crazy_eights.cardrules"))
    state = game.new_game(seed=1)
    fr = state.stack[-1]
    assert fr[Frame.YOU] == state.cur == state.current_player()
    assert len(fr) == Frame.slot(game.model.rules["turn"].nslots)
    assert fr[Frame.POSITION] == 0          # the turn's first block holds the decision
