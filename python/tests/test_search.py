"""Searches through Python: every fox-pro oracle probe (positions and patterns) answered exactly,
answers equal to ``qipu search --json`` line for line, and the tables as pandas and arrow."""

import json
import threading

import pytest

import qipu
from conftest import lines, run, shared


def table(rows):
    return sorted((c["color"], c["point"], c["count"], c["black_wins"], c["white_wins"]) for c in rows)


def region_table(rows):
    """A pattern's rows as the oracle compares them: with ``tenuki``."""
    return sorted(
        (c["color"], c["point"], c["count"], c["tenuki"], c["black_wins"], c["white_wins"]) for c in rows
    )


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
        if kind == "patterns":
            if region_table(a.continuations) != region_table(p["continuations"]):
                failures.append(f"{p['id']}: continuations differ")
            if a.no_continuation is None:
                failures.append(f"{p['id']}: no no_continuation")
    assert not failures, failures


def test_every_diverse_pattern_probes_table_is_the_oracles(scratch):
    oracle = shared("oracle", "diverse")
    data = shared("datasets", "diverse")
    qipu.build(scratch / "diverse-index", [data], rebuild=True)
    ix = qipu.Index(scratch / "diverse-index")
    universe = [(u["file"], u["game"]) for u in lines(oracle / "universe.jsonl")]
    failures = []
    probes = lines(oracle / "patterns.jsonl")
    assert probes
    for p in probes:
        a = ix.search(pattern=oracle / p["query"], symmetry=p["symmetry"], within=universe, with_copies=True)
        if a.games != p["hit_games"]:
            failures.append(f"{p['id']}: {a.games} games, oracle {p['hit_games']}")
        if region_table(a.continuations) != region_table(p["continuations"]):
            failures.append(f"{p['id']}: continuations differ")
    assert not failures, failures


CORNER = ".......\n.......\n.......\n...X...\n.......\n.......\n.......\n"


def test_then_walks_a_pattern_as_the_cli_and_the_drawn_diagram(fox_index, qipu_bin, scratch):
    ix = qipu.Index(fox_index)
    # The upper-left 4-4 (D16), W's approach C14, then White's F17 (Black's is the commoner
    # there: the colour chooses), as the board's clicks or ``qipu search --then`` walk it.
    walked = ix.search(pattern=CORNER, then=["C14", "W:F17"], limit=5)
    listed = ix.search(pattern=CORNER, then="C14,W[F17]", limit=5)
    drawn = ix.search(pattern=".......\n.......\n.....O.\n...X...\n.......\n..O....\n.......\n", limit=5)
    assert drawn.games > 0
    for a in (walked, listed):
        assert (a.games, a.positions, a.no_continuation) == (drawn.games, drawn.positions, drawn.no_continuation)
        assert a.hits == drawn.hits and a.continuations == drawn.continuations
    corner = scratch / "corner.txt"
    corner.write_text(CORNER)
    cli = cli_lines(qipu_bin, fox_index, "--pattern", str(corner), "--then", "C14,W:F17", "--limit", "5")
    assert walked.continuations == [l for l in cli if "count" in l]
    assert cli[-1]["no_continuation"] == walked.no_continuation
    # A step that is not a row of the table names itself and the table's points.
    with pytest.raises(qipu.QueryError, match=r'"K10" \(step 2 of 2\): no continuation .* at K10; its continuations are at .*F17'):
        ix.search(pattern=CORNER, then=["C14", "K10"])
    with pytest.raises(qipu.QueryError, match="only a pattern"):
        ix.search(black=["pd"], then="Q17")


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


