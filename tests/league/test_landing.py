"""The landing page: a visitor who is not logged in learns what the app does and finds the
guides, log in and sign up; a logged-in user gets his dashboard at the same address."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_a_visitor_gets_the_landing_page_with_the_guides_log_in_and_sign_up(
    client, django_assert_num_queries
):
    with django_assert_num_queries(0):  # nothing of anybody's is read
        response = client.get(reverse("dashboard"))
    page = response.content.decode()
    assert response.status_code == 200
    assert 'data-testid="landing"' in page
    for name in ("guide_player", "guide_organiser", "login", "signup"):
        assert f'href="{reverse(name)}"' in page
    assert "Waiting for you" not in page


def test_a_logged_in_user_gets_his_dashboard(client, user):
    client.force_login(user)
    page = client.get(reverse("dashboard")).content.decode()
    assert 'data-testid="landing"' not in page
    assert "Your campaigns" in page
