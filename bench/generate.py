"""A large league for the benchmark, built with the test factories and the real services.

Warbands are mustered through the services (as players do), battles are recorded by the
organiser through the services (ratings, feed, rating chart, sequences), and a few are played
through every post-battle step with the demo's dice. The bulk of the history (the other
battles' warrior outcomes, dice and finished sequences, the extra containers and the ledger)
is written with ``bulk_create``: the same rows the steps write, in a fraction of the time.

What the load test plays is left open, each piece through the services:

- the player's last battle leaves its sequence at step 9 (reallocation): the sequence page;
- every warband has two sacks with 5 gc each, for moves of 1 gc there and back;
- ``writers`` players each have a sequence at step 9 (moves), ``writers`` more one at step 8
  (finished and undone again), and the first ``writers`` chests full of gold (containers
  bought and sold back), so that every concurrent client of a write is a player of its own;
- ``rolls`` battles in which every warrior of both sides went out of action, each sequence
  waiting at step 1 with one injury roll per warrior: the pool of pending rolls;
- ``night`` rounds in which every warband fights one more battle, its sequence waiting at
  step 1: what the players play through on the league night;
- with ``helper``, a game under way in the battle helper between the last two warbands
  (bench/game.py): what its players tap and its viewers poll.

These are among the ``battles``, the most recent of them: the league's size does not change
with what the load test needs of it.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from battles import aftermath as sequences
from battles.aftermath import task_dice
from battles.models import (
    Battle,
    DiceRoll,
    PostBattleSequence,
    SequenceTask,
    StepAction,
    StepRecord,
    WarriorOutcome,
)
from battles.report import services as battle_services
from battles.report import sides
from battles.rules import ReportedResult
from bench.game import helper_of, start_helper_game
from campaign.models import Membership
from league.management.commands.seed_demo import Command as Demo
from tests.factories import CampaignFactory, UserFactory, WarbandFactory, finish, hire
from warbands import treasury
from warbands.models import LedgerEntry, StorageContainer, Warband
from warbands.rules import containers as container_rules

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
# Battles left open for the load test say what for (``league_of`` finds them by it).
ROLLS = "Benchmark: injury rolls waiting."
NIGHT = "Benchmark: the league night."
NIGHT_OUT = (1, 3, 5)  # out of action on a league night: two heroes and a henchmen group


@dataclass
class League:
    campaign_id: int
    player: str
    warband_id: int  # the player's
    battle_id: int  # a battle played through every step
    sequence_id: int  # the player's, open at step 9
    move: tuple[int, int]  # two of the player's containers with gold to move between
    # Every player, the league's own first: username, warband_id, move (two containers) and
    # night (its sequences waiting at step 1 for the league night).
    players: list[dict] = field(default_factory=list)
    step9: list[dict] = field(default_factory=list)  # username, sequence_id, move
    step8: list[dict] = field(default_factory=list)  # username, sequence_id
    buyers: list[dict] = field(default_factory=list)  # username, warband_id, chests
    # Pending injury rolls: username, sequence_id, task_id, dice (how many its form takes);
    # one task of each sequence before the second of any, so that concurrent rolls seldom
    # wait for the same sequence.
    rolls: list[dict] = field(default_factory=list)
    # The game under way in the battle helper (bench/game.py): battle_id, tappers, viewers.
    helper: dict | None = None
    password: str = PASSWORD  # every user's


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


def _record(campaign, organiser, first, second, rng, fought_on, notes="") -> Battle:
    """A battle recorded and confirmed by the organiser; its sides count as entered, the
    generator writing their warriors' outcomes in bulk afterwards."""
    outcome = rng.choice(("won", "lost", "draw"))
    other = {"won": "lost", "lost": "won", "draw": "draw"}[outcome]
    battle = battle_services.record_battle(
        actor=organiser,
        campaign=campaign,
        scenario=rng.choice(SCENARIOS),
        fought_on=fought_on,
        results=[
            ReportedResult(first.pk, outcome, outcome == "lost", 1 if outcome == "lost" else None),
            ReportedResult(second.pk, other, other == "lost", 1 if other == "lost" else None),
        ],
        notes=notes,
    )
    battle.participants.update(side_entered_at=timezone.now(), side_entered_by=organiser)
    return battle_services.confirm_for_everybody(battle, actor=organiser)


