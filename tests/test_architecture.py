"""The house rules of the code's layout (DESIGN.md, house style), checked on the real tree:
layers point down (import-linter's contract in pyproject.toml), no two modules import each
other in a circle, no module reaches into another's private names, no module passes 500
lines, and no module uses Django's internals (a model's ``_state``, ``is_cached``, a
paginator's cached properties)."""

import ast
import functools
import re
import subprocess
import sys
from pathlib import Path

import grimp
import pytest
from django.core.paginator import Paginator
from django.utils.functional import cached_property

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


@functools.cache
def parsed(source: str) -> ast.Module:
    """The syntax tree of ``source``, parsed once for all the checks that read it (they only
    walk it)."""
    return ast.parse(source)


def private_imports(path: Path) -> list[str]:
    """Private names of our other modules that ``path`` uses: ``from x import _y`` and
    ``x._y`` on a module or class it imported from our packages."""
    tree = parsed(path.read_text())
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


# Django's public API only: a model's ``_state`` is Django's bookkeeping (a new row is one
# whose primary key is still None; writing ``_state`` fakes what Django knows), ``is_cached``
# is no documented method, and a paginator's cached properties are Django's to compute.
PAGINATOR_CACHED = {
    name for name, value in vars(Paginator).items() if isinstance(value, cached_property)
}


def _targets(node: ast.AST) -> list[ast.expr]:
    """What an assignment (plain, augmented, annotated, or ``setattr``) writes to."""
    if isinstance(node, ast.Assign):
        found = list(node.targets)
    elif isinstance(node, ast.AugAssign | ast.AnnAssign):
        found = [node.target]
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "setattr"
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
    ):
        return [ast.Attribute(value=node.args[0], attr=node.args[1].value)]
    else:
        return []
    flat = []
    while found:
        target = found.pop()
        if isinstance(target, ast.Tuple | ast.List):
            found.extend(target.elts)
        else:
            flat.append(target)
    return flat


def _named(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else getattr(node, "attr", "")


def _is_paginator(node: ast.expr, paginators: set[str]) -> bool:
    """A name bound to a ``Paginator(...)`` here, or anything called a paginator."""
    return _named(node) in paginators or "paginator" in _named(node).lower()


def django_internals(source: str) -> list[str]:
    """Uses of Django's internals in ``source``: any use of a model's ``_state``, calls of
    ``is_cached``, assignments to a paginator's attributes (or its ``__dict__``), and
    subclasses of ``Paginator`` that override its cached properties."""
    tree = parsed(source)
    found, classes = [], {"Paginator"}
    for node in ast.walk(tree):  # a subclass of Paginator here makes paginators too
        if isinstance(node, ast.ClassDef) and any(_named(b) in classes for b in node.bases):
            classes.add(node.name)
            defined = {item.name for item in node.body if isinstance(item, ast.FunctionDef)}
            defined |= {
                _named(target)
                for item in node.body
                for target in _targets(item)
                if isinstance(target, ast.Name)
            }
            found += [
                f"{node.lineno}: {node.name} overrides Paginator.{name}"
                for name in sorted(defined & PAGINATOR_CACHED)
            ]
    paginators = {
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and _named(node.value.func) in classes
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "_state":
            found.append(f"{node.lineno}: uses {ast.unparse(node)}")
        if isinstance(node, ast.Call) and _named(node.func) == "is_cached":
            found.append(f"{node.lineno}: calls {ast.unparse(node.func)}()")
        for target in _targets(node):
            written = target.value if isinstance(target, ast.Subscript) else target
            if isinstance(written, ast.Attribute) and (
                "_state" in (written.attr, _named(written.value))
                or _is_paginator(written.value, paginators)
            ):
                found.append(f"{node.lineno}: assigns {ast.unparse(target)}")
    return found


def test_no_module_uses_djangos_internals():
    offenders = {
        str(path.relative_to(ROOT)): found
        for path in sources()
        if (found := django_internals(path.read_text()))
    }
    assert offenders == {}


@pytest.mark.parametrize(
    "source",
    [
        "record._state.adding = False",
        "if not self._state.adding:\n    pass",
        "obj._state.db = 'default'",
        "a, obj._state.adding = 1, False",
        "setattr(record._state, 'adding', False)",
        "known = Sequence.participant.is_cached(sequence)",
        "paginator = Paginator(rows, 30)\npaginator.count = 12",
        "pages = Paginator(rows, 30)\npages.num_pages += 1",
        "page.paginator.count = 12",
        "setattr(page.paginator, 'count', 12)",
        "self.paginator.__dict__['count'] = 12",
        "class Known(Paginator):\n    count = 12",
        "class Known(paginator.Paginator):\n    def num_pages(self):\n        return 1",
    ],
)
def test_the_internals_finder_finds_each_kind(source):
    assert django_internals(source) != []


def test_the_internals_finder_lets_the_documented_api_be():
    source = (
        "if self.pk is None:\n    pass\n"
        "paginator = Paginator(rows, 30)\npage = paginator.page(2)\nn = paginator.count\n"
        "record.pk, record.changes = 1, 2\n"
    )
    assert django_internals(source) == []


def test_rule_violation_is_imported_from_its_one_home():
    """``core.errors.RuleViolation`` is the one exception for a broken rule; importing it
    through another module hides where it lives."""
    offenders = [
        f"{path.relative_to(ROOT)}:{node.lineno} from {node.module}"
        for path in sources(tests=True)
        for node in ast.walk(parsed(path.read_text()))
        if isinstance(node, ast.ImportFrom)
        and node.module != "core.errors"
        and any(alias.name == "RuleViolation" for alias in node.names)
    ]
    assert offenders == []


ISSUE_NUMBER = re.compile(r"\b[Ii]ssues? ?#?\d+")


def test_no_comment_cites_an_issue_number():
    """Code, templates and docs say why, not which issue asked for it: the number means
    nothing to a reader of the code."""
    texts = [
        path
        for folder in (*APPS, "tests", "templates", "docs", "static/css", "static/js")
        for pattern in ("*.py", "*.html", "*.md", "*.css", "app.js")
        for path in (ROOT / folder).rglob(pattern)
    ]
    cited = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in [*texts, ROOT / "README.md"]
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if ISSUE_NUMBER.search(line)
    ]
    assert cited == []
