"""Hostile files and clipboards in the app (issue 14): a named pipe, text that is not valid
Unicode, numbers of hundreds of digits - each refused with a message naming the place, or
repaired with a warning; the document and the files on disk are never half-changed."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow
from pytestqt.qtbot import QtBot

from app.canvas.clipboard import MIME, paste
from app.document.design_document import DesignDocument
from app.window.file_menu import FileController
from models.document.codec import design_to_dict, design_to_json
from models.document.design import Design
from models.examples import bundled as examples


@pytest.fixture
def ctrl(qtbot: QtBot, example: Design, monkeypatch: pytest.MonkeyPatch
         ) -> Iterator[tuple[FileController, list[str]]]:
    window = QMainWindow()
    doc = DesignDocument(example, window)
    c = FileController(window, doc, recovery=False)
    errors: list[str] = []
    monkeypatch.setattr(c, "show_error", lambda title, msg: errors.append(f"{title}: {msg}"))
    yield c, errors
    doc.undo_stack.setClean()
    window.close()
    c.recovery.finish()
    window.deleteLater()


def _hostile(tmp_path: Path, name: str, change: str) -> Path:
    doc = design_to_dict(examples.load("vaio-scaling"))
    if change == "surrogate":
        doc["components"][0]["name"] = "esx \ud800 01"
        text = json.dumps(doc)
    else:
        doc["components"][0].setdefault("props", {})["sockets"] = int("9" * 300)
        text = json.dumps(doc)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_opening_repairs_bad_text_and_says_where(ctrl: tuple[FileController, list[str]],
                                                 tmp_path: Path) -> None:
    c, errors = ctrl
    path = _hostile(tmp_path, "repaired.json", "surrogate")
    assert c.open_path(str(path))
    assert c.document.design.components[0].name == "esx \ufffd 01"
    assert len(errors) == 1 and "Text repaired" in errors[0]
    host = examples.load("vaio-scaling").components[0].id
    assert f"component '{host}'" in errors[0]


def test_a_huge_number_is_refused_naming_the_property(ctrl: tuple[FileController, list[str]],
                                                       tmp_path: Path) -> None:
    c, errors = ctrl
    before = design_to_json(c.document.design)
    assert not c.open_path(str(_hostile(tmp_path, "huge.json", "huge")))
    assert len(errors) == 1 and "'sockets'" in errors[0] and "300-digit number" in errors[0]
    assert design_to_json(c.document.design) == before


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_a_named_pipe_is_refused_not_read(ctrl: tuple[FileController, list[str]],
                                          tmp_path: Path) -> None:
    c, errors = ctrl
    fifo = tmp_path / "pipe.headroom"
    os.mkfifo(fifo)
    assert not c.open_path(str(fifo))
    assert len(errors) == 1 and "named pipe" in errors[0]


def test_saving_text_that_is_not_valid_unicode_writes_nothing(
        ctrl: tuple[FileController, list[str]], tmp_path: Path) -> None:
    c, errors = ctrl
    c.document.design.components[0].name = "x \udcff y"  # built in memory, not read
    target = tmp_path / "out" / "design.headroom"
    target.parent.mkdir()
    target.write_bytes(b"the user's earlier file")
    assert not c.save_to(str(target))
    assert len(errors) == 1 and "lone UTF-16 surrogate" in errors[0]
    assert target.read_bytes() == b"the user's earlier file"
    assert sorted(p.name for p in target.parent.iterdir()) == ["design.headroom"]


def _clip(text: str) -> None:
    mime = QMimeData()
    mime.setData(MIME, text.encode("utf-8", "surrogatepass"))
    QGuiApplication.clipboard().setMimeData(mime)


def test_pasting_hostile_components(qtbot: QtBot, example: Design) -> None:
    doc = DesignDocument(example)
    vm: dict[str, Any] = {"format": "headroom-design", "version": 1, "name": "clip",
          "components": [{"id": "v1", "kind": "vm", "props": {"vcpus": int("9" * 50)}}]}
    _clip(json.dumps(vm))
    message = paste(doc)
    assert message.startswith("Could not paste: component 'v1' (vm): property 'vcpus':")
    assert message.endswith("got a 50-digit number (too large)")
    assert doc.undo_stack.count() == 0
    vm["components"][0]["props"] = {}
    vm["components"][0]["name"] = "web \ud800"
    _clip(json.dumps(vm))
    message = paste(doc)
    assert message.startswith("Pasted 1 component") and "repaired" in message
    assert any(c.name == "web \ufffd" for c in doc.design.components)
    mime = QMimeData()
    mime.setData(MIME, b'{"format": "headroom-design", \xff\xfe')
    QGuiApplication.clipboard().setMimeData(mime)
    assert paste(doc).startswith("Could not paste")
