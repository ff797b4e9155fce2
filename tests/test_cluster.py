"""--ray: the same chunks of games on a Ray cluster give the results of a local run.

The Ray tests start a local Ray cluster of two nodes of one CPU each (``ray.cluster_utils.Cluster``:
two raylets on this machine, as two machines would be) once for the module, and are skipped
when Ray is not installed (pip install 'rulelang[cluster]')."""
import json
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
def cluster():
    ray = pytest.importorskip("ray")
    from ray.cluster_utils import Cluster
    if ray.is_initialized():
        ray.shutdown()
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    c.add_node(num_cpus=1)
    c.wait_for_nodes()
    try:
        yield c
    finally:
        c.shutdown()


@pytest.fixture(scope="module")
def local_ray(cluster):
    import ray
    # (the tests' folder too: a test below sends a function of this module to the nodes)
    here = os.pathsep.join([ROOT, os.path.join(ROOT, "tests")])
    ray.init(address=cluster.address, log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": here}})
    assert len([n for n in ray.nodes() if n["Alive"]]) == 2
    yield ray
    ray.shutdown()


def test_play_games_on_ray_gives_the_local_records(local_ray):
    path = os.path.join(ROOT, "rules", "ciq.cardrules")
    here = stats.play_games(path, {}, 3, 80, seed=9, workers=1, coverage=True, records=True)
    there = stats.play_games(path, {}, 3, 80, seed=9, coverage=True, ray="local", records=True)
    assert there.records == here.records and len(there.records) == 80
    assert not there.interrupted
    mixed = ["mc:4", "random"]
    path = os.path.join(ROOT, "examples", "crazy_eights.cardrules")
    assert (stats.play_games(path, {}, 2, 6, seed=2, agents=mixed, ray="local",
                             records=True).records
            == stats.play_games(path, {}, 2, 6, seed=2, agents=mixed, workers=1,
                                records=True).records)


def test_check_simulate_on_ray_finds_what_it_finds_here(local_ray):
    path = os.path.join(ROOT, "tests", "simulate", "card_moved_twice.cardrules")
    here = simulate(path, 6, workers=1)
    there = simulate(path, 6, ray="local")
    assert [d.code for d in here] == ["RL902"]
    assert [(d.code, d.message, d.span) for d in there] == [(d.code, d.message, d.span) for d in here]


def _played_on_nodes(job, part):
    """A chunk's tally, and the node that played it."""
    import ray
    return stats._chunk(job, part), ray.get_runtime_context().get_node_id()


def test_the_driver_gathers_tallies_from_both_nodes(local_ray):
    """On two nodes the chunks are played by actors on both, sized from the cluster's CPUs
    (not 100 games), and what comes back is each chunk's tally: the report is a local run's."""
    from rulelang.play.parallel import run_chunks
    path = os.path.join(ROOT, "examples", "crazy_eights.cardrules")
    job = {"path": path, "overrides": {}, "players": 2, "coverage": False,
           "agents": ["random", "random"], "seed": 4, "max_steps": None, "text": None,
           "include": ()}
    got = {}
    out = run_chunks(_played_on_nodes, job, range(400), 1, ray="local",
                     gather=lambda i, r: got.__setitem__(i, r))
    assert out.done == 400 and out.results is None and not out.interrupted
    assert len(got) == 8                          # 4 chunks per CPU: 2 CPUs, 100 games each
    assert len({node for _, node in got.values()}) == 2
    assert sum(t.games for (t, _), _node in got.values()) == 400
    here = stats.play_games(path, {}, 2, 400, seed=4, workers=1, coverage=False)
    there = stats.play_games(path, {}, 2, 400, seed=4, coverage=True, ray="local")
    a = stats.summarize(here, "g", 2, 4, ["random"] * 2)
    b = stats.summarize(there, "g", 2, 4, ["random"] * 2)
    for r in (a, b):
        for k in stats.TIMING_FIELDS + ("coverage", "never_run"):
            r.pop(k, None)
    assert a == b
    assert there.records is None                  # no game's record kept unless asked


def test_ray_auto_with_ray_address_reaches_the_cluster(cluster, local_ray):
    """`--ray=auto` and RAY_ADDRESS, as docs/scale.md says: a new process connects to the
    cluster there and plays on it."""
    env = dict(os.environ, RAY_ADDRESS=cluster.address)
    cmd = [sys.executable, "-m", "rulelang", "run", "examples/crazy_eights.cardrules",
           "--games", "40", "--seed", "3", "--json"]
    there = subprocess.run(cmd + ["--ray=auto"], cwd=ROOT, env=env, capture_output=True,
                           text=True, timeout=300)
    assert there.returncode == 0, there.stderr
    here = subprocess.run(cmd + ["--workers", "1"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    a, b = json.loads(here.stdout), json.loads(there.stdout)
    for k in ("seconds", "games_per_second", "workers"):
        a.pop(k), b.pop(k)
    assert a == b and a["games"] == 40
