"""Which rules are written in place of their calls (``RuleGen.direct_call``): a rule that never
decides and calls only rules written in place in turn (:func:`copied_rules`, decided on the
rules' trees), its ``you`` the caller's player, its parameters and locals Python locals of the
copy (a rule that never decides is never seen half-run, so its frame never needs to be a list
on the stack): no call and no frame for it.  Bounded in size (MAX_COPY_SIZE statements, each
copy counted) and in nesting (MAX_INLINE_DEPTH, the copies included)."""
from __future__ import annotations

from rulelang.syntax import ast as A
from rulelang.check.ir import (CardLoopSlots, EndGameSlots, Local, PlayerLoopSlots,
                              PlayerQuerySlots, Slot, ValueLoopSlots)
from rulelang.compile.rulegen import MAX_INLINE_DEPTH, _depth, rule_bodies


def can_copy(rule, refs, copyable=frozenset(), players_leave=False) -> bool:
    """Can the body of ``rule`` (a checked rule) be written in place of a call of it, ``you``
    being the caller's player and its parameters and locals Python locals of the copy?  Decided
    on the tree: nothing in it that needs a frame or a function of its own: no decision, no
    call but of a rule in ``copyable`` (written in place in turn: see ``copied_rules``), no
    ``return`` or ``end turn``, nothing that sets ``you``, no statement nested deeper than a
    function's code can be (MAX_INLINE_DEPTH).  (An end of the game in it returns from the
    caller's function, as the call would have: a finished game's stack is the root, halted,
    either way.)  In a game where players leave
    (``players_leave``), a loop over the players counts in the frame (``_nin``): there only a
    rule with no local but the counters of ``repeat N times`` is copied."""
    if players_leave and rule.nslots and not _only_counters(rule.decl.body, refs):
        return False
    todo = list(rule.decl.body)
    if any(_depth(st) > MAX_INLINE_DEPTH for st in todo):
        return False
    while todo:
        st = todo.pop()
        if isinstance(st, A.CallRule) and st.name in copyable:
            continue
        if isinstance(st, (A.Choose, A.CallRule)):
            return False
        if isinstance(st, A.Simple) and st.word in ("return", "end turn"):
            return False
        if isinstance(st, A.Assign) and getattr(refs.of(st.target, None), "moves_you", False):
            return False
        for body in rule_bodies(st):
            todo.extend(body)
    return True


def _only_counters(body, refs) -> bool:
    """Are the local slots of a rule's ``body`` only the counters of its ``repeat N times``
    loops?  Written in place (never waiting), such a loop counts in Python's own loop
    (RuleGen.inline), not in a slot of the frame."""
    from rulelang.check.tree import _walk
    binding = (Local, Slot, PlayerLoopSlots, CardLoopSlots, ValueLoopSlots, PlayerQuerySlots,
               EndGameSlots)
    for n in _walk(body):
        if isinstance(refs.of(n, None), binding) and not (isinstance(n, A.Loop) and n.kind == "times"):
            return False
    return True


# A rule written in place of its calls, with the rules it calls written in place in it in turn,
# is at most this many statements long (each copy counted), and its statements nested at most
# MAX_INLINE_DEPTH deep, copies included.
MAX_COPY_SIZE = 64
# ... and a rule that decides, written in place only in a playout that cannot stop (inlined_rules),
# at most this many: a rule of a seed game that decides has 143 with the copies of the rules it
# calls, and the turn that calls it is a structured loop only if it is written in place
# (docs/scale.md).  Every generated function still writes at most rulegen.MAX_IN_PLACE
# statements in place in all, whatever the size of each copy.
MAX_INLINE_SIZE = 256


def _measure(body, size, depth, other=None) -> tuple:
    """``(statements, levels of nesting)`` of ``body``, a rule written in place (in ``size``,
    its statements, and ``depth``, its nesting) counted in where it is called, and so is one
    that ``other(name)`` measures (None: not written in place)."""
    n, d = 0, 0
    for st in body:
        n += 1
        if isinstance(st, A.CallRule):
            hit = (size[st.name], depth[st.name]) if st.name in size else \
                other(st.name) if other is not None else None
            if hit is not None:
                n += hit[0]
                d = max(d, hit[1])
                continue
        inner = [_measure(b, size, depth, other) for b in rule_bodies(st)]
        n += sum(k for k, _ in inner)
        if inner or isinstance(st, (A.If, A.Loop, A.ForPlayer, A.ForCard, A.ForValue, A.Choose)):
            d = max(d, 1 + max((k for _, k in inner), default=0))
    return n, d


