"""403, 404 and 500 pages in the app's layout, saying what happened and where to go; a
refusal gives its reason. Each carries its reason in ``[data-refusal]``,
which static/js/app.js shows when an htmx request fails."""

import pytest
from django.template.loader import render_to_string
from django.test import override_settings
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_a_refusal_says_why_in_the_layout(client, duel):
    client.force_login(duel["scourge"].owner)
    page = client.get(reverse("warband_rename", args=[duel["reavers"].pk]))

    assert page.status_code == 403
    text = page.content.decode()
    assert 'class="brand"' in text  # the app's own layout
    assert "data-refusal" in text and "Back to your dashboard" in text


def test_a_missing_page_is_in_the_layout_and_tells_nothing_more(client, duel, django_user_model):
    client.force_login(django_user_model.objects.create_user("outsider"))
    page = client.get(reverse("warband_treasury", args=[duel["reavers"].pk]))

    assert page.status_code == 404
    text = page.content.decode()
    assert "Not found" in text and 'class="brand"' in text
    assert "Reavers" not in text


def test_the_server_error_page_renders_without_a_request():
    text = render_to_string("500.html")
    assert "Something went wrong" in text and "nothing was half-saved" in text


@override_settings(DEBUG=False)
def test_every_page_loads_the_script_that_reports_failed_requests(client, duel):
    client.force_login(duel["reavers"].owner)
    text = client.get(reverse("dashboard")).content.decode()
    assert "js/app.js" in text and 'id="request-notice"' in text
