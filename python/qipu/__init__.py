"""qipu for data work: search an index of Go (weiqi, baduk) game records from Python, and read
records (every format qipu reads) as Python values and numpy boards.

    import qipu
    ix = qipu.Index("~/go-index")
    answer = ix.search(black=["pd", "dp"], white=["dd"])
    answer.games, answer.hits[0]["file"], answer.continuations[0]["point"]
    hits = answer.to_pandas()                      # or .to_pandas("continuations"), .to_arrow()
    for game in qipu.read("games/"):               # files, folders, archives
        game.info["black"], game.moves[:3], game.board(at=50)

Everything is answered by qipu's Rust library (the same answers as ``qipu search --json``);
the GIL is released while it works, so threads can search in parallel. Failures are
exceptions with qipu's one-line message: ``QueryError`` (the query, a game or a move asked
for), ``IndexError`` (the index or the machine), ``InputError`` (an input that cannot be read),
all of them ``qipu.Error``.
"""

from __future__ import annotations

import os
from typing import Any, Iterable, Iterator, Optional, Sequence, Union

from . import _qipu
from ._qipu import Error, IndexError, InputError, QueryError, TABLE_MOVES, TABLE_STONES

__all__ = [
    "Answer",
    "Error",
    "Game",
    "Index",
    "IndexError",
    "InputError",
    "MistakesAnswer",
    "QueryError",
    "TABLE_MOVES",
    "TABLE_STONES",
    "build",
    "read",
    "read_bytes",
]

PathLike = Union[str, "os.PathLike[str]"]

_TABLES = ("hits", "continuations")


class Answer:
    """The answer to a search: ``games`` and ``positions`` counted over all hits, ``hits`` (a
    dict per hit game: ``file``, ``game``, ``moves``, ``black``, ``white``, ``date``, ``result``,
    ``event``, ``copy``, ``path``, and ``variation`` — ``path``, ``from`` — on a variation line
    of an index built with ``variations=True``), ``continuations`` (a dict per next move:
    ``color``, ``point``, ``count``, ``black_wins``, ``white_wins``, ``other``, ``mover_rank``
    and ``opponent_rank`` (mean ranks, 1k = 0, 1d = 1, 1p = 11) over ``mover_ranked`` and
    ``opponent_ranked`` positions, ``first_year``, ``last_year``, ``example`` (``FILE#GAME``),
    ``variations`` when variation lines played it; ``analysed``, ``black_win_after``,
    ``black_lead_after``, ``win_loss``, ``points_loss``: the engine's means over the analysed
    games that played it (0 and ``None`` without); ``tenuki``: of ``count``, how many came after
    moves elsewhere, for a pattern's or a sequence's row, the first move played later inside its
    region), ``profile`` (the hit games by year:
    ``{"years": [{"year", "games", "black_wins", "white_wins"}], "undated"}``, with
    ``by_month=True`` also ``months`` and ``no_month``), ``variations`` (hit variation lines)
    ``no_continuation`` (for patterns and sequences, the hit positions after which nothing was
    played in the region; else ``None``) and ``elapsed_ms`` (the search's time). Each dict is what a line of ``qipu search --json``
    holds, without its ``type``."""

    __slots__ = ("hits", "continuations", "profile", "games", "positions", "variations",
                 "no_continuation", "elapsed_ms")

    def __init__(self, hits: list, continuations: list, profile: dict, summary: dict) -> None:
        self.hits = hits
        self.continuations = continuations
        self.profile = profile
        self.games = summary["games"]
        self.positions = summary["positions"]
        self.variations = summary.get("variations", 0)
        self.no_continuation = summary.get("no_continuation")
        self.elapsed_ms = summary["elapsed_ms"]

    def _rows(self, table: str) -> list:
        if table not in _TABLES:
            raise QueryError(f"table {table!r}: give 'hits' or 'continuations'")
        return self.hits if table == "hits" else self.continuations

    def to_arrow(self, table: str = "hits"):
        """The hits (or ``"continuations"``) as a ``pyarrow.Table``."""
        import pyarrow as pa

        rows = self._rows(table)
        if rows:
            return pa.Table.from_pylist(rows)
        return pa.Table.from_pylist([], schema=_empty_schema(table))

    def to_pandas(self, table: str = "hits"):
        """The hits (or ``"continuations"``) as a ``pandas.DataFrame``."""
        import pandas as pd

        rows = self._rows(table)
        columns = _HIT_COLUMNS if table == "hits" else _CONTINUATION_COLUMNS
        return pd.DataFrame(rows, columns=columns)

    def __repr__(self) -> str:
        return (
            f"<qipu.Answer {self.games} games, {self.positions} positions, "
            f"{len(self.continuations)} continuations, {self.elapsed_ms} ms>"
        )


