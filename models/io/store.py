"""``.headroom`` files: SQLite application files holding the spec's design document.

Format
------
One SQLite file (journal_mode DELETE, no ``-wal``/``-shm`` side files) whose header carries
``PRAGMA application_id = 0x48445231`` (ASCII ``"HDR1"``, :data:`APPLICATION_ID`) and
``PRAGMA user_version`` = the schema version (:mod:`models.io.migrations`).  Table ``document``
holds the canonical design JSON (exactly :func:`models.document.design.design_to_json`) under key
``'design'``; ``meta``, ``component``, ``link`` and ``scenario`` are queryable copies for
other tools and are ignored when loading.

Opening untrusted files
-----------------------
The header is checked by hand first (SQLite treats an empty file as a valid empty database).
The file is then opened through a read-only URI (``mode=ro``; not ``immutable=1``, which
turns off locking and hot-journal handling and so could read a file mid-write by another
program as garbage), with ``trusted_schema=OFF``, ``cell_size_check=ON``, ``mmap_size=0``,
tight connection limits and a progress-handler deadline; ``quick_check`` and the
application id are checked, then the pages are copied to memory with the backup API and
everything else (migrations, reading) happens on the copy.  The input is never written.

Saving
------
The design is built in memory, copied with the backup API into a temporary file in the same
folder, fsynced, renamed over the target with ``os.replace`` and the folder is fsynced: a save
killed at any moment leaves the previous file intact.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import struct
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from models.document.codec import design_to_dict, document_json, loads, raise_invalid_text
from models.document.design import Design, DesignError, Issue
from models.document.numbers import with_unit
from models.io import migrations
from models.io.atomic import fsync_dir, mode_for
from models.io.paths import require_regular_file

APPLICATION_ID = 0x48445231
"""``PRAGMA application_id`` of every ``.headroom`` file: ASCII "HDR1"."""

MAX_FILE_BYTES = 256 * 1024 * 1024
"""Larger files are refused before SQLite sees them (a design is kilobytes to a few MB)."""

OPEN_DEADLINE_S = 10.0
"""Wall-clock budget for checking and copying a file; a slower file is refused, not waited on."""

_HEADER = b"SQLite format 3\x00"

_LIMITS = {
    "SQLITE_LIMIT_LENGTH": 64 * 1024 * 1024,  # largest string/blob: the design JSON
    "SQLITE_LIMIT_SQL_LENGTH": 100_000,
    "SQLITE_LIMIT_COLUMN": 100,
    "SQLITE_LIMIT_EXPR_DEPTH": 100,
    "SQLITE_LIMIT_COMPOUND_SELECT": 10,
    "SQLITE_LIMIT_VDBE_OP": 250_000,
    "SQLITE_LIMIT_FUNCTION_ARG": 8,
    "SQLITE_LIMIT_ATTACHED": 0,
    "SQLITE_LIMIT_LIKE_PATTERN_LENGTH": 100,
    "SQLITE_LIMIT_VARIABLE_NUMBER": 100,
    "SQLITE_LIMIT_TRIGGER_DEPTH": 10,
}


def _version() -> str:
    try:
        return metadata.version("headroom")
    except metadata.PackageNotFoundError:  # running from a checkout without install
        return "0.1.0"


def _err(path: Path, message: str) -> DesignError:
    return DesignError([Issue(str(path), message)])


# --------------------------------------------------------------------------- load


def load(path: Path) -> Design:
    """Read a ``.headroom`` file, or raise :class:`DesignError` saying what is wrong with it."""
    path = require_regular_file(path)
    version = _check_header(path)
    with _open_copy(path) as mem:
        _check_schema(path, mem, version)
        if version < migrations.SCHEMA_VERSION:
            try:
                migrations.migrate(mem, version)
            except sqlite3.Error as err:
                raise _err(path, f"could not upgrade from file version {version}: {err}") \
                    from None
        text = _design_text(path, mem)
    try:
        return loads(text)
    except RecursionError:
        raise _err(path, "the design JSON is nested too deeply to be a Headroom design") \
            from None
    except DesignError as err:
        raise DesignError([Issue(f"{path.name}: {i.where}", i.message, i.prop)
                           for i in err.issues]) from None


def _check_header(path: Path) -> int:
    """Check the first 100 bytes; returns the file's schema version."""
    try:
        size = path.stat().st_size
        with path.open("rb") as f:
            head = f.read(100)
    except OSError as err:
        raise _err(path, f"cannot read: {err.strerror or err}") from None
    if size == 0:
        raise _err(path, "the file is empty (0 bytes), not a Headroom design")
    if size > MAX_FILE_BYTES:
        raise _err(path, f"the file is {with_unit(size, 'bytes')}; Headroom designs are at"
                         f" most {with_unit(MAX_FILE_BYTES, 'bytes')}")
    if not head.startswith(_HEADER):
        raise _err(path, "not a Headroom design file (not an SQLite database); "
                         "JSON designs must end in .json")
    if len(head) < 100:
        raise _err(path, "the file is truncated (shorter than an SQLite header)")
    if head[18] == 2 or head[19] == 2:
        raise _err(path, "the database uses a write-ahead log (WAL); Headroom designs are "
                         "single files in rollback-journal mode")
    user_version, app_id = struct.unpack(">i", head[60:64])[0], \
        struct.unpack(">I", head[68:72])[0]
    if app_id != APPLICATION_ID:
        raise _err(path, f"an SQLite database, but not a Headroom design (application_id "
                         f"0x{app_id:08X}, expected 0x{APPLICATION_ID:08X})")
    return _check_version(path, user_version)


