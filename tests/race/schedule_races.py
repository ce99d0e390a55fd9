"""The races of the schedule (``tests.race.harness``): rounds and their pairings, challenges
and their answers. None moves treasure; each locks the row it decides (the campaign's to
number a round, the round's to pair it, the challenge's to answer or withdraw it), so that
two tabs cannot both apply."""

from __future__ import annotations

import datetime

from django.urls import reverse

from battles.models import Challenge, Fixture, Round
from battles.schedule import challenges, services
from tests.helpers import mustered_duel
from tests.race.harness import Clash, Shot, pair, race

NOT_RACED = {
    "campaign_schedule": "a page",
    "round_detail": "a page",
    "round_fixture_add": "each post a game of its own; a warband already in a game of the "
    "round is refused under the round's lock (tests/battles/test_schedule.py)",
    "challenge_create": "each post a challenge of its own; no treasure",
}
DAY = datetime.date(2026, 5, 1)


def _round(duel, *, paired: bool = False) -> Round:
    made = services.create_round(duel["campaign"], actor=duel["organiser"], number=1,
                                 starts_on=DAY, ends_on=DAY)  # fmt: skip
    if paired:
        services.pair_round(made, actor=duel["organiser"], method="closest")
    return made


def _challenge(duel) -> Challenge:
    return challenges.issue_challenge(
        duel["campaign"], actor=duel["scourge"].owner, challenger_id=duel["scourge"].pk,
        opponent_ids=[duel["reavers"].pk],
    )  # fmt: skip


@race("round_create", "the organiser's tabs create round 1 once")
def create_round():
    duel = mustered_duel()
    data = {"number": 1, "starts_on": "2026-05-01", "ends_on": "2026-05-14"}
    url = reverse("round_create", args=[duel["campaign"].pk])
    return Shot(duel["organiser"], url, data, applied=Round.objects.count)


@race("round_pair", "a round is paired once: the later tabs are asked to replace its games")
def pair_round():
    duel = mustered_duel()
    made = _round(duel)
    url = reverse("round_pair", args=[made.pk])
    return Shot(duel["organiser"], url, {"method": "closest"},
                applied=Fixture.objects.filter(round=made).count)  # fmt: skip


@race("round_clear", "the games go once; the later tabs find none to delete")
def clear_round():
    duel = mustered_duel()
    made = _round(duel, paired=True)
    url = reverse("round_clear", args=[made.pk])
    return Shot(duel["organiser"], url, {"sure": "on"},
                applied=lambda: int(not Fixture.objects.filter(round=made).exists()))  # fmt: skip


@race("round_delete", "the round goes once; the later tabs find it gone")
def delete_round():
    duel = mustered_duel()
    made = _round(duel, paired=True)
    url = reverse("round_delete", args=[made.pk])
    return Shot(duel["organiser"], url, {}, htmx=False,
                applied=lambda: int(not Round.objects.filter(pk=made.pk).exists()))  # fmt: skip


@race("challenge_answer", "the challenged player's tabs accept once: one fixture")
def answer_challenge():
    duel = mustered_duel()
    made = _challenge(duel)
    url = reverse("challenge_answer", args=[made.pk])
    return Shot(duel["reavers"].owner, url, {"answer": "accept"}, applied=Fixture.objects.count)


@race("challenge_withdraw", "the challenger's tabs withdraw once")
def withdraw_challenge():
    duel = mustered_duel()
    made = _challenge(duel)
    url = reverse("challenge_withdraw", args=[made.pk])
    return Shot(duel["scourge"].owner, url, {},
                applied=Challenge.objects.filter(status="withdrawn").count)  # fmt: skip


@pair("challenge_answer:accept", "challenge_answer:decline",
      note="two tabs of the challenged player: accepted or declined, never both")  # fmt: skip
def accept_against_decline():
    duel = mustered_duel()
    made = _challenge(duel)
    url = reverse("challenge_answer", args=[made.pk])
    user = duel["reavers"].owner
    return Clash(
        Shot(user, url, {"answer": "accept"},
             applied=Challenge.objects.filter(status="accepted").count),
        Shot(user, url, {"answer": "decline"},
             applied=Challenge.objects.filter(status="declined").count),
    )  # fmt: skip


@pair("challenge_answer", "challenge_withdraw",
      note="the challenged accepts while the challenger withdraws: one of them wins")  # fmt: skip
def accept_against_withdraw():
    duel = mustered_duel()
    made = _challenge(duel)
    return Clash(
        Shot(duel["reavers"].owner, reverse("challenge_answer", args=[made.pk]),
             {"answer": "accept"}, applied=Challenge.objects.filter(status="accepted").count),
        Shot(duel["scourge"].owner, reverse("challenge_withdraw", args=[made.pk]), {},
             applied=Challenge.objects.filter(status="withdrawn").count),
    )  # fmt: skip