def _grow(names, rules, fits, other=None, limit=None) -> dict:
    """The rules of ``names`` that ``fits(rule, names found so far)`` accepts: first those that
    need none of the others, then those that need only these, and so on, each within ``limit``
    statements (default MAX_COPY_SIZE) and MAX_INLINE_DEPTH levels of nesting once the rules
    found are counted in where it calls them (``_measure``); each with its statements, so
    counted."""
    limit = MAX_COPY_SIZE if limit is None else limit
    size, depth = {}, {}
    while True:
        more = {}
        for name in names:
            if name not in size and name in rules and fits(rules[name], frozenset(size)):
                n, d = _measure(rules[name].decl.body, size, depth, other)
                if n <= limit and d <= MAX_INLINE_DEPTH:
                    more[name] = (n, d)
        if not more:
            return size
        for name, (n, d) in more.items():
            size[name], depth[name] = n, d


def copied_rules(rules, refs, players_leave=False) -> set:
    """The names of the rules written in place of their calls (``can_copy``): first those that
    call no rule, then those that call only these, and so on (a rule that runs itself again,
    through any chain of calls, never gets in), each within MAX_COPY_SIZE statements and
    MAX_INLINE_DEPTH levels of nesting once the rules it calls are copied into it."""
    return set(copy_sizes(rules, refs, players_leave))


def copy_sizes(rules, refs, players_leave=False) -> dict:
    """:func:`copied_rules`, each with its statements, the rules it copies in counted in."""
    return _grow(rules, rules, lambda r, found: can_copy(r, refs, found, players_leave))


def can_inline(rule, refs, model, callable_names=frozenset()) -> bool:
    """Can ``rule`` (one that may decide) be written in place of its call in a playout that
    cannot stop (``RuleGen.inline_call``: an index policy, no budget of decisions), its
    decisions taken where they come (``PlayoutGen.inline_choose``)?  Decided on the tree:
    every decision has one chooser (not simultaneous, no claim) and offers one card, player,
    suit, rank or number at a time (not several cards, not a hidden place); it calls only the
    rules in ``callable_names`` (those that never decide, and those written in place in turn);
    no ``return``, ``end turn``, ``stop`` outside a loop of its own, nothing that sets ``you``;
    no statement nested deeper than a function's code can be.  (An end of the game in it
    returns from the caller's function, as the call would have: a finished game's stack is the
    root, halted, either way.)"""
    if any(_depth(st) > MAX_INLINE_DEPTH for st in rule.decl.body):
        return False
    todo = [(st, False) for st in rule.decl.body]
    while todo:
        st, in_loop = todo.pop()
        if isinstance(st, A.Choose):
            if st.simultaneous or st.claim:
                return False
            for alt in st.alternatives:
                if (alt.param is not None and alt.param.kind in ("cards", "unseen", "set")) or \
                        model.picks.has(alt) or model.unseen.has(alt) or model.sets.has(alt):
                    return False
        elif isinstance(st, A.CallRule):
            if st.name not in callable_names:
                return False
        elif isinstance(st, A.Simple) and (st.word in ("return", "end turn") or
                                           (st.word == "stop" and not in_loop)):
            return False
        elif isinstance(st, A.Assign) and getattr(refs.of(st.target, None), "moves_you", False):
            return False
        loop = in_loop or isinstance(st, (A.Loop, A.ForPlayer, A.ForCard, A.ForValue))
        todo.extend((s, loop) for body in rule_bodies(st) for s in body)
    return True


def inlined_rules(rules, refs, model, never_deciding, entered, players_leave=False) -> dict:
    """The names of the rules that may decide and are written in place of their calls in a
    playout that cannot stop (``can_inline``): among ``entered`` (the rules entered by a direct
    call, which never run themselves again), first those that call only rules of
    ``never_deciding``, then those that call only these and rules already found, and so on;
    each within MAX_INLINE_SIZE statements and MAX_INLINE_DEPTH levels of nesting, the rules it
    writes in place counted in (the statements of each, so counted).  None in a game where
    players leave (its loops over the players count in the frame)."""
    if players_leave:
        return {}
    plain = {}          # the statements of a rule that never decides, its copies counted in

    def measured(name):
        if name not in never_deciding or name not in rules:
            return None
        if name not in plain:
            plain[name] = _measure(rules[name].decl.body, {}, {}, measured)
        return plain[name]

    return _grow(entered, rules,
                 lambda r, found: can_inline(r, refs, model, frozenset(never_deciding) | found),
                 measured, MAX_INLINE_SIZE)
