"""The core knows no game: no module outside a game's package imports a game package, no game imports another, and
the core finds games only through the ``referee.games`` entry points. Checked on the source (every import statement,
module-level or inside a function), so a lazy import cannot hide a dependency."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import referee
from referee.registry import GAMES

PACKAGE = Path(referee.__file__).parent
GAME_PACKAGES = {GAMES[game_id].__module__.split(".")[1] for game_id in GAMES}


def imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def game_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "referee" and parts[1] in GAME_PACKAGES else None


def test_every_built_in_game_is_a_package_of_its_own() -> None:
    assert {"saint_petersburg", "san_juan", "santorini_new_york"} <= GAME_PACKAGES
    for name in GAME_PACKAGES:
        assert (PACKAGE / name / "__init__.py").is_file()


@pytest.mark.parametrize("path", sorted(PACKAGE.glob("*.py")), ids=lambda p: p.name)
def test_no_core_module_imports_a_game(path: Path) -> None:
    games = {game for module in imported_modules(path) if (game := game_of(module))}
    assert not games, f"{path.name} imports the game package(s) {sorted(games)}"


@pytest.mark.parametrize("package", sorted(GAME_PACKAGES))
def test_no_game_imports_another_game(package: str) -> None:
    for path in sorted((PACKAGE / package).rglob("*.py")):
        others = {game for module in imported_modules(path) if (game := game_of(module)) and game != package}
        assert not others, f"{path.relative_to(PACKAGE)} imports {sorted(others)}"


def test_the_core_grammar_names_no_game() -> None:
    core = PACKAGE.parent / "grammar"
    for path in core.glob("*.lark"):
        text = path.read_text(encoding="utf-8").lower()
        for game in GAMES.values():
            assert game.title.lower() not in text and game.id not in text, (path.name, game.id)


def test_each_game_owns_its_grammar_variants_docs_and_adapter() -> None:
    root = PACKAGE.parent
    for game in GAMES.values():
        folder = PACKAGE / game.__module__.split(".")[1]
        assert list(folder.glob("*.lark")), f"{game.id} has no grammar in its package"
        assert game.doc_page and (root / game.doc_page).is_file(), f"{game.id} names no documentation page"
        assert game.property_adapter, f"{game.id} names no property adapter"


def test_check_loads_neither_z3_nor_hypothesis_nor_other_games() -> None:
    """`referee check` imports only what judging needs: z3 is for `prove`, Hypothesis for the property suites, and a
    record of one game loads that game's package alone."""
    import subprocess
    import sys

    record = PACKAGE.parent / "records" / "saint-petersburg" / "golden"
    script = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from referee.cli import main\n"
        f"result = CliRunner().invoke(main, ['check', '--jobs', '1', {str(record)!r}])\n"
        "assert result.exit_code == 0, result.output\n"
        "watched = ('z3', 'hypothesis', 'referee')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in watched))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    loaded = eval(done.stdout.strip().splitlines()[-1])
    assert not [m for m in loaded if m.split(".")[0] in ("z3", "hypothesis")], loaded
    assert not [m for m in loaded if m.startswith(("referee.san_juan", "referee.santorini_new_york"))], loaded
    assert "referee.saint_petersburg" in loaded


def test_check_on_workers_loads_every_game_first_and_neither_z3_nor_hypothesis() -> None:
    """With workers, the parent loads every game's package and grammar tables before they fork (they start with
    them: ``parallel.preload_games``) — and still neither z3 nor Hypothesis."""
    import subprocess
    import sys

    folder = PACKAGE.parent / "records" / "saint-petersburg"
    script = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from referee.cli import main\n"
        "from referee.registry import GAMES\n"
        f"result = CliRunner().invoke(main, ['check', '--jobs', '2', '--format', 'jsonl', {str(folder)!r}])\n"
        "assert result.exit_code in (0, 1), result.output\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('z3', 'hypothesis')))\n"
        "print(sorted(g.id for g in GAMES.values() if g.__dict__.get('_parser') is not None))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True)
    *_, heavy, parsed = done.stdout.strip().splitlines()
    assert eval(heavy) == []
    assert eval(parsed) == sorted(GAMES)


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_graph() -> dict[str, set[str]]:
    """Module -> the referee modules it imports, from every import statement (module-level, in a function, or only
    for type checking): ``from referee.x import y`` counts as importing ``referee.x.y`` when that is a module."""
    paths = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                for alias in node.names:
                    targets.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in paths else base)
        graph[name] = {target for target in targets if target in paths and target != name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycle_among_the_referees_modules() -> None:
    """Every package reads top-down: no two modules import each other, directly or through others."""
    assert _cycles(_import_graph()) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert _cycles(_import_graph() | {"referee.errors": {"referee.cli"}}) != []
