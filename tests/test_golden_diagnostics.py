"""Golden files for the plain-text rendering of diagnostics (rulelang.cli.render).

Each file in tests/golden/diagnostics/NAME.txt is what checking tests/errors/NAME.cardrules prints
without colour: location, severity and code, message, the source line with a caret under the
span, and the hint.  Regenerate with ``RULELANG_UPDATE_GOLDEN=1 python -m pytest
tests/test_golden_diagnostics.py`` and review the diff.
"""
import os

import pytest

from rulelang.compile.loader import check_file
from rulelang.cli.render import diagnostic_plain, forget_sources

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(ROOT, "tests", "golden", "diagnostics")
CASES = ["unknown_names_many", "many_independent_errors", "syntax_move_without_destination",
         "syntax_unclosed_parenthesis", "syntax_eq_in_condition", "syntax_tab_indentation",
         "deal_too_many", "variant_option_out_of_range", "unused_zone_option_rule",
         "wrong_kind_card_as_zone"]


def rendered(name: str) -> str:
    rel = os.path.join("tests", "errors", name + ".cardrules")
    diags, _m, _d = check_file(rel)
    diags = sorted(diags, key=lambda d: (d.span.line if d.span else 0, d.span.column if d.span else 0))
    return "\n\n".join(diagnostic_plain(d) for d in diags) + "\n"


@pytest.mark.parametrize("name", CASES)
def test_rendered_diagnostics(name, monkeypatch):
    monkeypatch.chdir(ROOT)
    forget_sources()
    text = rendered(name)
    path = os.path.join(GOLDEN, name + ".txt")
    if os.environ.get("RULELANG_UPDATE_GOLDEN") or not os.path.exists(path):
        os.makedirs(GOLDEN, exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    with open(path, encoding="utf-8") as fh:
        assert text == fh.read()
