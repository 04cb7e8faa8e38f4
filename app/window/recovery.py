"""Autosave and crash recovery.

While a document has unsaved changes, :class:`RecoveryManager` writes it every
``interval_s`` seconds to ``<AppDataLocation>/recovery/<session>.headroom`` (an ordinary
``.headroom`` file, written atomically) with ``<session>.info.json`` beside it (original path,
design name, time).  A :class:`QLockFile` ``<session>.lock`` is held for the session's life.
A clean save or close removes the autosave.  At start, :func:`stale_sessions` lists autosaves
whose lock is not held (the process died: Qt treats a lock of a dead PID as stale) and the
app offers to recover the newest into an untitled, modified document.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QLockFile, QObject, QStandardPaths, QTimer, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from models.document.design import Design, DesignError
from models.io import store
from models.io.atomic import write_atomic

if TYPE_CHECKING:
    from app.document.design_document import DesignDocument

DEFAULT_INTERVAL_S = 30


def recovery_folder() -> Path:
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base or Path.home() / ".headroom") / "recovery"


@dataclass
class RecoverySession:
    """An autosave left by a session that is no longer running."""

    session: str
    design_path: Path
    info: dict[str, Any]
    lock: QLockFile
    """Held by us while we decide what to do with the session."""

    @property
    def original_path(self) -> str:
        return str(self.info.get("path", ""))

    @property
    def name(self) -> str:
        return str(self.info.get("name", self.session))

    @property
    def saved_at(self) -> str:
        return str(self.info.get("saved_at", ""))

    def load(self) -> Design:
        return store.load(self.design_path)

    def discard(self) -> None:
        """Delete the autosave and its files."""
        folder = self.design_path.parent
        for p in (self.design_path, folder / f"{self.session}.info.json"):
            p.unlink(missing_ok=True)
        self.release()
        Path(folder / f"{self.session}.lock").unlink(missing_ok=True)

    def release(self) -> None:
        if self.lock.isLocked():
            self.lock.unlock()


def _lock(path: Path) -> QLockFile:
    lock = QLockFile(str(path))
    lock.setStaleLockTime(0)  # never stale by age: only when its process is gone
    return lock


def stale_sessions(folder: Path | None = None, exclude: str = "") -> list[RecoverySession]:
    """Autosaves whose owner is gone, newest first; each comes back locked by us."""
    folder = folder or recovery_folder()
    out: list[RecoverySession] = []
    if not folder.is_dir():
        return out
    for design_path in folder.glob("*.headroom"):
        session = design_path.stem
        if session == exclude:
            continue
        lock = _lock(folder / f"{session}.lock")
        if not lock.tryLock(0):
            continue  # a running Headroom owns it
        try:
            info = json.loads((folder / f"{session}.info.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            info = {}
        if not isinstance(info, dict):
            info = {}
        out.append(RecoverySession(session, design_path, info, lock))
    out.sort(key=lambda s: (s.saved_at, s.design_path.stat().st_mtime), reverse=True)
    return out


class RecoveryManager(QObject):
    """Autosaves ``document`` while it is modified; offers recovery of crashed sessions."""

    autosaved = Signal(str)
    """Path of the autosave just written."""
    recovered = Signal(str)
    """Session id of the autosave loaded into the document."""

    def __init__(self, document: DesignDocument, parent: QObject | None = None,
                 folder: Path | None = None, interval_s: float = DEFAULT_INTERVAL_S):
        super().__init__(parent)
        self.document = document
        self.folder = folder or recovery_folder()
        self.session = uuid.uuid4().hex
        self.lock = _lock(self.folder / f"{self.session}.lock")
        self.dirty = document.is_modified
        self.last_error = ""
        self.prompt: QMessageBox | None = None
        """The recovery question while it is open (tests answer it)."""
        self.timer = QTimer(self)
        self.timer.setInterval(max(1, round(interval_s * 1000)))
        self.timer.timeout.connect(self.autosave)
        self.timer.start()
        document.undo_stack.indexChanged.connect(self._changed)
        document.design_replaced.connect(self._changed)
        document.modified_changed.connect(self._modified_changed)

    @property
    def design_path(self) -> Path:
        return self.folder / f"{self.session}.headroom"

    @property
    def info_path(self) -> Path:
        return self.folder / f"{self.session}.info.json"

    def _changed(self, *_: object) -> None:
        self.dirty = True

    def _modified_changed(self, modified: bool) -> None:
        if not modified:
            self.remove_autosave()

    def autosave(self) -> bool:
        """Write the autosave now if the document changed since the last one."""
        if not (self.dirty and self.document.is_modified):
            return False
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            if not self.lock.isLocked() and not self.lock.tryLock(0):
                self.last_error = f"cannot lock {self.folder}"
                return False
            store.save(self.document.design, self.design_path)
            info = {"path": self.document.path, "name": self.document.design.name,
                    "saved_at": datetime.now(UTC).isoformat(timespec="milliseconds")}
            write_atomic(self.info_path, json.dumps(info).encode("utf-8"))
        except (OSError, DesignError) as err:
            self.last_error = str(err)  # autosave must never interrupt the user
            return False
        self.dirty = False
        self.autosaved.emit(str(self.design_path))
        return True

    def remove_autosave(self) -> None:
        """Called after a clean save or close: the autosave is no longer needed."""
        self.design_path.unlink(missing_ok=True)
        self.info_path.unlink(missing_ok=True)

    def finish(self) -> None:
        """End of session: remove the autosave and release the lock."""
        self.timer.stop()
        self.remove_autosave()
        if self.lock.isLocked():
            self.lock.unlock()

    # ------------------------------------------------------------------ recovery
    def stale_sessions(self) -> list[RecoverySession]:
        return stale_sessions(self.folder, exclude=self.session)

    def ask_recover(self, session: RecoverySession, count: int,
                    parent: QWidget | None) -> QMessageBox.StandardButton:
        """Ask the user (tests replace this): Yes recovers the autosave, No leaves it for
        later (and opens the file as saved), Discard deletes it; Esc is No."""
        asked = self.document.path
        box = QMessageBox(QMessageBox.Icon.Question, "Recover unsaved changes?",
                          recovery_text(session, count), QMessageBox.StandardButton.NoButton,
                          parent)
        recover = box.addButton("Recover autosave", QMessageBox.ButtonRole.AcceptRole)
        later = box.addButton(f"Open {Path(asked).name} as saved" if asked else "Not now",
                              QMessageBox.ButtonRole.RejectRole)
        delete = box.addButton("Delete autosave", QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(recover)
        box.setEscapeButton(later)
        self.prompt = box
        box.exec()
        self.prompt = None
        clicked = box.clickedButton()
        box.deleteLater()
        if clicked is recover:
            return QMessageBox.StandardButton.Yes
        if clicked is delete:
            return QMessageBox.StandardButton.Discard
        return QMessageBox.StandardButton.No

    def show_error(self, parent: QWidget | None, message: str) -> None:
        QMessageBox.warning(parent, "Could not recover", message)

    def offer_recovery(self, parent: QWidget | None = None) -> bool:
        """Offer the autosave of the design that was asked for: with a file open, only that
        file's autosave (another design's waits for a start without a file); else the
        newest.  True when it was loaded into the document."""
        sessions = self.stale_sessions()
        asked = self.document.path
        if asked:
            mine = [s for s in sessions if s.original_path and _same_file(s.original_path,
                                                                         asked)]
        else:
            mine = sessions[:1]
        for s in sessions:
            if s not in mine[:1]:
                s.release()
        if not mine:
            return False
        newest = mine[0]
        answer = self.ask_recover(newest, len(sessions), parent)
        if answer == QMessageBox.StandardButton.Discard:
            newest.discard()
            return False
        if answer != QMessageBox.StandardButton.Yes:
            newest.release()
            return False
        try:
            design = newest.load()
        except DesignError as err:
            newest.release()
            self.show_error(parent, f"The autosave could not be read:\n{err.describe()}")
            return False
        self.recover_into_document(design, asked)
        newest.discard()
        self.recovered.emit(newest.session)
        return True

    def recover_into_document(self, design: Design, path: str = "") -> None:
        """Load ``design`` with unsaved changes: as ``path`` (the file it was autosaved
        from, so Save writes it back), or untitled (the user decides where)."""
        self.document.replace_design(design, path, modified=True)
        self.dirty = True


def recovery_text(session: RecoverySession, count: int) -> str:
    """What the prompt says: which design, from which file, autosaved when."""
    where = f"from {session.original_path}" if session.original_path else \
        "never saved to a file"
    when = _local_time(session.saved_at)
    more = f"\n\n{count - 1} other autosave(s) will be offered at a later start." \
        if count > 1 else ""
    return (f"Headroom did not close normally. The design '{session.name}' ({where}) had"
            f" unsaved changes, autosaved {when}.{more}")


def _local_time(iso: str) -> str:
    try:
        return "at " + datetime.fromisoformat(iso).astimezone().strftime("%H:%M on %d %b %Y")
    except ValueError:
        return "at an unknown time"


def _same_file(a: str, b: str) -> bool:
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return a == b
