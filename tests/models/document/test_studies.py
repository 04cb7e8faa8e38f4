"""The study registry against the case file: every case's study is registered, every
registered study has cases, its seeds are its cases' seeds, and no module types a title."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

from models.calibration import cases
from models.document import studies
from models.document.studies import FT4, GUIDES, SIOC, STUDIES, VAIO, Study, cite, named

ROOT = Path(__file__).resolve().parents[3]


def _cases_of() -> dict[Study, list[dict[str, object]]]:
    out: dict[Study, list[dict[str, object]]] = defaultdict(list)
    for case in cases().values():
        out[named(str(case["study"]))].append(case)
    return out


def test_every_case_names_a_registered_study() -> None:
    unknown = sorted({str(c["study"]) for c in cases().values()}
                     - {n for s in STUDIES for n in s.names})
    assert unknown == []


def test_every_registered_study_has_cases_and_no_guide_has_one() -> None:
    used = _cases_of()
    assert [s.title for s in STUDIES if s not in used] == []
    assert [s.title for s in GUIDES if s in used] == []


def test_a_study_carries_its_cases_seeds_and_spellings() -> None:
    for study, mine in _cases_of().items():
        assert set(study.seeds) == {str(c["seed_file"]) for c in mine}, study.title
        # a spelling no case uses would be a name nobody needs
        assert set(study.spellings) <= {str(c["study"]) for c in mine}, study.title


def test_spellings_of_one_study_read_as_one_title() -> None:
    ft = {str(c["study"]) for c in cases().values() if str(c["study"]).startswith(FT4.title)}
    assert len(ft) == 2  # the case file's two ways of naming the vSphere 4 FT white paper
    assert {named(name) for name in ft} == {FT4}
    assert named(SIOC.spellings[0]).title == SIOC.title
    with pytest.raises(KeyError):
        named("A study nobody published")


def test_titles_and_spellings_are_unique() -> None:
    names = [n for s in STUDIES + GUIDES for n in s.names]
    assert len(names) == len(set(names))


def test_citation_and_source_line() -> None:
    assert FT4.citation == f"{FT4.title}. VMware, 2009."
    assert VAIO.citation == f"{VAIO.title}. VMware."  # no year is guessed
    assert cite(VAIO, FT4) == f"{VAIO.title}; {FT4.title}"


def _literals(path: Path) -> list[tuple[int, str]]:
    """The string literals of a module, docstrings left out (prose may name a study)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def test_no_module_but_the_registry_types_a_title() -> None:
    names = [n for s in STUDIES + GUIDES for n in s.names]
    registry = Path(studies.__file__).resolve()
    typed = [f"{path.relative_to(ROOT)}:{line}"
             for folder in ("models", "app") for path in sorted((ROOT / folder).rglob("*.py"))
             if path.resolve() != registry
             for line, text in _literals(path) if any(n in text for n in names)]
    assert typed == []
