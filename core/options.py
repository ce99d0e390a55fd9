"""``<option>`` elements built in Python (the ``{% options %}`` tag).

The treasury page's forms and step 9 of the post-battle sequence list a warband's containers
and warriors many times over (hundreds of options for a large treasury): joining strings in
Python keeps that out of the template loop. ``OptionList`` (a list) keeps each option's escaped
HTML, built on first use, so the forms of one page share it.
"""

from __future__ import annotations

from django.utils.html import escape, format_html_join
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
