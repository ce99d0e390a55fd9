"""The project's copies of Django's widget templates (templates/django/forms/widgets/, drawn by
the project's engine: ``FORM_RENDERER``) draw what Django's own draw, byte for byte, with the
attributes and options written in place: a select draws one template, not one per option and
one more per option's attributes, and a text, number, hidden or checkbox input one, not three."""

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates, get_default_renderer
from django.test.signals import template_rendered

GROUPED = [("", "---"), ("x", "X <b>&"), ("Weapons", [("1", "Dagger"), ("2", "Axe")])]
TWO = [("a", "A"), ("b", "B")]


class EveryWidget(forms.Form):
    """A field for each widget the app's forms draw, with attributes true, false and quoted."""

    choice = forms.ChoiceField(choices=GROUPED, initial="2", required=False)
    text = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "data-on": True, "hidden": False}),
        initial='two\nlines "quoted"',
    )
    number = forms.IntegerField(min_value=0, widget=forms.NumberInput(attrs={"class": "n"}))
    hidden = forms.CharField(widget=forms.HiddenInput, initial='q"<')
    line = forms.CharField(max_length=20, initial="Vex")
    tick = forms.BooleanField(required=False, initial=True)
    radio = forms.ChoiceField(widget=forms.RadioSelect, choices=TWO, initial="a")
    several = forms.MultipleChoiceField(choices=TWO, initial=["b"])
    boxes = forms.MultipleChoiceField(widget=forms.CheckboxSelectMultiple, choices=TWO)
    maybe = forms.NullBooleanField()
    mail = forms.EmailField()
    secret = forms.CharField(widget=forms.PasswordInput)
    day = forms.DateField(widget=forms.SelectDateWidget)
    upload = forms.FileField(required=False)


BOUND = {"choice": "1", "text": "", "number": "-3", "hidden": "", "several": ["a"], "maybe": "true"}


@pytest.mark.parametrize("data", [None, BOUND], ids=["unbound", "bound with errors"])
def test_every_widget_draws_what_djangos_own_template_draws(data):
    ours = EveryWidget(data, renderer=get_default_renderer())
    djangos = EveryWidget(data, renderer=DjangoTemplates())
    assert not isinstance(get_default_renderer(), DjangoTemplates)  # else this compares nothing
    for name in EveryWidget.base_fields:
        assert str(ours[name]) == str(djangos[name]), name
    assert ours.as_div() == djangos.as_div()


def templates_drawn(widget: forms.BoundField) -> tuple[str, list[str]]:
    """The field's HTML and the names of the templates that drew it."""
    drawn = []

    def seen(sender, template, **kwargs):
        drawn.append(template.name)

    template_rendered.connect(seen)
    try:
        return str(widget), drawn
    finally:
        template_rendered.disconnect(seen)


def test_a_select_draws_one_template_whatever_its_options():
    field = forms.ChoiceField(choices=[(str(n), f"Item {n}") for n in range(40)])
    form = type("Pick", (forms.Form,), {"item": field})()
    html, drawn = templates_drawn(form["item"])
    assert html.count("<option") == 40
    assert drawn == ["django/forms/widgets/select.html"]


@pytest.mark.parametrize("name", ["number", "hidden", "line", "tick"])
def test_an_input_draws_one_template(name):
    html, drawn = templates_drawn(EveryWidget()[name])
    assert html.startswith("<input")
    assert len(drawn) == 1, drawn
