"""What a captor does with a captive besides ransom and exchange (campaigns text, serious
injury 61, Captured): sell him to the slavers for D6×5 gc, or, in an Undead warband, kill him
and gain a new Zombie, or, in a Cult of the Possessed, sacrifice him for 1 experience for the
leader. The captor keeps his equipment, and he is dead to his own warband.

Locks and checks as every captive's change takes them (``battles.captives.holding``);
readings where the rules are silent are listed there.
"""

from __future__ import annotations

from django.db import transaction

from battles.captives.holding import (
    SLAVER_PRICE,
    announce,
    fates_for,
    ledger_context,
    lock_captives,
    lock_containers,
    own_container,
    resolve,
)
from battles.captives.permissions import check_captor
from battles.dice import dice_for, exactly, last_roll_id, note_secret
from battles.models import Captive
from battles.rules import injuries as injury_rules
from campaign.models import CampaignEvent
from core.dice import Need, d6
from core.errors import RuleViolation
from core.words import possessive
from warbands import rules as roster_rules
from warbands import services as warband_services
from warbands import treasury
from warbands.models import StorageContainer, Warrior, WarriorItem, WarriorType
from warbands.rules.families import counted_family

Reason = treasury.Reason
# Campaigns text, Captured: D6×5 gc from the slavers; the other fates roll nothing.
SLAVERS_ROLL = Need(1, f"D6 × {SLAVER_PRICE} gc")
NO_ROLL = Need(0, note="only a sale to the slavers rolls a die")


@transaction.atomic
def decide_fate(
    captive: Captive, *, actor, fate: str, into: StorageContainer | None, dice=None
) -> str:
    """Sell the captive to the slavers (``dice``: the D6), raise him as a Zombie (Undead) or
    sacrifice him (the Possessed). His equipment goes into the captor's container ``into``;
    he is dead to his warband, which, if he led it, takes a new leader. Returns what
    happened, for the captor."""
    captive = lock_captives(captive.pk)[captive.pk]
    check_captor(actor, captive)
    captor, warrior = captive.captor, captive.warrior
    if fate not in dict(fates_for(captor)):
        raise RuleViolation(f"{captor.name} cannot do that with a captive.")
    if fate == Captive.Status.SOLD:
        dice = exactly(dice, SLAVERS_ROLL, f"Selling {warrior.name} to the slavers")
    else:
        exactly(dice, NO_ROLL, f"{possessive(warrior.name)} fate")
    treasury.lock_warbands(captor.pk, warrior.warband_id)
    pouches = list(StorageContainer.objects.held().filter(holder=warrior))
    locked = lock_containers(*([into] if into else []), *pouches)
    if into is not None:
        into = own_container(locked.pop(0), captor, "his equipment")
    pouches = [
        p
        for p in locked
        if p.status == StorageContainer.Status.HELD
        and p.holder_id == warrior.pk
        and p.warband_id == warrior.warband_id
    ]
    if fate == Captive.Status.SOLD:
        line = _sell(captive, actor, into, dice)
    elif fate == Captive.Status.ZOMBIE:
        line = _raise_zombie(captive)
    else:
        line = _sacrifice(captive)
    lines = [line, *_take_equipment(captive, actor, into, pouches)]
    was_leader = warrior.is_leader
    resolve(captive, fate, Warrior.Status.DEAD)
    owner = warrior.warband
    done = {
        Captive.Status.SOLD: f"{captor.name} sold {warrior.name} of {owner.name} to the slavers.",
        Captive.Status.ZOMBIE: f"{captor.name} killed {warrior.name} of {owner.name}, who rose "
        "again as a Zombie.",
        Captive.Status.SACRIFICED: f"{captor.name} sacrificed {warrior.name} of {owner.name}.",
    }
    kind = CampaignEvent.Kind.CAPTURED if fate == Captive.Status.SOLD else CampaignEvent.Kind.DEATH
    announce(captive, kind, done[fate])
    if was_leader:
        _succession(captive, actor)
    return " ".join(lines)


