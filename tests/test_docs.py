"""The project's own rules documents hold every ruling the engines implement.

A person who clones the project has ``docs/`` but not the steering repository's
``../shared/rules/``: the rulings' text must be in ``docs/*-rules.md`` (their appendix),
word for word, so that when a ruling changes (T4.6, T6.3 did) the docs change with it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "rules"


def _folded(text: str) -> str:
    return " ".join(text.split())


def _rulings(text: str, prefix: str) -> dict[str, str]:
    """Each numbered ruling (``- T4.6 ...`` with its continuation lines) by id."""
    out: dict[str, str] = {}
    for match in re.finditer(rf"^- ({prefix}\d+(?:\.\d+)?) (.*?)(?=^\S|^- |\Z)", text, re.M | re.S):
        out[match.group(1)] = _folded(match.group(0))
    return out


@pytest.mark.parametrize(("game", "prefix", "least"), [("tomb", "T", 35), ("treasure", "R", 14)])
def test_every_ruling_is_in_the_rules_document_word_for_word(game: str, prefix: str, least: int) -> None:
    source = SHARED / f"{game}.md"
    if not source.exists():
        pytest.skip("the rulings are in ../shared/rules, beside the project (tests may read them)")
    rulings = _rulings(source.read_text(encoding="utf-8"), prefix)
    assert len(rulings) >= least
    doc = _folded((ROOT / "docs" / f"{game}-rules.md").read_text(encoding="utf-8"))
    missing = [rule for rule, text in rulings.items() if text not in doc]
    assert not missing, f"docs/{game}-rules.md lacks (or has an old text of) {', '.join(missing)}"


def test_the_readme_and_docs_send_nobody_to_files_a_clone_does_not_have() -> None:
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        assert "../shared" not in path.read_text(encoding="utf-8"), path.name
