"""The daily digest (``manage.py send_digests``): at most once a calendar day, nothing when
nothing waits, only to who chose it; and no mail to a player ever tells the opponent's
treasury (container names, gold, wyrdstone) or a ransom's amount."""

import datetime
from io import StringIO

import pytest
from django.core import mail
from django.core.management import call_command

from battles.captives import ransom
from battles.models import Battle, Captive
from battles.report import services
from core import notices
from core.models import NoticePreference
from league import todo
from league.todo.digest import compose, send_digests
from tests.core.test_notices import reported
from tests.factories import SECRET_GOLD, SECRET_ITEM, change_secrets, hide_secrets
from tests.helpers import every_side_entered
from tests.secrets import assert_unchanged_by_secrets, contains_value
from warbands import treasury
from warbands.models import StorageContainer, Warrior

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 12, 4)


def with_address(*users) -> None:
    for user in users:
        type(user).objects.filter(pk=user.pk).update(email=f"{user.username}@example.org")


def test_a_digest_goes_once_a_day_to_each_user_something_waits_for(duel):
    reavers, scourge = duel["reavers"], duel["scourge"]
    with_address(reavers.owner, scourge.owner, duel["organiser"], duel["bystander"])
    battle = reported(duel)

    out = StringIO()
    call_command("send_digests", stdout=out)
    assert out.getvalue() == "2 digest(s) sent.\n"
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        f"{u.username}@example.org" for u in (reavers.owner, scourge.owner)
    )  # the organiser and the bystander have nothing waiting
    digest = next(m for m in mail.outbox if m.to == [f"{reavers.owner.username}@example.org"])
    assert digest.subject == "Waiting for you: one thing waits"
    assert f"- Enter what the warriors of Reavers did in {battle}\n  Siege, since " in digest.body
    assert f"http://127.0.0.1:8000/battles/{battle.pk}/sides/{reavers.pk}/" in digest.body

    call_command("send_digests", stdout=StringIO())  # the same day: nothing more
    assert len(mail.outbox) == 2
    today = NoticePreference.objects.get(user=reavers.owner).last_digest_on
    assert send_digests(today=today + datetime.timedelta(days=1)) == 2  # the next day again
    assert len(mail.outbox) == 4


def test_no_digest_when_nothing_waits(duel):
    with_address(duel["reavers"].owner, duel["scourge"].owner)

    assert send_digests(today=DAY) == 0
    assert mail.outbox == []
    assert not NoticePreference.objects.filter(last_digest_on__isnull=False).exists()


def test_the_digest_goes_only_to_who_chose_it_and_has_an_address(duel):
    reavers, scourge, organiser = duel["reavers"], duel["scourge"], duel["organiser"]
    notices.set_preference(reavers.owner, choice="none", email="r@example.org")
    notices.set_preference(scourge.owner, choice="each", email="s@example.org")
    every_side_entered(reported(duel))  # both players have a report to confirm ...
    with_address(organiser)  # ... and the organiser nothing

    assert send_digests(today=DAY) == 0
    notices.set_preference(scourge.owner, choice="digest", email="")
    assert send_digests(today=DAY) == 0  # no address
    notices.set_preference(scourge.owner, choice="digest", email="s@example.org")
    assert send_digests(today=DAY) == 1
    assert [m.to for m in mail.outbox] == [["s@example.org"]]


def test_no_mail_to_a_player_tells_the_opponents_treasury(duel, django_capture_on_commit_callbacks):
    """The Scourge's chest holds 37 gc, 7 wyrdstone and an Elven cloak, then is named
    "Tithes" and changed: the Reavers' player's digest and each mail he gets are the same,
    and name none of it, nor the ransom the Scourge ask."""
    reavers, scourge = duel["reavers"], duel["scourge"]
    hide_secrets(scourge)
    notices.set_preference(reavers.owner, choice="each", email="r@example.org")
    Warrior.objects.filter(pk=reavers.warriors.get(name="Brandt").pk).update(status="captured")
    held = Captive.objects.create(
        warrior=reavers.warriors.get(name="Brandt"), captor=scourge,
        battle=Battle.objects.create(campaign=duel["campaign"], scenario="Skirmish"),
    )  # fmt: skip
    chest = scourge.containers.get(kind="treasure_chest")
    with django_capture_on_commit_callbacks(execute=True):
        ransom.set_ransom(held, actor=scourge.owner, ransom=93, into=chest)
        battle = every_side_entered(reported(duel))
        services.respond(battle, actor=scourge.owner, agree=True)

    def mails() -> str:
        subject, body = compose(todo.waiting_for(reavers.owner))
        sent = "\n".join(f"{m.subject}\n{m.body}" for m in mail.outbox)
        return f"{subject}\n{body}\n{sent}"

    text = mails()
    assert "ransom" in text and "Post-battle sequence waiting" in text
    totals = treasury.totals(scourge)
    for secret in (SECRET_ITEM, SECRET_GOLD, totals["gold"], totals["wyrdstone"], 93):
        assert not contains_value(text, secret), secret
    for container in StorageContainer.objects.filter(warband=scourge):
        assert str(container) not in text
    assert_unchanged_by_secrets(mails, lambda: change_secrets(scourge))
    assert "Tithes" not in mails()
