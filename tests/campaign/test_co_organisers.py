"""Who organises a campaign (``campaign.co_organisers``): an invitation by username waits for
its addressee, who alone answers it, once, on his dashboard; organisers are not removed by each
other. That the form tells nothing and makes nobody an organiser by itself is
``test_account_takeover``'s."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from campaign import co_organisers
from campaign.models import CampaignEvent, Membership, OrganiserInvitation
from core.errors import RuleViolation
from core.words import possessive
from league.backup import export_campaign
from tests.factories import UserFactory
from tests.helpers import message_beside, without_tokens

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def invite(client, campaign, username: str, **headers):
    return client.post(
        reverse("co_organiser_add", args=[campaign.pk]), {"username": username}, headers=headers
    )


def organises(user, campaign) -> bool:
    return Membership.objects.filter(
        campaign=campaign, user=user, is_active=True, is_organiser=True
    ).exists()


# --- Inviting tells nothing and makes nobody an organiser -----------------------------------


def test_an_invitation_makes_nobody_an_organiser_until_he_accepts(client, league):
    campaign = league["campaign"]
    marshal = UserFactory(username="marshal")
    outsider = league["outsider"]
    client.force_login(league["organiser"])

    invite(client, campaign, "marshal")
    invite(client, campaign, outsider.username)

    for user in (marshal, outsider):
        assert not organises(user, campaign)
        client.force_login(user)
        assert client.get(reverse("campaign_settings", args=[campaign.pk])).status_code == 404
        assert client.get(reverse("campaign_detail", args=[campaign.pk])).status_code == 404
    assert OrganiserInvitation.objects.pending().filter(campaign=campaign).count() == 2


def test_a_stranger_accepts_on_his_dashboard_and_the_feed_tells_every_member(client, league):
    campaign = league["campaign"]
    marshal = UserFactory(username="marshal")
    client.force_login(league["organiser"])
    invite(client, campaign, "Marshal")  # in any case
    invitation = OrganiserInvitation.objects.get()
    client.force_login(marshal)

    dashboard = client.get(reverse("dashboard")).content.decode()
    assert f"{league['organiser'].username} invites you to co-organise" in dashboard
    assert reverse("invitation_accept", args=[invitation.pk]) in dashboard
    answer = client.post(reverse("invitation_accept", args=[invitation.pk]))

    assert answer["Location"] == reverse("campaign_detail", args=[campaign.pk])
    assert organises(marshal, campaign)
    assert client.get(reverse("campaign_settings", args=[campaign.pk])).status_code == 200
    invitation.refresh_from_db()
    assert (invitation.status, invitation.answered_by) == ("accepted", marshal)
    organiser = league["organiser"].username
    assert list(
        CampaignEvent.objects.filter(campaign=campaign).order_by("pk").values_list("message")
    )[-2:] == [
        (f"{organiser} invited Marshal to co-organise the campaign.",),
        (f"marshal joined the campaign as a co-organiser, invited by {organiser}.",),
    ]
    assert "invites you to co-organise" not in client.get(reverse("dashboard")).content.decode()


def test_a_player_of_the_campaign_who_accepts_stays_with_his_warbands(client, league):
    campaign, player = league["campaign"], league["player"]
    invitation = co_organisers.invite_co_organiser(
        campaign, actor=league["organiser"], username=player.username
    )

    co_organisers.accept_invitation(invitation, actor=player)

    assert organises(player, campaign)
    assert Membership.objects.filter(campaign=campaign, user=player).count() == 1
    assert CampaignEvent.objects.filter(
        message=f"{player.username} accepted {possessive(league['organiser'].username)} "
        "invitation and now co-organises the campaign."
    ).exists()


def test_declining_is_told_and_the_campaign_asks_again_only_a_week_later(client, league):
    campaign = league["campaign"]
    marshal = UserFactory(username="marshal")
    invitation = co_organisers.invite_co_organiser(
        campaign, actor=league["organiser"], username="marshal"
    )
    client.force_login(marshal)

    client.post(reverse("invitation_decline", args=[invitation.pk]))

    invitation.refresh_from_db()
    assert invitation.status == "declined" and not organises(marshal, campaign)
    assert CampaignEvent.objects.filter(message="marshal declined to co-organise the campaign.")
    client.force_login(league["organiser"])
    again = invite(client, campaign, "marshal")
    assert again.status_code == 422
    assert "marshal declined on" in again.content.decode()
    OrganiserInvitation.objects.filter(pk=invitation.pk).update(
        answered_at=timezone.now() - co_organisers.ASK_AGAIN_AFTER - datetime.timedelta(hours=1)
    )
    assert invite(client, campaign, "marshal").status_code == 302


# --- Only the addressee answers, once, while it stands --------------------------------------


@pytest.mark.parametrize("who", ["organiser", "player", "outsider", "sender"])
def test_nobody_else_answers_an_invitation_nor_learns_it_exists(client, league, who):
    campaign = league["campaign"]
    UserFactory(username="marshal")
    invitation = co_organisers.invite_co_organiser(
        campaign, actor=league["co_organiser"], username="marshal"
    )
    user = {"organiser": league["organiser"], "player": league["player"],
            "outsider": league["outsider"], "sender": league["co_organiser"]}[who]  # fmt: skip
    client.force_login(user)

    for name in ("invitation_accept", "invitation_decline"):
        real = client.post(reverse(name, args=[invitation.pk]))
        missing = client.post(reverse(name, args=[2_000_000_000]))
        assert real.status_code == missing.status_code == 404
        assert without_tokens(real.content) == without_tokens(missing.content)

    invitation.refresh_from_db()
    assert invitation.status == "pending"
    assert not Membership.objects.filter(campaign=campaign, user__username="marshal").exists()


def test_a_withdrawn_invitation_is_not_accepted(client, league):
    campaign = league["campaign"]
    marshal = UserFactory(username="marshal")
    invitation = co_organisers.invite_co_organiser(
        campaign, actor=league["organiser"], username="marshal"
    )
    client.force_login(league["co_organiser"])
    client.post(reverse("invitation_withdraw", args=[campaign.pk, invitation.pk]))
    client.force_login(marshal)

    answer = client.post(reverse("invitation_accept", args=[invitation.pk]), follow=True)

    assert not organises(marshal, campaign)
    assert f"The invitation was withdrawn by {league['co_organiser'].username}." in (
        answer.content.decode()
    )
    assert "invites you" not in client.get(reverse("dashboard")).content.decode()


def test_an_invitation_is_not_accepted_once_the_campaign_is_closed(client, league):
    campaign = league["campaign"]
    marshal = UserFactory(username="marshal")
    invitation = co_organisers.invite_co_organiser(
        campaign, actor=league["organiser"], username="marshal"
    )
    campaign.status = "closed"
    campaign.save()
    client.force_login(marshal)

    assert "invites you" not in client.get(reverse("dashboard")).content.decode()
    answer = client.post(reverse("invitation_accept", args=[invitation.pk]), follow=True)

    assert "is closed: it takes no new organisers" in answer.content.decode()
    assert not organises(marshal, campaign)


def test_two_tabs_accept_once(client, league):
    campaign = league["campaign"]
    marshal = UserFactory(username="marshal")
    invitation = co_organisers.invite_co_organiser(
        campaign, actor=league["organiser"], username="marshal"
    )
    client.force_login(marshal)
    url = reverse("invitation_accept", args=[invitation.pk])

    client.post(url, {"form_token": "0b7c2d55-7f1e-4a3b-9c1d-2e3f4a5b6c71"})
    second = client.post(url, {"form_token": "0b7c2d55-7f1e-4a3b-9c1d-2e3f4a5b6c72"}, follow=True)

    assert "The invitation was accepted already" in second.content.decode()
    assert CampaignEvent.objects.filter(message__startswith="marshal joined").count() == 1
    with pytest.raises(RuleViolation):
        co_organisers.decline_invitation(invitation, actor=marshal)
    assert organises(marshal, campaign)


def test_removing_a_player_withdraws_the_invitations_to_his_name(client, league):
    campaign, player = league["campaign"], league["player"]
    invitation = co_organisers.invite_co_organiser(
        campaign, actor=league["organiser"], username=player.username
    )
    membership = Membership.objects.get(campaign=campaign, user=player)
    client.force_login(league["co_organiser"])
    client.post(reverse("member_remove", args=[campaign.pk, membership.pk]))
    client.force_login(player)

    client.post(reverse("invitation_accept", args=[invitation.pk]))

    membership.refresh_from_db()
    assert (membership.is_active, membership.is_organiser) == (False, False)
    invitation.refresh_from_db()
    assert invitation.status == "withdrawn"
    assert CampaignEvent.objects.filter(
        message=f"{league['co_organiser'].username} removed {player.username} from the campaign."
    ).exists()


def test_a_name_that_signs_up_later_finds_the_invitation(client, league):
    campaign = league["campaign"]
    co_organisers.invite_co_organiser(campaign, actor=league["organiser"], username="latecomer")

    late = UserFactory(username="latecomer")
    client.force_login(late)

    assert "invites you to co-organise" in client.get(reverse("dashboard")).content.decode()


# --- Against spam ---------------------------------------------------------------------------


def test_one_pending_invitation_per_name_and_a_few_per_campaign(client, league):
    campaign = league["campaign"]
    client.force_login(league["organiser"])
    invite(client, campaign, "first")

    again = invite(client, campaign, "FIRST")
    assert again.status_code == 422
    assert "FIRST is invited already" in again.content.decode()
    for n in range(2, co_organisers.MOST_PENDING + 1):
        assert invite(client, campaign, f"name{n}").status_code == 302
    too_many = invite(client, campaign, "onemore")

    assert too_many.status_code == 422
    assert "withdraw one first" in too_many.content.decode()
    assert OrganiserInvitation.objects.pending().count() == co_organisers.MOST_PENDING


@pytest.mark.parametrize("name", ["two words", "x" * 151, "semi;colon"])
def test_a_name_no_account_could_have_is_refused_beside_the_field(client, league, name):
    client.force_login(league["organiser"])

    answer = invite(client, league["campaign"], name)

    assert answer.status_code == 422
    assert message_beside(answer.content.decode(), "id_co_username")
    assert not OrganiserInvitation.objects.exists()


def test_an_organiser_is_told_when_he_invites_one_who_organises_already(client, league):
    client.force_login(league["organiser"])

    answer = invite(client, league["campaign"], league["co_organiser"].username)

    assert answer.status_code == 422
    assert "organises the campaign already" in answer.content.decode()


# --- Organisers are equals ------------------------------------------------------------------


def test_an_organiser_is_not_removed_by_another(client, league):
    campaign = league["campaign"]
    other = Membership.objects.get(campaign=campaign, user=league["organiser"])
    client.force_login(league["co_organiser"])

    settings_page = client.get(reverse("campaign_settings", args=[campaign.pk])).content.decode()
    asked = client.get(reverse("member_remove", args=[campaign.pk, other.pk])).content.decode()
    answer = client.post(reverse("member_remove", args=[campaign.pk, other.pk]), follow=True)

    assert reverse("member_remove", args=[campaign.pk, other.pk]) not in settings_page
    assert "an organiser is not removed by another" in asked
    assert 'type="submit"' not in asked.split("<article", 1)[1]
    assert "an organiser is not removed by another" in answer.content.decode()
    other.refresh_from_db()
    assert (other.is_active, other.is_organiser) == (True, True)


def test_an_organiser_steps_down_and_stays_a_player_but_never_the_last(client, league):
    campaign = league["campaign"]
    client.force_login(league["co_organiser"])
    url = reverse("organiser_step_down", args=[campaign.pk])

    assert "Step down as organiser" in client.get(url).content.decode()
    client.post(url)

    assert not organises(league["co_organiser"], campaign)
    assert Membership.objects.get(campaign=campaign, user=league["co_organiser"]).is_active
    client.force_login(league["organiser"])
    last = client.post(url, follow=True)
    assert "only organiser: invite a co-organiser" in last.content.decode()
    assert organises(league["organiser"], campaign)
    assert CampaignEvent.objects.filter(message__contains="stepped down as organiser").count() == 1


def test_a_campaign_backup_holds_its_invitations(league):
    co_organisers.invite_co_organiser(
        league["campaign"], actor=league["organiser"], username="marshal"
    )

    document = export_campaign(league["campaign"])

    rows = [o for o in document["objects"] if o["model"] == "campaign.organiserinvitation"]
    assert [(r["fields"]["username"], r["fields"]["invited_by"], r["fields"]["status"])
            for r in rows] == [("marshal", (league["organiser"].username,), "pending")]  # fmt: skip


def test_site_staff_read_the_invitations_in_the_admin_and_answer_none(client, league):
    co_organisers.invite_co_organiser(
        league["campaign"], actor=league["organiser"], username="marshal"
    )
    client.force_login(UserFactory(username="warden", is_staff=True, is_superuser=True))
    invitation = OrganiserInvitation.objects.get()

    listed = client.get(reverse("admin:campaign_organiserinvitation_changelist"))
    change = client.post(
        reverse("admin:campaign_organiserinvitation_change", args=[invitation.pk]),
        {"status": "accepted"},
    )

    assert listed.status_code == 200 and "marshal" in listed.content.decode()
    assert change.status_code == 403
    invitation.refresh_from_db()
    assert invitation.status == "pending"
