"""The ClickHouse export, loaded by its own ``load.sh`` into ClickHouse's engine run in-process
(chdb, with ``chdb_client.py`` standing in for ``clickhouse-client``) as a cluster of one shard
behind the ``Distributed`` tables: for every fox-pro position probe the statistics cover (at most
``qipu.TABLE_STONES`` stones), the one query ``qipu search --position F --sql`` prints gives the
oracle's continuation counts, and with the filters and both ways of counting copies every
column of ``qipu search --json``'s continuation lines."""

import json
import os
import shlex
import shutil
import sys
from pathlib import Path

import chdb
import numpy as np
import pytest

import qipu
from conftest import lines, run, shared

HERE = Path(__file__).resolve().parent

# The cluster the Distributed tables span: this process alone, one shard. chdb treats a replica
# at its own address and tcp_port as local and reads it in-process (no server listens).
CONFIG = """<clickhouse>
  <tcp_port>9000</tcp_port>
  <remote_servers>
    <qipu_test><shard><replica><host>localhost</host><port>9000</port></replica></shard></qipu_test>
  </remote_servers>
</clickhouse>
"""

COLUMNS = ["color", "point", "count", "black_wins", "white_wins", "other", "mover_rank",
           "mover_ranked", "opponent_rank", "opponent_ranked", "first_year", "last_year", "example"]


@pytest.fixture(scope="module")
def universe_index(scratch, fox_universe):
    """An index of the fox-pro files the oracle replayed: the statistics sum over every game of
    an index, so the games the oracle excluded (45 files of fox-pro, none holding a game it
    kept) are left out by not indexing them."""
    data = shared("datasets", "fox-pro")
    copy = scratch / "fox-universe"
    for file in sorted({f for f, _ in fox_universe}):
        (copy / file).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(data / file, copy / file)
    out = scratch / "fox-universe-index"
    qipu.build(out, [copy], rebuild=True)
    return out


@pytest.fixture(scope="module")
def exported(universe_index, qipu_bin, scratch):
    out = scratch / "clickhouse"
    r = run(qipu_bin, "export", "--index", str(universe_index), "--clickhouse", str(out))
    assert r.returncode == 0, r.stderr
    for name in ("games.parquet", "stats.parquet", "symmetries.parquet", "schema.sql", "load.sh"):
        assert (out / name).is_file(), name
    return out


@pytest.fixture(scope="module")
def db(exported, scratch):
    """The export loaded by load.sh, and a cursor on it."""
    config = scratch / "chdb.xml"
    config.write_text(CONFIG)
    path = scratch / "chdb"
    client = scratch / "clickhouse-client"
    client.write_text(
        f"#!/bin/sh\nexec {shlex.quote(sys.executable)} {shlex.quote(str(HERE / 'chdb_client.py'))} \"$@\"\n"
    )
    client.chmod(0o755)
    env = dict(os.environ, QIPU_CHDB_PATH=str(path), QIPU_CHDB_CONFIG=str(config),
               QIPU_CLUSTER="qipu_test", CLICKHOUSE_CLIENT=str(client))
    r = run_env(env, str(exported / "load.sh"))
    assert r.returncode == 0, r.stderr
    assert "cluster qipu_test" in r.stdout
    conn = chdb.connect(f"{path}?config-file={config}")
    yield conn.cursor()
    conn.close()


def run_env(env, *args):
    import subprocess
    return subprocess.run(args, capture_output=True, text=True, check=False, env=env)


def query(cur, sql):
    cur.execute(sql)
    return [dict(zip(COLUMNS, row)) for row in cur.fetchall()]


def covered_probes():
    """The fox-pro position probes the statistics hold: 19×19, at most TABLE_STONES stones."""
    oracle = shared("oracle", "fox-pro")
    out = []
    for p in lines(oracle / "positions.jsonl"):
        [probe] = qipu.read(oracle / p["query"])
        board = probe.board(at=0)
        if probe.size == (19, 19) and np.count_nonzero(board) <= qipu.TABLE_STONES:
            out.append((p, oracle / p["query"]))
    return out


def sql_for(qipu_bin, probe, symmetry, *options):
    args = [qipu_bin, "search", "--position", str(probe), "--sql", *options]
    if not symmetry:
        args.append("--no-symmetry")
    r = run(*args)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_the_load_script_fills_the_distributed_tables(db, universe_index):
    stats = qipu.Index(universe_index).stats()
    db.execute("SELECT count(), countIf(copy_of IS NOT NULL) FROM qipu.games")
    assert db.fetchall()[0] == (stats["games"], stats["duplicates"])
    db.execute("SELECT count() FROM qipu.symmetries WHERE width = 19 AND height = 19")
    assert db.fetchall()[0][0] == 8 * (361 + 1)
    # The statistics count every table entry of every copy once: the empty board's occurrences
    # (k = 0 of every 19×19 game without setup) are its row sums, ends of games included.
    db.execute("SELECT sum(games), sum(games_once) FROM qipu.stats")
    games, once = db.fetchall()[0]
    assert games > once > 100_000


