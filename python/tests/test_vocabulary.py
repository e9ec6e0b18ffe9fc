"""One vocabulary: every word of every option in crates/cli/tests/data/vocabulary.json, asked
through Python and through ``qipu search --json`` (whose answers the Rust test finds equal to the
server's): Python accepts exactly the words the CLI accepts, answers each with the same hits in
the same order, and refuses the others with the library's message."""

import json

import pytest

import qipu
from conftest import REPO, run

VOCABULARY = json.loads((REPO / "crates" / "cli" / "tests" / "data" / "vocabulary.json").read_text())


@pytest.fixture(scope="module")
def samples_index(scratch):
    out = scratch / "vocabulary-index"
    qipu.build(out, [REPO / "samples" / "games"], rebuild=True)
    return out


def by_cli(qipu_bin, index, option, word):
    board = [] if option["kind"] == "point" else ["--black="]
    r = run(qipu_bin, "search", "--json", "--index", str(index), *board, "--white=", f"{option['cli']}={word}")
    if r.returncode == 2:
        return ("refused", r.stderr)
    assert r.returncode in (0, 1), r.stderr
    out = [json.loads(l) for l in r.stdout.splitlines()]
    summary = out[-1]
    hits = [(l["file"], l["game"]) for l in out if l["type"] == "hit"]
    return ("answer", hits, summary["games"], summary["positions"])


def by_python(ix, option, word):
    board = {} if option["kind"] == "point" else {"black": ""}
    try:
        a = ix.search(**board, white="", **{option["python"]: word})
    except qipu.QueryError as e:
        return ("refused", str(e))
    return ("answer", [(h["file"], h["game"]) for h in a.hits], a.games, a.positions)


@pytest.mark.parametrize("option", VOCABULARY["options"], ids=lambda o: o["python"])
def test_every_word_means_what_it_means_to_the_cli(samples_index, qipu_bin, option):
    ix = qipu.Index(samples_index)
    answers = set()
    for word, should in [(w, True) for w in option["accepted"]] + [(w, False) for w in option["refused"]]:
        cli, py = by_cli(qipu_bin, samples_index, option, word), by_python(ix, option, word)
        assert (cli[0] == "answer") == should, (option["cli"], word, cli)
        assert (py[0] == "answer") == should, (option["python"], word, py)
        if should:
            assert py == cli, (option["python"], word)
            answers.add(tuple(py[1]))
        else:
            # The library's message, after the option's name in each client.
            message = py[1] if option["kind"] == "point" else py[1].split(": ", 1)[1]
            assert message in cli[1], (py[1], cli[1])
    assert len(answers) > 1, f"{option['python']}: every word answers alike"


def test_handicap_and_komi_keep_their_older_forms(samples_index):
    ix = qipu.Index(samples_index)
    board = {"black": "", "white": ""}
    assert ix.search(**board, handicap=True).hits == ix.search(**board, handicap="handicap").hits
    assert ix.search(**board, handicap=False).hits == ix.search(**board, handicap="any").hits
    assert ix.search(**board, komi=(6.5, 7.5)).hits == ix.search(**board, komi="6.5..7.5").hits
    assert ix.search(**board, even=True).hits == ix.search(**board, handicap="even").hits
    for bad in (dict(komi=(7.5, 6.5)), dict(komi=(float("nan"), 1.0)), dict(even=True, handicap="even")):
        with pytest.raises(qipu.QueryError):
            ix.search(**board, **bad)


def test_every_loss_word_means_what_it_means_to_the_cli(samples_index, qipu_bin):
    """The loss words of a search for mistakes: Python accepts exactly those ``qipu search
    --mistakes`` accepts, and refuses the others with the library's message. The samples carry
    no evaluations, so an accepted word answers no move in either (the moves themselves are
    compared between the CLI and the server by vocabulary.rs, over analysed games)."""
    option = VOCABULARY["mistakes"]
    ix = qipu.Index(samples_index)
    for word, should in [(w, True) for w in option["accepted"]] + [(w, False) for w in option["refused"]]:
        cli = run(qipu_bin, "search", "--json", "--index", str(samples_index), f"{option['cli']}={word}")
        try:
            a = ix.search(**{option["python"]: word})
            py = ("answer", a.hits, a.total)
        except qipu.QueryError as e:
            py = ("refused", str(e))
        assert (py[0] == "answer") == should, (word, py)
        if should:
            assert cli.returncode == 1, (word, cli.stderr)
            summary = json.loads(cli.stdout.splitlines()[-1])
            assert py == ("answer", [], summary["mistakes"]), word
        else:
            assert cli.returncode == 2, (word, cli.stdout)
            message = py[1].split(": ", 1)[1]
            assert message in cli.stderr, (py[1], cli.stderr)
