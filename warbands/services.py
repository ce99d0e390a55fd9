"""Use cases of the roster: muster a warband, hire, equip, dismiss, rename, disband.

Every function takes the acting user, checks the permission through ``warbands.permissions``,
locks the warband row (``select_for_update``) so that two requests cannot spend the same gold,
calls the pure rules in ``warbands.rules`` and writes the result in one transaction. A choice the
rules refuse raises ``RuleViolation`` with the reason and changes nothing.

While a warband is being mustered (status ``draft``) its purse is ``Warband.gold_crowns`` and
every purchase can be undone for a full refund. Once mustering ends the roster changes only
through the post-battle sequence; what is left of the purse becomes the starting treasury.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import F, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.template.defaultfilters import pluralize
from django.utils import timezone

from campaign import cache
from campaign.models import Campaign, CampaignEvent
from campaign.permissions import is_member
from campaign.services import record_event
from core.dice import Dice, d6
from core.errors import RuleViolation
from core.words import a
from warbands import heirlooms, permissions, rules, treasury
from warbands.equipment import buyer_of, list_entries_by_type, list_entries_for
from warbands.house_rules import allowed
from warbands.models import (
    RATING_BASE,
    Item,
    RatingSnapshot,
    Spell,
    StorageContainer,
    Warband,
    WarbandType,
    Warrior,
    WarriorItem,
    WarriorSpell,
    WarriorType,
)
from warbands.rules import trading
from warbands.starting_skills import give_starting_skills
from warbands.wardogs import wardog_entries

__all__ = ["RuleViolation"]


# --- Reads ---------------------------------------------------------------------------------


def roster(warband: Warband):
    """The warriors still on the roster, with everything the roster sheet shows."""
    return warband.warriors.on_roster().for_roster_page()


def rating(warriors) -> int:
    """The rating of a roster: its captives held by enemies do not count."""
    return rules.warband_rating(w.rated for w in warriors if w.status == Warrior.Status.ACTIVE)


def rating_expression():
    """The rulebook's rating as SQL, for annotating many warbands in one query:
    group size × (5, 20 for large creatures or a hired sword's value, + experience) over the
    warriors on the roster who fight for it (a captive leaves it while held). Must agree with
    ``rules.warband_rating`` (a test checks both)."""
    per_warrior = RATING_BASE + F("experience")
    return Coalesce(
        Subquery(
            Warrior.objects.fighting()
            .filter(warband=OuterRef("pk"))
            .values("warband")
            .annotate(total=Sum(F("group_size") * per_warrior))
            .values("total")
        ),
        Value(0),
    )


def ratings_of(warbands) -> dict[int, int]:
    """Current ratings of several warbands, in one query."""
    pks = [w.pk for w in warbands]
    return dict(
        Warband.objects.filter(pk__in=pks)
        .annotate(current_rating=rating_expression())
        .values_list("pk", "current_rating")
    )


def roster_entries(warriors) -> list[rules.RosterEntry]:
    """The roster as the hiring rules see it (a hired sword: an entry of no models), the
    wardogs its heroes own included (``warbands.wardogs``)."""
    return rules.roster_entries(warriors) + wardog_entries(warriors)


def max_size(warband: Warband, warriors) -> int:
    """The most models the warband may field with this roster: the list's maximum, and one
    more while a Halfling Scout (the Cook) is with it (``rules.WarbandLimits.max_size``)."""
    entries = rules.roster_entries(warriors)
    return warband.warband_type.limits.max_size(entry.type_key for entry in entries)


def missing_required_items(warriors) -> list[str]:
    """Warriors that lack an item category they must start with (Mutants: a mutation)."""
    messages = []
    for warrior in warriors:
        owned = {owned.item.category for owned in warrior.carried()}
        for category in warrior.warrior_type.required_at_hire:
            if category not in owned:
                label = Item.Category(category).label.lower()
                messages.append(f"{warrior.name} must start with at least one {label}.")
    return messages


def muster_problems(warband: Warband, warriors) -> list[rules.MusterProblem]:
    kinds = [t.as_rule() for t in warband.warband_type.warrior_types.all()]
    return rules.muster_problems(
        warband.warband_type.limits,
        roster_entries(warriors),
        kinds,
        missing_required=missing_required_items(warriors) + treasury.storage_problems(warband),
    )


# --- Writes --------------------------------------------------------------------------------


def _locked(warband: Warband, actor) -> Warband:
    """Re-read the warband under a row lock and check that ``actor`` may change it. Its
    campaign comes in the same query (the check reads whether it is open); only the warband's
    row is locked."""
    locked = (
        Warband.objects.select_for_update(of=("self",), no_key=True)
        .select_related("warband_type", "campaign")
        .get(pk=warband.pk)
    )
    if not permissions.can_edit_warband(actor, locked):
        raise PermissionDenied("Only the warband's owner may change it.")
    return locked


def _on_roll(warband: Warband, warrior: Warrior, related=("warrior_type",), prefetch=()) -> Warrior:
    """The warrior read again once the warband is locked: one a second tab dismissed
    meanwhile is refused with a message (not a server error)."""
    rows = Warrior.objects.select_related(*related).prefetch_related(*prefetch)
    found = rows.filter(pk=warrior.pk, warband=warband).first()
    if found is None:
        raise RuleViolation(f"{warrior.name} is no longer in the warband: reload the page.")
    return found


def _require_draft(warband: Warband) -> None:
    if not warband.is_draft:
        raise RuleViolation(
            "Mustering is over: the roster now changes in the post-battle sequence."
        )


@transaction.atomic
def create_warband(*, actor, campaign: Campaign, warband_type: WarbandType, name: str) -> Warband:
    """A new warband in ``campaign``, being mustered with the starting gold of its list, or of
    the campaign's house rules. The campaign's row is locked before the house rules are read,
    as ``house_rules.services.set_house_rules`` locks it before it changes them."""
    if not is_member(actor, campaign):
        raise PermissionDenied("Only members of the campaign may muster a warband in it.")
    name = name.strip()
    if not name:
        raise RuleViolation("The warband needs a name.")
    Campaign.objects.select_for_update(no_key=True).get(pk=campaign.pk)
    house = allowed.rules_of(campaign)
    refusal = allowed.list_refusal(campaign, warband_type, house)
    if refusal:
        raise RuleViolation(refusal)
    gold = allowed.starting_gold(campaign, warband_type, house)
    # Lock the user's memberships so two tabs cannot both create the last allowed warband.
    list(campaign.memberships.select_for_update(no_key=True).filter(user=actor))
    playing = Warband.objects.owned_by(actor).in_campaign(campaign).playing().count()
    if playing >= campaign.max_warbands_per_player:
        most = campaign.max_warbands_per_player
        raise RuleViolation(
            f"This campaign allows {most} warband{pluralize(most)} per player "
            "and you already have that many."
        )
    warband = Warband.objects.create(
        campaign=campaign,
        owner=actor,
        warband_type=warband_type,
        name=name,
        status=Warband.Status.DRAFT,
        gold_crowns=gold,
        starting_gold=gold,
    )
    treasury.create_starting_chest(warband)
    cache.changed(campaign=campaign, warband=warband)  # the dashboard lists it
    return warband


@transaction.atomic
def hire_warrior(
    warband: Warband,
    *,
    actor,
    warrior_type: WarriorType,
    name: str,
    group_size: int = 1,
    dice: Dice | None = None,
) -> Warrior:
    """Hire a hero or a henchman group from the warband's list while mustering.

    A new warrior comes with his free dagger when his equipment list has one, and with the item
    a rule of his type gives him at no cost (``effect: starting_item``: the Ostermark captain's
    wardog, "part of his starting equipment"). A spellcaster
    starts with ``starting_spells`` spells rolled on his list (Magic: "Each wizard starts with
    one randomly determined spell"); a spell he already knows is rolled again. A type with a
    ``starting_skill`` starts with it (``warbands.starting_skills``).
    """
    warband = _locked(warband, actor)
    _require_draft(warband)
    if warrior_type.warband_type_id != warband.warband_type_id:
        raise RuleViolation(f"{warrior_type.name} is not on the {warband.warband_type} list.")
    name = name.strip() or warrior_type.name
    current = list(warband.warriors.on_roster().select_related("warrior_type"))
    cost = rules.check_hire(
        warband.warband_type.limits,
        roster_entries(current),
        warrior_type.as_rule(),
        models=group_size,
        gold=warband.gold_crowns,
    )
    warrior = Warrior(
        warband=warband,
        warrior_type=warrior_type,
        name=name,
        is_hero=warrior_type.is_hero,
        is_leader=warrior_type.is_leader,
        group_size=group_size,
        experience=warrior_type.starting_experience,
        hired_at_creation=True,
    )
    warrior.set_profile(warrior_type.profile)
    warrior.save()
    free_dagger = list_entries_for(warrior_type).filter(item__key="dagger", first_free=True)
    if free_dagger.exists():
        WarriorItem.objects.create(warrior=warrior, item=free_dagger.first().item, price_paid=0)
    for rule in warrior_type.special_rules or ():
        if rule.get("effect") == "starting_item":
            item = Item.objects.get(key=rule["item"])
            WarriorItem.objects.create(warrior=warrior, item=item, price_paid=0)
    roll_starting_spells(warrior, warrior_type, dice)
    give_starting_skills(warrior, warrior_type)
    warband.gold_crowns -= cost
    warband.save(update_fields=["gold_crowns"])
    cache.changed(campaign=warband.campaign_id, warband=warband)  # its rating
    return warrior


def roll_starting_spells(warrior: Warrior, warrior_type: WarriorType, dice: Dice | None) -> None:
    if not warrior_type.spell_list_id or not warrior_type.starting_spells:
        return
    if dice is None:
        raise ValueError(f"hiring {a(warrior_type.name)} needs dice for the starting spell")
    spells = {spell.d6: spell for spell in Spell.objects.filter(spell_list=warrior_type.spell_list)}
    known: set[int] = set()
    wanted = min(warrior_type.starting_spells, len(spells))
    while len(known) < wanted:
        roll = d6(dice, f"{warrior.name}: starting spell")
        if roll in known or roll not in spells:
            continue
        known.add(roll)
        WarriorSpell.objects.create(warrior=warrior, spell=spells[roll], roll=roll)


@transaction.atomic
def buy_item(
    warrior: Warrior, *, actor, item_key: str, models: int | None = None, heirloom: bool = False
) -> WarriorItem:
    """Buy an item from the warrior's equipment list at list price (no rarity roll while
    mustering, FACTS.md section 7; ``trading.list_terms``). A henchman group buys it for all
    its models at once. ``heirloom``: bought as his family heirloom at half price
    (``warbands.heirlooms``)."""
    warband = _locked(warrior.warband, actor)
    _require_draft(warband)
    warrior = _on_roll(warband, warrior, prefetch=("items__item",))
    warrior.warband = warband
    item = Item.objects.filter(key=item_key).first()  # refused first with its restriction
    if item is not None and (refusal := item.refusal(warband.warband_type.key)):
        raise RuleViolation(refusal)
    offered = list_entries_by_type([warrior.warrior_type_id]).get(warrior.warrior_type_id, [])
    entries = [entry.as_rule() for entry in offered]
    buyer = buyer_of(warrior)
    listed = next((entry for entry in offered if entry.item.key == item_key), None)
    if listed is not None:  # what is on no list is refused, with the list, just below
        trading.list_terms(listed.as_rule(), listed.item.as_ware(), buyer, warband.warband_type.key)
    entry, cost = rules.check_purchase(
        entries,
        item_key,
        buyer,
        models=warrior.group_size if models is None else models,
        gold=None if heirloom else warband.gold_crowns,
    )
    price = rules.price_per_model(entry, buyer)
    if heirloom:
        price = heirlooms.heirloom_price(warrior, offered, price, gold=warband.gold_crowns)
        cost = price * warrior.group_size
    owned = WarriorItem.objects.create(warrior=warrior, item=item, price_paid=price)
    warband.gold_crowns -= cost
    warband.save(update_fields=["gold_crowns"])
    cache.changed(warband=warband)  # the league shows no equipment
    return owned


@transaction.atomic
def remove_item(owned: WarriorItem, *, actor) -> None:
    """Undo a purchase while mustering: the item goes, its price comes back."""
    warband = _locked(owned.warrior.warband, actor)
    _require_draft(warband)
    found = WarriorItem.objects.select_related("warrior").filter(
        pk=owned.pk, warrior__warband=warband
    )
    owned = found.select_for_update(of=("self",), no_key=True).first()
    if owned is None:  # removed meanwhile, by another tab
        raise RuleViolation("That item has been removed already.")
    warband.gold_crowns += owned.price_paid * owned.warrior.group_size
    owned.delete()
    warband.save(update_fields=["gold_crowns"])
    cache.changed(warband=warband)


@transaction.atomic
def set_group_size(warrior: Warrior, *, actor, group_size: int) -> Warrior:
    """Add models to a henchman group or take some away while mustering. A new model costs the
    type's price plus the group's equipment (henchmen of a group are equipped alike)."""
    warband = _locked(warrior.warband, actor)
    _require_draft(warband)
    warrior = _on_roll(warband, warrior)
    if warrior.is_hero:
        raise RuleViolation("Heroes are not in groups.")
    change = group_size - warrior.group_size
    if change == 0:
        return warrior
    per_model = warrior.cost_per_model()
    if change < 0:
        if group_size < 1:
            raise RuleViolation("A group needs at least one model; dismiss it instead.")
        warband.gold_crowns += per_model * -change
    else:
        others = warband.warriors.on_roster().exclude(pk=warrior.pk).select_related("warrior_type")
        rules.check_hire(
            warband.warband_type.limits,
            roster_entries(others),
            warrior.warrior_type.as_rule(),
            models=group_size,
            gold=None,
        )
        cost = per_model * change
        if cost > warband.gold_crowns:
            raise RuleViolation(
                f"{change} more {warrior.warrior_type.name} with the group's equipment cost "
                f"{cost} gc but only {warband.gold_crowns} gc are left."
            )
        warband.gold_crowns -= cost
    warrior.group_size = group_size
    warrior.save(update_fields=["group_size"])
    warband.save(update_fields=["gold_crowns"])
    cache.changed(campaign=warband.campaign_id, warband=warband)  # its rating
    return warrior


@transaction.atomic
def dismiss_warrior(warrior: Warrior, *, actor) -> None:
    """Core rules: "You can also dismiss any warrior in your warband at any time."

    While mustering this undoes the hire: the warrior, his equipment and his pouch are
    refunded. Afterwards he leaves the roster (kept in the warband's history as dismissed) and
    what he carried stays with the warband, unstored (``treasury.release_warrior``): the owner
    puts it in a container or it is lost at the end of the next post-battle sequence.
    """
    warband = _locked(warrior.warband, actor)
    warrior = _on_roll(warband, warrior)
    if warrior.status not in Warrior.ON_ROSTER:
        raise RuleViolation(f"{warrior.name} is no longer on the roster.")
    cache.changed(campaign=warband.campaign_id, warband=warband)  # its rating
    if warband.is_draft:
        for pouch in StorageContainer.objects.held().filter(holder=warrior):
            treasury.sell_container(pouch, actor=actor, proceeds_to=None)
        StorageContainer.objects.filter(holder=warrior).update(holder=None)
        warband.gold_crowns += warrior.cost_per_model() * warrior.group_size
        warband.save(update_fields=["gold_crowns"])
        warrior.delete()
        return
    if warrior.is_leader:
        raise RuleViolation("The leader cannot be dismissed.")
    treasury.release_warrior(warrior, actor=actor)
    warrior.status = Warrior.Status.DISMISSED
    warrior.save(update_fields=["status"])


@transaction.atomic
def finish_muster(warband: Warband, *, actor) -> Warband:
    """End mustering once the warband is legal; what is left of the purse is its treasury."""
    warband = _locked(warband, actor)
    _require_draft(warband)
    warriors = list(
        warband.warriors.on_roster().select_related("warrior_type").prefetch_related("items__item")
    )
    problems = muster_problems(warband, warriors)
    if problems:
        raise RuleViolation(" ".join(problem.message for problem in problems))
    treasury.store_purse(warband, actor=actor)
    warband.status = Warband.Status.ACTIVE
    warband.save(update_fields=["status"])
    cache.changed(campaign=warband.campaign_id, warband=warband)
    RatingSnapshot.objects.create(
        warband=warband, rating=rating(warriors), taken_at=timezone.now(), note="mustered"
    )
    _announce(warband, f"{warband.name} ({warband.warband_type.name}) joined the fray.")
    return warband


def _announce(warband: Warband, message: str) -> None:

    record_event(warband.campaign, CampaignEvent.Kind.MUSTERED, message, warband=warband)


@transaction.atomic
def rename_warband(warband: Warband, *, actor, name: str) -> Warband:
    warband = _locked(warband, actor)
    name = name.strip()
    if not name:
        raise RuleViolation("The warband needs a name.")
    warband.name = name
    warband.save(update_fields=["name"])
    # The league, the warband's pages and the boards of its battles show its name.
    cache.changed(campaign=warband.campaign_id, warband=warband, battle=_battles_of(warband))
    return warband


@transaction.atomic
def rename_warrior(warrior: Warrior, *, actor, name: str) -> Warrior:
    warband = _locked(warrior.warband, actor)
    warrior = _on_roll(warband, warrior, related=())
    name = name.strip()
    if not name:
        raise RuleViolation("The warrior needs a name.")
    warrior.name = name
    warrior.save(update_fields=["name"])
    # The warband's pages and the boards of its battles (what he did there) show his name.
    cache.changed(warband=warband, battle=_battles_of(warband))
    return warrior


def _battles_of(warband: Warband) -> list[int]:
    return list(warband.participations.values_list("battle_id", flat=True))


@transaction.atomic
def disband_warband(warband: Warband, *, actor) -> Warband:
    """Campaigns text, Disbanding warbands: all warriors, equipment and benefits are lost. The
    warband stays in the campaign's history (its battles keep their opponent) as disbanded."""
    warband = _locked(warband, actor)
    if warband.status == Warband.Status.DISBANDED:
        raise RuleViolation("The warband has already been disbanded.")
    warband.status = Warband.Status.DISBANDED
    warband.gold_crowns = 0  # a purse not yet spent goes with the warband
    warband.save(update_fields=["status", "gold_crowns"])
    warband.warriors.filter(status__in=Warrior.ON_ROSTER).update(
        status=Warrior.Status.DISMISSED, is_leader=False
    )
    cache.changed(campaign=warband.campaign_id, warband=warband)
    return warband


def warrior_types_for(warband: Warband):
    return warband.warband_type.warrior_types.select_related("race", "spell_list").prefetch_related(
        "skill_lists", "equipment_lists"
    )


def hireable_types(warband: Warband, warriors) -> list[tuple[WarriorType, str | None]]:
    """Each type of the list with the reason it cannot be hired now (None: it can)."""
    entries = roster_entries(warriors)
    result = []
    for warrior_type in warrior_types_for(warband):
        try:
            rules.check_hire(
                warband.warband_type.limits,
                entries,
                warrior_type.as_rule(),
                models=1,
                gold=warband.gold_crowns,
            )
            reason = None
        except RuleViolation as refusal:
            reason = str(refusal)
        result.append((warrior_type, reason))
    return result
