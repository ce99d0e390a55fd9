"""Nobody but an account's owner obtains a way into it, and nobody becomes an organiser, with
powers over other players, without saying yes: no organiser obtains a credential for a
player's account (the old reset link is gone), and the co-organiser form tells nothing of
which usernames exist and makes nobody an organiser by itself."""

from __future__ import annotations

import re

import pytest
from django.db import transaction
from django.urls import reverse

from campaign.models import CampaignEvent, Membership
from tests.factories import PASSWORD, MembershipFactory, UserFactory
from tests.helpers import without_tokens

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


class _Undo(Exception):
    pass


def organiser_of(campaign):
    return Membership.objects.filter(campaign=campaign, is_organiser=True).earliest("pk").user


def organises(user, campaign) -> bool:
    return Membership.objects.filter(
        campaign=campaign, user=user, is_active=True, is_organiser=True
    ).exists()


def invite(client, campaign, username: str, **headers):
    return client.post(
        reverse("co_organiser_add", args=[campaign.pk]), {"username": username}, headers=headers
    )


def invited_as_seen(client, campaign, username: str, **headers) -> tuple:
    """What the organiser learns from inviting ``username``: the answer's status and where it
    leads, then the settings page it leads to, with the name and the invitation's id put
    aside. Rolled back, so that the next name starts from the same campaign."""
    seen = None
    try:
        with transaction.atomic():
            answer = invite(client, campaign, username, **headers)
            page = client.get(answer["Location"]) if answer.status_code == 302 else answer
            text = without_tokens(page.content).replace(username, "NAME")
            text = re.sub(r"/organisers/\d+/withdraw/", "/organisers/ID/withdraw/", text)
            seen = (answer.status_code, answer.get("Location"), page.status_code, text)
            raise _Undo
    except _Undo:
        pass
    return seen


def test_an_organiser_obtains_no_credential_for_a_players_account(client, league):
    """The organiser's reset link is gone: its old address answers as any unknown page, the
    settings page offers nothing of the kind, and the player's password and sessions are his
    own. A player who forgot his password uses the e-mail reset, or asks a site admin."""
    campaign = league["campaign"]
    player = MembershipFactory(campaign=campaign, user=UserFactory(username="hans"))
    client.force_login(organiser_of(campaign))
    old = f"/campaigns/{campaign.pk}/members/{player.pk}/reset-link/"

    answers = [client.post(old), client.post(old, headers={"HX-Request": "true"})]
    settings_page = client.get(reverse("campaign_settings", args=[campaign.pk]))

    assert [a.status_code for a in answers] == [404, 404]
    for page in [*answers, settings_page]:
        assert "/accounts/reset/" not in page.content.decode()
        assert "reset-link" not in page.content.decode()
    assert "Reset link" not in settings_page.content.decode()
    player.user.refresh_from_db()
    assert player.user.check_password(PASSWORD)
    assert not CampaignEvent.objects.filter(message__contains="reset link").exists()


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_the_co_organiser_form_answers_the_same_whether_the_name_exists(client, league, headers):
    """Status, message and what the settings page then lists: the same for an account's name
    and for a name nobody holds."""
    UserFactory(username="marshal")
    client.force_login(league["organiser"])

    known = invited_as_seen(client, league["campaign"], "marshal", **headers)
    unknown = invited_as_seen(client, league["campaign"], "nobodyhere", **headers)

    assert known == unknown
    assert known[0] == 302
    assert "NAME is invited to co-organise" in known[3]
    assert "NAME <small" in known[3]  # listed among the invitations waiting for an answer


def test_the_co_organiser_form_makes_nobody_an_organiser_without_his_yes(client, league):
    campaign = league["campaign"]
    marshal = UserFactory(username="marshal")
    outsider, player = league["outsider"], league["player"]
    client.force_login(league["organiser"])

    for user in (marshal, outsider, player):
        invite(client, campaign, user.username)

    for user in (marshal, outsider, player):
        assert not organises(user, campaign)
    for user in (marshal, outsider):
        client.force_login(user)
        assert client.get(reverse("campaign_settings", args=[campaign.pk])).status_code == 404
        assert client.get(reverse("campaign_detail", args=[campaign.pk])).status_code == 404
    client.force_login(player)
    assert client.get(reverse("campaign_settings", args=[campaign.pk])).status_code == 403
