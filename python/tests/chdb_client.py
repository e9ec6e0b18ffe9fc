"""A stand-in for ``clickhouse-client`` over chdb (ClickHouse's engine in-process), so that the
export's own ``load.sh`` can be run in tests with no server: it takes the options load.sh gives
(``--host``, ``--multiquery`` with statements on standard input, ``--query`` with an
``INSERT ... FORMAT Parquet`` whose data is standard input, and settings as ``--name=value``)
and runs them on the chdb database at ``$QIPU_CHDB_PATH``, configured by the file at
``$QIPU_CHDB_CONFIG`` (which defines the cluster). Every host is that one database."""

import os
import re
import sys
import tempfile

import chdb


def statements(text: str):
    """The statements of a script: comments dropped, split at the semicolons ending lines."""
    body = "\n".join(l.split("--", 1)[0] if not l.lstrip().startswith("--") else "" for l in text.splitlines())
    return [s.strip() for s in re.split(r";\s*\n", body + "\n") if s.strip()]


def main(argv):
    query, multi, settings = None, False, []
    it = iter(argv)
    for a in it:
        if a == "--host":
            next(it)
        elif a == "--multiquery":
            multi = True
        elif a == "--query":
            query = next(it)
        elif a.startswith("--") and "=" in a:
            name, value = a[2:].split("=", 1)
            settings.append(f"{name} = {value}")
        else:
            sys.exit(f"chdb_client: unknown argument {a!r}")
    conn = chdb.connect(f"{os.environ['QIPU_CHDB_PATH']}?config-file={os.environ['QIPU_CHDB_CONFIG']}")
    cur = conn.cursor()
    suffix = f" SETTINGS {', '.join(settings)}" if settings else ""
    if multi:
        for s in statements(sys.stdin.read()):
            cur.execute(s)
    else:
        m = re.fullmatch(r"\s*INSERT INTO (\S+) FORMAT Parquet\s*", query or "")
        if not m:
            sys.exit(f"chdb_client: only INSERT ... FORMAT Parquet is supported, not {query!r}")
        with tempfile.NamedTemporaryFile(suffix=".parquet") as f:
            f.write(sys.stdin.buffer.read())
            f.flush()
            cur.execute(f"INSERT INTO {m.group(1)} SELECT * FROM file('{f.name}', Parquet){suffix}")
    conn.close()


if __name__ == "__main__":
    main(sys.argv[1:])
