"""Closing one's own account (``league.accounts.deletion``): each warband still playing handed
to an organiser or retired, the refusal for a running campaign's only organiser, the password
and the box, and the history of other players kept whole."""

from io import StringIO

import pytest
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core import mail
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from battles.models import PostBattleSequence
from campaign import co_organisers
from campaign import services as campaign_services
from campaign.models import CampaignEvent, Membership, OrganiserInvitation
from core.errors import RuleViolation
from league.accounts import deletion
from league.standings import league_table
from tests.factories import PASSWORD, UserFactory, record
from tests.helpers import fingerprint, fought, message_beside, play_to, sequence_of
from warbands.models import Warband, Warrior

pytestmark = pytest.mark.django_db
URL = "/accounts/delete/"


def post(client, account, **data):
    client.force_login(account)
    return client.post(URL, {"password": PASSWORD, "confirm": "on", **data})


def feed(campaign) -> list[str]:
    return list(CampaignEvent.objects.filter(campaign=campaign).values_list("message", flat=True))


def test_the_menu_opens_the_account_page_which_offers_each_action(client, duel):
    client.force_login(duel["reavers"].owner)

    assert 'href="/accounts/" class="account-link"' in client.get("/").content.decode()
    page = client.get(reverse("account"), headers={"HX-Request": "true"}).content.decode()
    for name in ("password_change", "notice_settings", "account_download", "account_delete"):
        assert f'href="{reverse(name)}"' in page, name


def test_the_page_says_what_happens_and_offers_a_choice_per_warband(client, duel):
    reavers, organiser = duel["reavers"], duel["organiser"]
    client.force_login(reavers.owner)

    page = client.get(URL).content.decode()

    assert "nothing of theirs is lost" in page
    assert "Reavers (Siege)" in page
    assert f"Hand it to {organiser.username}, who organises Siege" in page
    assert "Retire it: the warband is disbanded" in page
    assert 'type="password"' in page and 'name="confirm"' in page


def test_handing_a_warband_to_the_organiser_lets_him_play_its_sequence(client, duel):
    reavers, scourge, organiser = duel["reavers"], duel["scourge"], duel["organiser"]
    battle = fought(duel)
    player = reavers.owner
    other = Client()  # a second session of the player's, on another device
    other.force_login(player)
    session_hash = player.get_session_auth_hash()
    OrganiserInvitation.objects.create(
        campaign=duel["campaign"], username=player.username, invited_by=organiser
    )

    response = post(client, player, **{f"warband_{reavers.pk}": f"hand:{organiser.pk}"})

    assert response.status_code == 302 and response["Location"] == reverse("login")
    assert SESSION_KEY not in client.session
    reavers.refresh_from_db()
    assert reavers.owner == organiser and reavers.status == Warband.Status.ACTIVE
    name = player.username
    player.refresh_from_db()
    assert player.username == f"deleted-{player.pk}" and not player.is_active
    assert not player.has_usable_password() and player.email == ""
    assert not Membership.objects.filter(user=player, is_active=True).exists()
    assert not OrganiserInvitation.objects.pending().filter(username=name).exists()
    lines = feed(duel["campaign"])
    assert f"{name} closed his account and handed Reavers to {organiser.username}, who " \
        "organises the campaign." in lines  # fmt: skip
    # The other session died with the password (Django checks each session against a hash
    # of it), and the account is inactive besides; the old name no longer logs in.
    assert player.get_session_auth_hash() != session_hash
    assert other.get(reverse("account")).status_code == 302
    logging_in = client.post(reverse("login"), {"username": name, "password": PASSWORD})
    assert logging_in.status_code == 200 and SESSION_KEY not in client.session
    # The organiser now owns the warband: its page, and its sequence, the treasury steps too.
    client.force_login(organiser)
    sequence = sequence_of(battle, reavers)
    assert client.get(reverse("sequence_detail", args=[sequence.pk])).status_code == 200
    play_to(sequence, 5, organiser)
    assert PostBattleSequence.objects.get(pk=sequence.pk).current_step == 5
    scourge.refresh_from_db()
    assert scourge.owner_id != organiser.pk and scourge.status == Warband.Status.ACTIVE


