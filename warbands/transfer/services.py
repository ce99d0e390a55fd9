"""Carry a warband into another campaign: a copy of its roster, owned by the same player, in a
campaign he is a member of that takes warbands from elsewhere.

The original is untouched and stays in its campaign's history; the copy names it
(``Warband.carried_from``). Its treasury follows the target campaign's choice
(``Campaign.carried_treasury``): the starting gold a new warband gets, its own treasury (each
container, its gold, wyrdstone and stored items, entering the ledger as "carried in", the one
way value comes into a campaign from outside it), or nothing but the free treasure chest.
Warriors held captive stay behind with their captors.

Locks, in the order of every service (``warbands.treasury.ledger``): the target campaign, the
owner's membership there (two tabs cannot both take his last warband place), then the
original warband's row, read afresh, so two carries of one warband wait for each other and
the second finds the first's copy.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from campaign import cache
from campaign.models import Campaign, CampaignEvent
from campaign.permissions import is_member
from campaign.services import record_event
from core.errors import RuleViolation
from warbands import treasury
from warbands.house_rules import allowed
from warbands.models import (
    HiredSword,
    Injury,
    RatingSnapshot,
    StorageContainer,
    Warband,
    Warrior,
    WarriorItem,
    WarriorSkill,
    WarriorSpell,
)
from warbands.services import rating
from warbands.transfer import rules
from warbands.transfer.rules import CarryFacts

# A warrior's own fields copied as they are (the profile, experience and what he became).
WARRIOR_FIELDS = (
    "warrior_type_id", "name", "is_hero", "is_leader", "group_size", "experience", "status",
    "games_to_miss", "maximum_bonuses", "hired_at_creation", "hired_sword_id",
    "learns_magic_next", "kept_gems", "M", "WS", "BS", "S", "T", "W", "I", "A", "Ld",
)  # fmt: skip
# The warband's lasting benefits (exploration re-rolls, maps).
WARBAND_FIELDS = ("exploration_extra_dice", "catacombs_reroll", "map_rerolls", "master_map")


def open_sequences(warband: Warband) -> int:
    """The warband's post-battle sequences not finished yet (read through its battles, which
    the layer below may not import)."""
    return warband.participations.filter(
        sequence__isnull=False, sequence__completed_at__isnull=True
    ).count()


def facts(warband: Warband, target: Campaign, actor, *, house=allowed.UNREAD) -> CarryFacts:
    """What ``carry_refusal`` needs to know, read now."""
    house = allowed.rules_of(target) if house is allowed.UNREAD else house
    swords = (
        Warrior.objects.fighting()
        .filter(warband=warband, hired_sword__isnull=False)
        .select_related("hired_sword")
    )
    owner = getattr(actor, "pk", None) == warband.owner_id
    return CarryFacts(
        is_owner=owner,
        status=warband.status,
        source_status=warband.campaign.status,
        same_campaign=target.pk == warband.campaign_id,
        is_member=is_member(actor, target),
        target_open=target.is_open,
        target_allows=target.carrying_allowed,
        already_carried=Warband.objects.filter(carried_from=warband, campaign=target).exists(),
        open_sequences=open_sequences(warband),
        fighters=warband.warriors.fighting().count(),
        list_refusal=allowed.list_refusal(target, warband.warband_type, house),
        sword_refusals=tuple(
            refusal
            for w in swords
            if (refusal := allowed.sword_refusal(target, w.hired_sword, house)) is not None
        ),
        playing=Warband.objects.owned_by(warband.owner_id).in_campaign(target).playing().count()
        if owner
        else 0,
        most=target.max_warbands_per_player,
    )


@transaction.atomic
def carry_warband(warband: Warband, *, actor, target: Campaign, name: str = "") -> Warband:
    """The copy of ``warband`` in ``target``, or a ``RuleViolation`` saying what would work."""
    if getattr(actor, "pk", None) != warband.owner_id:
        raise PermissionDenied("Only the warband's owner may carry it into another campaign.")
    target = Campaign.objects.select_for_update(no_key=True).get(pk=target.pk)
    list(target.memberships.select_for_update(no_key=True).filter(user=actor))
    source = (
        Warband.objects.select_for_update(of=("self",), no_key=True)
        .select_related("campaign", "warband_type")
        .get(pk=warband.pk)
    )
    refusal = rules.carry_refusal(facts(source, target, actor))
    if refusal:
        raise RuleViolation(refusal)
    copy = Warband.objects.create(
        campaign=target,
        owner=source.owner,
        warband_type=source.warband_type,
        name=(name or source.name).strip()[:100],
        status=Warband.Status.ACTIVE,
        starting_gold=source.starting_gold,
        carried_from=source,
        **{field: getattr(source, field) for field in WARBAND_FIELDS},
    )
    warriors = copy_warriors(source, copy)
    hire_swords(copy, source.hired_swords.filter(status=HiredSword.Status.ACTIVE))
    bring_treasury(source, copy, warriors, actor=actor, rule=target.carried_treasury)
    arrived(copy, note="carried in", how=f"came from {source.campaign.name}")
    cache.changed(campaign=source.campaign_id, warband=source)  # its roster says where it went
    return copy


def hire_swords(warband: Warband, swords) -> None:
    """The hired swords a warband brings (each with its name, kind, fee, upkeep and notes):
    those of the original it was carried from, or of the file it was imported from."""
    for sword in swords:
        HiredSword.objects.create(
            warband=warband, name=sword.name, kind=sword.kind, hire_fee=sword.hire_fee,
            upkeep=sword.upkeep, notes=sword.notes,
        )  # fmt: skip


def arrived(warband: Warband, *, note: str, how: str) -> None:
    """A warband come from elsewhere (carried or imported) enters its campaign as a mustered
    one does: its first rating, a line in the feed saying ``how`` it came, its pages redrawn."""
    fighting = list(warband.warriors.fighting().select_related("warrior_type"))
    RatingSnapshot.objects.create(
        warband=warband, rating=rating(fighting), taken_at=timezone.now(), note=note
    )
    record_event(
        warband.campaign, CampaignEvent.Kind.MUSTERED,
        f"{warband.name} ({warband.warband_type.name}) {how}.", warband=warband,
    )  # fmt: skip
    cache.changed(campaign=warband.campaign, warband=warband)


def copy_warriors(source: Warband, copy: Warband) -> dict[int, Warrior]:
    """Every warrior free to fight, with his items, skills, spells, injuries and the skill
    lists he gained: the copies by the original's pk."""
    originals = list(
        source.warriors.fighting()
        .prefetch_related("items", "skills", "spells", "injuries", "extra_skill_lists")
        .order_by("created_at", "pk")
    )
    copies = {}
    for original in originals:
        warrior = Warrior.objects.create(
            warband=copy, **{field: getattr(original, field) for field in WARRIOR_FIELDS}
        )
        warrior.extra_skill_lists.set(original.extra_skill_lists.all())
        copies[original.pk] = warrior
        WarriorItem.objects.bulk_create(
            WarriorItem(warrior=warrior, item_id=owned.item_id, price_paid=owned.price_paid,
                        correction_id=owned.correction_id)
            for owned in original.items.all()
        )  # fmt: skip
        WarriorSkill.objects.bulk_create(
            WarriorSkill(warrior=warrior, skill_id=o.skill_id) for o in original.skills.all()
        )
        WarriorSpell.objects.bulk_create(
            WarriorSpell(warrior=warrior, spell_id=o.spell_id, roll=o.roll)
            for o in original.spells.all()
        )
        Injury.objects.bulk_create(
            Injury(warrior=warrior, name=i.name, effect=i.effect) for i in original.injuries.all()
        )
    return copies


