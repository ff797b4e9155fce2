"""--ray: the same chunks of games on a Ray cluster give the results of a local run.

The Ray tests start a local Ray (two CPUs, no dashboard) once for the module and are skipped
when Ray is not installed (pip install 'rulelang[cluster]')."""
import os
import subprocess
import sys

import pytest

from rulelang.play import stats
from rulelang.play.simulate import simulate

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_without_ray_the_command_says_how_to_get_it(tmp_path):
    """A Ray that cannot be imported (None in sys.modules) gives a usage message, not a crash."""
    code = ("import sys; sys.modules['ray'] = None; from rulelang.cli.commands import main; "
            "sys.exit(main(sys.argv[1:]))")
    r = subprocess.run([sys.executable, "-c", code, "stats", "rules/ciq.cardrules", "--games", "5",
                        "--ray"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode != 0
    assert "Ray" in r.stderr and "rulelang[cluster]" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray")
    if not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                 runtime_env={"env_vars": {"PYTHONPATH": ROOT}})
    yield ray
    ray.shutdown()


def test_play_games_on_ray_gives_the_local_records(local_ray):
    path = os.path.join(ROOT, "rules", "ciq.cardrules")
    here = stats.play_games(path, {}, 3, 80, seed=9, workers=1, coverage=True)
    there = stats.play_games(path, {}, 3, 80, seed=9, coverage=True, ray="local")
    assert there.records == here.records and len(there.records) == 80
    assert not there.interrupted
    mixed = ["mc:4", "random"]
    path = os.path.join(ROOT, "examples", "crazy_eights.cardrules")
    assert (stats.play_games(path, {}, 2, 6, seed=2, agents=mixed, ray="local").records
            == stats.play_games(path, {}, 2, 6, seed=2, agents=mixed, workers=1).records)


def test_check_simulate_on_ray_finds_what_it_finds_here(local_ray):
    path = os.path.join(ROOT, "tests", "simulate", "card_moved_twice.cardrules")
    here = simulate(path, 6, workers=1)
    there = simulate(path, 6, ray="local")
    assert [d.code for d in here] == ["RL902"]
    assert [(d.code, d.message, d.span) for d in there] == [(d.code, d.message, d.span) for d in here]