def _sell(captive: Captive, actor, into: StorageContainer | None, dice) -> str:
    """Campaigns text, Captured: sold to the slavers for D6×5 gc. The gold goes into the
    captor's secret treasury (Mayhem in Mordheim), so the roll and the price are his: the
    dice log shows them to whoever may see his treasury, and everybody else, the captive's
    own player too, reads only that the hero was sold to the slavers."""
    if into is None:
        raise RuleViolation("Choose one of your containers for the slavers' gold.")
    name, battle = captive.warrior.name, captive.battle
    since = last_roll_id(battle)
    price = d6(dice, f"{name} sold to the slavers (D6×{SLAVER_PRICE} gc)") * SLAVER_PRICE
    public = f"{name} of {captive.warrior.warband.name} sold to the slavers"
    note_secret(battle, since, f"{name} sold for {price} gc", warband=captive.captor, public=public)
    context = ledger_context(actor, captive, f"{name} sold to the slavers")
    treasury.add_treasure(into, gold=price, reason=Reason.SALE, context=context)
    return f"{name} was sold to the slavers for {price} gc, into the {into}."


def _raise_zombie(captive: Captive) -> str:
    """Campaigns text, Captured: Undead may kill their captive and gain a new Zombie (free,
    within the warband's size)."""
    captor = captive.captor
    zombie = WarriorType.objects.filter(warband_type=captor.warband_type_id, key="zombie").first()
    if zombie is None:
        raise RuleViolation(f"The {captor.warband_type.name} list has no Zombies.")
    on_roster = list(
        Warrior.objects.on_roster()
        .filter(warband=captor)
        .select_related("warrior_type")
        .only(
            "name", "group_size", "status", "is_hero", "is_leader", "hired_sword",
            "warrior_type__key",
        )
        .order_by("pk")
    )  # fmt: skip
    # Hired swords count in neither the size nor its limit, but the Cook raises it by one.
    limit = warband_services.max_size(captor, on_roster)
    if sum(w.group_size for w in on_roster if not w.hired_sword_id) >= limit:
        raise RuleViolation(f"{captor.name} has {limit} warriors already: no room for a Zombie.")
    name = captive.warrior.name
    for group in on_roster:
        if (
            group.warrior_type_id == zombie.pk
            and group.status == Warrior.Status.ACTIVE
            and group.group_size < zombie.group_max
        ):
            group.group_size += 1
            group.save(update_fields=["group_size"])
            return f"{name} rose again and joins {group.name} ({group.group_size} Zombies)."
    Warrior.objects.create(
        warband=captor, warrior_type=zombie, name="Zombies", is_hero=False, group_size=1,
        hired_at_creation=False, **zombie.profile.as_dict(),
    )  # fmt: skip
    return f"{name} rose again as a Zombie: a new group of Zombies joins {captor.name}."


def _sacrifice(captive: Captive) -> str:
    """Campaigns text, Captured: the Possessed may sacrifice the prisoner, and their leader
    gains 1 experience (FACTS.md section 2). An advance reached is announced here; the player
    rolls it."""
    captor = captive.captor
    leader = (
        Warrior.objects.select_for_update(of=("self",), no_key=True)
        .select_related("warrior_type")
        .filter(warband=captor, is_leader=True, status=Warrior.Status.ACTIVE)
        .first()
    )
    if leader is None:
        raise RuleViolation(f"{captor.name} has no leader free to make the sacrifice.")
    old = leader.experience
    leader.experience = old + 1
    leader.save(update_fields=["experience"])
    line = f"{captive.warrior.name} was sacrificed: {leader.name} gains 1 experience."
    if not leader.warrior_type.gains_experience:
        return line
    for threshold in roster_rules.advances_earned(old, old + 1, is_hero=leader.is_hero):
        line += (
            f" {leader.name} reached {threshold} experience: an advance is due. Roll it on the "
            "advance table in front of your opponent and note it on the roster."
        )
        announce(
            captive, CampaignEvent.Kind.ADVANCE,
            f"{leader.name} of {captor.name} reached {threshold} experience: an advance is due.",
        )  # fmt: skip
    return line