def play_battle(campaign, organiser, first, second, *, until: dict[int, int]) -> Battle:
    """A battle reported by the first player, confirmed by the second, step 0 settled and each
    warband's sequence played through the services with the demo's dice."""

    battle = battle_services.report_battle(
        actor=first.owner,
        campaign=campaign,
        scenario="Wyrdstone Hunt",
        fought_on=timezone.localdate(),
        results=[ReportedResult(first.pk, "won", False, None),
                 ReportedResult(second.pk, "lost", True, 1)],
    )  # fmt: skip
    for warband in (first, second):
        roster = list(sides.fighters(warband).order_by("pk"))
        sides.enter_side(
            battle, warband, actor=warband.owner,
            outcomes=[
                sides.Outcome(
                    warrior.pk, out_of_action=n in (1, 5) and warrior.is_hero,
                    models_out_of_action=warrior.group_size if n in (1, 5) else 0,
                    enemies_out_of_action=n % 3 == 0, scenario_experience=1 if n == 0 else 0,
                )
                for n, warrior in enumerate(roster)
            ],
        )  # fmt: skip
    for warband in (first, second):
        battle_services.respond(battle, actor=warband.owner, agree=True)
    demo = Demo()
    demo.settle_carried_items(battle, organiser, first=False)
    for sequence in PostBattleSequence.objects.filter(participant__battle=battle):
        demo.play(sequence, [], until=until.get(sequence.participant.warband_id, 11))
    return battle


def _left_at_step_one(campaign, organiser, first, second, rng, fought_on, *, out, notes):
    """A battle recorded by the organiser, ``out`` (indexes in each roster; None: everybody)
    taken out of action, step 0 settled through the services and each side's sequence left
    at step 1 with its injury rolls listed, as the page lists them."""

    battle = _record(campaign, organiser, first, second, rng, fought_on, notes)
    outcomes = []
    for participant in battle.participants.all():
        roster = first.bench_roster if participant.warband_id == first.pk else second.bench_roster
        outcomes += [
            WarriorOutcome(participant=participant, warrior=warrior,
                           out_of_action=out is None or n in out)
            for n, warrior in enumerate(roster)
        ]  # fmt: skip
    WarriorOutcome.objects.bulk_create(outcomes)
    demo = Demo()
    demo.settle_carried_items(battle, organiser, first=False)
    for sequence in PostBattleSequence.objects.filter(participant__battle=battle):
        demo.play(sequence, [], until=1)
        sequences.prepare(sequence)
    return battle


def _sacks(warband) -> None:
    """5 gc into two of the warband's boxes with room for 10 more: the load test moves 1 gc
    between them, there and back."""
    boxes = warband.containers.filter(
        kind__in=("large_sack", "backpack", "treasure_chest"), status="held"
    ).order_by("gold_crowns", "pk")
    sacks = [b for b in boxes if container_rules.spec(b.kind).capacity.gold - b.gold_crowns >= 10]
    while len(sacks) < 2:  # a small league's boxes may all be full
        sacks.append(StorageContainer.objects.create(warband=warband, kind="large_sack"))
    for box in sacks[:2]:
        treasury.add_treasure(box, gold=5, reason=LedgerEntry.Reason.INCOME)