_HIT_COLUMNS = ["file", "game", "moves", "black", "white", "date", "result", "event", "copy", "path"]
_CONTINUATION_COLUMNS = ["color", "point", "count", "black_wins", "white_wins", "other",
                         "mover_rank", "mover_ranked", "opponent_rank", "opponent_ranked",
                         "first_year", "last_year", "example", "variations", "analysed",
                         "black_win_after", "black_lead_after", "win_loss", "points_loss"]


class MistakesAnswer:
    """The answer to a search for mistakes: ``hits`` (a dict per move: ``game``,
    ``move_number``, ``color``, ``point``, ``loss`` — ``win``, ``points`` —, ``before`` and
    ``after`` — ``black_win``, ``black_lead``, ``visits`` —, ``info``: the library's rows),
    ``total`` (the moves that lost enough), ``analysed_games`` (the games searched) and
    ``elapsed_ms``."""

    __slots__ = ("hits", "total", "analysed_games", "elapsed_ms")

    def __init__(self, answer: dict) -> None:
        self.hits = answer["hits"]
        self.total = answer["total"]
        self.analysed_games = answer["analysed_games"]
        self.elapsed_ms = answer["search_ms"]

    def __repr__(self) -> str:
        return (
            f"<qipu.MistakesAnswer {self.total} moves in {self.analysed_games} analysed games, "
            f"{self.elapsed_ms} ms>"
        )


def _empty_schema(table: str):
    import pyarrow as pa

    if table == "hits":
        s = pa.string()
        return pa.schema(
            [("file", s), ("game", pa.int64()), ("moves", pa.list_(pa.int64())), ("black", s),
             ("white", s), ("date", s), ("result", s), ("event", s), ("copy", pa.bool_()),
             ("path", s)]
        )
    i = pa.int64()
    return pa.schema(
        [("color", pa.string()), ("point", pa.string()), ("count", i), ("black_wins", i),
         ("white_wins", i), ("other", i), ("mover_rank", pa.float64()), ("mover_ranked", i),
         ("opponent_rank", pa.float64()), ("opponent_ranked", i), ("first_year", i),
         ("last_year", i), ("example", pa.string()), ("variations", i), ("analysed", i),
         ("black_win_after", pa.float64()), ("black_lead_after", pa.float64()),
         ("win_loss", pa.float64()), ("points_loss", pa.float64())]
    )


Game = _qipu.Game




