"""``<option>`` elements built in Python (the ``{% options %}`` tag, ``OptionsSelect``).

The treasury's forms (its page and the post-battle steps) list a warband's containers and
warriors many times over (hundreds of options for a large treasury): joining strings in
Python keeps that out of the template loop, and out of Django's template per option.
``OptionList`` (a list) keeps each option's escaped HTML, built on first use, so the forms of
one page share it.
"""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.forms.utils import flatatt
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe


def _holder(choice) -> str:
    """A container, with the hero who carries it (a pouch)."""
    return f"{choice} ({choice.holder.name})" if choice.holder_id else str(choice)


def _contents(choice) -> str:
    """A container of the owner's own forms (the post-battle sequence's treasury steps), with
    the hero who carries it and what it holds."""
    held = f" of {choice.holder.name}" if choice.holder_id else ""
    return f"{choice}{held} ({choice.contents_label})"


def _group(choice) -> str:
    """A warrior; a henchman group with its size."""
    return choice.name if choice.is_hero else f"{choice.name} (×{choice.group_size})"


LABELS = {"": str, "holder": _holder, "contents": _contents, "group": _group}


class OptionList(list):
    """A list of model instances that remembers their options once built. Not a field's
    choices (Django's ``models.Choices`` enums name fixed values): these are rows a form
    offers, whose rendered ``<option>`` elements several forms of one page share."""

    built: dict[str, list[tuple[int, str, str]]]

    def __init__(self, iterable=()):
        super().__init__(iterable)
        self.built = {}


def _built(choices, label: str) -> list[tuple[int, str, str]]:
    """(pk, escaped value, escaped label) of each choice."""
    cache = getattr(choices, "built", None)
    if cache is not None and label in cache:
        return cache[label]
    name = LABELS[label]
    built = [(choice.pk, escape(choice.pk), escape(name(choice))) for choice in choices]
    if cache is not None:
        cache[label] = built
    return built


def render_options(choices, label: str = "", *, exclude=None, selected=None) -> SafeString:
    """The options of ``choices`` labelled by ``label`` ("" for ``str``, "holder", "contents",
    "group"), without the one whose pk is ``exclude``; the one whose pk is ``selected`` is
    selected."""
    return mark_safe(
        "".join(
            f'<option value="{value}"{" selected" if pk == selected else ""}>{text}</option>'
            for pk, value, text in _built(choices, label)
            if pk != exclude
        )
    )


def render_groups(groups) -> SafeString:
    """``<optgroup>`` elements: ``groups`` is a list of (label, [(value, text), …]), such as
    the stored items of each container; a group with no options is left out."""
    return format_html_join(
        "",
        '<optgroup label="{}">{}</optgroup>',
        (
            (label, format_html_join("", '<option value="{}">{}</option>', options))
            for label, options in groups
            if options
        ),
    )


def with_selected(options: str, values) -> SafeString:
    """``options`` (as built here) with the option of each of ``values`` selected instead of
    any selected before."""
    chosen = [str(v) for v in values if v not in (None, "")]
    if not chosen:
        return mark_safe(options)
    html = options.replace(" selected>", ">")
    for value in chosen:
        plain = f'<option value="{escape(value)}">'
        html = html.replace(plain, plain[:-1] + " selected>", 1)
    return mark_safe(html)


class OptionsSelect(forms.Select):
    """A form's ``<select>`` whose options the page built once (``source``, a callable that
    answers their HTML: a page's list of containers, kept with its fragments), with a first
    option of its own (``blank``: its label, value ""). The posted or initial value is
    selected. Without a ``source`` (a form not drawn by a page that read its lists) it is
    Django's own ``Select``."""

    source: Callable[[], str] | None = None
    blank: str | None = None

    def use_required_attribute(self, initial) -> bool:
        # Django's looks at the first choice, which for a model's choices is a query.
        return forms.Widget.use_required_attribute(self, initial)

    def render(self, name, value, attrs=None, renderer=None) -> SafeString:
        if self.source is None:
            return super().render(name, value, attrs, renderer)
        blank = (
            "" if self.blank is None else format_html('<option value="">{}</option>', self.blank)
        )
        options = with_selected(blank + self.source(), self.format_value(value))
        attrs = flatatt(self.build_attrs(self.attrs, attrs))
        return format_html('<select name="{}"{}>{}</select>', name, attrs, options)
