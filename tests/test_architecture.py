"""The house rules of the code's layout (DESIGN.md, house style), checked on the real tree:
layers point down (import-linter's contract in pyproject.toml), no two modules import each
other in a circle, no module reaches into another's private names, no module passes 500
lines."""

import ast
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
APPS = ("core", "campaign", "warbands", "battles", "league", "bench")
MAX_LINES = 500
# Django's documented model API, underscored only to stay out of the way of field names.
DJANGO_PUBLIC = {"_meta", "_base_manager", "_default_manager"}


def sources(*, tests: bool = False) -> list[Path]:
    return sorted(
        path
        for app in ((*APPS, "tests") if tests else APPS)
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts
    )


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm: the groups of modules that reach each other (cycles)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_the_layers_contract_holds():
    done = subprocess.run(
        [Path(sys.executable).with_name("lint-imports")], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_an_import_that_points_up_a_layer_breaks_the_contract(tmp_path):
    """The contract is not vacuous: a copy of the tree where a campaign module imports from
    warbands (a layer above) fails ``lint-imports``."""
    copy = tmp_path / "tree"
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            target = copy / path.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(path.read_text())
    (copy / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    wrong = copy / "campaign" / "services.py"
    wrong.write_text(wrong.read_text() + "\nfrom warbands.models import Warband  # noqa\n")

    done = subprocess.run(
        [Path(sys.executable).with_name("lint-imports"), "--no-cache"],
        cwd=copy,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(copy), "PATH": "/usr/bin:/bin"},
    )

    assert done.returncode == 1, done.stdout + done.stderr
    assert "campaign is not allowed to import warbands" in done.stdout
    assert "campaign.services -> warbands.models" in done.stdout


def test_no_modules_import_each_other_in_a_circle():
    graph = grimp.build_graph(*APPS, exclude_type_checking_imports=True)
    edges = {
        module: set(graph.find_modules_directly_imported_by(module)) for module in graph.modules
    }
    assert strongly_connected(edges) == []


def test_the_cycle_finder_finds_a_cycle():
    assert strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize("path", sources(tests=True), ids=lambda p: str(p.relative_to(ROOT)))
def test_modules_stay_under_500_lines(path):
    assert len(path.read_text().splitlines()) <= MAX_LINES


def private_imports(path: Path) -> list[str]:
    """Private names of our other modules that ``path`` uses: ``from x import _y`` and
    ``x._y`` on a module or class it imported from our packages."""
    tree = ast.parse(path.read_text())
    found, ours = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] not in (*APPS, "tests"):
                continue
            for alias in node.names:
                ours.add(alias.asname or alias.name)
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{node.module}.{alias.name}")
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in ours
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and node.attr not in DJANGO_PUBLIC
        ):
            found.append(f"{node.value.id}.{node.attr}")
    return found


def test_no_module_imports_another_modules_private_names():
    offenders = {
        str(path.relative_to(ROOT)): private_imports(path)
        for path in sources(tests=True)
        if private_imports(path)
    }
    assert offenders == {}
