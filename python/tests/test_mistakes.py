"""Mistakes and players through Python: the words read as the library reads them (a refusal is
the library's message, as ``qipu player`` prints it), a player's figures equal to ``qipu player
--json``, and the options a search for mistakes does not take refused.

The sample games carry no engine evaluations: over them the answer is empty (no rows, no
analysed games). The evaluation fixtures (records analysed by KataGo, Sabaki, Lizzie, KaTrain…)
are indexed by ``qipu.build`` with their evaluations, and their mistakes, alone and from a
pattern or a move sequence, are those ``qipu search --mistakes --json`` prints."""

import json
from pathlib import Path

import pytest

import qipu
from conftest import run

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "games"
ANALYSED = Path(__file__).resolve().parents[2] / "crates" / "sgf" / "tests" / "evals"


@pytest.fixture(scope="module")
def samples_index(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("mistakes") / "index"
    qipu.build(out, [SAMPLES])
    return out


def test_a_search_for_mistakes_answers_the_librarys_shape(samples_index):
    ix = qipu.Index(samples_index)
    for ask in ({}, {"query": 'player:"Lee Sedol"'}, {"black": ["pd"], "white": []},
                {"player": "Lee Sedol", "since": "2016", "sort": "newest"},
                {"pattern": "X.\n.."}, {"moves": "B[pd] W[qc]", "any_gap": True}):
        a = ix.search(mistakes="10%,3pt", **ask)
        assert isinstance(a, qipu.MistakesAnswer), ask
        assert (a.hits, a.total, a.analysed_games) == ([], 0, 0), ask
        assert a.elapsed_ms >= 0
    # A bad pattern is the library's to refuse, with its message.
    with pytest.raises(qipu.QueryError, match="pattern"):
        ix.search(mistakes="10%", pattern="X.\nZ.")


def test_a_bad_word_is_the_librarys_refusal(samples_index, qipu_bin):
    ix = qipu.Index(samples_index)
    for word in ["10", "lots", "120%", "3pt,4pt"]:
        cli = run(qipu_bin, "player", "Lee Sedol", "--index", str(samples_index),
                  "--mistakes", word)
        assert cli.returncode == 2, word
        with pytest.raises(qipu.QueryError) as e:
            ix.search(mistakes=word)
        said = str(e.value)
        assert said.startswith("mistakes: "), said
        # The library's one line, as the CLI prints it after its option's name.
        assert said[len("mistakes: "):] in cli.stderr, (said, cli.stderr)
        with pytest.raises(qipu.QueryError, match="^mistakes: "):
            ix.player("Lee Sedol", mistakes=word)


def test_options_a_search_for_mistakes_does_not_take_are_refused(samples_index):
    ix = qipu.Index(samples_index)
    for ask in ({"with_copies": True}, {"by_month": True}, {"then": "Q17"}):
        name = next(iter(ask))
        with pytest.raises(qipu.QueryError, match=f"^{name}: "):
            ix.search(mistakes="10%", **ask)
    with pytest.raises(qipu.QueryError, match="^player: "):
        ix.search(query="winner:B", player="Lee Sedol")


def test_a_players_figures_are_qipu_players(samples_index, qipu_bin):
    ix = qipu.Index(samples_index)
    for name, words in (("Lee Sedol", []), ("Lee Sedol", ["--mistakes", "3pt"]), ("Nobody", [])):
        cli = run(qipu_bin, "player", name, "--index", str(samples_index), "--json", *words)
        assert cli.returncode == 0, cli.stderr
        got = ix.player(name, mistakes=words[1] if words else None)
        assert got == json.loads(cli.stdout), name
    lee = ix.player("Lee Sedol")
    assert lee["games"] == 5 and lee["mistake"] == "10%"
    assert lee["total"]["games"] == 0 and lee["years"] == []


def test_mistakes_of_analysed_games_are_the_clis(tmp_path, qipu_bin):
    out = tmp_path / "index"
    qipu.build(out, [ANALYSED])
    ix = qipu.Index(out)
    diagram = tmp_path / "shape.txt"
    diagram.write_text("...\n.X.\n...\n")
    cases = [
        ({}, []),
        ({"pattern": "...\n.X.\n...", "anywhere": True, "size": 5},
         ["--pattern", str(diagram), "--anywhere", "--size", "5"]),
        ({"moves": "B[dd]", "any_gap": True, "size": 5},
         ["--moves", "B[dd]", "--any-gap", "--size", "5"]),
    ]
    for ask, words in cases:
        a = ix.search(mistakes="0%", **ask)
        assert a.analysed_games > 0
        cli = run(qipu_bin, "search", "--index", str(out), "--mistakes", "0%", "--json", *words)
        assert cli.returncode == 0, cli.stderr
        lines = [json.loads(line) for line in cli.stdout.splitlines()]
        rows = [line for line in lines if line["type"] == "mistake"]
        key = lambda h: (h["game"], h["move_number"], h["color"], h["point"], h["loss"]["win"])
        assert [key(h) for h in a.hits] == [key(h) for h in rows], ask
        summary = next(line for line in lines if line["type"] == "summary")
        assert a.total == summary["mistakes"], ask
        # Each case finds something to compare.
        assert a.total > 0, ask
