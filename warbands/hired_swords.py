"""Hired swords on the roster (core rules, Hired Swords): which ones a warband may hire, hiring
one while mustering, and what each costs after a battle.

A hired sword is a ``Warrior`` linked to his ``HiredSwordType`` (``Warrior.hired_sword``): a
hero of one model, so experience, advances, injuries and the roster work for him as for any
hero; his rating is his own value plus his experience (``WarriorType.rating_value``) and he
is left out of the warband's size and hero count (``services.roster_entries``). His
equipment is written in his entry and is never bought or sold.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction

from campaign import cache
from core.dice import Dice, ServerDice
from core.errors import RuleViolation
from warbands import permissions
from warbands.house_rules import allowed
from warbands.models import HiredSwordType, Warband, Warrior
from warbands.rules import hired_swords as rules
from warbands.services import roll_starting_spells

__all__ = [
    "catalogue",
    "held_sword_keys",
    "hire_at_muster",
    "hireable_swords",
    "list_rule_of",
    "new_hired_sword",
    "sword_refusal",
    "upkeep_of",
]


def catalogue():
    """The hired swords (not the dramatis personae, who are found, not hired off a list:
    ``warbands.dramatis_personae``)."""
    return HiredSwordType.objects.filter(kind=HiredSwordType.Kind.HIRED_SWORD).select_related(
        "warrior_type", "warrior_type__race"
    )


def list_rule_of(warband: Warband):
    """The warband list's own restriction on hired swords (its ``hired_swords`` special rule:
    Carnival of Chaos hires none, Dwarfs no Elves, Ostlanders only an Ogre …), or ``None``."""
    for rule in warband.warband_type.special_rules or []:
        if isinstance(rule, dict) and rule.get("effect") == "hired_swords":
            return rule.get("hired_swords")
    return None


def sword_refusal(
    warband: Warband, sword: HiredSwordType, held_keys=(), house=allowed.UNREAD
) -> str | None:
    """Why ``warband`` may not hire ``sword`` now, or ``None``: the campaign's house rules
    first (``house``: its row when the caller has read it), then his entry and the list's."""
    refused = allowed.sword_refusal(warband.campaign_id, sword, house)
    if refused:
        return refused
    terms = sword.as_terms()
    reason = rules.hire_refusal(
        terms,
        family=warband.warband_type.family,
        list_rule=list_rule_of(warband),
        warband_list=warband.warband_type.key,
    )
    return reason or rules.held_refusal(terms, held_keys)


def held_sword_keys(warband: Warband) -> set[str]:
    return set(
        warband.warriors.on_roster()
        .filter(hired_sword__isnull=False)
        .values_list("hired_sword__key", flat=True)
    )


def hireable_swords(warband: Warband) -> list[tuple[HiredSwordType, str | None]]:
    """The catalogue with, for each hired sword, why this warband may not hire him (or None)."""
    held = held_sword_keys(warband)
    house = allowed.rules_of(warband.campaign_id)
    return [(sword, sword_refusal(warband, sword, held, house)) for sword in catalogue()]


def new_hired_sword(
    warband: Warband,
    sword: HiredSwordType,
    *,
    name: str = "",
    at_creation: bool,
    create=None,
    dice: Dice | None = None,
) -> Warrior:
    """The ``Warrior`` for a newly hired ``sword`` (not yet paid for: the caller pays).
    ``create`` writes the row (the post-battle journal's ``create``, so a reopened sequence
    undoes it); by default a plain insert. A wizard (the Warlock: "two spells generated at
    random from the Lesser Magic list") starts with his type's ``starting_spells`` rolled on
    ``dice`` (by default the server's) as a wizard of a warband list is
    (``services.roll_starting_spells``)."""
    warrior_type = sword.warrior_type
    fields = dict(
        warband=warband,
        warrior_type=warrior_type,
        hired_sword=sword,
        name=name.strip() or sword.name,
        is_hero=True,
        is_leader=False,
        group_size=1,
        experience=warrior_type.starting_experience,
        hired_at_creation=at_creation,
        **warrior_type.profile.as_dict(),
    )
    warrior = Warrior.objects.create(**fields) if create is None else create(Warrior, **fields)
    if warrior_type.spell_list_id and warrior_type.starting_spells:
        roll_starting_spells(warrior, warrior_type, dice or ServerDice())
    return warrior


@transaction.atomic
def hire_at_muster(
    warband: Warband, *, actor, sword_key: str, name: str = "", dice: Dice | None = None
) -> Warrior:
    """Hire a hired sword while mustering, paying his fee from the purse (Hired Swords: he may
    be recruited when the warband is created). Dismissing him while mustering refunds the fee
    (``services.dismiss_warrior``: his warrior type costs the fee)."""
    warband = (
        Warband.objects.select_for_update(of=("self",), no_key=True)
        .select_related("warband_type")
        .get(pk=warband.pk)
    )
    if not permissions.can_edit_warband(actor, warband):
        raise PermissionDenied("Only the warband's owner may change it.")
    if not warband.is_draft:
        raise RuleViolation(
            "Mustering is over: hired swords now join in the post-battle sequence (step 7)."
        )
    sword = catalogue().filter(key=sword_key).first()
    if sword is None:
        persona = HiredSwordType.objects.filter(key=sword_key).first()
        if persona is not None:  # a dramatis persona: found after a battle, never mustered
            raise RuleViolation(
                f"{persona.name} is a dramatis persona: heroes look for him after a battle "
                "(step 6) and he is hired in step 7, never at the muster."
            )
        raise RuleViolation("Choose a hired sword of the catalogue.")
    refused = allowed.sword_refusal(warband.campaign_id, sword)
    if refused:
        raise RuleViolation(refused)
    fee = rules.check_hire_sword(
        sword.as_terms(),
        family=warband.warband_type.family,
        list_rule=list_rule_of(warband),
        held_keys=held_sword_keys(warband),
        gold=warband.gold_crowns,
        warband_list=warband.warband_type.key,
    )
    warrior = new_hired_sword(warband, sword, name=name, at_creation=True, dice=dice)
    warband.gold_crowns -= fee
    warband.save(update_fields=["gold_crowns"])
    cache.changed(campaign=warband.campaign_id, warband=warband)  # its rating
    return warrior


def upkeep_of(warrior: Warrior) -> int:
    """What keeping ``warrior`` (a hired sword) costs after a battle: his upkeep, more when the
    warband includes a race he dislikes."""
    races = set(
        warrior.warband.warriors.on_roster()
        .exclude(pk=warrior.pk)
        .exclude(warrior_type__race=None)
        .values_list("warrior_type__race__key", flat=True)
    )
    return rules.upkeep_for(warrior.hired_sword.as_terms(), races=races)
