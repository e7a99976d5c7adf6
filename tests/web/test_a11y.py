"""An accessibility scan of every page with axe-core (the axe-playwright-python package,
which ships axe and injects it from this machine: no request leaves our server), at the
desktop and the phone size: no serious or critical violation.

Every scan's whole answer (minor and moderate findings too) is written to
``test-artifacts/a11y-NAME.json`` for whoever improves the pages next."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from tests.web.conftest import ARTIFACTS, Watched, create, play_to_end, shot

#: The impacts that fail the scan (axe's scale: minor, moderate, serious, critical).
FAILING = ("serious", "critical")


@dataclass(frozen=True)
class Violation:
    """One axe rule broken on a page: the rule, its impact, the elements (CSS paths)."""

    rule: str
    impact: str
    help: str
    targets: tuple[str, ...]
    nodes: tuple[str, ...]  # each element's CSS path and the start of its HTML

    def __str__(self) -> str:
        return f"{self.rule} ({self.impact}): {self.help} — " + "; ".join(self.targets[:6])


def scan(page: Any, name: str) -> list[Violation]:
    """axe over the page as it is now: its serious and critical violations."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page).response
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"a11y-{name}.json").write_text(json.dumps(results["violations"], indent=1))
    return [Violation(v["id"], v["impact"], v["help"], tuple(" ".join(n["target"]) for n in v["nodes"]),
                      tuple(f"{' '.join(n['target'])} {n['html'][:200]}" for n in v["nodes"]))
            for v in results["violations"] if v["impact"] in FAILING]


def _game(game: str, ready: str) -> Callable[[Watched, Any], None]:
    def open_game(web: Watched, page: Any) -> None:
        created = create(web.base, {"game": game, "seats": [{"name": "Ada"}], "seed": 1})
        page.goto(web.base + created["seats"][0]["invite"])
        page.wait_for_selector(ready)
    return open_game


def _tomb_with_a_die(web: Watched, page: Any) -> None:
    _game("tomb", "#sheet [data-square]")(web, page)
    page.click("#dice [data-slot='1']")  # the first die: its own controls open
    page.wait_for_selector("#dice [data-slot='1'].selected")


def _results(game: str) -> Callable[[Watched, Any], None]:
    def open_results(web: Watched, page: Any) -> None:
        game_id, token = play_to_end(web.base, {"game": game, "seats": [{"name": "Fin"}], "seed": 5})
        page.goto(f"{web.base}/play/{game_id}#token={token}")
        page.wait_for_selector(".results-table")  # the results screen, over the game
    return open_results


def _replay(web: Watched, page: Any) -> None:
    game_id, _ = play_to_end(web.base, {"game": "tomb", "seats": [{"name": "Fin"}], "seed": 5})
    page.goto(f"{web.base}/replay/{game_id}")
    page.wait_for_selector("#app[data-ready=yes]")
    page.keyboard.press("End")
    page.wait_for_selector("#replay-result:not([hidden])")
    page.wait_for_selector("#replay-board:not(.stale)")  # drawn, not dimmed while it loads


def _at(path: str, ready: str) -> Callable[[Watched, Any], None]:
    def open_page(web: Watched, page: Any) -> None:
        page.goto(web.base + path)
        page.wait_for_selector(ready)
    return open_page


def _editor_with_a_fault(web: Watched, page: Any) -> None:
    """The map editor on Map 1 with a fault marked on its square (a key on stone, T10)."""
    page.goto(f"{web.base}/editor?from=map1")
    page.wait_for_selector("#app[data-ready=yes] #check[data-state=ok]")
    page.click("#editor-sheet [data-square='A1']")
    page.wait_for_selector("#check[data-state=fault]")


#: Every page, in the state a person meets it.
PAGES: dict[str, Callable[[Watched, Any], None]] = {
    "start": _at("/", "#app[data-ready=yes]"),
    "tomb": _game("tomb", "#sheet [data-square]"),
    "tomb-die-chosen": _tomb_with_a_die,
    "treasure": _game("treasure", ".treasure"),
    "results-tomb": _results("tomb"),
    "results-treasure": _results("treasure"),
    "replay": _replay,
    "error": _at("/play/no-such-game", ".error-page"),
    "rules": _at("/rules", "#app[data-ready=yes]"),
    "tutorial": _at("/tutorial", "#app:is([data-ready=yes], [data-ready=done])"),
    "editor": _editor_with_a_fault,
}


@pytest.mark.usefixtures("browser")  # named here: the browser stays open from one scan to the next
@pytest.mark.parametrize("size", ["web", "phone"])
@pytest.mark.parametrize("name", list(PAGES))
def test_no_serious_accessibility_violation(name: str, size: str, request: pytest.FixtureRequest) -> None:
    where: Watched = request.getfixturevalue(size)  # the desktop's or the phone's context
    page = where.page()
    PAGES[name](where, page)
    label = f"{name}-{'desktop' if size == 'web' else 'phone'}"
    found = scan(page, label)
    shot(page, f"a11y-{label}")
    assert found == [], "\n".join(map(str, found))
