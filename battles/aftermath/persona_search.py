"""Looking for a dramatis persona after a battle (the chapter's "looking for special
characters"), played in step 6 beside the rare items, because a hero who looks for a persona
does not look for rare items: he is sent before his rarity roll, which then is not made.

- Who may search: the heroes of step 6 (``standing_heroes``: not put out of action in the
  battle, and no hired sword) whose rarity roll is still to make; each searches once.
- One search names one persona and its heroes; a D6 each, rolled with the step's dice and
  logged openly (no secret of the treasury: ``permissions.PUBLIC_ACTIONS``); he is found
  when any of them rolls under his own Initiative.
- What is found is kept in the sequence's state (``persona_searches``); step 7 hires him, if
  ``persona_refusal`` allows, by paying his fee.
"""

from __future__ import annotations

from battles.aftermath.treasury_steps import standing_heroes
from battles.dice import exactly
from battles.models import PostBattleSequence, SequenceTask
from core.dice import Need
from core.errors import RuleViolation
from warbands import dramatis_personae
from warbands.models import Warrior
from warbands.rules import dramatis_personae as rules


def searches(sequence: PostBattleSequence) -> list[dict]:
    """The searches made after this battle: persona, heroes, what was rolled, found."""
    return list(sequence.state.get("persona_searches", []))


def searching_heroes(sequence: PostBattleSequence) -> set[int]:
    """The heroes sent to look for a persona: they make no rarity roll."""
    return {pk for search in searches(sequence) for pk in search["heroes"]}


def found_keys(sequence: PostBattleSequence) -> set[str]:
    return {s["persona"] for s in searches(sequence) if s["found"]}


def open_rarity_rolls(sequence: PostBattleSequence) -> dict[int, SequenceTask]:
    """Each hero's rarity roll still to make, by the hero's key."""
    tasks = sequence.tasks.filter(step=6, kind="rarity", void=False, done=False)
    return {task.warrior_id: task for task in tasks}


def searchers(sequence: PostBattleSequence) -> list[Warrior]:
    """The heroes who may still be sent: standing, their rarity roll not yet made."""
    open_rolls = open_rarity_rolls(sequence)
    return [hero for hero in standing_heroes(sequence) if hero.pk in open_rolls]


def fought_last_battle(sequence: PostBattleSequence) -> set[str]:
    """The personae who fought this battle for the warband: on its roster before it, still
    there or let go in this sequence's step 7 (``persona_refusal``'s wanderers)."""
    battle = sequence.participant.battle
    rows = Warrior.objects.filter(
        warband=sequence.participant.warband,
        hired_sword__isnull=False,
        created_at__lt=battle.created_at,
        status__in=(*Warrior.ON_ROSTER, Warrior.Status.DISMISSED),
    ).exclude(hired_sword__kind="hired_sword")
    left_now = {
        int(key[1:])
        for key, how in sequence.state.get("upkeep", {}).items()
        if key[0] == "w" and how == "left"
    }
    return {
        key
        for pk, key, status in rows.values_list("pk", "hired_sword__key", "status")
        if status != Warrior.Status.DISMISSED or pk in left_now
    }


def offered(sequence: PostBattleSequence) -> list:
    """Every persona with why the warband may not seek him now (the search itself aside)."""
    return dramatis_personae.personae_for(
        sequence.participant.warband, fought_last_battle=fought_last_battle(sequence)
    )


def seek(ctx, values: dict, dice) -> str:
    """Send ``values["heroes"]`` to look for ``values["persona"]``: a D6 each, found when any
    rolls under his Initiative. Their rarity rolls are set aside (void), through the journal."""
    sequence = ctx.sequence
    persona = dramatis_personae.personae().filter(key=values["persona"]).first()
    if persona is None:
        raise RuleViolation("Choose a dramatis persona.", field="persona")
    if persona.key in {s["persona"] for s in searches(sequence)}:
        raise RuleViolation(f"The warband has looked for {persona.name} already.")
    reason = dramatis_personae.persona_refusal(
        ctx.warband, persona, fought_last_battle=fought_last_battle(sequence)
    )
    if reason:
        raise RuleViolation(reason, field="persona")
    free = {hero.pk: hero for hero in searchers(sequence)}
    chosen = list(dict.fromkeys(values["heroes"]))
    if not chosen:
        raise RuleViolation("Send at least one hero.", field="heroes")
    if any(pk not in free for pk in chosen):
        raise RuleViolation(
            "Only heroes who stood to the end and have not made their rarity roll may search.",
            field="heroes",
        )
    heroes = [free[pk] for pk in chosen]
    dice = exactly(dice, Need(len(heroes), "one D6 per hero"), "The search")
    faces = [
        dice.roll(1, 6, f"{hero.name}: looking for {persona.name} (D6 under I {hero.I})").total
        for hero in heroes
    ]
    result = rules.search([(hero.name, hero.I) for hero in heroes], faces)
    open_rolls = open_rarity_rolls(sequence)
    for hero in heroes:
        ctx.journal.update(open_rolls[hero.pk], void=True)
    done = {
        "persona": persona.key,
        "name": persona.name,
        "heroes": [hero.pk for hero in heroes],
        "rolls": faces,
        "found": result.found,
    }
    state = {**sequence.state, "persona_searches": [*searches(sequence), done]}
    ctx.journal.update(sequence, state=state)
    text = result.describe(persona.name)
    if result.found:
        text += f" He may be hired in step 7 for {persona.hire_fee} gc."
    return text