def bring_treasury(source: Warband, copy: Warband, warriors: dict, *, actor, rule: str) -> None:
    """The copy's treasury by the target campaign's ``rule``."""
    note = f"Carried in from {source.campaign.name}"
    if rule == rules.KEPT:
        keep_treasury(source, copy, warriors, context=treasury.Context(actor=actor, note=note))
        return
    new_treasury(copy, actor=actor, rule=rule)


def new_treasury(warband: Warband, *, actor, rule: str) -> None:
    """The free treasure chest, and the campaign's starting gold when its ``rule`` gives it: a
    carried warband's treasury when it does not keep its own, and an imported one's always."""
    chest = treasury.create_starting_chest(warband)
    if rule == rules.STARTING_GOLD:
        gold = allowed.starting_gold(warband.campaign_id, warband.warband_type)
        give_starting_gold(warband, chest, gold, actor=actor)


def give_starting_gold(copy: Warband, chest: StorageContainer, gold: int, *, actor) -> None:
    """The starting gold a new warband would get, as its starting treasury: the free chest
    first, the rest unstored until the player buys containers for it."""
    copy.starting_gold = gold
    copy.save(update_fields=["starting_gold"])
    context = treasury.Context(actor=actor, note="Starting gold of a warband carried in")
    stored, loose = rules.starting_split(gold, chest.spec.capacity.gold)
    if stored:
        treasury.add_treasure(
            chest, gold=stored, reason=treasury.Reason.STARTING_TREASURY, context=context
        )
    if loose:
        treasury.add_treasure(
            treasury.loose_pile(copy), gold=loose, reason=treasury.Reason.STARTING_TREASURY,
            context=context,
        )  # fmt: skip


def keep_treasury(source: Warband, copy: Warband, warriors: dict, *, context) -> None:
    """Each container the original holds, placed and carried as it was (one carried by a
    warrior left behind stays behind with him), then its contents through the treasury's
    services as "carried in"."""
    held = [
        c
        for c in treasury.lock_held(*StorageContainer.objects.filter(warband=source).held())
        if c.holder_id is None or c.holder_id in warriors
    ]
    treasury.with_stored_items(held)
    copies = {}
    for original in held:
        copies[original.pk] = StorageContainer.objects.create(
            warband=copy, kind=original.kind, label=original.label, number=original.number,
            holder=warriors.get(original.holder_id),
        )  # fmt: skip
    for original in held:
        if original.parent_id in copies:
            StorageContainer.objects.filter(pk=copies[original.pk].pk).update(
                parent=copies[original.parent_id]
            )
            copies[original.pk].parent = copies[original.parent_id]
    if not any(c.kind == "treasure_chest" for c in held):
        treasury.create_starting_chest(copy)
    carried = treasury.Reason.CARRIED_IN
    for original in held:
        container = copies[original.pk]
        if original.gold_crowns or original.wyrdstone:
            treasury.add_treasure(
                container, gold=original.gold_crowns, wyrdstone=original.wyrdstone,
                reason=carried, context=context,
            )  # fmt: skip
        for stored in original.stored_list:
            treasury.add_item(
                container, item=stored.item, name=stored.name, reason=carried, context=context,
                correction_id=stored.correction_id,
            )  # fmt: skip
