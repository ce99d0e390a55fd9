"""Import a warband file into a campaign that allows it: check it against the reference data
and the campaign's house rules (``check``: a report), then create the warband the player
confirmed (``create``, which checks the file again: the page's copy is never trusted).

Our choice for what is refused: the refused parts are left out and listed (a warrior of a
type the list lacks, an item his equipment list does not give him, a skill from a list he may
not use, a profile above his race's maximum, warriors beyond the list's maximums), and only
what the warband cannot exist without stops everything (a list the campaign does not allow,
no leader, no place left for the player's warband). A file never brings gold: it can be
forged. The campaign's choice gives an imported warband the starting gold a new warband gets,
or nothing but its free treasure chest.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied
from django.db import transaction

from campaign.models import Campaign
from campaign.permissions import is_member
from core.errors import RuleViolation
from core.words import plural, possessive
from warbands import rules as roster_rules
from warbands.equipment import list_entries_by_type
from warbands.house_rules import allowed
from warbands.models import (
    HiredSwordType,
    Injury,
    Item,
    Skill,
    Spell,
    Warband,
    WarbandType,
    Warrior,
    WarriorItem,
    WarriorSkill,
    WarriorSpell,
    WarriorType,
)
from warbands.transfer.reading import WarbandFile, WarriorEntry, over_maximum
from warbands.transfer.services import arrived, hire_swords, new_treasury


@dataclass
class Planned:
    """A warrior the import will create, with what it keeps of him."""

    entry: WarriorEntry
    warrior_type: WarriorType
    hired_sword: HiredSwordType | None = None
    items: list[Item] = field(default_factory=list)
    skills: list[Skill] = field(default_factory=list)
    spells: list[Spell] = field(default_factory=list)


@dataclass
class Report:
    """What the import would create, what it leaves out and why, and what stops it."""

    name: str
    warband_type: WarbandType | None
    warriors: list[Planned] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    stops: list[str] = field(default_factory=list)
    swords: list = field(default_factory=list)

    @property
    def may_create(self) -> bool:
        return not self.stops and bool(self.warriors)


def check(file: WarbandFile, campaign: Campaign, actor) -> Report:
    """The report of importing ``file`` into ``campaign`` for ``actor`` (reads only)."""
    warband_type = WarbandType.objects.filter(key=file.list_key).first()
    report = Report(name=file.name, warband_type=warband_type, swords=file.hired_swords)
    if warband_type is None:
        report.stops.append(f"The list “{file.list_key}” is not one this app knows.")
        return report
    house = allowed.rules_of(campaign)
    if refusal := allowed.list_refusal(campaign, warband_type, house):
        report.stops.append(refusal)
    playing = Warband.objects.owned_by(actor).in_campaign(campaign).playing().count()
    if playing >= campaign.max_warbands_per_player:
        most = campaign.max_warbands_per_player
        report.stops.append(
            f"This campaign allows {plural(most, 'warband')} per player and you already have "
            "that many: disband one first, or ask the organiser to allow more."
        )
    _plan_warriors(file, warband_type, campaign, house, report)
    leaders = [p for p in report.warriors if p.entry.leader]
    if not any(w.leader for w in file.warriors):
        report.stops.append("The file names no leader: a warband cannot play without one.")
    elif not leaders:
        report.stops.append("Its leader is left out (see why below): a warband needs one.")
    elif len(leaders) > 1:
        report.stops.append("The file names more than one leader: a warband has one.")
    return report


def _types(file: WarbandFile, warband_type: WarbandType) -> tuple[dict, dict]:
    """The list's warrior types by key, and the hired swords the file names by key."""
    types = {
        t.key: t
        for t in warband_type.warrior_types.select_related("race").prefetch_related("skill_lists")
    }
    sword_keys = {w.hired_sword for w in file.warriors if w.hired_sword}
    swords = {
        s.key: s
        for s in HiredSwordType.objects.filter(key__in=sword_keys)
        .select_related("warrior_type__race")
        .prefetch_related("warrior_type__skill_lists")
    }
    return types, swords


