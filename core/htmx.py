"""The answer to a refused post, the same on every page: the partial its form swaps, drawn
again with the bound form (each message beside its field, the service's refusal above the
form), status 422 (htmx is configured to swap it), nothing changed. Without htmx the page is
drawn afresh after a redirect, so the refusal goes with it as a message."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from core.errors import RuleViolation


class Refusal(forms.Form):
    """A post with no field of its own (a button: give back, finish, withdraw) that a service
    refused: its one message, drawn where the button is."""

    def __init__(self, message: str) -> None:
        super().__init__(data={})
        self.full_clean()
        self.add_error(None, message)


def with_refusal(form: forms.Form, refusal: RuleViolation | str) -> forms.Form:
    """``form``, whose fields were valid, with the service's refusal as its own message."""
    form.add_error(None, str(refusal))
    return form


def first_message(form: forms.Form) -> str:
    """The form's first message, with its field's label: for a page drawn without htmx, where
    the message is not shown beside its field."""
    for name, errors in form.errors.items():
        field = form.fields.get(name)
        label = str(field.label or name.replace("_", " ")) if field is not None else ""
        if not label or field.widget.is_hidden or errors[0].startswith(label):
            return errors[0]
        return f"{label[:1].upper()}{label[1:]}: {errors[0]}"
    return "Please check the form."


def refuse(
    request: HttpRequest,
    form: forms.Form,
    *,
    partial: str,
    context: Callable[[], Mapping],
    page: str,
) -> HttpResponse:
    """The refused ``form``: ``partial`` ("page.html#name") drawn by ``context()`` (which puts
    the bound form where the page draws that form), status 422; without htmx, the first
    message and back to ``page`` (a URL)."""
    if not request.htmx:
        messages.error(request, first_message(form))
        return redirect(page)
    return render(request, partial, context(), status=422)


def relabel(form: forms.Form, name: str, label: str, *, help_text: str | None = None) -> None:
    """Label a field as the page draws it, for a posted form too: Django's bound field keeps
    the label (and help) it was made with, and a form that was validated has made them."""
    field = form.fields[name]
    field.label = label
    if help_text is not None:
        field.help_text = help_text
    bound = form[name]
    bound.label, bound.help_text = field.label, field.help_text or ""
