"""The account's choice of e-mails (the "Notifications" page) and the mail for each event
(``core.notices``), sent through Django's locmem backend once the change commits."""

import re

import pytest
from django.core import mail
from django.db import transaction
from django.urls import reverse

from battles.captives import exchange, ransom
from battles.models import Battle, Captive
from battles.report import services, sides
from battles.rules import ReportedResult
from battles.schedule import challenges
from core import notices
from core.models import NoticePreference
from tests.factories import UserFactory
from tests.helpers import every_side_entered, held, message_beside
from warbands import corrections

pytestmark = pytest.mark.django_db
URL = "/accounts/notifications/"
HTMX = {"HX-Request": "true"}


def choose(user, choice: str, email: str = "") -> None:
    notices.set_preference(user, choice=choice, email=email or f"{user.username}@example.org")


# --- The page ------------------------------------------------------------------------------


def test_the_page_shows_the_digest_by_default_and_saves_the_users_own_choice(client, user):
    other = UserFactory()
    choose(other, "none")
    client.force_login(user)

    page = client.get(URL).content.decode()
    assert '<option value="digest" selected>A daily digest</option>' in page
    answer = client.post(URL, {"choice": "each", "email": "me@example.org"})

    assert answer.status_code == 302 and answer.url == URL
    user.refresh_from_db()
    assert (notices.preference_of(user), user.email) == ("each", "me@example.org")
    assert notices.preference_of(other) == "none"  # only his own
    assert NoticePreference.objects.count() == 2


def test_the_page_is_for_logged_in_users_only(client):
    answer = client.post(URL, {"choice": "none", "email": ""})

    assert answer.status_code == 302 and answer.url.startswith(reverse("login"))
    assert not NoticePreference.objects.exists()


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"choice": "hourly", "email": "me@example.org"}, "id_choice", "Select a valid choice."),
        ({"choice": "each", "email": "not an address"}, "id_email", "Enter a valid email address."),
        ({"choice": "digest", "email": ""}, "id_email", "Give an address for the mails, or "),
    ],
)
def test_bad_input_is_refused_beside_its_field(client, user, data, field, message):
    client.force_login(user)

    for headers in ({}, HTMX):
        answer = client.post(URL, data, headers=headers)
        assert answer.status_code == 422
        assert message_beside(answer.content.decode(), field).startswith(message)
    assert not NoticePreference.objects.exists()


def test_no_mail_needs_no_address(client, user):
    client.force_login(user)

    assert client.post(URL, {"choice": "none", "email": ""}).status_code == 302
    assert notices.preference_of(user) == "none"


def test_the_menu_and_the_password_page_link_to_the_page(client, user):
    client.force_login(user)

    assert f'href="{URL}"' in client.get(reverse("dashboard")).content.decode()
    assert f'href="{URL}"' in client.get(reverse("password_change")).content.decode()


# --- A mail for each event -----------------------------------------------------------------


def reported(duel) -> Battle:
    reavers, scourge = duel["reavers"], duel["scourge"]
    return services.report_battle(
        actor=reavers.owner, campaign=duel["campaign"], scenario="Skirmish",
        results=[ReportedResult(reavers.pk, "won"), ReportedResult(scourge.pk, "lost")],
    )  # fmt: skip


def test_a_report_to_confirm_is_mailed_once_on_commit(duel, django_capture_on_commit_callbacks):
    reavers, scourge = duel["reavers"], duel["scourge"]
    choose(scourge.owner, "each")
    choose(reavers.owner, "each")
    battle = reported(duel)
    with django_capture_on_commit_callbacks(execute=True):
        sides.enter_side(battle, scourge, actor=scourge.owner, outcomes=sides.whole_side(scourge))
    assert mail.outbox == []  # a side is missing: nobody confirms yet

    with django_capture_on_commit_callbacks(execute=True):
        sides.enter_side(battle, reavers, actor=reavers.owner, outcomes=sides.whole_side(reavers))
        assert mail.outbox == []  # not before the commit

    [sent] = mail.outbox
    assert sent.to == [scourge.owner.email]  # not the player who acted
    assert sent.subject == "A battle report waits for your confirmation (Siege)"
    assert f"http://127.0.0.1:8000/battles/{battle.pk}/" in sent.body
    assert "in the campaign Siege" in sent.body


