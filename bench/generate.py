"""A large league for the benchmark, built with the test factories and the real services.

Warbands are mustered through the services (as players do), battles are recorded by the
organiser through the services (ratings, feed, rating chart, sequences), and a few are played
through every post-battle step with the demo's dice. The bulk of the history (the other
battles' warrior outcomes, dice and finished sequences, the extra containers and the ledger)
is written with ``bulk_create``: the same rows the steps write, in a fraction of the time.
The last battle leaves the player's sequence open at step 9 (reallocation) for the step POST
of the load test, and the player's warband has two sacks for the treasury move.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from battles import services as battle_services
from battles.models import (
    Battle,
    DiceRoll,
    PostBattleSequence,
    StepAction,
    StepRecord,
    WarriorOutcome,
)
from battles.rules import ReportedResult
from campaign.models import Membership
from tests.factories import CampaignFactory, UserFactory, WarbandFactory, finish, hire
from warbands.models import LedgerEntry, StorageContainer

PASSWORD = "bench-password-1"
PLAYER = "bench-player"
# A Reikland roster of 15 models: five heroes and three henchmen groups (440 gc of 500).
ROSTER_15 = [
    ("mercenary_captain", 1, ["sword"]),
    ("champion", 1, []),
    ("champion", 1, []),
    ("youngblood", 1, []),
    ("youngblood", 1, []),
    ("warrior", 4, []),
    ("marksman", 3, []),
    ("swordsman", 3, []),
]
ROSTER_3 = [("mercenary_captain", 1, ["sword"]), ("warrior", 2, [])]
SCENARIOS = ("Skirmish", "Street Fight", "Wyrdstone Hunt", "Breakthrough", "Chance Encounter")
# 19 containers beside the free treasure chest: a mule cart carrying 4 chests and 6 sacks,
# and 8 backpacks.
EXTRA_CONTAINERS = ["cart_mule"] + ["treasure_chest"] * 4 + ["large_sack"] * 6 + ["backpack"] * 8


@dataclass
class League:
    campaign_id: int
    player: str
    warband_id: int  # the player's
    battle_id: int  # a battle played through every step
    sequence_id: int  # the player's, open at step 9
    move: tuple[int, int]  # two of the player's containers with gold to move between


def _muster(campaign, owner, name, roster) -> object:
    warband = WarbandFactory(campaign=campaign, owner=owner, name=name)
    for type_key, models, items in roster:
        hire(warband, type_key, models=models, items=items)
    return finish(warband)


def _containers(warband, count: int) -> list[StorageContainer]:
    kinds = EXTRA_CONTAINERS[: max(count - 1, 0)]
    made = StorageContainer.objects.bulk_create(
        StorageContainer(warband=warband, kind=kind) for kind in kinds
    )
    cart = next((c for c in made if c.kind == "cart_mule"), None)
    if cart is not None:
        StorageContainer.objects.filter(
            pk__in=[c.pk for c in made if c.kind in ("treasure_chest", "large_sack")]
        ).update(parent=cart)
    return list(warband.containers.filter(status="held").exclude(kind="loose").order_by("pk"))


def _ledger(warband, containers, entries: int, owner) -> None:
    """``entries`` transfers of 1 gc back and forth between the chest and the other boxes:
    the balances end where they started, as the ledger's history of a long campaign would."""
    chest = next(c for c in containers if c.kind == "treasure_chest")
    boxes = [c for c in containers if c.kind in ("large_sack", "backpack") and c.pk != chest.pk]
    if not boxes or chest.gold_crowns < 1:
        return
    rows = []
    for n in range(entries // 2):
        box = boxes[n % len(boxes)]
        note = f"Moved 1 gc between {chest} and {box}"
        for source, target in ((chest, box), (box, chest)):
            rows += [
                LedgerEntry(warband=warband, container=source, kind="gold", amount=-1,
                            reason="transfer", note=note, actor=owner),
                LedgerEntry(warband=warband, container=target, kind="gold", amount=1,
                            reason="transfer", note=note, actor=owner),
            ]  # fmt: skip
    LedgerEntry.objects.bulk_create(rows[:entries], batch_size=2000)


def _finished_history(battle, warbands, rng) -> None:
    """Outcomes, dice and a finished sequence for each side, as if played through."""
    outcomes, rolls, records = [], [], []
    now = timezone.now()
    for participant in battle.participants.all():
        warband = warbands[participant.warband_id]
        for warrior in warband.bench_roster:
            outcomes.append(
                WarriorOutcome(
                    participant=participant,
                    warrior=warrior,
                    out_of_action=rng.random() < 0.25,
                    enemies_out_of_action=rng.choice((0, 0, 0, 1, 2)),
                    scenario_experience=rng.choice((0, 0, 1)),
                )
            )
        for purpose in ("Injury", "Advance", "Exploration dice", "Rarity"):
            faces = [rng.randint(1, 6) for _ in range(2)]
            rolls.append(
                DiceRoll(battle=battle, warband=warband, rolled_by=warband.owner, sides=6,
                         purpose=f"{purpose} ({warband.name})", faces=faces, source="server",
                         result=f"rolled {sum(faces)}", secret=purpose != "Injury")
            )  # fmt: skip
        sequence = PostBattleSequence.objects.get(participant=participant)
        records += [
            StepRecord(sequence=sequence, step=step, completed_at=now, completed_by=warband.owner)
            for step, _ in PostBattleSequence.STEPS
        ]  # fmt: skip
    WarriorOutcome.objects.bulk_create(outcomes)
    DiceRoll.objects.bulk_create(rolls)
    names = dict(PostBattleSequence.STEPS)
    StepAction.objects.bulk_create(
        StepAction(record=r, summary=f"{names[r.step]}: done.")
        for r in StepRecord.objects.bulk_create(records)
    )
    PostBattleSequence.objects.filter(participant__battle=battle).update(
        current_step=PostBattleSequence.COMPLETE, completed_at=now
    )
    Battle.objects.filter(pk=battle.pk).update(carried_items_done_at=now)


def _record(campaign, organiser, first, second, rng, fought_on) -> Battle:
    outcome = rng.choice(("won", "lost", "draw"))
    other = {"won": "lost", "lost": "won", "draw": "draw"}[outcome]
    return battle_services.record_battle(
        actor=organiser,
        campaign=campaign,
        scenario=rng.choice(SCENARIOS),
        fought_on=fought_on,
        results=[
            ReportedResult(first.pk, outcome, outcome == "lost", 1 if outcome == "lost" else None),
            ReportedResult(second.pk, other, other == "lost", 1 if other == "lost" else None),
        ],
    )


def _play(campaign, organiser, first, second, *, until: dict[int, int]) -> Battle:
    """A battle reported by the first player, confirmed by the second, step 0 settled and each
    warband's sequence played through the services with the demo's dice."""
    from campaign.management.commands.seed_demo import Command as Demo

    battle = battle_services.report_battle(
        actor=first.owner,
        campaign=campaign,
        scenario="Wyrdstone Hunt",
        fought_on=timezone.localdate(),
        results=[ReportedResult(first.pk, "won", False, None),
                 ReportedResult(second.pk, "lost", True, 1)],
    )  # fmt: skip
    outcomes = []
    for warband in (first, second):
        roster = list(warband.warriors.filter(status="active").order_by("pk"))
        for n, warrior in enumerate(roster):
            outcomes.append(
                battle_services.Outcome(
                    warrior.pk, out_of_action=n in (1, 5), enemies_out_of_action=n % 3 == 0,
                    scenario_experience=1 if n == 0 else 0,
                )
            )  # fmt: skip
    battle_services.set_outcomes(battle, actor=first.owner, outcomes=outcomes)
    battle_services.respond(battle, actor=second.owner, agree=True)
    demo = Demo()
    demo.settle_carried_items(battle, organiser, first=False)
    for sequence in PostBattleSequence.objects.filter(participant__battle=battle):
        demo.play(sequence, [], until=until.get(sequence.participant.warband_id, 11))
    return battle


def generate(
    *,
    warbands: int = 40,
    warriors: int = 15,
    battles: int = 300,
    containers: int = 20,
    ledger: int = 2000,
    played: int = 2,
    seed: int = 1,
    prefix: str = "",
    progress=print,
) -> League:
    """Build the league in one transaction and describe what the load test needs."""
    rng = random.Random(seed)
    roster = ROSTER_15 if warriors == 15 else ROSTER_3
    with transaction.atomic():
        campaign = CampaignFactory(name=f"{prefix}The Benchmark League", mim_carried_items=True)
        organiser = UserFactory(username=f"{prefix}bench-organiser", password=PASSWORD)
        Membership.objects.create(campaign=campaign, user=organiser, is_organiser=True)
        bands = {}
        for n in range(warbands):
            name = PLAYER if n == 0 else f"bench-{n:02d}"
            owner = UserFactory(username=f"{prefix}{name}", password=PASSWORD)
            warband = _muster(campaign, owner, f"Warband {n:02d}", roster)
            boxes = _containers(warband, containers)
            _ledger(warband, boxes, ledger, owner)
            warband.bench_roster = list(warband.warriors.order_by("pk"))
            bands[warband.pk] = warband
            if (n + 1) % 10 == 0:
                progress(f"  {n + 1} of {warbands} warbands mustered")
        order = list(bands.values())
        start = timezone.localdate() - datetime.timedelta(days=battles + 1)
        for n in range(battles - played - 1):
            first, second = rng.sample(order, 2)
            battle = _record(campaign, organiser, first, second, rng, start + datetime.timedelta(n))
            _finished_history(battle, bands, rng)
            if (n + 1) % 50 == 0:
                progress(f"  {n + 1} of {battles} battles recorded")
        player = order[0]
        played_battle = None
        for n in range(played):
            opponent = order[1 + n % (len(order) - 1)]
            played_battle = _play(campaign, organiser, player, opponent, until={})
        last = _play(campaign, organiser, player, order[1], until={player.pk: 9})
        sequence = PostBattleSequence.objects.get(
            participant__battle=last, participant__warband=player
        )
        # Two boxes with room, 5 gc in each: the load test moves 1 gc back and forth.
        from warbands import treasury
        from warbands.rules import containers as container_rules

        boxes = player.containers.filter(
            kind__in=("large_sack", "backpack", "treasure_chest"), status="held"
        ).order_by("gold_crowns", "pk")
        sacks = [
            b for b in boxes if container_rules.spec(b.kind).capacity.gold - b.gold_crowns >= 10
        ]
        while len(sacks) < 2:  # a small league's boxes may all be full
            sacks.append(StorageContainer.objects.create(warband=player, kind="large_sack"))
        for box in sacks[:2]:
            treasury.add_treasure(box, gold=5, reason=LedgerEntry.Reason.INCOME)
    progress(f"  {battles} battles, {warbands} warbands")
    return League(
        campaign_id=campaign.pk,
        player=f"{prefix}{PLAYER}",
        warband_id=player.pk,
        battle_id=(played_battle or last).pk,
        sequence_id=sequence.pk,
        move=(sacks[0].pk, sacks[1].pk),
    )


def league_of(campaign) -> League:
    """The League description of a league generated earlier (``make bench`` reuses it)."""
    from warbands.models import Warband

    player = Warband.objects.get(campaign=campaign, owner__username=PLAYER)
    sequence = PostBattleSequence.objects.get(
        participant__warband=player, completed_at__isnull=True
    )
    battle = (
        Battle.objects.filter(participants__warband=player)
        .exclude(pk=sequence.participant.battle_id)
        .exclude(participants__sequence__completed_at__isnull=True)
        .order_by("-pk")
        .first()
    )
    from warbands.rules import containers as container_rules

    boxes = player.containers.filter(
        kind__in=("large_sack", "backpack", "treasure_chest"), status="held"
    ).order_by("pk")
    # Two boxes with gold to move and room to take it back.
    sacks = [
        b for b in boxes if 1 <= b.gold_crowns <= container_rules.spec(b.kind).capacity.gold - 1
    ][:2]
    return League(
        campaign_id=campaign.pk,
        player=PLAYER,
        warband_id=player.pk,
        battle_id=battle.pk,
        sequence_id=sequence.pk,
        move=tuple(s.pk for s in sacks),
    )
