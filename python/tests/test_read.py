"""``qipu.read`` over every fox-pro game against ``qipu show --json`` (final positions, move
counts), other inputs (archives, collections, other formats), and bad input."""

import json
import zipfile

import numpy as np
import pytest

import qipu
from conftest import run, shared


def points(board, value):
    rows, cols = np.nonzero(board == value)
    return sorted(chr(97 + c) + chr(97 + r) for r, c in zip(rows, cols))


def test_every_fox_pro_game_ends_as_qipu_show_says(qipu_bin):
    data = shared("datasets", "fox-pro")
    r = run(qipu_bin, "show", "--json", str(data))
    assert r.returncode == 0, r.stderr
    shown = {}
    for l in r.stdout.splitlines():
        v = json.loads(l)
        if not v.get("rejected"):
            shown[(v["file"], v["game"])] = v
    reader = qipu.read(data)
    seen = 0
    for g in reader:
        s = shown[(g.file, g.game)]
        assert len(g.moves) == s["moves"], g
        b = g.board()
        assert points(b, 1) == s["black"] and points(b, -1) == s["white"], g
        seen += 1
    assert seen == len(shown) > 10_000
    assert reader.problems == []


def test_info_moves_and_boards_of_a_record():
    sgf = b"(;GM[1]SZ[9]PB[Lee]BR[9p]PW[Cho]DT[2016-03-13]RE[W+R]KM[6.5]AB[ba]AW[aa];B[ab];W[cc];B[])"
    [g] = qipu.read_bytes(sgf, "x.sgf")
    assert g.size == (9, 9) and g.format == "sgf"
    assert g.info["black"] == "Lee" and g.info["black_rank"]["rank"] == "9p"
    assert g.info["result"]["winner"] == "white" and g.info["result"]["raw"] == "W+R"
    assert g.info["komi"]["value"] == 6.5 and g.info["date"]["start"] == "2016-03-13"
    assert g.moves == [("B", "ab"), ("W", "cc"), ("B", "")]
    # Position 0 holds the setup; B[ab] captures the white stone on aa.
    assert g.board(at=0)[0, 0] == -1 and g.board(at=0)[0, 1] == 1
    after = g.board(at=1)
    assert after[0, 0] == 0 and after[1, 0] == 1
    assert (g.board() == g.board(at=3)).all()
    with pytest.raises(qipu.QueryError, match="has 3 moves"):
        g.board(at=4)


def test_archives_and_collections(tmp_path):
    two = b"(;SZ[19];B[pd];W[dd])(;SZ[13];B[dd])"
    with zipfile.ZipFile(tmp_path / "games.zip", "w") as z:
        z.writestr("a/two.sgf", two)
        z.writestr("b/readme.txt", b"not a record")
    (tmp_path / "one.sgf").write_bytes(b"(;SZ[9];B[ee])")
    games = list(qipu.read(tmp_path))
    names = [(g.file, g.game, g.size) for g in games]
    assert names == [("games.zip/a/two.sgf", 0, (19, 19)), ("games.zip/a/two.sgf", 1, (13, 13)),
                     ("one.sgf", 0, (9, 9))]


def test_information_read_later_is_each_games_own(tmp_path):
    # qipu.read leaves the information to the first .info of a file's games; each game gets its
    # own, as read_bytes (which reads it at once) gives it, whichever is asked first, and after
    # the reader has moved on.
    two = (b"(;SZ[19]PB[Lee]PW[Cho]RE[B+R];B[pd])"
           b"(;SZ[19]PB[Gu]PW[Ke]DT[2017-05-23]RE[W+0.5];B[dd];W[pp])")
    (tmp_path / "two.sgf").write_bytes(two)
    (tmp_path / "one.sgf").write_bytes(b"(;SZ[9]PB[Iyama];B[ee])")
    games = list(qipu.read(tmp_path))
    eager = {("one.sgf", 0): qipu.read_bytes(b"(;SZ[9]PB[Iyama];B[ee])")[0]}
    eager.update({("two.sgf", i): g for i, g in enumerate(qipu.read_bytes(two))})
    for g in reversed(games):
        assert g.info == eager[(g.file, g.game)].info, g
    assert [g.info["black"] for g in games] == ["Iyama", "Lee", "Gu"]
    assert games[2].info["result"]["margin"] == 0.5
    assert games[2].moves == [("B", "dd"), ("W", "pp")]
    assert games[2].moves[0] is games[2].moves[0], "tuples are shared"


def test_bad_records_are_diagnosed_not_fatal(tmp_path):
    (tmp_path / "junk.sgf").write_bytes(b"\xff\xfe\x00garbage(;;;")
    (tmp_path / "empty.sgf").write_bytes(b"")
    (tmp_path / "bad.sgf").write_bytes(b"(;SZ[19];B[q];W[pd])")
    (tmp_path / "huge.sgf").write_bytes(b"(;SZ[99];B[aa])")
    reader = qipu.read(tmp_path)
    games = {(g.file, g.game): g for g in reader}
    bad = games[("bad.sgf", 0)]
    assert bad.moves == [("B", ""), ("W", "pd")]
    assert any("malformed point" in d for d in bad.diagnostics)
    huge = [g for (f, _), g in games.items() if f == "huge.sgf"]
    for g in huge:
        if g.rejected:
            with pytest.raises(qipu.QueryError):
                g.board()
    assert any(f == "empty.sgf" for f, _ in reader.problems)


def test_missing_input_is_an_input_error(tmp_path):
    with pytest.raises(qipu.InputError, match="nowhere"):
        qipu.read(tmp_path / "nowhere")
    with pytest.raises(qipu.Error):
        qipu.read(tmp_path / "nowhere")