class Index:
    """An index of game records (made by ``qipu index`` or ``qipu.build``), opened for
    searching. Opening reads little and locks nothing; share one among threads."""

    __slots__ = ("_ix", "path", "paths")

    def __init__(self, path: Union[PathLike, Sequence[PathLike]]) -> None:
        # Several folders (a list or tuple) are searched as one index holding all their
        # games, numbered in that order: shards of one corpus, answers merged exactly.
        paths = [path] if isinstance(path, (str, bytes, os.PathLike)) else list(path)
        self.paths = [os.fspath(p) for p in paths]
        self.path = self.paths[0] if len(self.paths) == 1 else None
        self._ix = _qipu.Index([os.path.expanduser(p) for p in self.paths])

    def __len__(self) -> int:
        return len(self._ix)

    def search(
        self,
        *,
        position: Optional[PathLike] = None,
        at: Optional[int] = None,
        black: Union[None, str, Sequence[str]] = None,
        white: Union[None, str, Sequence[str]] = None,
        size: int = 19,
        pattern: Optional[PathLike] = None,
        place: Optional[tuple] = None,
        anywhere: bool = False,
        moves: Optional[str] = None,
        any_order: bool = False,
        any_gap: bool = False,
        query: Optional[str] = None,
        symmetry: bool = True,
        swap_colors: bool = False,
        to_move: Optional[str] = None,
        limit: Optional[int] = None,
        offset: int = 0,
        sort: str = "indexed",
        within: Optional[Iterable[tuple]] = None,
        with_copies: bool = False,
        since: Optional[str] = None,
        until: Optional[str] = None,
        min_rank: Optional[str] = None,
        even: bool = False,
        handicap: Union[bool, str] = False,
        komi: Union[None, tuple, str] = None,
        by_month: bool = False,
        then: Union[None, str, Sequence[str]] = None,
        mistakes: Optional[str] = None,
        player: Optional[str] = None,
    ) -> Union[Answer, "MistakesAnswer"]:
        """Searches the index, as ``qipu search`` does: a position (``position=FILE`` with
        ``at=K``, or typed points ``black=[...]``, ``white=[...]``), a ``pattern`` (a diagram's
        text or its file: ``X O . ? x o``; ``place=(column, row)``, ``anywhere=True``), a move
        sequence (``moves="B[pd] W[dp]"`` or a record file: by default played as a joseki is, in
        order, nothing else played in its area, within a bounded span, as ``qipu search --moves``
        says; ``any_order=True`` as a set, ``any_gap=True`` anywhere later with anything
        between) or a
        game-information ``query`` (alone, or narrowing the others). ``symmetry``,
        ``swap_colors`` and ``to_move`` (``B``, ``W``, ``b``, ``w``, ``black``, ``white``) as
        their CLI options; ``limit`` and
        ``offset`` cut the hits (the counts and continuations are over all of them); ``sort``
        is ``indexed``, ``newest`` (or ``date``), ``oldest``, ``strongest`` (``rank``: the
        weaker player's rank, then the stronger's), ``longest`` (``length``) or
        ``most_positions`` (``positions``); ``within``, a list of ``(file, game)`` pairs as hits name games,
        searches those games only; ``with_copies`` counts every exact copy in the continuations
        and profile (by default a copy counts once, as ``--with-copies`` says for the CLI).
        Filters on the games' facts narrow the whole answer — hits, continuations and profile —
        as the CLI's flags of the same names: ``since="2016"`` and ``until="2017-06"`` (months;
        a year-only date counts as its January, undated games are left out), ``min_rank="7d"``
        (both players at least that), ``even=True`` or ``handicap=True`` (or a class: ``"even"``, ``"handicap"``, ``"any"``),
        ``komi=(6.5, 7.5)`` (or ``"6.5..7.5"``);
        ``by_month=True`` profiles per month too. ``then`` walks a pattern on, as ``qipu search
        --then`` does: each step (``"Q17"``, ``"W:Q17"``; a list, or one string ``"Q17,R14"``)
        must be a row of the current pattern's continuation table, whose stone is added to the
        pattern before it is searched again.

        ``mistakes="10%"`` (or ``"3pt"``, ``"10%,3pt"``: the words of ``qipu search
        --mistakes``) asks instead the moves of analysed games that lost at least that, from
        every analysed game or among the moves a position's, pattern's or sequence's continuation
        rows count, narrowed by the same filters and
        ``query``; ``player`` counts only his own moves; ``sort`` by loss (``indexed``, the
        default) or date (``oldest``, ``newest``). It answers a ``MistakesAnswer``."""
        if mistakes is not None:
            unused = [name for name, given in (("with_copies", with_copies),
                                               ("by_month", by_month),
                                               ("then", then is not None)) if given]
            if unused:
                raise QueryError(f"{unused[0]}: a search for mistakes does not take it")
            answer = self._ix.search_mistakes(
                mistakes,
                player=player,
                position=None if position is None else os.fspath(position),
                at=at,
                black=black,
                white=white,
                size=size,
                pattern=None if pattern is None else os.fspath(pattern),
                place=place,
                anywhere=anywhere,
                moves=moves,
                any_order=any_order,
                any_gap=any_gap,
                query=query,
                symmetry=symmetry,
                swap_colors=swap_colors,
                to_move=to_move,
                limit=limit,
                offset=offset,
                sort=sort,
                within=None if within is None else [(str(f), int(g)) for f, g in within],
                since=since,
                until=until,
                min_rank=min_rank,
                even=even,
                handicap=handicap,
                komi=komi if komi is None or isinstance(komi, str) else (float(komi[0]), float(komi[1])),
            )
            return MistakesAnswer(answer)
        if player is not None:
            raise QueryError("player: give mistakes too (a player's own moves that lost it)")
        hits, continuations, profile, summary = self._ix.search_lines(
            position=None if position is None else os.fspath(position),
            at=at,
            black=black,
            white=white,
            size=size,
            pattern=None if pattern is None else os.fspath(pattern),
            place=place,
            anywhere=anywhere,
            moves=moves,
            any_order=any_order,
            any_gap=any_gap,
            query=query,
            symmetry=symmetry,
            swap_colors=swap_colors,
            to_move=to_move,
            limit=limit,
            offset=offset,
            sort=sort,
            within=None if within is None else [(str(f), int(g)) for f, g in within],
            with_copies=with_copies,
            since=since,
            until=until,
            min_rank=min_rank,
            even=even,
            handicap=handicap,
            komi=komi if komi is None or isinstance(komi, str) else (float(komi[0]), float(komi[1])),
            by_month=by_month,
            then=then if then is None or isinstance(then, str) else ",".join(then),
        )
        return Answer(hits, continuations, profile, summary)

    def game(self, file: str, game: int = 0) -> "Game":
        """The indexed game ``game`` of record file ``file`` (as a hit names them), read from the
        record the index keeps: ``.info``, ``.moves``, ``.board(at=k)`` as ``qipu.read`` gives."""
        return self._ix.game(file, game)

    def player(self, name: str, mistakes: Optional[str] = None) -> dict:
        """``name``'s play as the engine judged it, by year, as ``qipu player --json`` prints
        it: ``player``, ``mistake``, ``games``, ``years`` and ``total`` (each row ``year``,
        ``games``, ``moves``, ``mean_win_loss``, ``score_moves``, ``mean_score_loss``,
        ``mistakes``, ``mistakes_per_game``); ``mistakes`` is the threshold's word (default
        ``"10%"``)."""
        return self._ix.player(name, mistakes=mistakes)

    def stats(self, top: int = 10) -> dict:
        """Counts and sizes, as ``qipu stats --json`` prints them."""
        return self._ix.stats(top)

    def export_parquet(self, out: PathLike) -> dict:
        """Writes the index as Parquet files into the folder ``out``, as ``qipu export`` does
        (``games.parquet``, ``positions.parquet``, ``hash_keys.parquet``)."""
        return self._ix.export_parquet(os.fspath(out))

    def __repr__(self) -> str:
        where = self.path if self.path is not None else self.paths
        return f"<qipu.Index {where!r} {len(self)} games>"


