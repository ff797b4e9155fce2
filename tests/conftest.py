"""The order of the tests under pytest-xdist (``-n auto``): the few long tests first.

pytest-xdist hands each worker a share of the tests in collection order and more as it runs low.
A test of a minute or more collected late (the fuzz tests sit in the middle of the alphabet)
may still be running on one core when the other has nothing left to do; started first, the
long tests run while the other worker works through the short ones, and the run ends on short
tests on both cores.  Only the order changes: every test runs as it would, and a run without
xdist keeps the collection's order.
"""

import os

# Node ids, or their beginnings, of the tests that take several seconds or more (the longest
# first: `pytest --durations=40` shows them); a whole module where it shares a fixture.
LONG_FIRST = [
    "tests/test_fuzz_grammar.py::test_generated_inputs_never_fail_in_an_unknown_way",
    "tests/test_fuzz_differential.py::test_generated_games_agree_with_the_reference_under_every",
    "tests/test_fuzz_check.py::test_mutated_rule_files_never_crash",
    "tests/test_fuzz_check.py::test_mutated_lines_of_one_rule",
    "tests/test_fuzz_differential.py::test_generated_games_check_play_long",
    "tests/test_fuzz_files.py::test_mutated_tests_logs_and_saves",
    "tests/test_fuzz_playout.py::test_generated_games_end_alike",
    "tests/test_card_sets.py::test_generated_games_end_alike",
    "tests/test_cluster.py::",
    "tests/test_ai_vector.py::test_a_linear_policy_learns_to_beat_random",
    "tests/test_limits.py::test_a_step_is_charged_by_the_size_of_what_it_evaluates",
    "tests/test_benchmarks.py::test_benchmark_command_runs_on_a_tiny_budget",
    "tests/test_docs.py::test_shown_command_runs[docs/games/follow_the_leader.md: rulelang check --sim",
    "tests/test_effects.py::test_each_statement_does_what_its_description_says",
    "tests/test_web_browser.py::",
]


def _rank(nodeid: str) -> int:
    for i, prefix in enumerate(LONG_FIRST):
        if nodeid.startswith(prefix):
            return i
    return len(LONG_FIRST)


def pytest_collection_modifyitems(session, config, items):
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    items.sort(key=lambda item: _rank(item.nodeid))  # (stable: the rest keep their order)
