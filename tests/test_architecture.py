"""The rooms stay small enough to read, and the layers depend one way (docs/architecture.md).

These read the source, not the running code: a function over 80 lines, a module over
600, a private name reached from another module, a branch on a game's name outside the
registry, or a rules module importing what sits above it fails here with its place.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "mummy"
PYTHON_ROOTS = [PACKAGE, ROOT / "tests", ROOT / "benchmarks", ROOT / "examples"]
MAX_FUNCTION = 80
MAX_MODULE = 600
#: The public names of NamedTuple and the like that begin with an underscore.
PUBLIC_UNDERSCORED = {"_replace", "_asdict", "_fields", "_make", "_field_defaults"}
GAME_NAMES = {"tomb", "treasure"}
#: Migrations are history: each says what the schema was when it was written, in its own
#: words, and must not follow later code.
MIGRATIONS = PACKAGE / "server" / "store" / "migrations"


def python_files() -> Iterator[Path]:
    for root in PYTHON_ROOTS:
        if root.exists():
            yield from sorted(p for p in root.rglob("*.py") if ".venv" not in p.parts)


def parsed() -> Iterator[tuple[Path, str, ast.Module]]:
    for path in python_files():
        text = path.read_text(encoding="utf-8")
        yield path, text, ast.parse(text, filename=str(path))


def where(path: Path, node: ast.AST | None = None) -> str:
    line = f":{getattr(node, 'lineno', 0)}" if node is not None else ""
    return f"{path.relative_to(ROOT)}{line}"


def test_no_function_over_80_lines() -> None:
    long = [f"{where(p, n)} {n.name} ({n.end_lineno - n.lineno + 1} lines)"  # type: ignore[operator]
            for p, _, tree in parsed() for n in ast.walk(tree)
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            and n.end_lineno - n.lineno + 1 > MAX_FUNCTION]  # type: ignore[operator]
    assert not long, "break these into named steps:\n" + "\n".join(long)


def test_no_module_over_600_lines() -> None:
    big = [f"{where(p)} ({len(text.splitlines())} lines)" for p, text, _ in parsed()
           if len(text.splitlines()) > MAX_MODULE]
    assert not big, "split these by concern:\n" + "\n".join(big)


def own_privates(tree: ast.Module) -> set[str]:
    """The private names a module defines itself (``self._x``, ``def _x``, ``class _X``):
    a class may reach them on another of its instances, as a copy method does."""
    names = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
             and n.value.id == "self"}
    names |= {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    return {n for n in names if n.startswith("_")}


def private_reaches(tree: ast.Module) -> Iterator[tuple[ast.AST, str]]:
    """``obj._name`` on anything but self, cls or super() (unless the module defines the
    name itself), and ``from m import _name``."""
    own = own_privates(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            if node.attr in PUBLIC_UNDERSCORED or node.attr in own:
                continue
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
                continue
            yield node, f".{node.attr} on {ast.unparse(owner)}"
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    yield node, f"import {alias.name} from {node.module}"


def test_no_private_name_reached_from_outside() -> None:
    found = [f"{where(p, n)} {what}" for p, _, tree in parsed() for n, what in private_reaches(tree)]
    assert not found, "give these a public name or a seam:\n" + "\n".join(found)


def test_private_reach_check_catches_what_it_should() -> None:
    tree = ast.parse("from m import _x\nclass A:\n    def f(self, o):\n"
                     "        return self._a, o._a, o._b, super()._c, t._replace()\n")
    assert sorted(what for _, what in private_reaches(tree)) == ["._b on o", "import _x from m"]


def test_no_branch_on_a_game_name_outside_the_registry() -> None:
    """Only the registry (mummy/games/) says which games there are; nothing compares a
    name to "tomb" or "treasure"."""
    found = []
    for path, _, tree in parsed():
        if PACKAGE not in path.parents or PACKAGE / "games" in path.parents or MIGRATIONS in path.parents:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare):
                values = [node.left, *node.comparators]
                consts = [c for v in values for c in ([v] if isinstance(v, ast.Constant) else
                                                      getattr(v, "elts", []))]
                if any(isinstance(c, ast.Constant) and c.value in GAME_NAMES for c in consts):
                    found.append(f"{where(path, node)} {ast.unparse(node)}")
            elif isinstance(node, ast.Match) and any(
                    isinstance(c.pattern, ast.MatchValue) and isinstance(c.pattern.value, ast.Constant)
                    and c.pattern.value.value in GAME_NAMES for c in node.cases):
                found.append(f"{where(path, node)} match on a game name")
    assert not found, "ask the game's kind (mummy.games.KINDS) instead:\n" + "\n".join(found)


def imports(tree: ast.Module) -> Iterator[tuple[ast.AST, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node, node.module


def test_comments_name_rules_and_reasons_not_issue_numbers() -> None:
    """The package says why in words (a rule's id, the fault seen); an issue's number says
    nothing to a reader of the code. Migrations are history and keep theirs."""
    pattern = re.compile(r"\b[Ii]ssue \d+")
    found = [f"{path.relative_to(ROOT)}:{n}" for path in sorted(PACKAGE.rglob("*"))
             if path.suffix in (".py", ".js", ".css", ".html") and MIGRATIONS not in path.parents
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert not found, "say the reason, not the issue:\n" + "\n".join(found)


def test_the_layers_hold() -> None:
    """import-linter's contracts (pyproject.toml): each layer imports only those below it,
    and no import cycle joins two layers (``make lint`` runs the same check)."""
    command = Path(sys.executable).parent / "lint-imports"
    if not command.exists():
        pytest.skip("import-linter is not installed (the dev extra)")
    done = subprocess.run([str(command), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]


@pytest.mark.parametrize("package", ["core", "tomb", "treasure"])
def test_the_rules_import_only_the_core_and_themselves(package: str) -> None:
    allowed = {"mummy.core", f"mummy.{package}"}
    found = []
    for path in sorted((PACKAGE / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node, name in imports(tree):
            if name.startswith("mummy") and not any(name == a or name.startswith(a + ".") for a in allowed):
                found.append(f"{where(path, node)} imports {name}")
    assert not found, "the rules never import what sits above them:\n" + "\n".join(found)


def test_every_part_a_registration_names_loads() -> None:
    """A reference that names nothing fails here, not when a player first asks for it."""
    from mummy.games import PARTS, games, load

    for game in games().values():
        for part in PARTS:
            if game.has(part):
                assert game.part(part) is not None, (game.name, part)
        for bot in game.bots:
            if bot.extra is None:
                assert callable(load(bot.make)), (game.name, bot.name)
