"""No import cycles in server/ and workers/: each layer imports only the ones below it.

The graph is computed from the source with ``ast`` (modules move; the test lists none): every
module under server/ and workers/ (a package's ``__init__.py`` is the package), and an edge for
every import of another of them, at the top of a module or inside a function alike (a
function-level import still ties the two together). ``import a.b.c`` is an edge to ``a.b.c``
(not to its parent package, which Python always initializes first); ``from a.b import c`` to
``a.b.c`` when it is a module (as ``import a.b.c``), else to ``a.b``. Imports under
``if TYPE_CHECKING:`` never run and are left out. A cycle is a strongly connected component
of more than one module; the failure names its modules and the imports that close it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("server", "workers")


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the packages: dotted name -> file."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _type_checking(node: ast.AST) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST):
    """Every import node of the tree, at any depth, except those under ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif _type_checking(node):
            stack.extend(node.orelse)
        else:
            stack.extend(ast.iter_child_nodes(node))


def _known(name: str, known: dict) -> str | None:
    """``name`` or its nearest enclosing module among ``known``."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def edges(known: dict[str, Path]) -> dict[str, dict[str, int]]:
    """module -> {imported module: line of the first such import}."""
    graph: dict[str, dict[str, int]] = {name: {} for name in known}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _imports(ast.parse(path.read_text(), str(path))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[:len(anchor) - (node.level - 1)]
                    base = ".".join(anchor + ([base] if base else []))
                subs = [f"{base}.{alias.name}" for alias in node.names
                        if f"{base}.{alias.name}" in known]
                targets = subs + ([base] if len(subs) < len(node.names) else [])
            for target in targets:
                target = _known(target, known)
                if target is not None and target != name:
                    graph[name].setdefault(target, node.lineno)
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative), each sorted, largest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
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
    return sorted(found, key=lambda c: (-len(c), c))


def shortest_cycle(start: str, component: list[str], graph: dict[str, dict[str, int]]):
    """The shortest path of imports from ``start`` back to it inside the component."""
    inside = set(component)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(graph[node]):
                if target not in inside or target in came_from:
                    continue
                came_from[target] = node
                if target == start:
                    path = [start]
                    while came_from[path[-1]] != start:
                        path.append(came_from[path[-1]])
                    return [start] + path[:0:-1] + [start]
                following.append(target)
        frontier = following
    return [start]


def describe(component: list[str], graph: dict[str, dict[str, int]],
             known: dict[str, Path]) -> str:
    """The component's modules, and one shortest cycle of imports in it with where each
    import is: break one of them (and run again: the component may hold more)."""
    path = shortest_cycle(component[0], component, graph)
    lines = [f"cycle among {len(component)} modules: {', '.join(component)}",
             "  for instance:"]
    for name, target in zip(path, path[1:]):
        lines.append(f"    {name} -> {target}  "
                     f"({known[name].relative_to(ROOT)}:{graph[name][target]})")
    return "\n".join(lines)


def test_server_and_workers_have_no_import_cycle():
    known = modules()
    graph = edges(known)
    found = cycles(graph)
    assert not found, "\n\n".join(describe(c, graph, known) for c in found)


# --- the checker itself, on made-up packages ------------------------------------------------
def _tree(tmp_path: Path, files: dict[str, str]) -> dict[str, Path]:
    for relative, text in files.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return modules(tmp_path)


def test_a_function_level_import_closes_a_cycle(tmp_path):
    known = _tree(tmp_path, {
        "server/__init__.py": "",
        "server/app.py": "from server.services import outbox\n",
        "server/services/__init__.py": "",
        "server/services/outbox.py": "def send():\n    from workers import tasks\n",
        "workers/__init__.py": "",
        "workers/tasks.py": "import server.app\n"})
    assert cycles(edges(known)) == [["server.app", "server.services.outbox", "workers.tasks"]]


def test_type_checking_imports_and_other_packages_are_no_edges(tmp_path):
    known = _tree(tmp_path, {
        "server/__init__.py": "",
        "server/a.py": "import engine.core\nfrom server import b\n",
        "server/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                       "    from server import a\nelse:\n    import json\n",
        "workers/__init__.py": ""})
    graph = edges(known)
    assert graph["server.a"] == {"server.b": 2}
    assert graph["server.b"] == {}
    assert cycles(graph) == []


def test_from_a_package_a_module_is_an_edge_to_it_and_a_name_to_the_package(tmp_path):
    known = _tree(tmp_path, {
        "server/__init__.py": "",
        "server/games/__init__.py": "from server.games.tmotp import Presenter\n"
                                    "class UnknownGame(LookupError): ...\n",
        "server/games/presenter.py": "",
        "server/games/tmotp/__init__.py": "from .. import presenter\n"
                                          "Presenter = presenter\n",
        "server/games/tmotp/mail.py": "from server.games import UnknownGame, presenter\n",
        "workers/__init__.py": ""})
    graph = edges(known)
    assert set(graph["server.games.tmotp"]) == {"server.games.presenter"}
    assert set(graph["server.games.tmotp.mail"]) == {"server.games", "server.games.presenter"}
    assert cycles(graph) == []
    (tmp_path / "server/games/tmotp/__init__.py").write_text(
        "from .. import presenter\nfrom . import mail\n")
    assert cycles(edges(known)) == [["server.games", "server.games.tmotp",
                                     "server.games.tmotp.mail"]]