def _check_version(path: Path, version: int) -> int:
    if version > migrations.SCHEMA_VERSION:
        raise _err(path, f"made by a newer Headroom (file version {version}; this version "
                         f"reads up to {migrations.SCHEMA_VERSION}); please upgrade Headroom")
    if version < 1:
        raise _err(path, f"unknown file version {version}")
    return version


def _harden(conn: sqlite3.Connection, deadline: float) -> None:
    for name, value in _LIMITS.items():
        conn.setlimit(getattr(sqlite3, name), value)
    conn.execute("PRAGMA trusted_schema = OFF")
    conn.execute("PRAGMA cell_size_check = ON")
    conn.execute("PRAGMA mmap_size = 0")
    conn.set_progress_handler(lambda: int(time.monotonic() > deadline), 100)


@contextlib.contextmanager
def _open_copy(path: Path) -> Iterator[sqlite3.Connection]:
    """Check ``path`` read-only and yield an in-memory copy of it."""
    deadline = time.monotonic() + OPEN_DEADLINE_S
    uri = path.resolve().as_uri() + "?mode=ro"
    src: sqlite3.Connection | None = None
    mem = sqlite3.connect(":memory:", isolation_level=None)
    try:
        try:
            src = sqlite3.connect(uri, uri=True, timeout=0.0, isolation_level=None)
            _harden(src, deadline)
            rows = src.execute("PRAGMA quick_check").fetchall()
            if [tuple(r) for r in rows] != [("ok",)]:
                detail = "; ".join(str(r[0]) for r in rows[:3])
                raise _err(path, f"the file is damaged (SQLite quick_check: {detail})")
            app_id = int(src.execute("PRAGMA application_id").fetchone()[0])
            if app_id != APPLICATION_ID:
                raise _err(path, f"an SQLite database, but not a Headroom design "
                                 f"(application_id 0x{app_id & 0xFFFFFFFF:08X})")
            _check_version(path, int(src.execute("PRAGMA user_version").fetchone()[0]))
            src.backup(mem)
        except sqlite3.OperationalError as err:
            if "interrupt" in str(err):
                raise _err(path, f"took longer than {OPEN_DEADLINE_S:.0f} s to check; "
                                 "refusing it") from None
            raise _err(path, f"cannot open as a Headroom design: {err}") from None
        except sqlite3.Error as err:
            raise _err(path, f"the file is damaged or not a Headroom design: {err}") from None
        finally:
            if src is not None:
                src.close()
        _harden(mem, deadline)
        yield mem
    finally:
        mem.close()


