"""Template tags every page may use without a ``{% load %}`` (settings: ``builtins``)."""

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe

from core.offline import user_key
from core.once import FIELD, new_token
from core.options import render_groups, render_options
from core.words import possessive as _possessive

register = template.Library()


@register.filter
def get_item(mapping, key):
    """``{{ mapping|get_item:key }}``: a dict lookup with a variable key."""
    return mapping.get(key) if hasattr(mapping, "get") else None


@register.filter(needs_autoescape=True)
def possessive(name, autoescape=True):
    """``{{ warband.name|possessive }}``: "Zealots'" or "Ulrich's" (``core.words.possessive``).
    Only the name is escaped, so the apostrophe reaches the page as typed."""
    text = str(name)
    ending = _possessive(text)[len(text) :]
    if not autoescape:
        return text + ending
    return mark_safe(conditional_escape(name) + ending)


@register.filter
def offline_key(user) -> str:
    """``{{ user|offline_key }}``: the opaque key the service worker keeps the user's saved
    pages under (``core.offline.user_key``); "" for a visitor, whose pages it never keeps,
    and on a page drawn without a request (the server error page), where there is no user."""
    return user_key(user) if getattr(user, "is_authenticated", False) else ""


@register.simple_tag
def form_token(element_id="", oob=False):
    """A one-time token for a form that changes something (see ``core.once``).
    ``element_id``: the input's id, so that an answer can replace it with a fresh token out of
    band (``oob``) instead of drawing the whole form again."""
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
    """``<option>`` elements for ``choices``; see ``core.options``."""
    return render_options(choices, label, exclude=exclude, selected=selected)


@register.simple_tag
def option_groups(groups):
    """``<optgroup>`` elements for ``groups``; see ``core.options.render_groups``."""
    return render_groups(groups)
