"""The layout of ``battles`` (README, layout): five feature packages beside the shared models,
rules, dice and permissions; the features use each other only through the services
pyproject.toml declares, and inside each one the layers point down: views, then forms, then
the services (which never import a form or a view)."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BATTLES = ROOT / "battles"
FEATURES = ("report", "helper", "captives", "aftermath", "schedule")
SHARED = {"__init__", "admin", "apps", "dice", "forms", "permissions", "urls"}


def test_battles_holds_five_features_beside_the_shared_parts():
    packages = {p.name for p in BATTLES.iterdir() if (p / "__init__.py").exists()}
    modules = {p.stem for p in BATTLES.glob("*.py")}
    assert packages == {*FEATURES, "models", "rules", "migrations"}
    assert modules <= SHARED, f"at the app's root beside the features: {modules - SHARED}"


def imported(path: Path) -> set[str]:
    """The absolute module names ``path`` imports (``from a.b import c`` gives a.b and a.b.c)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def layer_of(module: str, feature: str) -> str:
    rest = module.removeprefix(f"battles.{feature}.").split(".")[0]
    return rest if rest in ("views", "forms") else "services"


@pytest.mark.parametrize("feature", FEATURES)
def test_inside_a_feature_services_import_no_form_and_forms_no_view(feature):
    below = {"services": {"views", "forms"}, "forms": {"views"}, "views": set()}
    wrong = []
    for path in sorted((BATTLES / feature).rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        layer = layer_of(module, feature)
        for name in imported(path):
            if name.startswith(f"battles.{feature}.") and layer_of(name, feature) in below[layer]:
                wrong.append(f"{module} ({layer}) imports {name}")
    assert not wrong


def test_a_feature_importing_another_breaks_the_contract(tmp_path):
    """The independence contract is not vacuous: a copy of the tree where the post-battle
    sequence imports the battle helper fails ``lint-imports``."""
    copy = tmp_path / "tree"
    for app in ("core", "campaign", "warbands", "battles", "league", "bench"):
        for path in (ROOT / app).rglob("*.py"):
            target = copy / path.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(path.read_text())
    (copy / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    wrong = copy / "battles" / "aftermath" / "rating.py"
    wrong.write_text(wrong.read_text() + "\nfrom battles.helper import board  # noqa\n")

    done = subprocess.run(
        [Path(sys.executable).with_name("lint-imports"), "--no-cache"],
        cwd=copy,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(copy), "PATH": "/usr/bin:/bin"},
    )

    assert done.returncode == 1, done.stdout + done.stderr
    assert "battles.aftermath.rating -> battles.helper.board" in done.stdout


def test_only_the_permissions_modules_refuse_with_permission_denied():
    """Every "may" rule of ``battles`` lives in a permissions module (the app's shared one or
    a feature's own), so a refusal says the same thing wherever the action is asked for."""
    raising = sorted(
        str(path.relative_to(ROOT))
        for path in BATTLES.rglob("*.py")
        if "migrations" not in path.parts
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Raise)
        and node.exc is not None
        and "PermissionDenied" in ast.unparse(node.exc)
    )
    assert {Path(p).name for p in raising} == {"permissions.py"}
