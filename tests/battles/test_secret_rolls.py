"""A treasury step's rolls say nothing to the opponent (``battles.permissions.visible_dice``):
the dice log shows that the warband made "a secret roll", never how many dice or how many
rolls, which would tell what the dice found (exploration rolls again after doubles)."""

import re

import pytest
from django.urls import reverse

from battles.permissions import SECRET_PURPOSE, SECRET_SHOWN, visible_dice
from tests.helpers import battle_of, play_to, sequence_of

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def explore(client, duel, dice: str, location_dice: str | None = None):
    """A battle whose Reavers explore at step 3 with ``dice`` typed in, and roll for the
    location found (``location_dice``), if their dice found one."""
    reavers = duel["reavers"]
    battle = battle_of(duel)
    sequence = play_to(sequence_of(battle, reavers), 3, reavers.owner)
    client.force_login(reavers.owner)
    client.get(reverse("sequence_detail", args=[sequence.pk]))  # the page lists the rolls
    exploration = sequence.tasks.get(step=3, kind="exploration")
    client.post(reverse("sequence_task", args=[sequence.pk, exploration.pk]),
                {"step": 3, "dice": dice}, headers=HTMX)  # fmt: skip
    if location_dice is not None:
        location = sequence.tasks.get(step=3, kind="location")
        client.post(reverse("sequence_task", args=[sequence.pk, location.pk]),
                    {"step": 3, "dice": location_dice}, headers=HTMX)  # fmt: skip
    return battle


def log_as(user, battle) -> list[tuple]:
    """The battle's dice log as ``user`` sees it, every line but its time."""
    rolls = battle.dice_rolls.select_related("warband__campaign", "warband__owner", "rolled_by")
    return [(v.warband, v.purpose, v.shown, v.result, v.rolled_by, v.source, v.hidden)
            for v in visible_dice(user, rolls)]  # fmt: skip


def test_the_opponent_sees_one_secret_roll_whatever_the_dice_found(client, duel):
    reavers, opponent = duel["reavers"], duel["scourge"].owner
    doubles = explore(client, duel, "6 6 2", location_dice="5")  # three dice, then one
    nothing = explore(client, duel, "1 2 4")  # three dice, and no more
    assert len(log_as(reavers.owner, doubles)) > len(log_as(reavers.owner, nothing))

    theirs = log_as(opponent, doubles)

    assert theirs == log_as(opponent, nothing)
    secret = [line for line in theirs if line[0] == reavers.name]
    assert secret == [(reavers.name, SECRET_PURPOSE, SECRET_SHOWN, "", reavers.owner.username,
                       "secret", True)]  # fmt: skip


def test_the_battle_page_shows_the_opponent_no_number_of_dice_for_a_secret_roll(client, duel):
    battle = explore(client, duel, "6 6 2", location_dice="5")
    client.force_login(duel["scourge"].owner)

    page = client.get(reverse("battle_detail", args=[battle.pk])).content.decode()

    log = page.split('class="dice-log"')[1].split("</table>")[0]
    lines = [line for line in re.findall(r"<tr[^>]*>(.*?)</tr>", log) if "Reavers" in line]
    assert len(lines) == 1 and SECRET_SHOWN in lines[0]
    assert not re.search(r"\d+ (die|dice)|D6|Exploration", lines[0])
