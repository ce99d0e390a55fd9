"""The one answer to a refused post (``core.htmx``): the partial again with status 422 for
htmx, the first message and a redirect without it; a field's message names its field."""

from django import forms
from django.contrib.messages import get_messages
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import HttpResponse
from django.test import RequestFactory
from django_htmx.middleware import HtmxMiddleware

from core.htmx import Refusal, first_message, refuse, relabel, with_refusal


class Ransom(forms.Form):
    ransom = forms.IntegerField(min_value=1, label="ransom (gc)")
    captive = forms.IntegerField(widget=forms.HiddenInput)


def request(htmx: bool):
    """A post as the middleware leaves it: a session, messages and ``request.htmx``."""
    made = RequestFactory().post("/", headers={"HX-Request": "true"} if htmx else {})
    SessionMiddleware(HttpResponse).process_request(made)
    MessageMiddleware(HttpResponse).process_request(made)
    HtmxMiddleware(lambda r: HttpResponse())(made)
    return made


def test_a_fields_message_is_named_by_its_label_and_a_hidden_ones_is_not():
    assert first_message(Ransom({"ransom": "0", "captive": "3"})) == (
        "Ransom (gc): Ensure this value is greater than or equal to 1."
    )
    assert first_message(Ransom({"ransom": "5"})) == "This field is required."
    assert first_message(Refusal("Mustering is over.")) == "Mustering is over."
    assert first_message(with_refusal(Ransom({"ransom": "5", "captive": "3"}), "No gold.")) == (
        "No gold."
    )


def test_a_refusal_is_the_partial_with_422_or_a_message_and_back_to_the_page():
    form = with_refusal(Ransom({"ransom": "5", "captive": "3"}), "Too late.")
    answer = refuse(request(True), form, partial="forms/_refusal.html",
                    context=lambda: {"form": form}, page="/back/")  # fmt: skip
    assert answer.status_code == 422
    assert "Too late." in answer.content.decode()

    plain = request(False)
    answer = refuse(plain, Ransom({"ransom": "0", "captive": "3"}), partial="forms/_refusal.html",
                    context=lambda: {}, page="/back/")  # fmt: skip
    assert (answer.status_code, answer["Location"]) == (302, "/back/")
    assert [str(m) for m in get_messages(plain)] == [
        "Ransom (gc): Ensure this value is greater than or equal to 1."
    ]


def test_a_label_changed_after_validation_is_drawn():
    form = Ransom({"ransom": "0", "captive": "3"})
    assert not form.is_valid()
    relabel(form, "ransom", "Ransom for Brandt (gc)")
    assert "Ransom for Brandt (gc)" in form["ransom"].label_tag()
