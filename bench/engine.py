"""The post-battle sequence's cost, two ways.

``rules_sequence``: the pure rules engine (no database) resolving a whole sequence for a
15-model Reikland warband (five heroes, three henchmen groups) with dice from a fixed cycle:
injuries for the two heroes and the group taken out of action, experience and the advances it
brings, exploration with the location of any multiple, the wyrdstone sale, a rarity roll per
standing hero and the new rating. Questions a rule asks are answered with the first option,
as a player clicking the first button would.

``services_sequence``: steps 1 to 10 of one warband's sequence through the services, on the
benchmark's league, as ``seed_demo`` plays them (every task rolled, finds stored, half the
wyrdstone sold); timed around the calls to the services only (``prepare``, ``run_task``, ``act``
and ``complete_step``: what a server does for the player's clicks; the harness's choosing
between them is reported apart, as ``ms_with_player``), inside a transaction that is rolled
back so the league is the same for the next run (the commits' own flushes are therefore not
counted).
"""

from __future__ import annotations

import contextlib
import itertools
import statistics
import time

from django.db import connection, transaction

from battles import aftermath as sequence
from battles.models import PostBattleSequence
from battles.rules import experience, exploration, injuries
from battles.rules.tasks import NeedsAnswer
from bench.generate import play_battle
from campaign.models import Campaign
from core.dice import Roll
from league.management.commands.seed_demo import Command as Demo
from warbands.models import Warband
from warbands.rules import roster

CYCLE = (3, 4, 2, 5, 6, 1, 4, 3, 5, 2, 6, 6, 1)


class CycleDice:
    """Scripted dice: the faces of ``CYCLE`` over and over (capped at the die's sides)."""

    def __init__(self, start: int = 0) -> None:
        self.faces = itertools.cycle(CYCLE[start:] + CYCLE[:start])

    def roll(self, n: int, sides: int, purpose: str = "") -> Roll:
        return Roll(
            purpose, sides, tuple(min(next(self.faces), sides) for _ in range(n)), "scripted"
        )


def answered(rule, *args, **kwargs):
    """Run a rule, answering each question it asks with its first option (replaying the
    dice rolled so far, as the services do)."""
    answers: dict[str, str] = {}
    while True:
        try:
            return rule(*args, answers=answers, **kwargs)
        except NeedsAnswer as asked:
            answers[asked.question.key] = asked.question.options[0][0]


HUMAN = roster.Profile(4, 3, 3, 3, 3, 1, 3, 1, 7)
HUMAN_MAX = roster.Profile(4, 6, 6, 4, 4, 3, 6, 4, 9)
SKILLS = {
    "combat": (("strike_to_injure", "Strike to Injure"), ("expert_swordsman", "Expert Swordsman")),
    "strength": (("mighty_blow", "Mighty Blow"), ("resilient", "Resilient")),
}
# (name, models, experience before, out of action, is hero)
WARBAND = [
    ("Captain", 1, 20, False, True),
    ("Champion A", 1, 8, True, True),
    ("Champion B", 1, 7, False, True),
    ("Youngblood A", 1, 1, True, True),
    ("Youngblood B", 1, 0, False, True),
    ("Warriors", 4, 1, True, False),
    ("Marksmen", 3, 1, False, False),
    ("Swordsmen", 3, 0, False, False),
]