def _plan_warriors(file, warband_type, campaign, house, report: Report) -> None:
    types, swords = _types(file, warband_type)
    type_ids = [t.pk for t in types.values()] + [s.warrior_type_id for s in swords.values()]
    entries = list_entries_by_type(type_ids)
    items = Item.objects.in_bulk([k for w in file.warriors for k in w.items], field_name="key")
    skills = _by_ref(Skill, "skill_list", [s for w in file.warriors for s in w.skills])
    spells = _by_ref(Spell, "spell_list", [s for w in file.warriors for s in w.spells])
    limits = warband_type.limits
    counts: Counter = Counter()
    heroes = models = 0
    for entry in file.warriors:
        planned, why = _warrior(entry, types, swords, campaign, house, warband_type)
        if planned is None:
            report.left_out.append(f"{entry.name}: {why}")
            continue
        kind = planned.warrior_type
        if planned.hired_sword is None:
            if kind.max_count is not None and counts[kind.key] >= kind.max_count:
                report.left_out.append(
                    f"{entry.name}: the list allows at most {kind.max_count} {kind.name}."
                )
                continue
            if kind.is_hero and heroes >= limits.max_heroes:
                report.left_out.append(
                    f"{entry.name}: the list allows at most {limits.max_heroes} heroes."
                )
                continue
            most = limits.max_size([*counts, kind.key])
            if models + entry.models > most:
                report.left_out.append(f"{entry.name}: the warband may field {most} models.")
                continue
            counts[kind.key] += 1
            heroes += kind.is_hero
            models += entry.models
        _keep(planned, entry, items, skills, spells, entries, warband_type, report)
        report.warriors.append(planned)


def _by_ref(model, list_field: str, refs) -> dict:
    """Skills or spells by (list key, key), in one query."""
    keys = {r.key for r in refs}
    rows = model.objects.filter(key__in=keys).select_related(list_field)
    return {(getattr(row, list_field).key, row.key): row for row in rows}


def _warrior(entry, types, swords, campaign, house, warband_type):
    """The warrior's type (and hired sword), or why he is left out."""
    if entry.status != Warrior.Status.ACTIVE:
        return None, "only warriors free to fight come (a captive stays with his captors)."
    sword = None
    if entry.hired_sword:
        sword = swords.get(entry.hired_sword)
        if sword is None:
            return None, f"no hired sword “{entry.hired_sword}” is known."
        if refusal := allowed.sword_refusal(campaign, sword, house):
            return None, refusal
        kind = sword.warrior_type
    else:
        kind = types.get(entry.type.key) if entry.type.list == warband_type.key else None
        if kind is None:
            return None, f"“{entry.type.key}” is not a warrior of the {warband_type.name} list."
    if kind.is_hero and entry.models != 1:
        return None, "a hero is one model."
    if entry.models > kind.group_max:
        return None, f"a group of {kind.name} has at most {kind.group_max} models."
    if entry.leader and not kind.is_hero:
        return None, "only a hero leads a warband."
    if any(bonus > 1 for bonus in entry.maximum_bonuses.values()):
        return None, "a racial maximum is raised by one at most."
    if kind.race is not None:
        maximum = {
            name: getattr(kind.race, name) + entry.maximum_bonuses.get(name, 0)
            for name in roster_rules.CHARACTERISTICS
        }
        if over := over_maximum(entry.profile, maximum):
            return None, f"his profile is above his race's maximum: {', '.join(over)}."
    return Planned(entry=entry, warrior_type=kind, hired_sword=sword), None


def _may_carry(kind: WarriorType, item: Item, listed) -> bool:
    """On his type's equipment list (not kept for heroes, unless he is one), or miscellaneous
    equipment off the list, which heroes may carry (``treasury.list_refusal``)."""
    if listed is not None and (kind.is_hero or not listed.heroes_only):
        return True
    return item.category == Item.Category.MISC and kind.is_hero


