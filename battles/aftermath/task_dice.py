"""The dice each task of the post-battle sequence takes: its first roll, by
kind, as a table (``FIRST_ROLLS``, ``LOCATION_FIRST_ROLLS``); the label its form shows; and the
dice a post of the task rolls with (``live_dice``), refused when the count typed is not the
count the roll takes.

Typed dice mean what they say. A task's form takes exactly the dice of its first roll: the
dice rolled before anything depends on what they showed (the D66 of the injury chart, one D6
per henchman out of action, every exploration die). A roll that depends on them (a sub-roll of
the injury chart, the new leader's roll-off, a re-roll) is asked for when the rule comes to it
(``core.dice.MoreDice``), with a labelled field of its own, and the task goes on from the dice
kept so far (``core.dice.ReplayDice``). A first roll left empty is rolled by the server, and so
is everything after it, as before; a further roll left empty likewise.

The task's ``question`` keeps, between posts, whether it is played with typed dice
(``typed``) and the typed dice a question came before (``left``: the Augur's choice comes
after her two dice and before the other exploration dice).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from battles.aftermath.registry import handler
from battles.rules import exploration as exploration_rules
from battles.rules.exploration_finds import Find, Hero, LocationContext, Visit
from battles.rules.tasks import NeedsAnswer
from core.dice import DiceError, EnteredDice, MoreDice, Need, ServerDice, TypedDice, count_dice
from warbands.models import Warrior
from warbands.rules.families import counted_family

ASKS_FIRST = "a question comes first; each roll after it is asked for"
NO_DICE = "nothing to roll first; any roll is asked for as it comes"


def d6s(count: int, what: str = "") -> Need:
    """``count`` D6 for ``what`` ("3D6 offerings")."""
    return Need(count, f"{count if count > 1 else ''}D6" + (f" {what}" if what else ""))


@dataclass(frozen=True)
class TaskFacts:
    """What decides a task's first roll besides its kind and data: whether the hero learns magic
    before he advances (he is asked first), the exploration's dice, and what the warband brings
    to a special location (its family, heroes and leader)."""

    learns_magic_first: bool = False
    exploration: exploration_rules.ExplorationSetup | None = None
    location: LocationContext = field(default_factory=LocationContext)


# --- The table ------------------------------------------------------------------------------


def _exploration(data: Mapping, facts: TaskFacts) -> Need:
    """FACTS.md section 4: a die per hero standing, one more if the warband won, every one
    rolled even past six (the player keeps six of them after the roll); the Augur rolls two
    and keeps one, the Straggler adds one and one is discarded (``exploration_rules.explore``):
    all thrown at once, before any choice. Re-rolls come after."""
    setup = facts.exploration or exploration_rules.ExplorationSetup(heroes_standing=0)
    count = exploration_rules.exploration_dice(
        heroes_standing=setup.heroes_standing, won=setup.won, extra=setup.extra_dice
    )
    if not count:
        return Need(0, note="no exploration dice: nobody explores")
    extras = [
        "the Augur's second die" if setup.augur else "",
        "the Straggler's extra die" if setup.straggler else "",
    ]
    reads = f"{count} exploration {'die' if count == 1 else 'dice'}"
    reads = ", ".join([reads, *filter(None, extras)])
    return Need(count + sum(1 for extra in extras if extra), reads)


def _tavern(visit: Visit) -> Need:
    if visit.undead or visit.pious:
        return d6s(4, "gold crowns")
    if visit.context.leader is not None:
        return d6s(2, "the leader's Leadership test")
    return d6s(1, "gold crowns")  # no leader, no test: the D6 of gold


def _prisoners(visit: Visit) -> Need:
    if visit.possessed:
        return Need(1, "D3 experience") if visit.heroes else Need(0, note=NO_DICE)
    if visit.undead:
        return Need(1, "D3 free Zombies")
    return d6s(3, "sold") if visit.skaven else d6s(2, "reward")


def _graveyard(visit: Visit) -> Need:
    if visit.pious:
        return d6s(1, "experience") if visit.heroes else Need(0, note=NO_DICE)
    return d6s(1, "grave goods")


def _asks_for_a_hero(visit: Visit) -> Need:
    """The Well and the Pit: which hero goes is asked before his roll (the Fighting Arena:
    which hero reads the manual)."""
    return Need(0, note=ASKS_FIRST if visit.heroes else NO_DICE)


def _fixed(need: Need) -> Callable[[Visit], Need]:
    return lambda visit: need


# battles.rules.exploration_locations: each location's first roll, as its rule makes it.
LOCATION_FIRST_ROLLS: dict[str, Callable[[Visit], Need]] = {
    "Well": _asks_for_a_hero,
    "Shop": _fixed(d6s(1, "gold crowns")),
    "Corpse": _fixed(d6s(1, "what is on the body")),
    "Straggler": lambda v: d6s(2, "sold to the slavers") if v.skaven else Need(0, note=NO_DICE),
    "Overturned Cart": _fixed(d6s(1, "what is in the cart")),
    "Ruined Hovels": _fixed(d6s(1, "gold crowns")),
    "Tavern": _tavern,
    "Smithy": _fixed(d6s(1, "what is at the forge")),
    "Prisoners": _prisoners,
    "Fletcher": _fixed(d6s(1, "what is in the workshop")),
    "Market Hall": _fixed(d6s(2, "gold crowns")),
    "Returning a Favour": _fixed(Need(0, note=NO_DICE)),
    "Gunsmith": _fixed(d6s(1, "what is in the workshop")),
    "Shrine": _fixed(d6s(3, "offerings")),
    "Townhouse": _fixed(d6s(3, "gold crowns")),
    "Armourer": _fixed(d6s(1, "what is in the workshop")),
    "Graveyard": _graveyard,
    "Catacombs": _fixed(Need(0, note=NO_DICE)),
    "Moneylender's House": _fixed(d6s(1, "× 10 gold crowns")),
    "Alchemist's Laboratory": _fixed(d6s(3, "gold crowns")),
    "Jewelsmith": _fixed(d6s(1, "what the jeweller left")),
    "Merchant's House": _fixed(d6s(2, "× 5 gold crowns")),
    "Shattered Building": _fixed(Need(1, "D3 wyrdstone shards")),
    "Entrance to the Catacombs": _fixed(Need(0, note=NO_DICE)),
    "The Pit": _asks_for_a_hero,
    "Hidden Treasure": _fixed(d6s(5, "× 5 gold crowns")),
    "Dwarf Smithy": _fixed(d6s(1, "what the dwarfs left")),
    "Slaughtered Warband": _fixed(d6s(3, "× 5 gold crowns")),
    "Fighting Arena": _asks_for_a_hero,  # which hero reads the manual, if any
    "Noble's Villa": _fixed(d6s(1, "what is in the villa")),
}


def _location(data: Mapping, facts: TaskFacts) -> Need:
    name = exploration_rules.location(data["face"], data["count"])
    return LOCATION_FIRST_ROLLS[name](Visit(None, facts.location, {}, Find(name)))


# Task kind → its first roll (the step modules of battles.aftermath list the tasks).
FIRST_ROLLS: dict[str, Callable[[Mapping, TaskFacts], Need]] = {
    # Campaigns text, Heroes' serious injuries chart.
    "hero_injury": lambda data, facts: Need(2, "D66"),
    # Campaigns text, Henchmen with serious injuries: a D6 each.
    "henchman_injury": lambda data, facts: Need(data["models"], "one D6 per model out of action"),
    # The Carnival's daemons (Daemonic instability): a D6 each instead of the injury roll.
    "daemonic_instability": lambda data, facts: Need(data["models"], "one D6 per daemon"),
    # Cathayan silk clothes of a leader taken out of action: a D6, ruined on 1-3.
    "silk_ruin": lambda data, facts: Need(1, "D6"),
    # FACTS.md section 3, the advance tables (a new leader who learns magic is asked first).
    "hero_advance": lambda data, facts: (
        Need(0, note=ASKS_FIRST) if facts.learns_magic_first else Need(2, "2D6")
    ),
    "henchman_advance": lambda data, facts: Need(2, "2D6"),
    "exploration": _exploration,
    "location": _location,
    # FACTS.md section 6: veterans' experience and rarity rolls, 2D6 each.
    "veterans": lambda data, facts: Need(2, "2D6"),
    "rarity": lambda data, facts: Need(2, "2D6"),
}


def first_roll(kind: str, data: Mapping, facts: TaskFacts) -> Need:
    """The dice a task of ``kind`` takes on its first post. A kind not in the table asks for
    each roll as it comes."""
    rule = FIRST_ROLLS.get(kind)
    return rule(data or {}, facts) if rule else Need(0, note=NO_DICE)


def asked_roll(question: Mapping) -> Need:
    """The further roll a task asks for (``question["dice"]``: count and sides)."""
    count, sides = question["dice"]
    text = question.get("text", "")
    reads = "D66" if "(D66" in text else f"{count if count > 1 else ''}D{sides}"
    return Need(count, reads, sides)


# --- Reading the sequence (the page and the service) ---------------------------------------


def facts_for(sequence, tasks) -> dict[int, TaskFacts]:
    """The facts of each open task of ``tasks`` whose first roll is still to be made, read
    only as far as their kinds need them (the exploration's setup, the warband's heroes)."""
    first = [t for t in tasks if not t.done and not t.question]
    kinds = {t.kind for t in first}
    shared = TaskFacts()
    if "exploration" in kinds:
        shared = replace(shared, exploration=handler(3).setup(sequence))
    if "location" in kinds:
        shared = replace(shared, location=_location_context(sequence.participant.warband))
    return {
        t.pk: replace(
            shared,
            learns_magic_first=t.kind == "hero_advance" and bool(t.warrior.learns_magic_next),
        )
        for t in first
    }


def _location_context(warband) -> LocationContext:
    """What decides a location's first roll: as ``exploration.location_context`` reads the
    active heroes, the leader first; their profiles do not matter here."""
    heroes = list(
        Warrior.objects.filter(warband=warband, is_hero=True, status=Warrior.Status.ACTIVE)
        .order_by("-is_leader", "pk")
        .values_list("pk", "name", "is_leader")
    )
    leader = next((Hero(pk, name) for pk, name, is_leader in heroes if is_leader), None)
    return LocationContext(
        family=counted_family(warband.warband_type.family, warband.warband_type.special_rules),
        heroes=tuple(Hero(pk, name) for pk, name, _ in heroes),
        leader=leader,
    )


def entry(task, facts: TaskFacts | None) -> Need | None:
    """What the next post of ``task`` types: its first roll, the further roll it asks for, or
    None when it asks a question (answered without dice)."""
    question = task.question or {}
    if question.get("dice"):
        return asked_roll(question)
    if question:
        return None
    return first_roll(task.kind, task.data, facts or TaskFacts())


def label_tasks(sequence, tasks) -> None:
    """Each open task of ``tasks`` learns what its form types (``task.dice_entry``)."""
    open_tasks = [t for t in tasks if not t.done]
    facts = facts_for(sequence, open_tasks) if open_tasks else {}
    for task in open_tasks:
        task.dice_entry = entry(task, facts.get(task.pk))


def live_dice(sequence, task, dice):
    """The dice a post of ``task`` rolls with. Typed dice (``EnteredDice``) must be exactly
    what the post's field asks for (``DiceError`` otherwise: nothing changes); they become
    ``TypedDice``, which ask for any roll after them. Server dice roll everything, except for
    a task played with typed dice that asked a question: its next roll is asked for too. Other
    dice (scripted in tests, the demo's) are used as they are."""
    if not isinstance(dice, EnteredDice | ServerDice):
        return dice
    question = task.question or {}
    typed = list(dice.remaining) if isinstance(dice, EnteredDice) else []
    if question and not question.get("dice"):
        if typed:
            raise DiceError(
                f"{task.label}: answer the question without dice; a roll it leads to is "
                "asked for next."
            )
        if question.get("typed"):
            return TypedDice(question.get("left", []), recorder=dice.recorder)
        return dice
    who = question.get("text") or task.label
    need = entry(task, facts_for(sequence, [task]).get(task.pk))
    if not typed:
        return dice if need.count else TypedDice([], recorder=dice.recorder)
    return TypedDice(need.check(typed, who), recorder=dice.recorder)


def question(asked: NeedsAnswer | MoreDice, dice) -> dict:
    """What the task keeps of a question until it is answered: a choice (``NeedsAnswer``) or a
    further roll (``MoreDice``), and whether it is played with typed dice, with those typed
    but not yet rolled."""
    if isinstance(asked, MoreDice):
        return {"key": "dice", "text": asked.purpose or "A further roll", "options": [],
                "dice": [asked.n, asked.sides], "typed": True}  # fmt: skip
    typed = isinstance(dice, TypedDice)
    kept = {
        "key": asked.question.key,
        "text": asked.question.text,
        "options": [list(option) for option in asked.question.options],
        "typed": typed,
    }
    if typed and dice.remaining:
        kept["left"] = list(dice.remaining)
    return kept


def check_all_rolled(task, dice) -> None:
    """Typed dice the task finished without: refused, so that no die typed is ignored."""
    if isinstance(dice, TypedDice) and dice.remaining:
        left = len(dice.remaining)
        raise DiceError(
            f"{task.label} rolled {count_dice(dice.used)}; {count_dice(left)} typed "
            f"{'was' if left == 1 else 'were'} left over. Nothing changed."
        )
