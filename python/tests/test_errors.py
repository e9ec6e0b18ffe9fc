"""Bad input raises the right exception with qipu's one-line message, never a crash."""

import pytest

import qipu


def test_no_index_is_an_index_error(tmp_path):
    with pytest.raises(qipu.IndexError, match="no index"):
        qipu.Index(tmp_path / "nowhere")


def test_a_damaged_index_is_an_index_error(fox_index, tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(fox_index, copy)
    seg = next(p for p in sorted(copy.iterdir()) if p.name.startswith("seg-"))
    games = seg / "games.bin"
    games.write_bytes(games.read_bytes()[:-7])
    with pytest.raises(qipu.IndexError):
        qipu.Index(copy)


def test_query_mistakes_are_query_errors(fox_index, tmp_path):
    ix = qipu.Index(fox_index)
    bad = [
        ({"pattern": "...\n.Z.\n"}, "line 2, column 2"),
        ({"moves": "B[pd] X[qq]"}, "move 2"),
        ({"query": "date:[2016 TO"}, None),
        ({}, "nothing to search"),
        ({"black": ["pd"], "size": 99}, None),
        ({"black": ["zz9"]}, None),
        ({"black": ["pd"], "to_move": "X"}, "to_move"),
        ({"black": ["pd"], "sort": "sideways"}, "sort"),
        ({"position": tmp_path / "missing.sgf"}, "missing.sgf"),
        ({"black": [3]}, "black/white"),
    ]
    for ask, message in bad:
        with pytest.raises(qipu.QueryError, match=message) as e:
            ix.search(**ask)
        assert "\n" not in str(e.value), ask
    with pytest.raises(qipu.QueryError, match="no game"):
        ix.game("nowhere.sgf", 0)


def test_build_errors(tmp_path):
    with pytest.raises(qipu.InputError):
        qipu.build(tmp_path / "ix", [tmp_path / "missing"])

    def boom(_):
        raise RuntimeError("stop here")

    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "a.sgf").write_bytes(b"(;SZ[19];B[pd])")
    with pytest.raises(RuntimeError, match="stop here"):
        qipu.build(tmp_path / "ix2", [tmp_path / "g"], progress=boom)
