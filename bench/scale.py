"""The league ten times the size (or any ``factor``), built in bulk from the league that
bench/generate.py built through the services.

Mustering 400 warbands and recording 3,000 battles through the services would take most of an
hour on a small machine; copying rows takes minutes. So the league is multiplied: every
warband gets ``factor - 1`` copies (a player of its own, the same roster, containers, stored
items and ledger, the ledger's entries naming the copy's containers, so every container's
balance still equals its ledger and ``manage.py check_ledgers`` still passes), and the league's
finished battles are copied between the copies, their sides, warriors' outcomes, dice, and
finished post-battle sequences with them, until the league has ``factor`` times its battles.
The feed's lines are copied with the warbands they name.

What the load test plays (the open sequences, the pending rolls, the league night, the game
under way) stays the original league's: the same work, in a league ten times the size.

Rows are written with ``bulk_create`` in batches of ``BATCH``, through plain querysets: the
campaign's version (``campaign.cache``) is marked changed once, at the end, instead of once
per row.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.db import models, transaction

from battles.models import (
    Battle,
    DiceRoll,
    Participant,
    PostBattleSequence,
    SequenceTask,
    StepAction,
    StepRecord,
    WarriorOutcome,
)
from campaign import cache
from campaign.models import CampaignEvent, Membership
from warbands.models import (
    Injury,
    LedgerEntry,
    RatingSnapshot,
    StorageContainer,
    StoredItem,
    Warband,
    Warrior,
    WarriorItem,
    WarriorSkill,
    WarriorSpell,
)

BATCH = 5000
SUFFIX = "-x{copy}"  # a copy's player: the original's username and this


def copy_rows(model, rows: list, maps: dict, each=None, **fixed) -> dict[int, int]:
    """Copies of ``rows``, each foreign key to a model in ``maps`` ({model: {old pk: new pk}})
    pointing at the copy of what it named (at the same row when that was not copied: the
    organiser, the reference data), ``fixed`` fields (by attname) set and ``each(row, copy)``
    called; {old pk: new pk}."""
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    remapped = [f for f in fields if f.is_relation and f.related_model in maps]
    copies = []
    for row in rows:
        copy = model(**{**{f.attname: getattr(row, f.attname) for f in fields}, **fixed})
        for f in remapped:
            old = getattr(row, f.attname)
            setattr(copy, f.attname, maps[f.related_model].get(old, old))
        if each is not None:
            each(row, copy)
        copies.append(copy)
    made = models.QuerySet(model=model).bulk_create(copies, batch_size=BATCH)
    return {row.pk: copy.pk for row, copy in zip(rows, made, strict=True)}


def _of(model, **filters) -> list:
    return list(model.objects.filter(**filters).order_by("pk"))


class Original:
    """The original league's rows, read once and copied ``factor - 1`` times."""

    def __init__(self, campaign) -> None:
        self.campaign = campaign
        self.warbands = _of(Warband, campaign=campaign)
        ids = [w.pk for w in self.warbands]
        self.owners = _of(get_user_model(), pk__in=[w.owner_id for w in self.warbands])
        self.members = _of(Membership, campaign=campaign, user__in=self.owners)
        self.warriors = _of(Warrior, warband__in=ids)
        self.per_warrior = {m: _of(m, warrior__warband__in=ids)
                            for m in (WarriorItem, WarriorSkill, WarriorSpell, Injury)}  # fmt: skip
        self.containers = _of(StorageContainer, warband__in=ids)
        self.stored = _of(StoredItem, container__warband__in=ids)
        self.ledger = _of(LedgerEntry, warband__in=ids)
        self.ratings = _of(RatingSnapshot, warband__in=ids)
        self.events = _of(CampaignEvent, campaign=campaign)
        # The finished battles: every side's sequence played to its end.
        self.battles = list(
            Battle.objects.filter(campaign=campaign, status=Battle.Status.CONFIRMED)
            .exclude(participants__sequence__completed_at__isnull=True)
            .order_by("pk")
        )


