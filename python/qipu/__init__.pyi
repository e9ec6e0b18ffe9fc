"""Type stubs of the qipu package (see qipu/__init__.py for the documentation)."""

import os
from typing import Any, Iterable, Iterator, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

PathLike = Union[str, os.PathLike[str]]

TABLE_STONES: int
TABLE_MOVES: int

class Error(Exception): ...
class QueryError(Error): ...
class IndexError(Error): ...
class InputError(Error): ...

class Answer:
    hits: list[dict[str, Any]]
    continuations: list[dict[str, Any]]
    games: int
    profile: dict[str, Any]
    positions: int
    variations: int
    no_continuation: Optional[int]
    elapsed_ms: float
    def __init__(self, hits: list, continuations: list, profile: dict, summary: dict) -> None: ...
    def to_arrow(self, table: str = "hits") -> Any: ...
    def to_pandas(self, table: str = "hits") -> Any: ...

class MistakesAnswer:
    hits: list[dict[str, Any]]
    total: int
    analysed_games: int
    elapsed_ms: float
    def __init__(self, answer: dict) -> None: ...

class Game:
    @property
    def file(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def game(self) -> int: ...
    @property
    def format(self) -> str: ...
    @property
    def size(self) -> Tuple[int, int]: ...
    @property
    def info(self) -> dict[str, Any]: ...
    @property
    def moves(self) -> list[Tuple[str, str]]: ...
    @property
    def diagnostics(self) -> list[str]: ...
    @property
    def rejected(self) -> Optional[str]: ...
    @property
    def evaluations(self) -> Optional[dict[str, Any]]: ...
    def board(self, at: Optional[int] = None) -> npt.NDArray[np.int8]: ...

class Reader(Iterator[Game]):
    def __iter__(self) -> "Reader": ...
    def __next__(self) -> Game: ...
    @property
    def problems(self) -> list[Tuple[str, str]]: ...

class Index:
    path: Optional[str]
    paths: list[str]
    def __init__(self, path: Union[PathLike, Sequence[PathLike]]) -> None: ...
    def __len__(self) -> int: ...
    def search(
        self,
        *,
        position: Optional[PathLike] = None,
        at: Optional[int] = None,
        black: Union[None, str, Sequence[str]] = None,
        white: Union[None, str, Sequence[str]] = None,
        size: int = 19,
        pattern: Optional[PathLike] = None,
        place: Optional[Tuple[int, int]] = None,
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
        within: Optional[Iterable[Tuple[str, int]]] = None,
        with_copies: bool = False,
        since: Optional[str] = None,
        until: Optional[str] = None,
        min_rank: Optional[str] = None,
        even: bool = False,
        handicap: Union[bool, str] = False,
        komi: Union[None, Tuple[float, float], str] = None,
        by_month: bool = False,
        then: Union[None, str, Sequence[str]] = None,
        mistakes: Optional[str] = None,
        player: Optional[str] = None,
    ) -> Union[Answer, MistakesAnswer]: ...
    def player(self, name: str, mistakes: Optional[str] = None) -> dict[str, Any]: ...
    def game(self, file: str, game: int = 0) -> Game: ...
    def stats(self, top: int = 10) -> dict[str, Any]: ...
    def export_parquet(self, out: PathLike) -> dict[str, Any]: ...

def read(*paths: Union[PathLike, Iterable[PathLike]]) -> Reader: ...
def read_bytes(data: bytes, name: str = "-") -> list[Game]: ...
def build(
    index_dir: PathLike,
    inputs: Union[PathLike, Sequence[PathLike]],
    progress: Optional[Any] = None,
    *,
    rebuild: bool = False,
    aliases: Optional[PathLike] = None,
    variations: Optional[bool] = None,
) -> dict[str, Any]: ...
