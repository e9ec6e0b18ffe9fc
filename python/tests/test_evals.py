"""Engine evaluations through ``Game.evaluations``: the same as ``qipu info --json`` gives,
from Black's side, for a record of each kind."""

import json
import os

import qipu
from conftest import run

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "crates", "sgf", "tests", "evals")


def test_evaluations_are_qipu_infos_from_blacks_side(qipu_bin):
    for name in sorted(os.listdir(FIXTURES)):
        path = os.path.join(FIXTURES, name)
        games = list(qipu.read(path))
        assert len(games) == 1, name
        r = run(qipu_bin, "info", "--json", path)
        assert r.returncode == 0, r.stderr
        assert games[0].evaluations == json.loads(r.stdout)["evaluations"], name
    (game,) = qipu.read(os.path.join(FIXTURES, "sabaki.sgf"))
    ev = game.evaluations
    assert (ev["program"], ev["engine"]) == ("Sabaki", None)
    # After White's move White leads: Sabaki wrote Black's 23.5% and -6.25.
    second = ev["positions"][2]
    assert second["move"] == 2
    assert abs(second["win"] - 0.235) < 1e-6 and abs(second["lead"] + 6.25) < 1e-6
    assert second["visits"] is None


def test_a_game_without_evaluations_has_none(tmp_path):
    p = tmp_path / "plain.sgf"
    p.write_text("(;GM[1]SZ[19];B[pd];W[dd])")
    (game,) = qipu.read(p)
    assert game.evaluations is None