def _copy_warbands(original: Original, copy: int) -> dict:
    """One copy of every warband; the maps from the original rows to the copy's."""
    suffix = SUFFIX.format(copy=copy)
    maps: dict = {}
    maps[get_user_model()] = copy_rows(
        get_user_model(), original.owners, maps, email="",
        each=lambda row, user: setattr(user, "username", f"{row.username}{suffix}"),
    )  # fmt: skip
    copy_rows(Membership, original.members, maps)
    maps[Warband] = copy_rows(
        Warband, original.warbands, maps,
        each=lambda row, warband: setattr(warband, "name", f"{row.name} ({copy + 1})"),
    )  # fmt: skip
    maps[Warrior] = copy_rows(Warrior, original.warriors, maps)
    for model, rows in original.per_warrior.items():
        copy_rows(model, rows, maps)
    # Containers first without their parents (a cart holds chests), then the parents.
    maps[StorageContainer] = copy_rows(StorageContainer, original.containers, maps,
                                       parent_id=None)  # fmt: skip
    held = [
        StorageContainer(pk=maps[StorageContainer][c.pk],
                         parent_id=maps[StorageContainer][c.parent_id])
        for c in original.containers if c.parent_id
    ]  # fmt: skip
    models.QuerySet(model=StorageContainer).bulk_update(held, ["parent"], batch_size=BATCH)
    copy_rows(StoredItem, original.stored, maps)
    copy_rows(LedgerEntry, original.ledger, maps)
    copy_rows(RatingSnapshot, original.ratings, maps)
    return maps


def _copy_battles(original: Original, maps: dict, battles: Iterable[Battle], shift) -> int:
    """The ``battles`` (the original's) fought between the copies ``maps`` names, ``shift``
    days earlier, with everything their sides and sequences hold."""
    battles = list(battles)
    if not battles:
        return 0

    def earlier(row, battle):
        battle.fought_on = row.fought_on - shift

    maps = {**maps, Battle: copy_rows(Battle, battles, maps, each=earlier)}
    ids = [b.pk for b in battles]
    maps[Participant] = copy_rows(Participant, _of(Participant, battle__in=ids), maps)
    copy_rows(WarriorOutcome, _of(WarriorOutcome, participant__battle__in=ids), maps)
    copy_rows(DiceRoll, _of(DiceRoll, battle__in=ids), maps)
    maps[PostBattleSequence] = copy_rows(
        PostBattleSequence, _of(PostBattleSequence, participant__battle__in=ids), maps
    )
    copy_rows(SequenceTask, _of(SequenceTask, sequence__participant__battle__in=ids), maps)
    maps[StepRecord] = copy_rows(
        StepRecord, _of(StepRecord, sequence__participant__battle__in=ids), maps
    )
    copy_rows(StepAction, _of(StepAction, record__sequence__participant__battle__in=ids), maps)
    events = [e for e in original.events if e.battle_id in maps[Battle]]
    copy_rows(CampaignEvent, events, maps)
    return len(battles)


def multiply(campaign, factor: int, *, progress=print) -> dict:
    """``factor`` times the league's warbands, players, ledger and battles, in one
    transaction; how long each part took, in seconds."""
    started, taken = time.perf_counter(), {}
    with transaction.atomic():
        original = Original(campaign)
        total = Battle.objects.filter(campaign=campaign).count()
        wanted = total * (factor - 1)  # battles to add
        each = -(-wanted // max((factor - 1) * len(original.battles), 1))  # copies per copy
        copies = []
        for copy in range(1, factor):
            maps = _copy_warbands(original, copy)
            copy_rows(CampaignEvent, [e for e in original.events if e.battle_id is None], maps)
            copies.append(maps)
            seconds = time.perf_counter() - started
            progress(f"  copy {copy} of {factor - 1}: {len(original.warbands)} warbands "
                     f"({seconds:.0f} s)")  # fmt: skip
        added = 0
        # Round after round over the copies, so that every copy's warbands have fought.
        for round_ in range(each):
            shift = datetime.timedelta(days=len(original.battles) * (round_ + 1))
            for maps in copies:
                room = wanted - added
                if room > 0:
                    added += _copy_battles(original, maps, original.battles[:room], shift)
            seconds = time.perf_counter() - started
            progress(f"  {added} of {wanted} battles added ({seconds:.0f} s)")
        cache.changed(campaign=campaign.pk, throughout=True)
    taken["seconds"] = round(time.perf_counter() - started, 1)
    return taken