def test_nothing_is_mailed_when_the_change_rolls_back(duel, django_capture_on_commit_callbacks):
    reavers, scourge = duel["reavers"], duel["scourge"]
    choose(reavers.owner, "each")
    brandt = held(reavers.warriors.get(name="Brandt"), scourge)
    chest = scourge.containers.get(kind="treasure_chest")

    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        ransom.set_ransom(brandt, actor=scourge.owner, ransom=65, into=chest)
        raise RuntimeError("the request failed after the service")

    assert mail.outbox == []
    assert Captive.objects.get(pk=brandt.pk).ransom is None


def test_offers_and_sequences_are_mailed_only_to_who_chose_each_event(
    duel, django_capture_on_commit_callbacks
):
    reavers, scourge = duel["reavers"], duel["scourge"]
    choose(reavers.owner, "each")
    choose(scourge.owner, "digest")
    brandt = held(reavers.warriors.get(name="Brandt"), scourge)
    theirs = held(scourge.warriors.filter(is_hero=True).order_by("pk").first(), reavers)
    chest = scourge.containers.get(kind="treasure_chest")

    with django_capture_on_commit_callbacks(execute=True):
        ransom.set_ransom(brandt, actor=scourge.owner, ransom=65, into=chest)
        exchange.offer_exchange(brandt, actor=scourge.owner, for_captive=theirs)
        battle = every_side_entered(reported(duel))
        services.respond(battle, actor=scourge.owner, agree=True)  # confirmed: sequences start

    subjects = sorted(m.subject for m in mail.outbox)
    assert subjects == [
        "A battle report waits for your confirmation (Siege)",  # the Scourge's side came last
        "A post-battle sequence of your warband has started (Siege)",
        "A ransom is asked for one of your heroes (Siege)",
        "An exchange of captives is offered to you (Siege)",
    ]
    assert {tuple(m.to) for m in mail.outbox} == {(reavers.owner.email,)}
    ransom_mail = next(m for m in mail.outbox if "ransom" in m.subject)
    assert f"/warbands/{reavers.pk}/captives/" in ransom_mail.body
    # the amount is on the page, for the two players; the links' ids may hold the digits
    assert "65" not in re.sub(r"https?://\S+", "", ransom_mail.body)


def test_a_correction_asked_is_mailed_to_the_organiser_who_approves_it(
    duel, django_capture_on_commit_callbacks
):
    reavers, organiser = duel["reavers"], duel["organiser"]
    choose(organiser, "each")
    choose(reavers.owner, "each")

    with django_capture_on_commit_callbacks(execute=True):
        corrections.set_experience(
            reavers.warriors.get(name="Brandt"), actor=reavers.owner, experience=12, reason="x"
        )

    [sent] = mail.outbox
    assert sent.to == [organiser.email]
    assert sent.subject == "A correction waits for your approval (Siege)"
    assert f"/warbands/{reavers.pk}/corrections/" in sent.body


def test_no_mail_and_no_address_mean_no_mail(duel, django_capture_on_commit_callbacks):
    reavers, scourge = duel["reavers"], duel["scourge"]
    choose(reavers.owner, "none")
    brandt = held(reavers.warriors.get(name="Brandt"), scourge)
    chest = scourge.containers.get(kind="treasure_chest")
    with django_capture_on_commit_callbacks(execute=True):
        ransom.set_ransom(brandt, actor=scourge.owner, ransom=65, into=chest)
    NoticePreference.objects.filter(user=reavers.owner).update(choice="each")
    type(reavers.owner).objects.filter(pk=reavers.owner.pk).update(email="")
    with django_capture_on_commit_callbacks(execute=True):
        ransom.set_ransom(brandt, actor=scourge.owner, ransom=70, into=chest)

    assert mail.outbox == []


def test_a_challenge_is_mailed_to_the_challenged_player_only(
    duel, django_capture_on_commit_callbacks
):
    reavers, scourge = duel["reavers"], duel["scourge"]
    choose(scourge.owner, "each")
    choose(reavers.owner, "each")
    with django_capture_on_commit_callbacks(execute=True):
        challenge = challenges.issue_challenge(
            duel["campaign"], actor=reavers.owner, challenger_id=reavers.pk,
            opponent_ids=[scourge.pk],
        )  # fmt: skip

    [sent] = mail.outbox
    assert sent.to == [scourge.owner.email]
    assert sent.subject == f"A challenge waits for your answer ({duel['campaign'].name})"
    assert f"/schedule/#challenge-{challenge.pk}" in sent.body