def test_filters_sorts_and_the_profile_are_the_cli_json_lines(fox_index, qipu_bin):
    """Each filter on the games' facts, the sorts and the profile by month, asked through
    Python and through ``qipu search --json``: the same hits, rows, profile and counts."""
    ix = qipu.Index(fox_index)
    star = {"black": ["pd"], "white": ["dd"]}
    cli_star = ["--black", "pd", "--white", "dd"]
    cases = [
        ({"since": "2017-03", "until": "2018"}, ["--since", "2017-03", "--until", "2018"]),
        ({"min_rank": "9d"}, ["--min-rank", "9d"]),
        ({"even": True}, ["--even"]),
        ({"handicap": True}, ["--handicap"]),
        ({"komi": (6.5, 7.5)}, ["--komi", "6.5..7.5"]),
        ({"by_month": True, "sort": "rank", "limit": 15}, ["--by-month", "--sort", "rank", "--limit", "15"]),
        ({"sort": "length", "offset": 3, "limit": 10}, ["--sort", "length", "--offset", "3", "--limit", "10"]),
        ({"sort": "date", "with_copies": True, "limit": 10}, ["--sort", "date", "--with-copies", "--limit", "10"]),
    ]
    for py, cli in cases:
        a = ix.search(**star, **py)
        every = [] if "limit" in py else ["--limit", "1000000"]
        want = cli_lines(qipu_bin, fox_index, *cli_star, *cli, *every)
        summary, profile = want[-1], want[-2]
        assert "years" in profile, cli
        assert (a.games, a.positions) == (summary["games"], summary["positions"]), cli
        assert a.profile == profile, cli
        assert a.hits == [l for l in want if "moves" in l and "count" not in l], cli
        assert a.continuations == [l for l in want if "count" in l], cli
        assert sum(y["games"] for y in a.profile["years"]) + a.profile["undated"] <= a.games, cli
    everything = ix.search(**star)
    since = ix.search(**star, since="2017")
    assert 0 < since.games < everything.games
    assert all(y["year"] >= 2017 for y in since.profile["years"]) and since.profile["undated"] == 0
    monthly = ix.search(**star, by_month=True)
    assert "months" in monthly.profile and "months" not in everything.profile
    for bad in (dict(even=True, handicap=True), dict(min_rank="strong"), dict(since="yesterday"),
                dict(komi=(7.5, 6.5)), dict(sort="best")):
        with pytest.raises(qipu.QueryError):
            ix.search(**star, **bad)


def test_variation_lines_through_python(scratch):
    """``qipu.build(..., variations=True)`` indexes a record's variation lines: a search finds
    a line with its path, counted apart from the games played, and ``stats`` counts them."""
    games = scratch / "variation-games"
    games.mkdir()
    (games / "lines.sgf").write_text(
        "(;GM[1]FF[4]SZ[19]PB[Black]PW[White]RE[B+R]DT[2020-01-01];B[pd];W[dp]"
        "(;B[pp];W[dd];B[fq])(;B[dd];W[pp](;B[pj])(;B[jp]))(;B[qp]))"
    )
    with_lines, without = scratch / "variation-index", scratch / "no-variation-index"
    qipu.build(with_lines, games, rebuild=True, variations=True)
    qipu.build(without, games, rebuild=True)
    ix = qipu.Index(with_lines)
    # B[dd] W[pp] is played on a variation line only (node depth 3 takes the second child).
    a = ix.search(black=["pd", "dd"], white=["dp", "pp"], symmetry=False)
    assert [(h["variation"]["path"], h["moves"]) for h in a.hits] == [("2:1", [4]), ("2:1,4:1", [4])]
    # Each line answers from its own branch point on (the second branches again at move 4).
    assert [h["variation"]["from"] for h in a.hits] == [2, 4]
    assert (a.games, a.variations) == (0, 2)
    assert sorted((c["point"], c["count"], c["variations"]) for c in a.continuations) == [
        ("jp", 0, 1), ("pj", 0, 1)]
    assert a.profile["years"] == []
    # After B[pd] W[dp]: the game played B[pp]; two lines branch there.
    b = ix.search(black=["pd"], white=["dp"], symmetry=False)
    assert (b.games, b.variations) == (1, 2)
    assert b.continuations[0]["point"] == "pp" and b.continuations[0]["count"] == 1
    assert [y["games"] for y in b.profile["years"]] == [1]
    assert ix.stats()["variation_lines"] == 3
    plain = qipu.Index(without)
    assert plain.search(black=["pd", "dd"], white=["dp", "pp"], symmetry=False).hits == []
    assert plain.stats().get("variation_lines") is None
