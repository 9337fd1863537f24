"""One door to read a game (issue 45, item 1): every module that shows a game to somebody (the
API, the pages, the mails and their answers, the data export, the calendar feed, the digests,
the live news) reads it through services/seat_view.py, which applies a move another seat may
still take back. This test fails when such a module reaches the raw readers another way: the
order service's views (games.seat_view, decision_for, your_move, log_for, whole_state...), the
log's rows (game_history), held_view's own function, or an engine state made from the stored
dict (engine.core.from_dict, replay). The mover's own answer to their order is the one
exception, named below with its reason."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
READERS = [*sorted((ROOT / "server" / "api").rglob("*.py")),
           *sorted((ROOT / "server" / "web").rglob("*.py")),
           *sorted((ROOT / "server" / "mail").rglob("*.py")),
           *(ROOT / "server" / "services" / f"{name}.py"
             for name in ("export", "calendar_feed", "digests", "live"))]

# module -> the names of it a reader must not use
RAW = {
    "server.services.games": {"view_for", "seat_view", "decision_for", "your_move", "log_for",
                              "log_of", "whole_state", "_load", "_prompt", "state_json"},
    "server.services.game_history": {"whole", "log_in_play", "notes"},
    "server.services.held_view": {"as_seen", "HeldGame"},
    "engine.core": {"from_dict", "replay"},
}

# (file, function, name): allowed, and why.
ALLOWED = {
    # The answer to an accepted order, inside its transaction: the mover sees their own move
    # (a held move is hidden from the others only), from the state the order produced.
    ("server/api/orders.py", "_answer", "decision_for"),
}


def _aliases(tree: ast.AST) -> tuple[dict[str, str], dict[str, str]]:
    """(local name -> raw module, local name -> "module.name") of the file's imports."""
    modules, names = {}, {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in RAW and alias.asname:
                    modules[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                if full in RAW:
                    modules[alias.asname or alias.name] = full
                elif node.module in RAW and alias.name in RAW[node.module]:
                    names[alias.asname or alias.name] = full
    return modules, names


def uses(source: str, path: str) -> list[tuple[str, int, str, str]]:
    """(file, line, function, raw name) of every use of a raw reader in ``source``."""
    tree = ast.parse(source, path)
    modules, names = _aliases(tree)
    found = []

    def visit(node, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                else function
            if isinstance(child, ast.Attribute) and isinstance(child.value, ast.Name) and \
                    child.attr in RAW.get(modules.get(child.value.id, ""), ()):
                found.append((path, child.lineno, function, child.attr))
            elif isinstance(child, ast.Name) and child.id in names:
                found.append((path, child.lineno, function, child.id))
            elif isinstance(child, ast.ImportFrom) and child.module in RAW:
                found.extend((path, child.lineno, function, a.name) for a in child.names
                             if a.name in RAW[child.module])
            visit(child, inner)

    visit(tree, "")
    return [f for f in found if (f[0], f[2], f[3]) not in ALLOWED]


def test_the_readers_read_a_game_only_through_seat_view():
    found = []
    for path in READERS:
        found += uses(path.read_text(), str(path.relative_to(ROOT)))
    assert not found, "a game read around services/seat_view.py:\n" + "\n".join(
        f"  {f}:{line} in {function or 'the module'}: {name}"
        for f, line, function, name in found)


def test_the_check_finds_each_way_around():
    """The check itself: each way a reader could reach the raw game is found."""
    sources = [
        "from server.services import games\ndef f(s, g):\n    return games.log_for(s, g, 'a')\n",
        "from server.services import games as svc\nx = svc.whole_state\n",
        "import server.services.games as g\ng.your_move(1, 2, 3)\n",
        "from server.services.games import decision_for\n",
        "from server.services import game_history\ngame_history.log_in_play(1, 2)\n",
        "import engine.core as e\ne.from_dict({})\n",
        "from engine.core import replay\n",
        "from server.services import held_view\nheld_view.as_seen(1, 2, 3)\n",
    ]
    for source in sources:
        assert uses(source, "server/web/x.py"), source
    assert not uses("from server.services import seat_view\nseat_view.of(1, 2, 3).log()\n",
                    "server/web/x.py")
    assert not uses("from server.services import games\n"
                    "def _answer(s, g):\n    return games.decision_for(s, g, 'a')\n",
                    "server/api/orders.py")