def _take_equipment(
    captive: Captive, actor, into: StorageContainer | None, pouches: list[StorageContainer]
) -> list[str]:
    """Campaigns text, Captured: the captors keep the weaponry of a captive sold, killed or
    turned to a Zombie. His items and what his pouches held go into ``into``, with ledger
    entries in both warbands' ledgers; what cannot be stored is lost, and so are the pouches
    (the captor's ledger shows what they held)."""
    warrior = captive.warrior
    owned = list(
        WarriorItem.objects.select_for_update(of=("self",), no_key=True)
        .select_related("item")
        .filter(warrior=warrior)
        .order_by("pk")
    )
    storable = [o for o in owned if o.item.category not in treasury.NOT_STORABLE]
    if into is None and (storable or any(not p.is_empty for p in pouches)):
        raise RuleViolation("Choose one of your containers for his equipment.")
    mine = ledger_context(actor, captive, f"{possessive(warrior.name)} equipment")
    theirs = ledger_context(actor, captive, f"taken with {warrior.name}")
    for item in storable:  # an item a correction added stays its (worth nothing to a trader)
        for _ in range(warrior.group_size):
            treasury.add_item(into, item=item.item, reason=Reason.CAPTURE, context=mine,
                              correction_id=item.correction_id)  # fmt: skip
    WarriorItem.objects.filter(pk__in=[o.pk for o in owned]).delete()
    emptied = False
    for pouch in pouches:
        if pouch.gold_crowns or pouch.wyrdstone:
            gold, shards = pouch.gold_crowns, pouch.wyrdstone
            treasury.add_treasure(pouch, gold=-gold, wyrdstone=-shards, reason=Reason.CAPTURE,
                                  context=theirs)  # fmt: skip
            treasury.add_treasure(into, gold=gold, wyrdstone=shards, reason=Reason.CAPTURE,
                                  context=mine)  # fmt: skip
            emptied = True
        for stored in list(pouch.stored_items.select_related("item")):
            treasury.remove_item(stored, reason=Reason.CAPTURE, context=theirs)
            treasury.add_item(into, item=stored.item, name=stored.name, reason=Reason.CAPTURE,
                              context=mine, correction_id=stored.correction_id)  # fmt: skip
            emptied = True
        StorageContainer.objects.filter(pk=pouch.pk).update(
            status=StorageContainer.Status.LOST, holder=None
        )
    lines = []
    if storable:
        names = ", ".join(o.item.name for o in storable)
        lines.append(f"His equipment ({names}) went into the {into}.")
    if emptied:
        lines.append(f"What his pouch held went into the {into}.")
    lost = [o.item.name for o in owned if o not in storable]
    if lost:
        lines.append(f"{', '.join(lost)} cannot be stored and is lost.")
    return lines


def _succession(captive: Captive, actor) -> None:
    """Campaigns text, Death of the leader (``injury_rules.new_leader``): the captive led his
    warband; a hero takes over, and in the warbands of ``MAGIC_SUCCESSION`` one who casts no
    spells learns them at his next advance. A tie is rolled off by the server, in the log."""
    owner = captive.warrior.warband
    heroes = [
        injury_rules.LeaderCandidate(w.pk, w.name, w.Ld, w.experience, w.warrior_type.key)
        for w in Warrior.objects.filter(
            warband=owner, is_hero=True, status=Warrior.Status.ACTIVE, hired_sword__isnull=True
        ).select_related("warrior_type")
    ]
    family = counted_family(owner.warband_type.family, owner.warband_type.special_rules)
    dice = dice_for(captive.battle, warband=owner, user=actor)
    chosen, note = injury_rules.new_leader(heroes, dice, warband_family=family)
    if chosen is not None:
        successor = Warrior.objects.select_related("warrior_type").get(pk=chosen)
        successor.is_leader = True
        successor.learns_magic_next = (
            family in injury_rules.MAGIC_SUCCESSION and successor.warrior_type.spell_list_id is None
        )
        successor.save(update_fields=["is_leader", "learns_magic_next"])
    announce(captive, CampaignEvent.Kind.DEATH, f"{owner.name} lost its leader. {note}", owner)
