"""What players remember (``g.shown``) during a playout (engine/players.Memory, recorded per card)
is exactly the list the API's list algorithm (engine/players.seen_go, show_card, reveal_card on
a list) makes: the same entries ``[seat, card, zone]`` in the same order, none lost, none extra.

Checked two ways: the structure against the list algorithm on random sequences of moves (whole
zones among them), shows and reveals over zones of every kind of visibility; and every rule
file's playouts with the structure against the same playouts keeping the list, compared raw (not
only as a save, which forgets what left its zone)."""
import glob
import random

import pytest

import rulelang.engine.playout as playout_module
from rulelang.compile.loader import load
from rulelang.engine.players import Memory, reveal_card, seen_go, show_card

FILES = sorted(glob.glob("examples/*.cardrules") + glob.glob("rules/*.cardrules"))


class _Game:
    """What the helpers read of a compiled game: per zone (name, owner, visibility, shown), the
    number of players, and the table of who sees cards go between two zones (worked out by the
    helpers: Layout makes it empty)."""

    def __init__(self, zone_info, n):
        self.zone_info, self.n = zone_info, n
        self.zone_plans = [[None] * len(zone_info) for _ in zone_info]


class _State:
    """What seen_go, show_card and reveal_card read of a State: what players remember is its
    slot ``memory`` (a list, or a Memory during a playout), ``shown`` as in State."""
    def __init__(self, game, n, zones, shown):
        self.game, self.n, self.zones, self.memory = game, n, zones, shown

    @property
    def shown(self):
        return self.memory

    @shown.setter
    def shown(self, v):
        self.memory = v


def _table(n):
    """Zones of every visibility: shared ones, and one of each per player."""
    info = [("open", -1, "everyone", "yes"), ("down", -1, "nobody", "yes"),
            ("pile", -1, "top", "yes"), ("down2", -1, "nobody", "yes")]
    for p in range(n):
        info += [("hand", p, "owner", "yes"), ("stash", p, "nobody", "yes"),
                 ("table", p, "everyone", "yes")]
    return info


def _random_run(seed, steps=80):
    """A random sequence of moves, shows and reveals applied to a list and to a Memory (started
    from the same random entries); yields both after each step."""
    rng = random.Random(seed)
    n = rng.randint(2, 4)
    info = _table(n)
    game = _Game(info, n)
    nz, ncards = len(info), rng.randint(4, 16)
    zones = [[] for _ in range(nz)]
    for c in range(ncards):
        zones[rng.randrange(nz)].append(c)
    start = [[rng.randrange(n), rng.randrange(ncards), rng.randrange(nz)]
             for _ in range(rng.choice((0, 0, 3, 10)))]
    lst = _State(game, n, [z[:] for z in zones], [x[:] for x in start])
    mem = _State(game, n, [z[:] for z in zones], None)
    mem.shown = Memory(start, game)
    for _ in range(steps):
        op = rng.random()
        if op < 0.6:
            si = rng.choice([i for i in range(nz) if zones[i]] or [0])
            di = rng.randrange(nz)
            src = zones[si]
            top = src[-1] if src else -1
            whole = rng.random() < 0.3
            cards = src[:] if whole else rng.sample(src, rng.randint(0, min(3, len(src))))
            for c in cards:
                src.remove(c)
            if si != di or whole:
                zones[di].extend(cards)
            else:
                src.extend(cards)
            for g in (lst, mem):
                g.zones = [z[:] for z in zones]
                seen_go(g, list(cards), si, di, top, whole)
        elif op < 0.8:
            c, p = rng.randrange(-1, ncards), rng.randrange(n)
            for g in (lst, mem):
                show_card(g, c, p)
        else:
            c = rng.randrange(-1, ncards)
            for g in (lst, mem):
                reveal_card(g, c)
        yield lst.shown, mem.shown


def test_memory_is_the_list_algorithm_on_random_sequences():
    compared = nonempty = carried = 0
    for seed in range(400):
        for want, got in _random_run(seed):
            assert got.entries() == want, seed
            assert bool(got) == bool(want), seed       # (Memory.__bool__ makes no list)
            compared += 1
            nonempty += bool(want)
        assert list(got) == want and len(got) == len(want)      # as still_remembered reads it
        carried += any(r.__class__ is list or r[4] is not r[1] for r in got.cur.values()
                       if r is not None)
    # the sequences do reach the interesting cases: many memories, split or carried pieces
    assert nonempty > compared // 2 and carried > 20


