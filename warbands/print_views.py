"""The printout for the table: a warband on at most two A4 pages, all a game needs at hand.

Each warrior names his equipment, skills, spells, injuries and special rules; what each of
them does is printed once, in short form (the data's ``summary``), under "Rules at hand", so
that a warband of fifteen fits two sheets however many warriors share a sword. By default the
sheet shows nothing of the treasury (no gold, wyrdstone, stored items or containers): it is
the copy a player may hand to his opponent. Whoever may see the treasury
(``permissions.can_see_treasury``) may ask for a private copy with it (``?treasury=1``);
anybody else asking for one gets the copy for the table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from core.offline import keep_offline
from warbands import permissions, services, treasury
from warbands.models import StorageContainer, Warband, Warrior
from warbands.rules.special_rules import handling, handling_for

# What the apps above this one add to the rules at hand (``battles.aftermath.printout``: the
# post-battle charts, and a waiting battle's scenario): each, given the warband and whether the
# player asked for the charts, gives the parts to print, drawn. Filled in when those apps
# start, so that this app imports none of them.
AT_HAND: list[Callable[..., list[str]]] = []


@dataclass(frozen=True)
class PrintedWarrior:
    """One warrior's lines on the sheet: names only, their summaries are in the glossary."""

    warrior: Warrior
    equipment: list[str]
    skills: list[str]
    spells: list[str]
    injuries: list[tuple[str, str]]  # name, what it does (specific to this warrior)
    rules: list[str]


@dataclass
class Glossary:
    """Each rule named on the sheet once, with its summary, by section, in name order."""

    sections: dict[str, dict[str, str]] = field(
        default_factory=lambda: {"Equipment": {}, "Skills and spells": {}, "Special rules": {}}
    )

    def add(self, section: str, name: str, summary: str) -> str:
        if summary and name not in self.sections[section]:
            self.sections[section][name] = summary
        return name

    def as_list(self) -> list[tuple[str, list[tuple[str, str]]]]:
        return [
            (title, sorted(entries.items())) for title, entries in self.sections.items() if entries
        ]


def _rule_summary(rule: dict, warrior_type=None) -> str:
    """A special rule of the data: its ``summary`` when it has one, else its text (the lists'
    special rules are already written short, in our own words), and whether the app applies
    it (``warbands.rules.special_rules``)."""
    summary = rule.get("summary") or rule.get("text", "")
    found = handling_for(rule, warrior_type) if warrior_type is not None else handling(rule)
    return f"{summary} ({found.short})" if summary else ""


def _marked(name: str, owned) -> str:
    """An item's name on the sheet, saying when a correction added it (on the roster too)."""
    return f"{name} {permissions.BY_CORRECTION}" if owned.correction_id else name


def printed_warriors(warriors: list[Warrior], glossary: Glossary) -> list[PrintedWarrior]:
    """The warriors of ``services.roster`` (everything already loaded: no query here)."""
    printed = []
    for w in warriors:
        if w.item_list:
            equipment = [
                _marked(glossary.add("Equipment", i.item.name, i.item.summary), i)
                for i in w.item_list
            ]
        elif w.hired_sword_id:
            equipment = list(w.hired_sword.equipment)
        else:
            equipment = []
        printed.append(
            PrintedWarrior(
                warrior=w,
                equipment=equipment,
                skills=[
                    glossary.add("Skills and spells", k.skill.name, k.skill.summary or k.skill.text)
                    for k in w.skill_list
                ],
                spells=[
                    glossary.add("Skills and spells", k.spell.name, k.spell.summary or k.spell.text)
                    for k in w.spell_list
                ],
                injuries=[(injury.name, injury.summary) for injury in w.injury_list],
                rules=[
                    glossary.add("Special rules", rule["name"], _rule_summary(rule, w.warrior_type))
                    for rule in w.warrior_type.special_rules or ()
                ],
            )
        )
    return printed


def private_treasury(user, warband: Warband) -> dict:
    """The treasury for the owner's private copy, through ``permissions.visible_containers``
    (called only once ``can_see_treasury`` said yes)."""
    held = treasury.held_containers(warband)
    views = permissions.visible_containers(user, held)
    return {
        "totals": treasury.totals_of(held),
        "containers": [v for v in views if v.kind != StorageContainer.LOOSE],
        "pile": permissions.shown_pile(views),
    }


@require_GET
def warband_print(request: HttpRequest, pk: int) -> HttpResponse:
    """The sheet for the table; ``?treasury=1``: the private copy, for who may see it;
    ``?charts=1``: with the post-battle charts on a sheet of their own."""
    warband = permissions.get_warband_for_user(request, pk)
    may_see = permissions.can_see_treasury(request.user, warband)
    private = may_see and request.GET.get("treasury") == "1"
    charts = request.GET.get("charts") == "1"
    warriors = list(services.roster(warband))
    glossary = Glossary()
    context = {
        "warband": warband,
        "warband_rules": [
            (rule["name"], _rule_summary(rule)) for rule in warband.warband_type.special_rules
        ],
        "warriors": printed_warriors(warriors, glossary),
        "glossary": glossary.as_list(),
        "at_hand": [part for add in AT_HAND for part in add(warband, charts=charts)],
        "charts": charts,
        "rating": services.rating(warriors),
        "models": sum(w.group_size for w in warriors if not w.hired_sword_id),
        "max_size": services.max_size(warband, warriors),
        "may_see_treasury": may_see,
        "treasury": private_treasury(request.user, warband) if private else None,
        "printed_on": timezone.localdate(),
    }
    page = render(request, "warbands/warband_print.html", context)
    # The copy for the table may be kept on the owner's phone; the private one never is.
    return keep_offline(request, page, permissions.may_keep_offline(request.user, warband))