def test_retiring_a_warband_disbands_it_and_frees_its_captives(client, duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    player = reavers.owner

    response = post(client, player, **{f"warband_{reavers.pk}": "retire"})

    assert response.status_code == 302
    reavers.refresh_from_db()
    assert reavers.status == Warband.Status.DISBANDED and reavers.owner_id == player.pk
    assert not reavers.warriors.filter(status__in=Warrior.ON_ROSTER).exists()
    assert "Reavers was retired: " in " ".join(feed(duel["campaign"]))
    scourge.refresh_from_db()
    assert scourge.status == Warband.Status.ACTIVE


def test_a_wrong_password_is_refused_beside_its_field_and_changes_nothing(client, duel):
    reavers = duel["reavers"]
    client.force_login(reavers.owner)
    before = fingerprint()

    response = client.post(
        URL, {f"warband_{reavers.pk}": "retire", "password": "not-mine", "confirm": "on"}
    )

    assert response.status_code == 422
    assert message_beside(response.content.decode(), "id_password").startswith(
        "That is not your password. Nothing was changed"
    )
    assert fingerprint() == before
    # Without the box ticked, or without a choice for the warband: the same.
    unticked = client.post(URL, {f"warband_{reavers.pk}": "retire", "password": PASSWORD})
    assert "Tick the box to confirm" in unticked.content.decode()
    unchosen = client.post(URL, {"password": PASSWORD, "confirm": "on"})
    assert "Choose what becomes of Reavers." in unchosen.content.decode()
    assert fingerprint() == before


def test_the_only_organiser_of_a_running_campaign_is_refused_with_what_would_work(client, duel):
    organiser, campaign = duel["organiser"], duel["campaign"]
    client.force_login(organiser)
    settings = reverse("campaign_settings", args=[campaign.pk])

    page = client.get(URL).content.decode()

    assert "You are the only organiser of Siege" in page
    assert f'href="{settings}#invitations-heading"' in page
    assert f'href="{settings}#status-heading"' in page
    assert 'name="password"' not in page
    before = fingerprint()
    refused = client.post(URL, {"password": PASSWORD, "confirm": "on"})
    assert refused.status_code == 422 and "only organiser of Siege" in refused.content.decode()
    assert fingerprint() == before
    # Once a co-organiser has accepted, he may go; the campaign keeps its other organiser.
    helper = duel["bystander"]
    invitation = co_organisers.invite_co_organiser(
        campaign, actor=organiser, username=helper.username
    )
    co_organisers.accept_invitation(invitation, actor=helper)
    assert post(client, organiser).status_code == 302
    assert list(Membership.objects.organisers().filter(campaign=campaign)) == [
        Membership.objects.get(campaign=campaign, user=helper)
    ]


def test_an_organiser_closes_only_his_own_account(client, duel):
    """No address names an account: whatever he posts, the organiser's post is about himself
    (and, as the campaign's only organiser, refused)."""
    organiser, player = duel["organiser"], duel["reavers"].owner

    post(client, organiser, user=player.pk, username=player.username)

    player.refresh_from_db()
    assert player.is_active and player.username != f"deleted-{player.pk}"
    organiser.refresh_from_db()
    assert organiser.is_active


def test_a_post_without_the_csrf_token_is_refused(duel):
    client = Client(enforce_csrf_checks=True)
    reavers = duel["reavers"]
    client.force_login(reavers.owner)
    data = {f"warband_{reavers.pk}": "retire", "password": PASSWORD, "confirm": "on"}

    assert client.post(URL, data).status_code == 403
    reavers.owner.refresh_from_db()
    assert reavers.owner.is_active


def test_a_second_tab_closes_the_account_once(duel):
    player = duel["bystander"]
    deletion.delete_account(player, choices={})

    with pytest.raises(RuleViolation, match="closed already"):
        deletion.delete_account(player, choices={})


def test_a_warband_mustered_since_the_page_refuses_the_whole(duel):
    reavers = duel["reavers"]
    before = fingerprint()

    with pytest.raises(RuleViolation, match="Reavers is new since this page was drawn"):
        deletion.delete_account(reavers.owner, choices={})
    assert fingerprint() == before


def test_a_closed_account_cannot_log_in_nor_reset_its_password(client, duel):
    player = duel["bystander"]
    get_user_model().objects.filter(pk=player.pk).update(email="ulli@example.org")
    player.refresh_from_db()
    mailed = default_token_generator.make_token(player)  # a link mailed before it closed
    name = player.username
    post(client, player)

    refused = client.post(reverse("login"), {"username": name, "password": PASSWORD})
    assert refused.status_code == 200 and SESSION_KEY not in client.session
    client.post(reverse("password_reset"), {"email": "ulli@example.org"})
    assert mail.outbox == []
    player.refresh_from_db()
    assert not default_token_generator.check_token(player, mailed)
    admin = UserFactory(username="warden", is_staff=True)
    with pytest.raises(CommandError, match="inactive"):
        call_command("reset_link", player.username, "--by", admin.username, stdout=StringIO())


def test_a_closed_campaigns_history_stays_whole(client, duel):
    campaign, organiser = duel["campaign"], duel["organiser"]
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = record(campaign, organiser, [(reavers, "won", False), (scourge, "lost", True)])
    campaign_services.set_campaign_status(campaign, actor=organiser, status="closed")
    table = [(row.warband.pk, row.points, row.won, row.lost) for row in league_table(campaign)]

    client.force_login(reavers.owner)
    assert "stay in their campaigns" in client.get(URL).content.decode()
    assert post(client, reavers.owner).status_code == 302

    reavers.refresh_from_db()
    assert reavers.status == Warband.Status.ACTIVE and reavers.owner.username.startswith("deleted-")
    assert [(r.warband.pk, r.points, r.won, r.lost) for r in league_table(campaign)] == table
    client.force_login(scourge.owner)
    page = client.get(reverse("battle_detail", args=[battle.pk]))
    assert page.status_code == 200
    assert (
        "Reavers" in page.content.decode()
        and f"deleted-{reavers.owner_id}" in page.content.decode()
    )
    assert client.get(reverse("campaign_table", args=[campaign.pk])).status_code == 200
    assert client.get(reverse("warband_roster", args=[reavers.pk])).status_code == 200


def test_nobody_signs_up_under_a_closed_accounts_name(client):
    response = client.post(
        reverse("signup"),
        {"username": "Deleted-12", "password1": "Sigmar-protects-77",
         "password2": "Sigmar-protects-77"},
    )  # fmt: skip

    assert "are kept for closed accounts: choose another." in response.content.decode()
    assert not get_user_model().objects.filter(username__iexact="deleted-12").exists()