def test_memory_keeps_the_order_of_events_players_and_cards():
    """A hand-made case: two players see cards go face down, one is shown a card again, the
    whole pile goes to another hidden zone (the memories go with it, in their places)."""
    n = 2
    info = _table(n)
    g = _State(_Game(info, n), n, [[] for _ in info], None)
    g.shown = Memory(game=g.game)
    OPEN, DOWN, DOWN2 = 0, 1, 3
    g.zones[DOWN] = [5, 6]
    seen_go(g, [5, 6], OPEN, DOWN, 6)
    g.zones[DOWN] += [7]
    seen_go(g, [7], OPEN, DOWN, 7)
    show_card(g, 5, 1)
    assert g.shown.entries() == [[0, 5, DOWN], [0, 6, DOWN], [1, 6, DOWN], [0, 7, DOWN],
                                 [1, 7, DOWN], [1, 5, DOWN]]
    g.zones[DOWN], g.zones[DOWN2] = [], [5, 6, 7]
    seen_go(g, [5, 6, 7], DOWN, DOWN2, 7, True)
    assert g.shown.entries() == [[0, 5, DOWN2], [0, 6, DOWN2], [1, 6, DOWN2], [0, 7, DOWN2],
                                 [1, 7, DOWN2], [1, 5, DOWN2]]
    g.zones[DOWN2].remove(6)
    seen_go(g, [6], DOWN2, OPEN, 6)         # face up: forgotten by everyone
    reveal_card(g, 7)                       # everyone remembers 7 again, last
    assert g.shown.entries() == [[0, 5, DOWN2], [1, 5, DOWN2], [0, 7, DOWN2], [1, 7, DOWN2]]


def _playout(cg, seed, listform, monkeypatch, before=0, budget=None):
    """A playout of ``cg`` (after ``before`` decisions through the API, so that it may start with
    memories), with what players remember kept per card, or as the list (``listform``)."""
    st = cg.new_game(seed=seed, max_steps=10_000)
    rng = random.Random(seed)
    for _ in range(before):
        if st.is_terminal():
            break
        p = st.current_players()[0]
        legal = st.legal_actions(p)
        st.apply_action(legal[rng.randrange(len(legal))], p)
    at_start = len(st.shown)
    with monkeypatch.context() as m:
        if listform:                        # the list algorithm all along
            m.setattr(playout_module, "Memory", lambda entries, game: list(entries))
        policy = [random.Random(seed * 10 + p).randrange for p in range(cg.n)]
        while not st.is_terminal():
            st.playout(policy, max_decisions=budget)
            if budget is None:
                break
    return st, at_start


@pytest.mark.parametrize("path", FILES)
def test_playout_memory_is_the_list_algorithms(path, monkeypatch):
    game = load(path)
    lo, hi = game.players
    for n in sorted({lo, hi}):
        cg = game.compiled(n)
        for seed, before, budget in ((0, 0, None), (1, 0, None), (2, 30, None), (3, 0, 5)):
            a, _ = _playout(cg, seed, False, monkeypatch, before, budget)
            b, _ = _playout(cg, seed, True, monkeypatch, before, budget)
            # a list again (the API's grouped list, runtime._Remembered, is one too), not a Memory
            assert isinstance(a.shown, list) and isinstance(b.shown, list)
            assert a.shown == b.shown, (path, n, seed)
            assert a.to_json() == b.to_json(), (path, n, seed)


def test_a_playout_records_moves_without_calling_seen_go(monkeypatch):
    """The playout variants append a remembered move to the Memory's log themselves
    (stmtgen's t_Move), without a call of seen_go; the API's code calls it; and a playout
    whose memory is the list (the comparison above) calls it too.  The namespace is where the
    generated code looks the helper up at each call (each function has its own)."""
    cg = load("rules/attack.cardrules").compiled(2)
    calls = []

    def counting(*args):
        calls.append(args)
        return seen_go(*args)
    for f in cg.procs + cg.playout_procs():
        if "_seengo" in getattr(f, "__globals__", ()):
            monkeypatch.setitem(f.__globals__, "_seengo", counting)
    st = cg.new_game(seed=3)
    for _ in range(12):                             # some duels through the API: called
        st.apply_action(st.legal_actions()[0])
    before = len(calls)
    assert before > 0
    made, _, _ = st.playout([random.Random(3).randrange] * 2)
    assert made > 10 and len(calls) == before       # the playout: never called
    assert st.memory.__class__ is Memory and len(st.memory.log) > 20
    b, _ = _playout(cg, 3, True, monkeypatch)       # the list all along: called
    assert len(calls) > before


def test_some_playouts_end_with_many_memories(monkeypatch):
    """The comparison above is not of empty lists only: CIQ's piles turned face down leave
    dozens of entries, and a playout can start with dozens (made through the API)."""
    cg = load("rules/ciq.cardrules").compiled(4)
    assert len(_playout(cg, 0, False, monkeypatch)[0].shown) > 20
    cg2 = load("rules/ciq.cardrules").compiled(2)
    assert _playout(cg2, 0, False, monkeypatch, before=100)[1] > 20


