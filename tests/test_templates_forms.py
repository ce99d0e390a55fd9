"""Forms are drawn from form classes (DESIGN.md, views and forms): no template writes an
``<input>``, ``<select>`` or ``<textarea>`` of its own, so every field has the attributes its
form sets and its messages beside it. Hidden inputs may stay (the once-only token, a fixed
action name such as a correction's ``kind``)."""

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
CONTROL = re.compile(r"<(input|select|textarea)\b[^>]*>", re.IGNORECASE)
HIDDEN = re.compile(r"""\btype\s*=\s*["']?hidden\b""", re.IGNORECASE)
#: The widgets' own templates (tests/test_widget_templates.py): they are what draws a field.
WIDGETS = "django/forms/widgets/"

# Pages still drawn by hand, each with its count of hand-written controls: remove a page's entry
# when its forms are drawn from their classes. No new entry may be added.
ALLOWED: dict[str, int] = {}


def hand_written() -> dict[str, list[str]]:
    """Each template's visible controls not drawn by a form's field."""
    found: dict[str, list[str]] = {}
    for path in sorted(TEMPLATES.rglob("*.html")):
        if path.relative_to(TEMPLATES).as_posix().startswith(WIDGETS):
            continue
        text = path.read_text(encoding="utf-8")
        controls = [
            tag.group(0) for tag in CONTROL.finditer(text) if not HIDDEN.search(tag.group(0))
        ]
        if controls:
            found[path.relative_to(TEMPLATES).as_posix()] = controls
    return found


def test_no_template_writes_a_form_control_of_its_own():
    found = hand_written()
    unexpected = {
        name: controls for name, controls in found.items() if len(controls) > ALLOWED.get(name, 0)
    }
    assert unexpected == {}, "draw these from their form's fields: " + "; ".join(
        f"{name}: {', '.join(controls)}" for name, controls in unexpected.items()
    )


def test_the_allowed_pages_are_still_drawn_by_hand():
    """An entry whose page no longer needs it goes, so the list only shrinks."""
    found = hand_written()
    stale = {name for name, count in ALLOWED.items() if len(found.get(name, ())) < count}
    assert stale == set()


def test_the_scan_finds_a_hand_written_control(tmp_path):
    """The pattern sees what it is for: a visible input, a select, a textarea; not a hidden one."""
    text = '<input type="text" name="a"><input type="hidden" name="b"><select name="c"></select>'
    text += "<textarea name='d'></textarea><INPUT name=e><input type=hidden name=f>"
    controls = [t.group(0) for t in CONTROL.finditer(text) if not HIDDEN.search(t.group(0))]
    assert [re.search(r"name=.?(\w)", c).group(1) for c in controls] == ["a", "c", "d", "e"]
