"""The Ray driver's cost over the compute: many games on a local cluster of several nodes.

    python -m benchmarks.cluster [--games 100000] [--file examples/crazy_eights.cardrules]
                                 [--players 2] [--nodes 2] [--cpus-per-node 1] [--address ADDR]

Starts a ``ray.cluster_utils.Cluster`` of ``--nodes`` nodes (or connects to ``--address``), plays
the games as ``run --games --ray`` does (``rulelang.play.parallel.run_chunks`` with the chunks'
tallies gathered), each chunk timing itself on its node, and prints:

- the compute: the seconds the chunks took where they were played, summed;
- the driver: this process's CPU time while the games were played (sending the chunks,
  waiting, receiving and merging the tallies, and Ray's own threads in this process), and
  its share of the compute; also the CPU time of its main thread alone;
- the wall time against the compute spread over the cluster's CPUs (what is lost to start-up,
  compiling the game once per actor, the last chunks and the machine's load);
- the projection of the driver's share for 1,000,000 games on 8 nodes of 64 cores, with its
  arithmetic.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed_chunk(job, part):
    """A chunk of ``stats._chunk`` and the CPU seconds it took on its node."""
    from rulelang.play import stats
    t0 = time.process_time()
    got = stats._chunk(job, part)
    return got, time.process_time() - t0, len(part)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.cluster")
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--file", default=os.path.join(ROOT, "examples", "crazy_eights.cardrules"))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--nodes", type=int, default=2)
    ap.add_argument("--cpus-per-node", type=int, default=1)
    ap.add_argument("--address", default=None, help="an existing cluster instead")
    ap.add_argument("--chunk-cost", type=int, default=0, metavar="K",
                    help="then K more chunks of 10 games each, to measure the driver's own "
                         "thread per chunk with many chunks")
    a = ap.parse_args(argv)
    import ray

    from rulelang.play.parallel import run_chunks
    from rulelang.play.tally import Tally
    cluster = None
    if a.address is None:
        from ray.cluster_utils import Cluster
        cluster = Cluster(initialize_head=True,
                          head_node_args={"num_cpus": a.cpus_per_node, "include_dashboard": False})
        for _ in range(a.nodes - 1):
            cluster.add_node(num_cpus=a.cpus_per_node)
        cluster.wait_for_nodes()
        address = cluster.address
    else:
        address = a.address
    ray.init(address=address, log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": ROOT}})
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        nodes = len([n for n in ray.nodes() if n["Alive"]])
        with open(a.file, encoding="utf-8") as fh:
            text = fh.read()
        job = {"path": a.file, "overrides": {}, "players": a.players, "coverage": False,
               "agents": ["random"] * a.players, "seed": 1, "max_steps": None, "text": text,
               "include": ()}
        total = Tally(a.players)
        compute = [0.0]
        chunks = [0]
        sizes = set()
        first = []                     # (wall, driver CPU) when the first chunk came back

        def gather(i, result):
            if not first:
                first.append((time.perf_counter(), time.process_time()))
            (tally, _), seconds, n = result
            total.merge(tally)
            compute[0] += seconds
            chunks[0] += 1
            sizes.add(n)
        w0, c0, t0 = time.perf_counter(), time.process_time(), time.thread_time()
        out = run_chunks(timed_chunk, job, range(a.games), 1, ray="local", gather=gather)
        wall, driver = time.perf_counter() - w0, time.process_time() - c0
        loop = time.thread_time() - t0
        many = None
        if a.chunk_cost:
            from rulelang.play.cluster import run_parts_ray
            parts = [range(j * 10, j * 10 + 10) for j in range(a.chunk_cost)]
            t1, w1 = time.thread_time(), time.perf_counter()
            done, _ = run_parts_ray(timed_chunk, job, parts, "local", None,
                                    lambda i, r: total.merge(r[0][0]))
            many = (time.thread_time() - t1, time.perf_counter() - w1, len(done))
    finally:
        ray.shutdown()
        if cluster is not None:
            cluster.shutdown()
    assert out.done == a.games and total.games == a.games + 10 * a.chunk_cost
    per_game = compute[0] / a.games
    start_wall, start_cpu = first[0][0] - w0, first[0][1] - c0
    per_chunk = (driver - start_cpu) / max(1, chunks[0] - 1)
    print(f"{a.games:,} games of {os.path.basename(a.file)} at {a.players} players on {nodes} "
          f"nodes, {cpus} CPUs: {chunks[0]} chunks of {sorted(sizes)} games")
    print(f"compute (the chunks' CPU time, summed): {compute[0]:.2f} s, {per_game * 1e6:.1f} "
          f"us a game")
    print(f"driver CPU time: {driver:.3f} s = {100 * driver / compute[0]:.2f}% of the compute: "
          f"{start_cpu:.3f} s until the first chunk came back (connecting the job, starting "
          f"the actors), then {per_chunk * 1e3:.2f} ms a chunk")
    print(f"of which the driver's own thread (rulelang's loop: sending, waiting, receiving and "
          f"merging the tallies): {loop:.3f} s = {100 * loop / compute[0]:.2f}% (the rest: "
          f"Ray's threads in the driver, which run as long as the work does)")
    print(f"the first chunk came back after {start_wall:.2f} s of wall time (the actors "
          f"started, each compiling the game once)")
    ideal = compute[0] / cpus
    print(f"wall time: {wall:.2f} s against {ideal:.2f} s of compute per CPU "
          f"({100 * (wall - ideal) / ideal:+.1f}%)")
    if many is not None:
        per_chunk = many[0] / many[2]
        print(f"{many[2]} chunks of 10 games: the driver's own thread {many[0]:.3f} s, "
              f"{per_chunk * 1e3:.3f} ms a chunk ({many[1]:.1f} s of wall time)")
    # 1,000,000 games on 8 nodes of 64 cores: 512 CPUs, 4 chunks a CPU.
    big_cpus, big_games = 8 * 64, 1_000_000
    big_chunks = big_cpus * 4
    big_driver = start_cpu + big_chunks * per_chunk
    big_compute = big_games * per_game
    print(f"projection, 1,000,000 games on 8 nodes of 64 cores ({big_cpus} CPUs): {big_chunks} "
          f"chunks of {-(-big_games // big_chunks)} games; the driver {start_cpu:.2f} s + "
          f"{big_chunks} x {per_chunk * 1e3:.2f} ms = {big_driver:.2f} s of CPU against "
          f"{big_games:,} x {per_game * 1e6:.1f} us = {big_compute:.0f} s of compute "
          f"({100 * big_driver / big_compute:.2f}%), {big_compute / big_cpus:.2f} s a CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