def test_a_playout_leaves_the_list_to_be_made_when_read(monkeypatch):
    """A playout leaves what players remember as its Memory (``State.memory``): most simulated
    games are never asked for it, so their playouts never make the list.  ``State.shown`` makes
    it when it is first read, once, and a clone, a save and the API read it so."""
    cg = load("rules/attack.cardrules").compiled(2)
    st = cg.new_game(seed=4)
    st.playout([random.Random(4).randrange] * 2)
    assert st.memory.__class__ is Memory and st.memory.log     # recorded, not worked out yet
    b, _ = _playout(cg, 4, True, monkeypatch)                   # (the list algorithm: its policy)
    st2 = cg.new_game(seed=4, max_steps=10_000)                # as _playout makes it
    st2.playout([random.Random(4 * 10 + p).randrange for p in range(2)])
    c = st2.clone()                                             # reads it: made now
    assert st2.memory.__class__ is not Memory and st2.shown is st2.shown
    assert c.shown == st2.shown == b.shown and len(b.shown) > 10
    assert st2.to_json() == b.to_json()
    # a playout stopped by its budget, then the API: the list is made at the next action
    st3 = cg.new_game(seed=5)
    st3.playout([random.Random(5).randrange] * 2, max_decisions=20)
    assert not st3.is_terminal() and st3.memory.__class__ is Memory
    ref = cg.new_game(seed=5)
    ref.playout([random.Random(5).randrange] * 2, max_decisions=20)
    assert ref.shown == st3.shown                               # (read: made)
    while not st3.is_terminal():
        legal = st3.legal_actions()
        st3.apply_action(legal[0])
        assert st3.memory.__class__ is not Memory


def test_a_simultaneous_decision_keeps_the_memory(monkeypatch):
    """A playout makes a simultaneous decision as apply_action does, but leaves what players
    remember a Memory (Internecine's battles: the list had been made, then pruned, at each one,
    and every move after it went through the list algorithm: 530 -> 430 bytecodes per decision).
    The game and the list made at the end are the list algorithm's."""
    cg = load("rules/internecine.cardrules").compiled(2)
    for seed in range(3):
        st = cg.new_game(seed=seed, max_steps=10_000)
        calls = []
        real = type(st).apply_action
        monkeypatch.setattr(type(st), "apply_action", lambda self, *a: calls.append(a) or real(self, *a))
        st.playout([random.Random(seed * 10 + p).randrange for p in range(2)])
        monkeypatch.undo()
        assert not calls                                 # (not through the API's apply_action)
        assert st.memory.__class__ is Memory and st.turns > 5
        b, _ = _playout(cg, seed, True, monkeypatch)
        assert st.shown == b.shown and st.to_json() == b.to_json()


def test_what_a_playout_records_stays_bounded():
    """A rule file that moves cards out of sight at every step records an event per move: the
    Memory works them out every LOG_LIMIT events, so what it keeps stays bounded (a hostile file
    cannot fill the memory with them), and the list is still the list algorithm's."""
    from rulelang.engine.players import LOG_LIMIT
    n = 2
    info = _table(n)
    game = _Game(info, n)
    zones = [[] for _ in info]
    zones[0] = list(range(40))
    lst = _State(game, n, [z[:] for z in zones], [])
    mem = _State(game, n, [z[:] for z in zones], None)
    mem.shown = Memory(game=game)
    OPEN, DOWN = 0, 1
    longest = 0
    for k in range(3 * LOG_LIMIT + 7):          # the whole deck face down and up again
        si, di = (OPEN, DOWN) if k % 2 == 0 else (DOWN, OPEN)
        for g in (lst, mem):
            cards = g.zones[si][:]
            g.zones[di] += cards
            del g.zones[si][:]
            seen_go(g, cards, si, di, cards[-1], True)
        longest = max(longest, len(mem.shown.log))
    assert longest == LOG_LIMIT - 1
    assert mem.shown.entries() == lst.shown and len(lst.shown) == 80


