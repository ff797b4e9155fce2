"""``python -m rulelang``: the same as the ``rulelang`` command."""
import sys

from rulelang.cli.commands import main

sys.exit(main())
