"""The slavers' price is the captor's secret (campaigns text, Captured: D6×5 gc; Mayhem in
Mordheim: the treasury is secret): the dice log shows the roll and the price to whoever may
see the captor's treasury (``warbands.permissions.can_see_treasury``: his player, an
organiser who sees secrets); the captive's own player and everybody else read only that the
hero was sold to the slavers, on the battle page and in the battle helper. A ransom's amount
is the two players' business: an organiser who may not see treasuries does not read it."""

import re

import pytest
from django.urls import reverse

from battles.captives import ransom
from battles.helper import end, start
from battles.models import Battle, Captive
from battles.permissions import SECRET_PURPOSE, SECRET_SHOWN, visible_dice
from tests.factories import MembershipFactory
from tests.race.captive_races import empty_chest
from tests.secrets import contains_value
from warbands.models import Warrior

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
SOLD = "Brandt sold for 10 gc"  # a 2 on the slavers' D6
PUBLIC = "Brandt of Reavers sold to the slavers"


def captured(duel, battle=None) -> Captive:
    """Brandt of the Reavers, held by the Scourge after ``battle`` (a confirmed one if None)."""
    battle = battle or Battle.objects.create(
        campaign=duel["campaign"], scenario="Skirmish", status=Battle.Status.CONFIRMED
    )
    brandt = duel["reavers"].warriors.get(name="Brandt")
    Warrior.objects.filter(pk=brandt.pk).update(status=Warrior.Status.CAPTURED)
    return Captive.objects.create(warrior=brandt, captor=duel["scourge"], battle=battle)


def sell_for_10(client, duel, captive) -> None:
    """The Scourge's player sells the captive through his captives page, typing a 2."""
    scourge = duel["scourge"]
    client.force_login(scourge.owner)
    response = client.post(
        reverse("captive_fate", args=[scourge.pk, captive.pk]),
        {"fate": "sold", "into": empty_chest(scourge).pk, "dice": "2"},
        headers=HTMX,
    )
    assert response.status_code == 200
    assert "sold to the slavers for 10 gc" in response.content.decode()


def dice_log(client, user, battle) -> str:
    client.force_login(user)
    page = client.get(reverse("battle_detail", args=[battle.pk])).content.decode()
    return page.split('class="dice-log"')[1].split("</table>")[0]


def viewers(duel) -> dict:
    """Who reads the battle page: the captor's player, the captive's, another player of the
    campaign and its organiser (who does not see secrets)."""
    assert not duel["campaign"].organiser_sees_secrets
    return {
        "captor": duel["scourge"].owner,
        "captive's player": duel["reavers"].owner,
        "another player": MembershipFactory(campaign=duel["campaign"]).user,
        "organiser": duel["organiser"],
    }


def test_only_the_captor_reads_the_slavers_roll_and_price_on_the_battle_page(client, duel):
    captive = captured(duel)
    people = viewers(duel)
    sell_for_10(client, duel, captive)

    logs = {who: dice_log(client, user, captive.battle) for who, user in people.items()}

    assert SOLD in logs["captor"] and "D6: 2" in logs["captor"]
    for who in ("captive's player", "another player", "organiser"):
        assert PUBLIC in logs[who], who
        assert SECRET_SHOWN in logs[who], who
        assert not re.search(r"\d+ gc|D6: 2|sold for", logs[who]), (who, logs[who])


def test_an_organiser_who_sees_secrets_reads_the_price(client, duel):
    captive = captured(duel)
    sell_for_10(client, duel, captive)
    duel["campaign"].organiser_sees_secrets = True
    duel["campaign"].save(update_fields=["organiser_sees_secrets"])

    assert SOLD in dice_log(client, duel["organiser"], captive.battle)


def test_the_battle_helper_shows_nobody_the_slavers_price(client, duel):
    """A hero taken in a battle played with the helper: its log of rolls (every member of
    the campaign reads it, with each roll's dice) leaves the sale out, as it leaves out every
    secret roll."""
    reavers, scourge = duel["reavers"], duel["scourge"]
    battle = start.start_game(
        actor=reavers.owner, campaign=duel["campaign"], scenario_key="skirmish",
        warband_ids=[reavers.pk, scourge.pk],
    )  # fmt: skip
    end.end_game(battle.pk, actor=scourge.owner, winner_id=scourge.pk)
    captive = captured(duel, battle)
    people = viewers(duel)
    sell_for_10(client, duel, captive)

    for who, user in people.items():
        client.force_login(user)
        for url in (
            reverse("play_page", args=[battle.pk]),
            reverse("play_board", args=[battle.pk]),
        ):
            page = client.get(url, headers=HTMX).content.decode()
            assert "sold to the slavers" not in page and "10 gc" not in page, (who, url)


def test_a_sale_after_the_captors_secret_rolls_has_its_own_line(duel):
    """Secret rolls of one warband in a row show as one line; the sale, which says what it
    was for, is a line of its own."""
    captive = captured(duel)
    scourge = duel["scourge"]
    battle = captive.battle
    battle.dice_rolls.create(warband=scourge, purpose="Exploration", sides=6, faces=[6, 6],
                             source="server", secret=True)  # fmt: skip
    battle.dice_rolls.create(warband=scourge, purpose="Brandt sold", sides=6, faces=[2],
                             source="server", secret=True, public=PUBLIC)  # fmt: skip
    battle.dice_rolls.create(warband=scourge, purpose="Rarity roll", sides=6, faces=[3, 3],
                             source="server", secret=True)  # fmt: skip

    rolls = battle.dice_rolls.select_related("warband__campaign", "rolled_by")
    lines = [(v.purpose, v.shown, v.result) for v in visible_dice(duel["reavers"].owner, rolls)]

    assert lines == [
        (SECRET_PURPOSE, SECRET_SHOWN, ""),
        (PUBLIC, SECRET_SHOWN, ""),
        (SECRET_PURPOSE, SECRET_SHOWN, ""),
    ]


def test_a_ransom_is_the_two_players_business(client, duel):
    captive = captured(duel)
    reavers, scourge = duel["reavers"], duel["scourge"]
    ransom.set_ransom(captive, actor=scourge.owner, ransom=137, into=empty_chest(scourge))
    other = MembershipFactory(campaign=duel["campaign"]).user

    def page(user, warband, status=200) -> str:
        client.force_login(user)
        response = client.get(reverse("warband_captives", args=[warband.pk]))
        assert response.status_code == status
        return response.content.decode()

    assert "137 gc" in page(scourge.owner, scourge)
    assert "137 gc" in page(reavers.owner, reavers)
    for warband in (reavers, scourge):
        shown = page(duel["organiser"], warband)
        assert "A ransom is asked" in shown or "ask a ransom." in shown
        assert not contains_value(shown, 137)
        assert not contains_value(page(other, warband, status=403), 137)
    duel["campaign"].organiser_sees_secrets = True
    duel["campaign"].save(update_fields=["organiser_sees_secrets"])
    assert "137 gc" in page(duel["organiser"], scourge)
