"""House style rule 1: rules modules import nothing from Django (pure, testable, fast)."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = ("core", "campaign", "warbands", "battles", "league")
PURE_MODULES = sorted(
    [
        *(path for app in APPS for path in (ROOT / app).glob("rules.py")),
        *(path for app in APPS for path in (ROOT / app).glob("rules/*.py")),
        ROOT / "core" / "dice.py",
        ROOT / "core" / "errors.py",
    ]
)
FORBIDDEN = ("django", "random")


@pytest.mark.parametrize("path", PURE_MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_rules_modules_import_neither_django_nor_random(path):
    tree = ast.parse(path.read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            imported.add(node.module.split(".")[0])

    assert not imported & set(FORBIDDEN), f"{path.name} imports {imported & set(FORBIDDEN)}"


def test_there_are_rules_modules_to_check():
    assert ROOT / "warbands" / "rules" / "roster.py" in PURE_MODULES
