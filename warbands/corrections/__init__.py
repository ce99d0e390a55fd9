"""Corrections by hand: the warband's owner or an organiser changes a roster outside the rules.

When the table and the app disagree (a roll typed wrong long ago, an organiser's ruling, a
skill forgotten), the roster is put right here. No dice are rolled and the treasury never
moves: an item added costs nothing, one taken away refunds nothing (gold, wyrdstone and stored
items are corrected through their own ledger). Each correction leaves a ``Correction``: who,
when, what from what to what, why, and what became of it.

Corrections cannot create value. Each kind is one of two:

- It could give the warband something: a request until an organiser approves it. An item, a
  skill, a spell, a characteristic raised, any change of experience, an injury written down
  or taken away. Experience either way, since lowering it hands the warrior again the advances
  of the boxes he had passed (the roster keeps no count of advances: experience stands for
  them, and the characteristics and skills they gave stay). Injuries either way, since taking
  one away heals the warrior and the chart's injuries include some that help (Horrible Scars,
  Hardened, Bitter Enmity), while their names are free text.
- It only takes away: it applies at once. An item, a skill or a spell taken off a warrior, a
  characteristic lowered. The warband loses it and gets nothing back (nothing is refunded,
  stored or sold, no advance is handed back), so an approval would protect nobody.

Who approves: an organiser of the open campaign (``permissions.approves_corrections``). An
organiser with no warband in play corrects another player's warband at once (he is who would
approve it); an organiser who plays, like one correcting his own warband, waits for another
organiser, and when there is none his correction applies and is announced. Every correction
that applies tells the campaign feed what it changed (roster facts, public to the campaign's
members), never its reason (for the owner and the organisers) and never anything of a
treasury.

A correction that gives something says plainly when it breaks the warband's list
(``breaches``); the organiser sees that before approving, and the feed says it once applied.
An item a correction added names it (``WarriorItem.correction``): the roster marks it, and a
trader gives nothing for it.

Modules: ``asking`` (one function per kind), ``applying`` (the locks, the change, the feed),
``deciding`` (approve, refuse, withdraw), ``breaches`` (the list), ``reads`` (the pages).
"""

from warbands.corrections.applying import MAX_CHARACTERISTIC, MAX_EXPERIENCE, Lapsed
from warbands.corrections.asking import (
    MAX_PENDING,
    add_injury,
    add_item,
    add_skill,
    add_spell,
    remove_injury,
    remove_item,
    remove_skill,
    remove_spell,
    set_characteristic,
    set_experience,
)
from warbands.corrections.deciding import approve, refuse, withdraw
from warbands.corrections.reads import (
    history,
    items_for,
    pending,
    skills_for,
    spells_for,
    waiting_for,
    warriors_of,
)
from warbands.permissions import can_correct, can_read_corrections

__all__ = [
    "MAX_CHARACTERISTIC",
    "MAX_EXPERIENCE",
    "MAX_PENDING",
    "Lapsed",
    "add_injury",
    "add_item",
    "add_skill",
    "add_spell",
    "approve",
    "can_correct",
    "can_read_corrections",
    "history",
    "items_for",
    "pending",
    "refuse",
    "remove_injury",
    "remove_item",
    "remove_skill",
    "remove_spell",
    "set_characteristic",
    "set_experience",
    "skills_for",
    "spells_for",
    "waiting_for",
    "warriors_of",
    "withdraw",
]