def _check_schema(path: Path, mem: sqlite3.Connection, version: int) -> set[str]:
    """Refuse anything a Headroom file never has: triggers, views, unknown tables."""
    try:
        rows = mem.execute("SELECT type, name FROM sqlite_schema").fetchall()
    except sqlite3.Error as err:
        raise _err(path, f"the file's schema cannot be read: {err}") from None
    odd = [f"{t} '{n}'" for t, n in rows if t not in ("table", "index")]
    if odd:
        raise _err(path, "not a Headroom design: it contains " + ", ".join(odd[:5]))
    tables = {str(n) for t, n in rows if t == "table"}
    want = migrations.TABLES[version]
    if want - tables:
        raise _err(path, "not a Headroom design: missing table(s) "
                         + ", ".join(sorted(want - tables)))
    if tables - want:
        raise _err(path, "not a Headroom design: unexpected table(s) "
                         + ", ".join(sorted(tables - want)[:5]))
    return tables


def _design_text(path: Path, mem: sqlite3.Connection) -> str:
    try:
        rows = mem.execute("SELECT typeof(value), value FROM document "
                           "WHERE key = 'design'").fetchall()
    except sqlite3.Error as err:
        raise _err(path, f"the design cannot be read: {err}") from None
    if not rows:
        raise _err(path, "the file holds no design (table 'document' has no 'design' row)")
    kind, value = rows[0]
    if kind != "text" or not isinstance(value, str):
        raise _err(path, f"the design is stored as {kind}, expected JSON text")
    return value


# --------------------------------------------------------------------------- save


def build(design: Design) -> sqlite3.Connection:
    """An in-memory database of the current schema holding ``design``."""
    doc = design_to_dict(design)
    text = document_json(doc)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise_invalid_text(doc)
    mem = sqlite3.connect(":memory:", isolation_level=None)
    mem.executescript(migrations.SCHEMA[migrations.SCHEMA_VERSION])
    mem.execute("BEGIN")
    mem.execute("INSERT INTO document VALUES ('design', ?)", (text,))
    meta = {"saved_by": f"Headroom {_version()}",
            "saved_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "design_format": "headroom-design 1", "name": design.name}
    mem.executemany("INSERT INTO meta VALUES (?, ?)", list(meta.items()))
    migrations.fill_queryable(mem, doc)
    mem.execute("COMMIT")
    mem.execute(f"PRAGMA application_id = {APPLICATION_ID:d}")
    mem.execute(f"PRAGMA user_version = {migrations.SCHEMA_VERSION:d}")
    return mem


def save(design: Design, path: Path) -> None:
    """Write ``design`` to ``path`` atomically (the old file stays intact until the rename)."""
    path = Path(path)
    folder = path.resolve().parent
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as err:
        raise _err(path, f"cannot write in {folder}: {err.strerror or err}") from None
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        mem = build(design)
        try:
            dst = sqlite3.connect(tmp, isolation_level=None)
            try:
                dst.execute("PRAGMA journal_mode = DELETE")
                mem.backup(dst)
                dst.execute(f"PRAGMA application_id = {APPLICATION_ID:d}")
                dst.execute(f"PRAGMA user_version = {migrations.SCHEMA_VERSION:d}")
            finally:
                dst.close()
        finally:
            mem.close()
        os.chmod(tmp, mode_for(path))
        with tmp.open("rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except sqlite3.Error as err:
        _cleanup(tmp)
        raise _err(path, f"could not write the design: {err}") from None
    except BaseException:
        _cleanup(tmp)
        raise
    fsync_dir(folder)


def _cleanup(tmp: Path) -> None:
    for p in (tmp, tmp.with_name(tmp.name + "-journal")):
        p.unlink(missing_ok=True)
