"""The ``.headroom`` schema, one version per ``PRAGMA user_version``, and the migrations between.

A migration upgrades an in-memory copy of an opened file from version ``n`` to ``n + 1``; the
file on disk is never touched.  To change the schema: add ``SCHEMA[n + 1]`` (the full schema of
a new file), ``MIGRATIONS[n]`` (the step from ``n``), and bump :data:`SCHEMA_VERSION`.

Version history
---------------
1. ``document(key, value)``: the canonical design JSON under key ``'design'``.
2. adds ``meta(key, value)`` (who saved, when, design format) and queryable copies of the design:
   ``component``, ``link``, ``scenario`` (derived from the JSON, which stays canonical).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

SCHEMA_VERSION = 2
"""The ``user_version`` this build writes."""

SCHEMA: dict[int, str] = {
    1: """
CREATE TABLE document (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
""",
    2: """
CREATE TABLE document (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
CREATE TABLE component (id TEXT PRIMARY KEY NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL,
                        x REAL NOT NULL, y REAL NOT NULL, tags TEXT NOT NULL,
                        props TEXT NOT NULL);
CREATE TABLE link (position INTEGER PRIMARY KEY, source TEXT NOT NULL, target TEXT NOT NULL,
                   kind TEXT NOT NULL, props TEXT NOT NULL);
CREATE TABLE scenario (position INTEGER PRIMARY KEY, name TEXT NOT NULL,
                       overrides TEXT NOT NULL);
""",
}

TABLES: dict[int, frozenset[str]] = {
    1: frozenset({"document"}),
    2: frozenset({"document", "meta", "component", "link", "scenario"}),
}
"""The tables a file of each version has (others are refused as foreign)."""


def fill_queryable(conn: sqlite3.Connection, doc: dict[str, object]) -> None:
    """Write the queryable tables of version 2 from the canonical design document."""
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    comps = doc.get("components")
    conn.executemany(
        "INSERT OR REPLACE INTO component VALUES (?, ?, ?, ?, ?, ?, ?)",
        ((str(c.get("id", "")), str(c.get("kind", "")), str(c.get("name", "")),
          _float(c.get("x")), _float(c.get("y")), dumps(c.get("tags", [])),
          dumps(c.get("props", {})))
         for c in (comps if isinstance(comps, list) else []) if isinstance(c, dict)))
    links = doc.get("links")
    conn.executemany(
        "INSERT INTO link VALUES (?, ?, ?, ?, ?)",
        ((i, str(lk.get("from", "")), str(lk.get("to", "")), str(lk.get("kind", "")),
          dumps(lk.get("props", {})))
         for i, lk in enumerate(links if isinstance(links, list) else [])
         if isinstance(lk, dict)))
    scens = doc.get("scenarios")
    conn.executemany(
        "INSERT INTO scenario VALUES (?, ?, ?)",
        ((i, str(s.get("name", "")), dumps(s.get("set", [])))
         for i, s in enumerate(scens if isinstance(scens, list) else []) if isinstance(s, dict)))


def _float(v: object) -> float:
    return float(v) if isinstance(v, (int, float)) else 0.0


def _v1_to_v2(conn: sqlite3.Connection) -> None:
    script = SCHEMA[2].replace(
        "CREATE TABLE document (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);", "")
    conn.executescript(script)
    row = conn.execute("SELECT value FROM document WHERE key = 'design'").fetchone()
    if row is not None and isinstance(row[0], str):
        try:
            doc = json.loads(row[0])
        except ValueError:
            doc = None  # the loader reports the bad JSON with its position
        if isinstance(doc, dict):
            fill_queryable(conn, doc)
    conn.execute("INSERT INTO meta VALUES ('migrated_from', '1')")


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {
    1: _v1_to_v2,
}
"""``MIGRATIONS[n]`` upgrades a version-``n`` database to ``n + 1`` in place."""


def migrate(conn: sqlite3.Connection, version: int) -> int:
    """Upgrade ``conn`` (an in-memory copy) from ``version`` to :data:`SCHEMA_VERSION`."""
    while version < SCHEMA_VERSION:
        MIGRATIONS[version](conn)
        version += 1
        conn.execute(f"PRAGMA user_version = {version:d}")
    return version