def test_one_sql_query_per_probe_gives_the_oracles_counts(db, qipu_bin):
    probes = covered_probes()
    # 20 of fox-pro's 60 position probes have at most 20 stones.
    assert len(probes) == 20, len(probes)
    failures = []
    for p, path in probes:
        rows = query(db, sql_for(qipu_bin, path, p["symmetry"], "--with-copies"))
        got = sorted((r["color"], r["point"], r["count"], r["black_wins"], r["white_wins"]) for r in rows)
        want = sorted((c["color"], c["point"], c["count"], c["black_wins"], c["white_wins"])
                      for c in p["continuations"])
        if got != want:
            failures.append(f"{p['id']}: {got[:3]}…, oracle {want[:3]}…")
    assert not failures, failures


def qipu_rows(qipu_bin, index, probe, symmetry, *options):
    args = [qipu_bin, "search", "--index", str(index), "--position", str(probe), "--json", *options]
    if not symmetry:
        args.append("--no-symmetry")
    r = run(*args)
    assert r.returncode in (0, 1), r.stderr
    out = []
    for line in r.stdout.splitlines():
        v = json.loads(line)
        if v["type"] == "continuation":
            out.append({k: v.get(k) for k in COLUMNS})
    return out


@pytest.mark.parametrize(
    "options",
    [
        ["--with-copies"],
        [],
        ["--since", "2016-03", "--until", "2019", "--min-rank", "9p", "--even"],
        ["--komi", "6.5..7.5", "--to-move", "W", "--with-copies"],
        # Fox's Chinese-rules 3.75 (and not 4, nor 3.25): the tables keep the quarter.
        ["--komi", "3.6..3.9", "--with-copies"],
        ["--swap-colors"],
    ],
    ids=["copies", "once", "dates-ranks-even", "komi-to-move", "quarter-komi", "swap-colors"],
)
def test_the_sql_gives_every_column_qipu_search_gives(db, qipu_bin, universe_index, options):
    failures = []
    answered = 0
    for p, path in covered_probes():
        want = qipu_rows(qipu_bin, universe_index, path, p["symmetry"], *options)
        answered += bool(want)
        got = query(db, sql_for(qipu_bin, path, p["symmetry"], *options))
        key = lambda r: (-r["count"], r["color"], r["point"])
        got, want = sorted(got, key=key), sorted(want, key=key)
        if len(got) != len(want) or not all(same_row(g, w) for g, w in zip(got, want)):
            diff = [(g, w) for g, w in zip(got, want) if not same_row(g, w)]
            failures.append(f"{p['id']}: {len(got)} rows, qipu {len(want)}; first difference {diff[:1]}")
    assert not failures, failures
    # Each case answers something (fox-pro has 3.75 games), so that it can fail.
    assert answered > 0, options


def test_the_games_table_keeps_a_quarter_komi(db):
    db.execute("SELECT countIf(komi_quarters = 15), countIf(komi_quarters = 16) FROM qipu.games")
    quarters, fours = db.fetchall()[0]
    assert quarters > 0 and fours == 0, (quarters, fours)


def same_row(got, want):
    """Equal rows; the mean ranks are rounded to the hundredth both ways, but ClickHouse rounds
    a float's tie to even: equal within that rounding."""
    means = ("mover_rank", "opponent_rank")
    for k in COLUMNS:
        g, w = got[k], want[k]
        if k in means and g is not None and w is not None:
            if abs(g - w) > 0.0101:
                return False
        elif g != w:
            return False
    return True


def test_what_the_statistics_cannot_answer_is_refused(qipu_bin):
    deep = shared("oracle", "fox-pro")
    many = None
    for p in lines(deep / "positions.jsonl"):
        [probe] = qipu.read(deep / p["query"])
        if np.count_nonzero(probe.board(at=0)) > qipu.TABLE_STONES:
            many = deep / p["query"]
            break
    assert many is not None
    r = run(qipu_bin, "search", "--position", str(many), "--sql")
    assert r.returncode == 2 and "at most 20 stones" in r.stderr, r.stderr
    r = run(qipu_bin, "search", "--black", "pd", "--sql", "--query", "winner:B")
    assert r.returncode == 2 and r.stdout == ""
