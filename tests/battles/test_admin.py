"""The battles' admin pages, for site staff: each answers, and none shows a warband's secret
(a secret roll's dice and what it decided, the container a ransom goes into, a sequence's
receipts) to staff who may not see that warband's treasury (``battles.admin``)."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from battles.models import Captive, DiceRoll, PostBattleSequence
from battles.permissions import SECRET_SHOWN
from tests.helpers import battle_of, chest, sequence_of, warriors
from tests.secrets import contains_value
from warbands.models import StorageContainer

pytestmark = pytest.mark.django_db
SECRET_PURPOSE = "Exploration of the Quillmarsh"
SECRET_RESULT = "found the Ghoulgilt hoard"
SECRET_LABEL = "Tithevault"
SECRET_RECEIPT = "Bought a Brassquill lantern"
PUBLIC_PURPOSE = "Roll-off for the choosing order at the Old Mill"


@pytest.fixture
def battle(duel):
    """A battle whose Reavers rolled in secret, hold a Scourge captive whose ransom goes to
    their renamed chest, and whose sequence keeps a receipt."""
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = battle_of(duel)
    DiceRoll.objects.create(battle=battle, warband=reavers, rolled_by=reavers.owner,
                            purpose=SECRET_PURPOSE, sides=6, faces=[6, 6, 2], source="entered",
                            result=SECRET_RESULT, secret=True)  # fmt: skip
    DiceRoll.objects.create(battle=battle, warband=scourge, rolled_by=scourge.owner,
                            purpose=PUBLIC_PURPOSE, sides=6, faces=[5], source="server",
                            result="Scourge chooses first")  # fmt: skip
    vault = chest(reavers)
    StorageContainer.objects.filter(pk=vault.pk).update(label=SECRET_LABEL)
    champion = warriors(scourge)[1]
    Captive.objects.create(warrior=champion, captor=reavers, battle=battle, ransom=55,
                           ransom_into=vault)  # fmt: skip
    PostBattleSequence.objects.filter(pk=sequence_of(battle, reavers).pk).update(
        state={"receipts": {"8": [SECRET_RECEIPT]}}
    )
    return battle


def pages(battle) -> list[str]:
    """Each registered model's list and change page."""
    captive = Captive.objects.get(battle=battle)
    sequence = sequence_of(battle, battle.participants.get(warband__name="Reavers").warband)
    return [
        reverse("admin:battles_battle_changelist"),
        reverse("admin:battles_battle_change", args=[battle.pk]),
        reverse("admin:battles_captive_changelist"),
        reverse("admin:battles_captive_change", args=[captive.pk]),
        reverse("admin:battles_postbattlesequence_changelist"),
        reverse("admin:battles_postbattlesequence_change", args=[sequence.pk]),
    ]


SECRETS = [SECRET_PURPOSE, SECRET_RESULT, SECRET_LABEL, SECRET_RECEIPT, "6 + 6 + 2"]


def test_site_staff_see_every_battle_page_and_no_warbands_secret(client, battle):
    client.force_login(get_user_model().objects.create_superuser("warden", password="x-pass-9"))

    for url in pages(battle):
        response = client.get(url)
        body = response.content.decode()
        assert response.status_code == 200, url
        for secret in SECRETS:
            assert not contains_value(body, secret), (url, secret)
    log = client.get(reverse("admin:battles_battle_change", args=[battle.pk])).content.decode()
    assert SECRET_SHOWN in log and PUBLIC_PURPOSE in log  # a secret roll was made, and when


def test_staff_who_may_see_a_treasury_see_its_secrets_there(client, battle, duel):
    owner = duel["reavers"].owner
    get_user_model().objects.filter(pk=owner.pk).update(is_staff=True, is_superuser=True)
    client.force_login(owner)

    bodies = "".join(client.get(url).content.decode() for url in pages(battle))

    assert all(secret in bodies for secret in SECRETS)


def test_nothing_of_a_battle_is_added_changed_or_deleted_in_the_admin(client, battle):
    client.force_login(get_user_model().objects.create_superuser("warden", password="x-pass-9"))
    url = reverse("admin:battles_battle_change", args=[battle.pk])

    assert client.get(reverse("admin:battles_battle_add")).status_code == 403
    assert client.post(url, {"scenario": "Ambush"}).status_code == 403
    assert client.get(reverse("admin:battles_battle_delete", args=[battle.pk])).status_code == 403
    battle.refresh_from_db()
    assert battle.scenario == "Skirmish"