LEFT_AND_BACK = '''game "g"
players 2
deck standard, into stock
zone stock: shared, face down
zone hand: per player, seen by owner
zone secret: shared, seen by nobody
zone vault: shared, seen by nobody
var step = 0
setup:
    shuffle stock
    deal 3 from stock to hand of each player
turn:
    add 1 to step
    if step is 1:
        move top card from hand to secret
        STEP_1
    if step is 2:
        STEP_2
    choose:
        go_on if step < 4:
            pass
        finish:
            end game with no winner
'''
OUT, BACK = "move top card from secret to vault", "move top card from vault to secret"
CASES = {                     # (step 1, step 2): how many entries players remember at the end
    "stays": (("pass", "pass"), 1),
    "out and back at once": ((OUT + "\n        " + BACK, "pass"), 0),
    "out, back after a decision": ((OUT, BACK), 0),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_card_that_left_its_zone_unseen_is_forgotten(tmp_path, monkeypatch, case):
    """The owner sees a card go into `secret` and remembers it there; a move nobody sees takes it
    out, and it comes back: it is forgotten as it leaves (docs/language.md, "What players
    remember"), through the API (players.left_unseen) and in a playout (the same event in the
    Memory's log), whenever it comes back: the same, one decision at a time too (a budget),
    from a state the API made, and keeping the list.  (A playout once kept a
    card that came back after a decision, and the API forgot it only if a decision found
    it gone.)"""
    (one, two), remembered = CASES[case]
    path = tmp_path / "g.cardrules"
    path.write_text(LEFT_AND_BACK.replace("STEP_1", one).replace("STEP_2", two), encoding="utf-8")
    cg = load(str(path)).compiled(2)
    api = cg.new_game(seed=1)
    while not api.is_terminal():
        api.apply_action(api.legal_actions()[0])
    assert len(api.shown) == remembered
    assert all(x[2] == cg.zone_base["secret"] for x in api.shown)
    fast = cg.new_game(seed=1)
    fast.playout([(0).__mul__] * 2)
    assert fast.shown == api.shown and fast.to_json() == api.to_json()
    stepped = cg.new_game(seed=1)
    while not stepped.is_terminal():
        stepped.playout([(0).__mul__] * 2, max_decisions=1)
    assert stepped.shown == api.shown
    begun = cg.new_game(seed=1)
    begun.apply_action(begun.legal_actions()[0])
    begun.playout([(0).__mul__] * 2)
    assert begun.shown == api.shown
    with monkeypatch.context() as m:                # the list algorithm all along
        m.setattr(playout_module, "Memory", lambda entries, game: list(entries))
        listed = cg.new_game(seed=1)
        listed.playout([(0).__mul__] * 2)
    assert listed.shown == api.shown


BIG_DEALS = '''game "big deals"
players 2
deck standard, copies 19, into pile
zone pile: shared, face down
zone hand: per player, seen by owner
setup:
    deal all from pile to hand of each player
turn:
    for each player p:
        move all cards from hand of p to pile
    deal 250 from pile to hand of each player
    choose:
        again:
            pass
        stop:
            end game with no winner
'''


def test_hundreds_of_remembered_cards_dealt_at_every_turn(tmp_path):
    """A hostile file: each owner sees their 494 cards go face down onto the pile (remembered
    there), then 500 of the 988 are dealt out of it, at every turn until the step budget.  The
    cards dealt are forgotten and the others kept, alike on the fast path and through the API;
    finding the cards dealt, and their entries in a long list, takes one pass each, not one per
    card (docs/security.md: 4,000 steps took 3.4 s on the fast path and 8.5 s through the API
    before, 0.05 s and 0.3 s now)."""
    path = tmp_path / "g.cardrules"
    path.write_text(BIG_DEALS, encoding="utf-8")
    cg = load(str(path)).compiled(2)
    api = cg.new_game(seed=1, max_steps=1500)
    while not api.is_terminal():
        api.apply_action(api.legal_actions()[0])
    fast = cg.new_game(seed=1, max_steps=1500)
    fast.playout([(0).__mul__] * 2)
    assert api.problem["code"] == "RL901" and api.turns > 400
    assert fast.to_json() == api.to_json() and list(fast.shown) == list(api.shown)
    pile = cg.zone_base["pile"]
    assert len(api.shown) == 988 - 500 and all(x[2] == pile and x[1] in api.zones[pile]
                                                 for x in api.shown)


@pytest.mark.parametrize("path,n,remembers", [("examples/crazy_eights.cardrules", 4, False),
                                              ("rules/follow_the_leader.cardrules", 3, False),
                                              ("rules/attack_power.cardrules", 2, True)])
def test_a_game_where_nothing_is_remembered_makes_no_memory(path, n, remembers):
    """A game with no zone where what players remember may be (memory_zones: no move that hides
    cards someone saw, no show, no reveal) keeps the empty list through a playout: no Memory is
    made for it (a fixed cost of every game).  A game that remembers has its
    Memory; both end as the API's games do."""
    cg = load(path).compiled(n)
    assert bool(cg.memory_zones) == remembers
    for seed in range(5):
        st = cg.playout(seed, [random.Random(seed).randrange] * n)
        assert (st.memory.__class__ is Memory) == remembers, seed
        api = cg.new_game(seed=seed)
        rng = random.Random(seed)
        while not api.is_terminal():
            legal = api.legal_actions()
            api.apply_action(legal[rng.randrange(len(legal))])
        assert st.to_json() == api.to_json() and list(st.shown) == list(api.shown)
        if not remembers:
            assert st.shown == []