def read(*paths: Union[PathLike, Iterable[PathLike]]) -> Iterator["Game"]:
    """Every game of files, folders (searched recursively) and archives (``.zip``, ``.tar``,
    ``.tar.gz``, ``.tar.zst``, ``.sgf.zst``), in every format qipu reads, as ``qipu index``
    reads them: an iterator of ``Game`` (``.file``, ``.game``, ``.info``, ``.moves``,
    ``.diagnostics``, ``.rejected``, ``.board(at=k)``). Files are read in batches on all
    cores. The iterator's ``problems`` lists what could not be read, as (file, message)."""
    flat = []
    for p in paths:
        if isinstance(p, (str, os.PathLike)):
            flat.append(os.fspath(p))
        else:
            flat.extend(os.fspath(q) for q in p)
    return _qipu.read(flat)


def read_bytes(data: bytes, name: str = "-") -> list:
    """The games of one record file's bytes (any format qipu reads)."""
    return _qipu.read_bytes(bytes(data), name)


def build(index_dir: PathLike, inputs: Union[PathLike, Sequence[PathLike]], progress=None,
          *, rebuild: bool = False, aliases: Optional[PathLike] = None,
          variations: Optional[bool] = None) -> dict:
    """Builds the index in ``index_dir`` from ``inputs`` (files, folders, archives), or adds
    what is new to it; ``progress(dict)`` is called as it goes (``games``, ``bytes_read``,
    ``bytes_total``). ``aliases`` is a player alias list (as ``qipu index --aliases``);
    ``variations=True`` also indexes every variation line of each record (as ``qipu index
    --variations``: each searchable, its hits marked ``variation``), ``False`` not, ``None``
    keeps the index's setting (a new index: not). Returns the build's summary (what ``qipu
    index`` reports)."""
    if isinstance(inputs, (str, os.PathLike)):
        inputs = [inputs]
    return _qipu.build(
        os.fspath(index_dir),
        [os.fspath(i) for i in inputs],
        progress=progress,
        rebuild=rebuild,
        aliases=None if aliases is None else os.fspath(aliases),
        variations=variations,
    )
