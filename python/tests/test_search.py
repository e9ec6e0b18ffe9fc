"""Searches through Python: every fox-pro oracle probe (positions and patterns) answered exactly,
answers equal to ``qipu search --json`` line for line, and the tables as pandas and arrow."""

import json
import threading

import pytest

import qipu
from conftest import lines, run, shared


def table(rows):
    return sorted((c["color"], c["point"], c["count"], c["black_wins"], c["white_wins"]) for c in rows)


def hits_of(answer):
    return {(h["file"], h["game"]): h["moves"] for h in answer.hits}


@pytest.mark.parametrize("kind", ["positions", "patterns"])
def test_every_fox_pro_probe_is_answered_as_the_oracle_says(fox_index, fox_universe, kind):
    oracle = shared("oracle", "fox-pro")
    ix = qipu.Index(fox_index)
    failures = []
    probes = lines(oracle / f"{kind}.jsonl")
    assert len(probes) >= 50
    for p in probes:
        path = oracle / p["query"]
        ask = {"position": path} if kind == "positions" else {"pattern": path}
        # The oracle counts every exact copy.
        a = ix.search(**ask, symmetry=p["symmetry"], within=fox_universe, with_copies=True)
        assert a.games == len(a.hits), "no limit: every hit"
        if a.games != p["hit_games"]:
            failures.append(f"{p['id']}: {a.games} games, oracle {p['hit_games']}")
        if "hits" in p:
            want = {(h["file"], h["game"]): h["moves"] for h in p["hits"]}
            if hits_of(a) != want:
                failures.append(f"{p['id']}: hits differ")
        if kind == "positions" and table(a.continuations) != table(p["continuations"]):
            failures.append(f"{p['id']}: continuations differ")
    assert not failures, failures


def cli_lines(qipu_bin, index, *args):
    r = run(qipu_bin, "search", "--index", str(index), "--json", *args)
    assert r.returncode in (0, 1), r.stderr
    out = [json.loads(l) for l in r.stdout.splitlines()]
    for l in out:
        l.pop("type")
    return out


def test_answers_are_the_cli_json_lines(fox_index, qipu_bin):
    oracle = shared("oracle", "fox-pro")
    ix = qipu.Index(fox_index)
    probe = oracle / "probes" / "pos-003.sgf"
    cases = [
        ({"position": probe}, ["--position", str(probe)]),
        ({"position": probe, "symmetry": False}, ["--position", str(probe), "--no-symmetry"]),
        ({"black": ["pd", "dp"], "white": "dd"}, ["--black", "pd,dp", "--white", "dd"]),
        ({"pattern": oracle / "probes" / "pat-001.txt"}, ["--pattern", str(oracle / "probes" / "pat-001.txt")]),
        ({"moves": "B[pd] W[dd] B[pp]"}, ["--moves", "B[pd] W[dd] B[pp]"]),
        ({"moves": "B[pd] W[dd] B[pp]", "any_gap": True}, ["--moves", "B[pd] W[dd] B[pp]", "--any-gap"]),
        ({"moves": "W[dd] B[cc] W[dc] B[cd]"}, ["--moves", "W[dd] B[cc] W[dc] B[cd]"]),
        ({"query": "winner:W AND date:2017"}, ["--query", "winner:W AND date:2017"]),
        ({"black": ["pd"], "query": "winner:B", "limit": 5}, ["--black", "pd", "--query", "winner:B", "--limit", "5"]),
    ]
    for py, cli in cases:
        a = ix.search(**py)
        want = cli_lines(qipu_bin, fox_index, *cli)
        summary = want[-1]
        assert (a.games, a.positions) == (summary["games"], summary["positions"]), cli
        assert a.hits == [l for l in want[:-1] if "moves" in l and "count" not in l], cli
        assert a.continuations == [l for l in want[:-1] if "count" in l], cli
        assert a.games > 0, cli


def test_tables_as_pandas_and_arrow(fox_index):
    a = qipu.Index(fox_index).search(black=["pd", "dp"], white=["dd"], limit=7)
    hits = a.to_pandas()
    assert list(hits.columns[:3]) == ["file", "game", "moves"]
    assert len(hits) == 7 and a.games > 7
    cont = a.to_pandas("continuations")
    assert int(cont["count"].sum()) == sum(c["count"] for c in a.continuations) > 0
    arrow = a.to_arrow("continuations")
    assert arrow.num_rows == len(a.continuations)
    assert arrow.column("point").to_pylist() == [c["point"] for c in a.continuations]
    empty = qipu.Index(fox_index).search(black=["aa", "ab", "ba"], white=["ss"])
    assert empty.games == 0 and empty.to_arrow().num_rows == 0 and len(empty.to_pandas()) == 0
    with pytest.raises(qipu.QueryError):
        a.to_pandas("nothing")


def test_threads_search_at_once(fox_index):
    ix = qipu.Index(fox_index)
    want = ix.search(black=["pd", "dp"], white=["dd"]).games
    got = []

    def work():
        for _ in range(20):
            got.append(ix.search(black=["pd", "dp"], white=["dd"]).games)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [want] * 80


def test_an_indexed_game_reads_as_its_record(fox_index):
    ix = qipu.Index(fox_index)
    hit = ix.search(black=["pd", "dp"], white=["dd"], limit=1).hits[0]
    g = ix.game(hit["file"], hit["game"])
    assert (g.file, g.game) == (hit["file"], hit["game"])
    k = hit["moves"][0]
    board = g.board(at=k)
    assert board.shape == (19, 19) and board.dtype.name == "int8"
    # The position searched for, in some orientation: three stones, two black.
    assert (board == 1).sum() == 2 and (board == -1).sum() == 1
    assert g.info["black"] and hit["black"].startswith(g.info["black"])


def test_several_indexes_search_as_one(scratch):
    """Two indexes opened as one answer as one index built from both folders in that order:
    the same hits (numbers, files, copy marks), continuation rows and counts."""
    fox = shared("datasets", "fox-pro")
    first, second = [fox / f"{r}p" for r in range(1, 6)], [fox / f"{r}p" for r in range(6, 10)]
    a, b, both = scratch / "shard-a", scratch / "shard-b", scratch / "shard-both"
    qipu.build(a, first, rebuild=True)
    qipu.build(b, second, rebuild=True)
    qipu.build(both, first + second, rebuild=True)
    one, two = qipu.Index(both), qipu.Index([a, b])
    assert len(two) == len(one) == len(qipu.Index(a)) + len(qipu.Index(b))
    assert two.path is None and two.paths == [str(a), str(b)]
    for kwargs in (
        dict(black="pd", white="dd"),
        dict(moves="B[pd] W[qc] B[qd] W[pc]"),
        dict(query="date:2017", sort="newest", limit=40, offset=5),
    ):
        got, want = two.search(**kwargs), one.search(**kwargs)
        assert (got.games, got.positions) == (want.games, want.positions), kwargs
        assert got.continuations == want.continuations, kwargs
        strip = lambda hits: [{k: v for k, v in h.items() if k != "path"} for h in hits]
        assert strip(got.hits) == strip(want.hits), kwargs
        assert got.games > 0, kwargs
    with pytest.raises(qipu.QueryError):
        two.export_parquet(scratch / "shards-parquet")
