"""What an import format declares: one :class:`Importer`, listed in
:mod:`models.io.importers.registry`.

An importer says what it is called (in menus, on the start page, in messages), which files are
its own (file-dialog patterns, the suffixes it claims, a sniff of the content), what it makes (a
design, measurements to calibrate a design with, or both), the options it takes and the
functions that run it.  Options are data: the command line turns them into arguments, the app's
import dialog into fields.  Nothing here reads a file: each format's module builds its entry
from its own readers, so the registry is the only place that names every format.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from models.document.design import Design
from models.io.importers import ImportReport, Progress, SiteBy
from models.io.importers.measurements import Measurements

Product = Literal["design", "measurements"]
DESIGN: Product = "design"
MEASUREMENTS: Product = "measurements"

OptionKind = Literal["path", "text", "secret", "int", "choice", "flag"]
Value = str | int | bool | None
Options = Mapping[str, Value]
"""Option name -> value, as the command line or the import dialog gathered them."""

DesignReader = Callable[[str, Options, Progress | None], tuple[Design, ImportReport]]
"""``read(source, options, progress)``: the design and the report of what was imported."""
MeasurementReader = Callable[[Path, str], Measurements]
"""``read(path, stat)``: what the file measured, by name (``stat`` over a file's samples)."""

MIN_COVERAGE = 0.95
"""Share of the runnable VMs an import must place on their own host: below it the command line
writes nothing (unless ``--allow-partial``) and the app's report warns."""


@dataclass(frozen=True)
class Option:
    """One thing an import takes: an argument of its command and, with a label, a field of its
    dialog."""

    name: str
    """The key in :data:`Options` (and the argparse ``dest``): ``site_by``."""
    kind: OptionKind
    """``path`` (a file or folder, the source of a file format), ``text``, ``secret`` (never
    on the command line: from :attr:`env` or a prompt), ``int``, ``choice`` or ``flag``."""
    help: str = ""
    """The command line's help for it."""
    flag: str = ""
    """``--site-by``; empty for the source (a positional argument) and for a secret."""
    label: str = ""
    """The dialog's label (a flag's check box text); empty keeps it off the dialog."""
    default: Value = None
    choices: tuple[tuple[str, str], ...] = ()
    """A choice's values, each with what the dialog says for it."""
    required: bool = False
    metavar: str | None = None
    bounds: tuple[int, int] = (0, 2**31 - 1)
    """An ``int``'s range in the dialog."""
    placeholder: str = ""
    env: str = ""
    """A secret's environment variable; without it the command line prompts (in a terminal)."""
    prompt: str = ""
    """A secret's prompt, formatted with the source and the other options:
    ``"password for {user} at {server}: "``."""

    @property
    def values(self) -> tuple[str, ...]:
        """A choice's values, as the command line takes them."""
        return tuple(v for v, _ in self.choices)


SITE_BY = Option("site_by", "choice", flag="--site-by", label="Sites", default="datacenter",
                 choices=(("datacenter", "one site per datacenter"),
                          ("cluster", "one site per cluster")),
                 help="make a site of each datacenter (default) or of each cluster")
POWERED_OFF = Option("include_powered_off", "flag", flag="--include-powered-off", default=False,
                     label="Import powered-off VMs too (idle, tagged powered-off)",
                     help="import powered-off VMs too (idle, tagged powered-off)")
ALLOW_PARTIAL = Option("allow_partial", "flag", flag="--allow-partial", default=False,
                       help=f"write the design even when fewer than {MIN_COVERAGE:.0%} of the"
                       " VMs are on their own host (an anonymised or partial export)")
DESIGN_OPTIONS = (SITE_BY, POWERED_OFF, ALLOW_PARTIAL)
"""What every design import takes after its own options (they go to
:func:`models.io.importers.build.build_design` and the coverage check)."""


def site_by(options: Options) -> SiteBy:
    """The ``site_by`` option as the builder takes it."""
    return "cluster" if options.get("site_by") == "cluster" else "datacenter"


@dataclass(frozen=True)
class Importer:
    """One import format.  A design source has :attr:`read_design` (and a File > Import entry,
    a start-page button and an ``import-*`` command); a measurement source has
    :attr:`read_measurements` (``headroom calibrate --from`` and the Calibration dock)."""

    id: str
    """``rvtools``: how code and tests name it."""
    name: str
    """Its short name in lists: ``RVTools``."""
    title: str
    """What it reads, as a heading: ``RVTools export`` (the start page's button, file-dialog
    filters)."""
    description: str
    """What it reads, in a sentence: ``an RVTools export (.xlsx or a folder of
    RVTools_tab*.csv)``."""
    source: Option
    """What it reads: kind ``path`` (a file or folder, chosen in a file dialog) or a dialog
    field (a server); the command's positional argument."""
    command: str
    """The ``headroom`` subcommand that reads it: ``import-<format>`` for a design source (the
    command line builds it), ``calibrate`` (with ``--from FILE``) for measurements only."""
    help: str = ""
    """The import command's help."""
    menu_text: str = ""
    """File > Import's entry, with its mnemonic: ``&RVTools Export`` (the menu adds "...")."""
    tip: str = ""
    """The menu entry's status tip and the start-page button's tooltip."""
    dialog_title: str = ""
    """Its file or options dialog's title (default "Import " and the title)."""
    working: str = "Importing {source}"
    """What the progress dialog says while it runs (``{source}``: the file's name, or the
    source as given)."""
    options: tuple[Option, ...] = ()
    """Its own options (a design source also takes :data:`DESIGN_OPTIONS`)."""
    patterns: tuple[str, ...] = ()
    """File-dialog patterns: ``("*.xlsx", "*.csv")``."""
    suffixes: tuple[str, ...] = ()
    """Suffixes it claims when no sniff recognises a file, so that its reader says what is
    wrong with it: ``(".xlsx", ".xls")``."""
    folders: bool = False
    """Whether a folder can be its source (claimed like a suffix)."""
    sniff: Callable[[Path], bool] | None = None
    """Whether the file (or folder) at a path is one of its own, from a cheap look at its
    content; it never raises."""
    source_for: Callable[[Path], Path] | None = None
    """The source a chosen file stands for (one csv of an RVTools folder: the folder)."""
    check: Callable[[str, Options], None] | None = None
    """A quick check of the source and options before anything runs (no I/O): raises
    :class:`~models.document.design.DesignError`."""
    read_design: DesignReader | None = None
    read_measurements: MeasurementReader | None = None
    preload: tuple[str, ...] = ()
    """Modules an app imports on its GUI thread before running this import in the
    background (pyVmomi builds thousands of types on its first import)."""

    @property
    def produces(self) -> frozenset[Product]:
        made: set[Product] = set()
        if self.read_design is not None:
            made.add(DESIGN)
        if self.read_measurements is not None:
            made.add(MEASUREMENTS)
        return frozenset(made)

    @property
    def reads_files(self) -> bool:
        return self.source.kind == "path"

    @property
    def all_options(self) -> tuple[Option, ...]:
        """Its own options, then :data:`DESIGN_OPTIONS` for a design source."""
        return self.options + (DESIGN_OPTIONS if self.read_design is not None else ())

    @property
    def window_title(self) -> str:
        return self.dialog_title or f"Import {self.title}"

    def claims(self, path: Path) -> bool:
        """Whether ``path``'s suffix (or, for a folder, :attr:`folders`) is one it reads."""
        try:
            if path.is_dir():
                return self.folders
        except OSError:
            return False
        return path.suffix.lower() in self.suffixes

    def recognises(self, path: Path) -> bool:
        """Whether its sniff says ``path`` is one of its own."""
        if self.sniff is None:
            return False
        try:  # never open a pipe or a device: reading one could block forever
            return (path.is_dir() or path.is_file()) and self.sniff(path)
        except (OSError, ValueError):
            return False

    def source_path(self, path: str | Path) -> str:
        """The source a chosen path stands for, as its reader takes it."""
        p = Path(path)
        return str(self.source_for(p) if self.source_for is not None else p)

    def defaults(self) -> dict[str, Value]:
        """Every option at its default."""
        return {o.name: o.default for o in self.all_options}
