from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from campaign.options import render_options

register = template.Library()


@register.filter
def get_item(mapping, key):
    """``{{ mapping|get_item:key }}``: a dict lookup with a variable key."""
    return mapping.get(key) if hasattr(mapping, "get") else None


@register.simple_tag
def form_token():
    """A one-time token for a form that changes something (see ``campaign.once``)."""
    from campaign.once import FIELD, new_token

    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_token())


@register.simple_tag
def options(choices, label="", exclude=None, selected=None):
    """``<option>`` elements for ``choices``; see ``campaign.options``."""
    return render_options(choices, label, exclude=exclude, selected=selected)


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