def rules_sequence(dice) -> dict:
    """One whole sequence through the rules engine; returns what a player would note down."""
    notes: dict = {"injuries": [], "advances": [], "rarity": []}
    for name, models, _, out, hero in WARBAND:  # step 1
        if not out:
            continue
        if hero:
            context = injuries.InjuryContext(name=name, opponents=((2, "The Grey Scourge"),))
            notes["injuries"].append(answered(injuries.hero_injuries, dice, context=context))
        else:
            notes["injuries"].append(injuries.henchmen_lost(dice, name=name, models=models))
    rated = []
    for name, models, before, _out, hero in WARBAND:  # step 2: survived +1, leader +1 (won)
        after = before + 1 + (1 if name == "Captain" else 0)
        for _ in roster.advances_earned(before, after, is_hero=hero):
            if hero:
                context = experience.HeroContext(name=name, current=HUMAN, maximum=HUMAN_MAX,
                                                 skills=SKILLS)  # fmt: skip
                notes["advances"].append(answered(experience.hero_advance, dice, context=context))
            else:
                context = experience.HenchmanContext(
                    name=name, starting=HUMAN, current=HUMAN, maximum=HUMAN_MAX, heroes=5,
                    max_heroes=6,
                )  # fmt: skip
                notes["advances"].append(
                    answered(experience.henchman_advance, dice, context=context)
                )
        rated.append(roster.RatedWarrior(models=models, experience=after))
    standing = [n for n, _, _, out, hero in WARBAND if hero and not out]
    setup = exploration.ExplorationSetup(heroes_standing=len(standing), won=True)  # step 3
    found = answered(exploration.explore, dice, setup)
    notes["shards"] = found.shards
    if found.multiple:
        face, count = found.multiple
        heroes = tuple(exploration.Hero(n, name) for n, name in enumerate(standing))
        context = exploration.LocationContext(family="human", heroes=heroes, leader=heroes[0])
        notes["location"] = answered(
            exploration.resolve_location, dice, face, count, context=context
        )
    notes["sold_for"] = exploration.wyrdstone_price(found.shards, 15)  # step 4
    modifier = exploration.rarity_modifier(streetwise=False, warband_bonus=0, kept_gems=False)
    for name in standing:  # step 6
        notes["rarity"].append((name, dice.roll(2, 6, f"{name}: rarity").total + modifier))
    notes["rating"] = roster.warband_rating(rated)  # step 10
    return notes


def rules_rate(seconds: float = 2.0) -> dict:
    """Full sequences resolved per second by the rules engine (one core)."""
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        rules_sequence(CycleDice(count % len(CYCLE)))
        count += 1
    return {"sequences": count, "per_second": round(count / elapsed, 1),
            "ms_each": round(elapsed * 1000 / count, 3)}  # fmt: skip


class _Rollback(Exception):
    pass


SERVICES = ("prepare", "run_task", "act", "complete_step")


@contextlib.contextmanager
def _timed_services(spent: list[float], queries: list[int]):
    """Time the calls to the sequence's services (``battles.aftermath``) and count their
    queries; what ``seed_demo`` does between them (the player's choices, its own reads) is
    not server time."""

    inside = [False]

    def count(execute, sql, params, many, context):
        if inside[0]:
            queries[0] += 1
        return execute(sql, params, many, context)

    def timed(function):
        def call(*args, **kwargs):
            inside[0] = True
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[0] += time.perf_counter() - start
                inside[0] = False

        return call

    originals = {name: getattr(sequence, name) for name in SERVICES}
    try:
        for name, function in originals.items():
            setattr(sequence, name, timed(function))
        with connection.execute_wrapper(count):
            yield
    finally:
        for name, function in originals.items():
            setattr(sequence, name, function)


def services_sequence(league, runs: int = 5) -> dict:
    """Server time of steps 1-10 of a 15-warrior warband's sequence through the services."""

    campaign = Campaign.objects.get(pk=league.campaign_id)
    organiser = campaign.memberships.filter(is_organiser=True).first().user
    bands = list(
        Warband.objects.filter(campaign=campaign).exclude(pk=league.warband_id).order_by("pk")
    )
    times, whole, queries, warriors = [], [], [], 0
    for run in range(min(runs, (len(bands) - 2) // 2)):  # a small league has fewer pairs
        first, second = bands[2 + 2 * run], bands[3 + 2 * run]
        try:
            with transaction.atomic():
                battle = play_battle(campaign, organiser, first, second, until={first.pk: 1})
                # loaded as the sequence page loads it (battles.aftermath.views._sequence_for)
                sequence = PostBattleSequence.objects.select_related(
                    "participant__battle__campaign",
                    "participant__warband__warband_type",
                    "participant__warband__owner",
                ).get(participant__battle=battle, participant__warband=first)
                sequence.participant.warband.campaign = sequence.participant.battle.campaign
                warriors = sum(w.group_size for w in first.warriors.filter(status="active"))
                spent, counted = [0.0], [0]
                with _timed_services(spent, counted):
                    start = time.perf_counter()
                    Demo().play(sequence, [])
                    whole.append(time.perf_counter() - start)
                times.append(spent[0])
                queries.append(counted[0])
                raise _Rollback
        except _Rollback:
            pass
    return {"ms": round(statistics.median(times) * 1000, 1),
            "ms_runs": [round(t * 1000, 1) for t in times],
            "ms_with_player": round(statistics.median(whole) * 1000, 1),
            "queries": int(statistics.median(queries)), "models": warriors}  # fmt: skip
