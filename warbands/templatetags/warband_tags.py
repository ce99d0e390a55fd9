"""Template tags of rosters and treasuries (settings: ``builtins``)."""

from django import template
from django.utils import dateformat, timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from warbands import permissions
from warbands.models.lists import GRADE_NOTES, list_summary
from warbands.rules.special_rules import handling, handling_for

register = template.Library()


@register.simple_tag
def grade_badge(grade: str):
    """A warband list's grade as a small badge ("Grade 1b"), its tooltip saying what the grade
    means; nothing for a list of no known grade."""
    if grade not in GRADE_NOTES:
        return ""
    return format_html(
        '<span class="badge badge-grade" title="{}">Grade {}</span>', GRADE_NOTES[grade], grade
    )


register.filter("list_summary", list_summary)


@register.simple_tag
def rule_handling(rule, warrior_type=None, listed=None):
    """What the app does with a special rule (``warbands.rules.special_rules``): a warrior
    type's rule is read against the type's own fields (no query: columns of its row), a list's
    against its roster rules when ``listed`` (its ``WarbandType``) is given."""
    if not isinstance(rule, dict):
        rule = {"name": str(rule)}
    if warrior_type is not None:
        return handling_for(rule, warrior_type)
    chosen = listed is not None and listed.limits.leader_from is not None
    return handling(rule, leader_chosen=chosen)


@register.simple_tag
def experience_boxes(track):
    """The ``<li>`` boxes of an experience track (``rules.experience_track``), built in Python:
    a hero's track runs to 90 boxes with three conditions each."""
    return mark_safe(
        "".join(
            f'<li class="{"ticked" if box.ticked else ""}{" thick" if box.thick else ""}'
            f'{" starting" if box.starting else ""}"></li>'
            for box in track
        )
    )


@register.simple_tag
def ledger_rows(entries):
    """The ledger table's rows, one ``<tr>`` per entry (``LedgerEntry`` with its container,
    battle and actor loaded). Containers are named through ``permissions.ledger_name``, so a
    captured container's owner-given label never shows in the old owner's ledger."""
    return format_html_join("\n", "<tr><td>{}</td><td>{}</td><td class=\"{}\">{}{} {}</td>"
                            "<td>{}{}</td><td>{}</td><td>{}</td></tr>", (
        (
            dateformat.format(timezone.localtime(entry.created_at), "j M Y H:i"),
            permissions.ledger_name(entry.container, entry.warband_id),
            "minus" if entry.amount < 0 else "plus",
            "+" if entry.amount > 0 else "",
            entry.amount,
            entry.what,
            entry.get_reason_display(),
            _after_battle(entry),
            entry.note,
            (entry.actor.username if entry.actor else "") or "\u2014",
        )
        for entry in entries
    ))  # fmt: skip


def _after_battle(entry) -> str:
    if entry.battle is None:
        return ""
    step = "" if entry.step is None else format_html(", step {}", entry.step)
    return format_html('<br><small class="muted">after {}{}</small>', entry.battle.scenario, step)
