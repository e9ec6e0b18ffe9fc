"""Shared fixtures: the shared datasets and oracle (``../shared`` beside the repository, found
as the Rust tests find them; without them these tests skip, unless QIPU_REQUIRE_DATASETS=1, as
in CI, makes their absence a failure), the ``qipu`` binary to compare with, and one index of
``fox-pro`` built through ``qipu.build`` for the whole session."""

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

import qipu

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"


def required() -> bool:
    return os.environ.get("QIPU_REQUIRE_DATASETS") == "1"


def shared(*parts: str) -> Path:
    """A path under the shared folder; skips (or fails, when required) if it is absent."""
    p = SHARED.joinpath(*parts)
    if not p.exists():
        if required():
            pytest.fail(f"{p} is missing (QIPU_REQUIRE_DATASETS=1)")
        pytest.skip(f"{p} is not present")
    return p


def lines(path: Path) -> list:
    with open(path, encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


@pytest.fixture(scope="session")
def qipu_bin() -> str:
    b = os.environ.get("QIPU_BIN") or str(REPO / "target" / "release" / "qipu")
    if not Path(b).is_file():
        pytest.fail(f"no qipu binary at {b} (scripts/test-python builds it)")
    return b


@pytest.fixture(scope="session")
def scratch():
    d = Path(tempfile.mkdtemp(prefix="qipu-pytest-"))
    yield d
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(scope="session")
def fox_index(scratch) -> Path:
    data = shared("datasets", "fox-pro")
    seen = []
    out = scratch / "fox-index"
    summary = qipu.build(out, [data], progress=seen.append, rebuild=True)
    assert summary["added"]["games"] > 10_000
    assert seen and seen[-1]["games"] == summary["added"]["games"]
    return out


@pytest.fixture(scope="session")
def fox_universe() -> list:
    """The games the oracle replayed, as (file, game) pairs: excluded games neither hit nor
    count (see the oracle's README)."""
    return [(u["file"], u["game"]) for u in lines(shared("oracle", "fox-pro", "universe.jsonl"))]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, check=False)
