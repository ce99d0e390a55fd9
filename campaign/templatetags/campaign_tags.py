from django import template
from django.utils import dateformat, timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from campaign import permissions
from campaign.options import render_groups, render_options

register = template.Library()


@register.filter
def get_item(mapping, key):
    """``{{ mapping|get_item:key }}``: a dict lookup with a variable key."""
    return mapping.get(key) if hasattr(mapping, "get") else None


@register.simple_tag
def form_token(element_id="", oob=False):
    """A one-time token for a form that changes something (see ``campaign.once``).
    ``element_id``: the input's id, so that an answer can replace it with a fresh token out of
    band (``oob``) instead of drawing the whole form again."""
    from campaign.once import FIELD, new_token

    if not element_id:
        return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_token())
    return format_html(
        '<input type="hidden" name="{}" value="{}" id="{}"{}>',
        FIELD,
        new_token(),
        element_id,
        mark_safe(' hx-swap-oob="true"') if oob else "",
    )


@register.simple_tag
def options(choices, label="", exclude=None, selected=None):
    """``<option>`` elements for ``choices``; see ``campaign.options``."""
    return render_options(choices, label, exclude=exclude, selected=selected)


@register.simple_tag
def option_groups(groups):
    """``<optgroup>`` elements for ``groups``; see ``campaign.options.render_groups``."""
    return render_groups(groups)


@register.simple_tag
def experience_boxes(track):
    """The ``<li>`` boxes of an experience track (``rules.experience_track``): a hero's runs to
    90 boxes, which a template loop with three conditions per box drew many times slower."""
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
    battle and actor loaded): a page of 50 drawn by the template language cost a fifth of the
    treasury page, and the ledger is drawn again after every move."""
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
