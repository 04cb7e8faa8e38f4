"""``.headroom`` files: round trips, migrations, a hostile corpus, and killed saves."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import struct
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from app.cli import main as cli
from models.document.codec import design_to_json
from models.document.design import Design, DesignError
from models.io import migrations, store
from models.io.files import load_design, save_design
from tests.conftest import ROOT


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """An empty folder of its own (tmp_path also holds the isolated home)."""
    d = tmp_path / "work"
    d.mkdir()
    return d


def _snapshot(p: Path) -> tuple[bytes, int]:
    return p.read_bytes(), p.stat().st_mtime_ns


def _sqlite(p: Path, script: str, app_id: int = store.APPLICATION_ID,
            version: int = migrations.SCHEMA_VERSION) -> Path:
    conn = sqlite3.connect(p)
    conn.executescript(script)
    conn.execute(f"PRAGMA application_id = {app_id}")
    conn.execute(f"PRAGMA user_version = {version}")
    conn.commit()
    conn.close()
    return p


def _v2_with(p: Path, extra: str = "", design_sql: str = "") -> Path:
    script = migrations.SCHEMA[2] + extra
    _sqlite(p, script)
    if design_sql:
        conn = sqlite3.connect(p)
        conn.execute(design_sql)
        conn.commit()
        conn.close()
    return p


# --------------------------------------------------------------------------- round trips


def test_round_trip_is_lossless(example: Design, work: Path) -> None:
    p = work / "a.headroom"
    store.save(example, p)
    assert design_to_json(store.load(p)) == design_to_json(example)


def test_file_is_a_proper_application_file(example: Design, work: Path) -> None:
    p = work / "a.headroom"
    store.save(example, p)
    conn = sqlite3.connect(p)
    try:
        assert conn.execute("PRAGMA application_id").fetchone()[0] == store.APPLICATION_ID
        assert conn.execute("PRAGMA user_version").fetchone()[0] == migrations.SCHEMA_VERSION
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        n = conn.execute("SELECT count(*) FROM component").fetchone()[0]
        assert n == len(example.components)
    finally:
        conn.close()
    assert sorted(q.name for q in work.iterdir()) == ["a.headroom"]


def test_save_keeps_permissions_of_existing_file(example: Design, work: Path) -> None:
    p = work / "a.headroom"
    store.save(example, p)
    assert p.stat().st_mode & 0o077, "a new file is not private to the owner only"
    os.chmod(p, 0o640)
    store.save(example, p)
    assert p.stat().st_mode & 0o777 == 0o640


def test_cli_convert_and_evaluate_agree(example: Design, work: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    src = work / "a.json"
    save_design(example, src)
    hr, back = work / "a.headroom", work / "b.json"
    assert cli.main(["convert", str(src), "-o", str(hr)]) == 0
    assert cli.main(["convert", str(hr), "-o", str(back)]) == 0
    assert back.read_text() == src.read_text()
    capsys.readouterr()
    assert cli.main(["evaluate", str(src), "--json"]) == 0
    a = json.loads(capsys.readouterr().out)
    assert cli.main(["evaluate", str(hr), "--json"]) == 0
    b = json.loads(capsys.readouterr().out)
    assert a == b


# --------------------------------------------------------------------------- migrations


def test_version_1_file_is_migrated_in_memory_only(example: Design, work: Path) -> None:
    p = _sqlite(work / "old.headroom", migrations.SCHEMA[1], version=1)
    conn = sqlite3.connect(p)
    conn.execute("INSERT INTO document VALUES ('design', ?)", (design_to_json(example),))
    conn.commit()
    conn.close()
    before = _snapshot(p)
    assert design_to_json(store.load(p)) == design_to_json(example)
    assert _snapshot(p) == before


def test_migration_builds_the_queryable_tables(example: Design) -> None:
    conn = sqlite3.connect(":memory:")
    conn.executescript(migrations.SCHEMA[1])
    conn.execute("INSERT INTO document VALUES ('design', ?)", (design_to_json(example),))
    assert migrations.migrate(conn, 1) == migrations.SCHEMA_VERSION
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_schema WHERE type='table'")}
    assert tables == migrations.TABLES[migrations.SCHEMA_VERSION]
    ids = [r[0] for r in conn.execute("SELECT id FROM component ORDER BY id")]
    assert ids == sorted(c.id for c in example.components)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == migrations.SCHEMA_VERSION


def test_every_version_has_a_migration_and_schema() -> None:
    for v in range(1, migrations.SCHEMA_VERSION):
        assert v in migrations.MIGRATIONS
    assert set(migrations.SCHEMA) == set(range(1, migrations.SCHEMA_VERSION + 1))


def test_newer_file_is_refused_clearly(example: Design, work: Path) -> None:
    p = work / "new.headroom"
    store.save(example, p)
    conn = sqlite3.connect(p)
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    with pytest.raises(DesignError, match=r"newer Headroom.*file version 99"):
        store.load(p)


# --------------------------------------------------------------------------- hostile corpus


def _random(p: Path) -> None:
    p.write_bytes(os.urandom(8192))


def _empty(p: Path) -> None:
    p.write_bytes(b"")


def _header_only(p: Path) -> None:
    p.write_bytes(b"SQLite format 3\x00" + b"\x00" * 20)


def _truncated(p: Path) -> None:
    store.save(_big_design(), p)
    p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])


def _flipped(p: Path) -> None:
    store.save(_big_design(), p)
    data = bytearray(p.read_bytes())
    for i in range(4096 + 100, len(data), 997):
        data[i] ^= 0xA5
    p.write_bytes(bytes(data))


def _foreign(p: Path) -> None:
    _sqlite(p, "CREATE TABLE t(x);", app_id=0, version=0)


def _foreign_app_id(p: Path) -> None:
    _sqlite(p, "CREATE TABLE t(x);", app_id=0x12345678)


def _json_named_headroom(p: Path) -> None:
    p.write_text('{"format": "headroom-design"}')


def _trigger(p: Path) -> None:
    _v2_with(p, "CREATE TRIGGER t AFTER INSERT ON component BEGIN "
                "DELETE FROM document; END;")


def _view(p: Path) -> None:
    _v2_with(p, "CREATE VIEW v AS SELECT * FROM document;")


def _document_is_view(p: Path) -> None:
    _sqlite(p, "CREATE TABLE meta(key, value); CREATE TABLE component(id); "
               "CREATE TABLE link(x); CREATE TABLE scenario(x); "
               "CREATE VIEW document AS SELECT 'design' AS key, zeroblob(1000) AS value;")


def _extra_table(p: Path) -> None:
    _v2_with(p, "CREATE TABLE evil(x);")


def _no_design_row(p: Path) -> None:
    _v2_with(p)


def _blob_design(p: Path) -> None:
    _v2_with(p, design_sql="INSERT INTO document VALUES ('design', x'00ff00ff')")


def _integer_design(p: Path) -> None:
    _v2_with(p, design_sql="INSERT INTO document VALUES ('design', 42)")


def _bad_json(p: Path) -> None:
    _v2_with(p, design_sql="INSERT INTO document VALUES ('design', '{\"format\": ')")


def _invalid_design(p: Path) -> None:
    _v2_with(p, design_sql="INSERT INTO document VALUES ('design', "
                           "'{\"format\": \"headroom-design\", \"version\": 1, "
                           "\"components\": [{\"id\": \"h\", \"kind\": \"toaster\"}]}')")


def _deep_json(p: Path) -> None:
    _v2_with(p, design_sql="INSERT INTO document VALUES ('design', '"
                           + "[" * 200000 + "]" * 200000 + "')")


def _huge_row(p: Path) -> None:
    _v2_with(p, design_sql="INSERT INTO document VALUES ('design', "
                           "'[' || replace(hex(zeroblob(40000000)), '00', '0,') || '0]')")


def _wal_mode(p: Path) -> None:
    _v2_with(p)
    conn = sqlite3.connect(p)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()


def _hot_journal(p: Path) -> None:
    store.save(_big_design(), p)
    Path(str(p) + "-journal").write_bytes(os.urandom(4096))


def _negative_version(p: Path) -> None:
    _sqlite(p, migrations.SCHEMA[2], version=-5)


def _folder(p: Path) -> None:
    p.mkdir()


HOSTILE: dict[str, tuple[Callable[[Path], None], str]] = {
    "random bytes": (_random, "not an SQLite database"),
    "zero length": (_empty, "empty"),
    "header only": (_header_only, "truncated"),
    "truncated": (_truncated, "damaged|malformed"),
    "bit flips": (_flipped, "damaged|malformed|not a Headroom|design"),
    "foreign sqlite": (_foreign, "not a Headroom design"),
    "foreign application_id": (_foreign_app_id, "application_id 0x12345678"),
    "json renamed": (_json_named_headroom, "not an SQLite database"),
    "trigger": (_trigger, "trigger 't'"),
    "view": (_view, "view 'v'"),
    "document is a view": (_document_is_view, "view 'document'"),
    "extra table": (_extra_table, "unexpected table"),
    "no design row": (_no_design_row, "holds no design"),
    "blob design": (_blob_design, "stored as blob"),
    "integer design": (_integer_design, "expected a JSON object"),
    "bad json": (_bad_json, "not valid JSON"),
    "invalid design": (_invalid_design, "toaster"),
    "deeply nested json": (_deep_json, "nested too deeply|expected a JSON object"),
    "huge row": (_huge_row, "too big|damaged|cannot"),
    "wal mode": (_wal_mode, "write-ahead log"),
    "hot journal": (_hot_journal, "cannot open|damaged|Headroom|readonly"),
    "negative version": (_negative_version, "unknown file version"),
}


def _big_design() -> Design:
    from models.examples import bundled as examples  # noqa: PLC0415

    d = examples.load(examples.DEFAULT_EXAMPLE)
    d.notes = "x" * 20000
    return d


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_file_is_refused_without_writing(case: str, work: Path) -> None:
    make, message = HOSTILE[case]
    p = work / "bad.headroom"
    make(p)
    files_before = {q.name: _snapshot(q) for q in work.iterdir()}
    t0 = time.monotonic()
    with pytest.raises(DesignError, match=message) as info:
        load_design(p)
    assert time.monotonic() - t0 < store.OPEN_DEADLINE_S + 2
    assert "bad.headroom" in str(info.value)
    assert {q.name: _snapshot(q) for q in work.iterdir()} == files_before


def test_folder_named_headroom_is_refused(work: Path) -> None:
    p = work / "dir.headroom"
    _folder(p)
    with pytest.raises(DesignError, match="folder"):
        load_design(p)


def test_slow_file_hits_the_deadline(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = work / "a.headroom"
    store.save(_big_design(), p)
    monkeypatch.setattr(store, "OPEN_DEADLINE_S", -1.0)
    with pytest.raises(DesignError, match="longer than"):
        store.load(p)


def test_header_fields_are_where_sqlite_puts_them(example: Design, work: Path) -> None:
    p = work / "a.headroom"
    store.save(example, p)
    head = p.read_bytes()[:100]
    assert struct.unpack(">I", head[68:72])[0] == store.APPLICATION_ID
    assert struct.unpack(">i", head[60:64])[0] == migrations.SCHEMA_VERSION


# --------------------------------------------------------------------------- killed saves


def test_failed_rename_leaves_old_file(example: Design, work: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    p = work / "a.headroom"
    store.save(example, p)
    before = _snapshot(p)
    changed = example.copy()
    changed.name = "changed"

    def boom(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="No space"):
        store.save(changed, p)
    assert _snapshot(p) == before
    assert sorted(q.name for q in work.iterdir()) == ["a.headroom"]
    assert store.load(p).name == example.name


def test_failure_while_building_leaves_old_file(example: Design, work: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    p = work / "a.headroom"
    store.save(example, p)
    before = _snapshot(p)

    def boom(conn: sqlite3.Connection, doc: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(migrations, "fill_queryable", boom)
    with pytest.raises(DesignError, match="could not write"):
        store.save(example, p)
    assert _snapshot(p) == before
    assert sorted(q.name for q in work.iterdir()) == ["a.headroom"]


_SAVER = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from models.examples import bundled as examples
from models.io import store
d = examples.load(examples.DEFAULT_EXAMPLE)
d.notes = "y" * 300000
i = 0
print("ready", flush=True)
while True:
    i += 1
    d.name = f"save {i}"
    store.save(d, Path(sys.argv[2]))
"""


@pytest.mark.parametrize("delay_ms", [3, 17, 41, 89, 150])
def test_killed_save_leaves_an_openable_file(example: Design, work: Path,
                                             delay_ms: int) -> None:
    p = work / "a.headroom"
    store.save(example, p)
    proc = subprocess.Popen([sys.executable, "-c", _SAVER, str(ROOT), str(p)],
                            stdout=subprocess.PIPE)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == b"ready"
    deadline = time.monotonic() + delay_ms / 1000
    while time.monotonic() < deadline:  # busy-wait: the kill lands mid-save, not mid-sleep
        pass
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    proc.stdout.close()
    loaded = store.load(p)
    assert loaded.name == example.name or loaded.name.startswith("save ")


def test_path_with_uri_characters(example: Design, work: Path) -> None:
    p = work / "my design #1?&%20.headroom"
    store.save(example, p)
    assert design_to_json(store.load(p)) == design_to_json(example)


def test_read_only_file_opens(example: Design, work: Path) -> None:
    p = work / "ro.headroom"
    store.save(example, p)
    os.chmod(p, 0o444)
    assert store.load(p).name == example.name