def _keep(planned, entry, items, skills, spells, entries, warband_type, report) -> None:
    """The items, skills and spells he may have; the rest is listed as left out."""
    kind = planned.warrior_type
    offered = {e.item.key: e for e in entries.get(kind.pk, [])}
    for key in entry.items:
        item = items.get(key)
        listed = offered.get(key)
        if item is None:
            why = f"no item “{key}” is known"
        elif refusal := item.refusal(warband_type.key):
            why = refusal.rstrip(".")
        elif _may_carry(kind, item, listed):
            why = None
        else:
            why = f"{item.name} is not on his equipment list"
        if why:
            report.left_out.append(f"{possessive(entry.name)} item: {why}.")
        else:
            planned.items.append(item)
    lists = {s.pk for s in kind.skill_lists.all()}
    for ref in entry.skills:
        skill = skills.get((ref.list, ref.key))
        if skill is None or skill.skill_list_id not in lists:
            report.left_out.append(
                f"{possessive(entry.name)} skill “{ref.key}”: not on a skill list his type may use."
            )
        elif skill not in planned.skills:
            planned.skills.append(skill)
    for ref in entry.spells:
        spell = spells.get((ref.list, ref.key))
        if spell is None or spell.spell_list_id != kind.spell_list_id:
            report.left_out.append(
                f"{possessive(entry.name)} spell “{ref.key}”: not of his spell list."
            )
        elif spell not in planned.spells:
            planned.spells.append(spell)


@transaction.atomic
def create(file: WarbandFile, campaign: Campaign, *, actor, name: str = "") -> Warband:
    """The warband of the confirmed report, checked again under the campaign's lock and the
    player's membership (two tabs cannot both take his last place)."""
    campaign = Campaign.objects.select_for_update(no_key=True).get(pk=campaign.pk)
    if not is_member(actor, campaign):
        raise PermissionDenied("Only members of the campaign may import a warband into it.")
    if not (campaign.is_open and campaign.imports_allowed):
        raise RuleViolation("This campaign does not take warband files: ask its organiser.")
    list(campaign.memberships.select_for_update(no_key=True).filter(user=actor))
    report = check(file, campaign, actor)
    if not report.may_create:
        raise RuleViolation(" ".join(report.stops) or "Nothing in the file can be imported.")
    warband = Warband.objects.create(
        campaign=campaign, owner=actor, warband_type=report.warband_type,
        name=(name or file.name).strip()[:100], status=Warband.Status.ACTIVE,
        starting_gold=allowed.starting_gold(campaign, report.warband_type),
    )  # fmt: skip
    for planned in report.warriors:
        _create_warrior(warband, planned)
    hire_swords(warband, report.swords)
    new_treasury(warband, actor=actor, rule=campaign.carried_treasury)
    arrived(warband, note="imported", how="was imported from a warband file")
    return warband


def _create_warrior(warband: Warband, planned: Planned) -> None:
    entry, kind = planned.entry, planned.warrior_type
    warrior = Warrior.objects.create(
        warband=warband, warrior_type=kind, name=entry.name, is_hero=kind.is_hero,
        is_leader=entry.leader, group_size=entry.models, experience=entry.experience,
        games_to_miss=entry.games_to_miss, maximum_bonuses=entry.maximum_bonuses,
        hired_sword=planned.hired_sword, **entry.profile,
    )  # fmt: skip
    WarriorItem.objects.bulk_create(WarriorItem(warrior=warrior, item=i) for i in planned.items)
    WarriorSkill.objects.bulk_create(WarriorSkill(warrior=warrior, skill=s) for s in planned.skills)
    WarriorSpell.objects.bulk_create(WarriorSpell(warrior=warrior, spell=s) for s in planned.spells)
    Injury.objects.bulk_create(
        Injury(warrior=warrior, name=name[:100], effect=effect[:200])
        for name, effect in entry.injuries
    )