def _fill_chests(warband) -> None:
    """90 gc in each treasure chest: a container bought for 2 gc and sold back for 1 costs a
    chest 1 gc each time, and the chests last for hundreds of those."""
    for chest in warband.containers.filter(kind="treasure_chest", status="held"):
        if chest.gold_crowns < 90:
            treasury.add_treasure(chest, gold=90 - chest.gold_crowns, reason="income")


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
    writers: int = 0,
    rolls: int = 0,
    night: int = 0,
    helper: bool = False,
) -> League:
    """Build the league in one transaction and describe what the load test needs. ``writers``,
    ``rolls``, ``night`` and ``helper`` (a game under way in the battle helper): see the
    module's docstring (``bench/run.py`` asks for them; the query-count tests do not)."""
    rng = random.Random(seed)
    roster = ROSTER_15 if warriors == 15 else ROSTER_3
    writers = min(writers, (warbands - 1) // 2)  # two each, the league's player aside
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
        # ``battles`` in all: those left open for the load test are among them.
        waiting = writers + rolls + night * (len(order) // 2)
        for n in range(battles - played - 1 - waiting):
            first, second = rng.sample(order, 2)
            battle = _record(campaign, organiser, first, second, rng, start + datetime.timedelta(n))
            _finished_history(battle, bands, rng)
            if (n + 1) % 50 == 0:
                progress(f"  {n + 1} of {battles} battles recorded")
        player = order[0]
        for n in range(played):
            opponent = order[1 + n % (len(order) - 1)]
            play_battle(campaign, organiser, player, opponent, until={})
        play_battle(campaign, organiser, player, order[1], until={player.pk: 9})
        # Writers: players 1 to 2 * writers, in pairs, sequences at step 9 then at step 8.
        for n in range(1, 2 * writers, 2):
            first, second = order[n], order[n + 1]
            step = 9 if n < writers else 8
            play_battle(campaign, organiser, first, second, until={first.pk: step, second.pk: step})
        if writers:
            progress(f"  {2 * writers} sequences left at steps 8 and 9")
        today = timezone.localdate()
        for n in range(rolls):
            first, second = rng.sample(order[1:], 2)
            _left_at_step_one(campaign, organiser, first, second, rng, today, out=None,
                              notes=ROLLS)  # fmt: skip
            if (n + 1) % 20 == 0:
                progress(f"  {n + 1} of {rolls} battles with injury rolls waiting")
        for n in range(night):
            paired = rng.sample(order, len(order))
            for first, second in zip(paired[::2], paired[1::2], strict=False):
                _left_at_step_one(campaign, organiser, first, second, rng, today,
                                  out=NIGHT_OUT, notes=NIGHT)  # fmt: skip
            progress(f"  league night: round {n + 1} of {night} fought")
        for warband in order:
            _sacks(warband)
        for warband in order[1 : writers + 1]:
            _fill_chests(warband)
        if helper:
            start_helper_game(campaign)
    progress(f"  {battles} battles ({waiting} of them waiting), {warbands} warbands")
    return league_of(campaign, prefix=prefix)


def _move(warband) -> list[int]:
    """Two of the warband's boxes with gold to move and room to take it back (``_sacks``)."""
    boxes = sorted(
        warband.containers.filter(
            kind__in=("large_sack", "backpack", "treasure_chest"), status="held"
        ),
        key=lambda b: (b.kind != "large_sack", b.pk),
    )
    return [
        b.pk for b in boxes if 1 <= b.gold_crowns <= container_rules.spec(b.kind).capacity.gold - 1
    ][:2]


def _interleaved(tasks) -> list[dict]:
    """Every sequence's first task, then every sequence's second, and so on."""
    by_sequence: dict[int, list] = {}
    for task in tasks:
        by_sequence.setdefault(task.sequence_id, []).append(task)
    rounds = max((len(t) for t in by_sequence.values()), default=0)
    return [
        {"username": t.sequence.participant.warband.owner.username,
         "sequence_id": t.sequence_id, "task_id": t.pk,
         "dice": task_dice.first_roll(t.kind, t.data, task_dice.TaskFacts()).count}
        for n in range(rounds) for t in (ts[n] for ts in by_sequence.values() if len(ts) > n)
    ]  # fmt: skip


def league_of(campaign, prefix: str = "") -> League:
    """What the load test needs of a league generated earlier (``make bench`` keeps it)."""
    player = Warband.objects.get(campaign=campaign, owner__username=f"{prefix}{PLAYER}")
    waiting = list(
        PostBattleSequence.objects.filter(
            participant__battle__campaign=campaign, completed_at__isnull=True
        )
        .select_related("participant__battle", "participant__warband__owner")
        .order_by("pk")
    )
    sequence = next(
        s for s in waiting if s.participant.warband_id == player.pk and s.current_step == 9
    )
    battle = (
        Battle.objects.filter(participants__warband=player)
        .exclude(participants__sequence__completed_at__isnull=True)
        .order_by("-pk")
        .first()
    )
    night: dict[int, list[int]] = {}
    for s in waiting:
        if s.current_step == 1 and s.participant.battle.notes == NIGHT:
            night.setdefault(s.participant.warband_id, []).append(s.pk)
    bands = list(Warband.objects.filter(campaign=campaign).select_related("owner").order_by("pk"))
    # Of the warbands of a league built in bulk, those the load test plays (the original's).
    bands = [w for w in bands if w.pk in night or not night or w.pk == player.pk]
    moves = {w.pk: _move(w) for w in bands}

    def owned(s) -> dict:
        return {"username": s.participant.warband.owner.username, "sequence_id": s.pk}

    others = [s for s in waiting if s.pk != sequence.pk]
    step9 = [dict(owned(s), move=moves[s.participant.warband_id])
             for s in others if s.current_step == 9]  # fmt: skip
    writers = {s.participant.warband_id for s in others if s.current_step == 9}
    tasks = SequenceTask.objects.filter(
        sequence__in=[s for s in waiting if s.participant.battle.notes == ROLLS],
        step=1, void=False, done=False,
    ).select_related("sequence__participant__warband__owner")  # fmt: skip
    return League(
        campaign_id=campaign.pk,
        player=player.owner.username,
        warband_id=player.pk,
        battle_id=battle.pk,
        sequence_id=sequence.pk,
        move=tuple(moves[player.pk]),
        players=[
            {
                "username": w.owner.username,
                "warband_id": w.pk,
                "move": moves[w.pk],
                "night": night.get(w.pk, []),
            }
            for w in bands
        ],
        step9=step9,
        step8=[owned(s) for s in others if s.current_step == 8],
        buyers=[
            {
                "username": w.owner.username,
                "warband_id": w.pk,
                "chests": list(
                    w.containers.filter(
                        kind="treasure_chest", status="held", gold_crowns__gte=20
                    ).values_list("pk", flat=True)
                ),
            }
            for w in bands
            if w.pk in writers
        ],
        rolls=_interleaved(tasks),
        helper=helper_of(campaign, player.owner.username),
    )
