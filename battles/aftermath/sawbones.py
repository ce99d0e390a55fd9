"""The Sawbones optional rule in post-battle step 6, for a campaign whose house rules play it
(``warbands.house_rules``): a hero sees a physician about one lasting injury instead of looking
for a rare item (``battles.rules.sawbones`` holds the tables).

- He gives up his rarity roll: refused once he has made it; his roll, not made yet, is set
  aside. One visit per hero and sequence (kept in the sequence's state, which undo restores).
- The fee is paid first, from the treasury, as every price of the steps (``pay``); then the
  2D6, typed or the server's, logged with the battle's dice as a treasury step's roll.
- Any hero of the warband may go, also one taken out of action in the battle (he could not
  search anyway); not a hired sword, whose injuries are his own affair.
"""

from __future__ import annotations

from battles.aftermath import injuries
from battles.aftermath.engine import Context
from battles.aftermath.treasury_steps import note_receipt, own_warrior, pay
from battles.dice import exactly
from battles.models import PostBattleSequence, SequenceTask
from battles.rules import sawbones as rules
from core.dice import Need
from core.errors import RuleViolation
from core.words import a, possessive
from warbands.house_rules import allowed
from warbands.models import Injury, Warrior


def plays(sequence: PostBattleSequence) -> bool:
    return allowed.plays_sawbones(sequence.participant.battle.campaign_id)


def _visited(sequence: PostBattleSequence) -> dict[str, str]:
    return dict((sequence.state or {}).get("sawbones", {}))


def patients_seen(sequence: PostBattleSequence) -> set[int]:
    """The heroes who saw a physician in this sequence: their rarity roll is not made."""
    return {int(pk) for pk in _visited(sequence)}


def _sought_a_persona(sequence: PostBattleSequence) -> set[int]:
    """The heroes sent after a dramatis persona (``persona_search``, kept in the state): they
    gave up their rarity roll for that, not for the physician."""
    searches = (sequence.state or {}).get("persona_searches", [])
    return {pk for search in searches for pk in search["heroes"]}


def patients(sequence: PostBattleSequence) -> list[tuple[Warrior, list[Injury]]]:
    """The heroes who may still see a physician, each with his injuries the surgeons treat."""
    visited = _visited(sequence)
    searched = set(
        sequence.tasks.filter(step=6, kind="rarity", void=False, done=True).values_list(
            "warrior_id", flat=True
        )
    ) | _sought_a_persona(sequence)
    heroes = Warrior.objects.filter(
        warband=sequence.participant.warband,
        is_hero=True,
        status=Warrior.Status.ACTIVE,
        hired_sword__isnull=True,
    ).prefetch_related("injuries")
    found = []
    for hero in heroes.order_by("-is_leader", "pk"):
        if str(hero.pk) in visited or hero.pk in searched:
            continue
        treatable = [i for i in hero.injuries.all() if rules.table_for(i.name)]
        if treatable:
            found.append((hero, treatable))
    return found


def visits(sequence: PostBattleSequence) -> list[str]:
    """What the physicians made of this sequence's visits, for the page."""
    return list(_visited(sequence).values())


def _give_back(hero: Warrior, characteristic: str | None, changes: dict) -> None:
    """The point the injury cost, back, within his racial maximum."""
    if characteristic is None:
        return
    value = changes.get(characteristic, getattr(hero, characteristic)) + 1
    most = hero.maximum
    if most is not None:
        value = min(value, most.get(characteristic))
    changes[characteristic] = value


def treat(ctx: Context, values: dict, dice) -> str:
    if not plays(ctx.sequence):
        raise RuleViolation("This campaign's house rules do not play the Sawbones rule.")
    hero = own_warrior(ctx, values.get("hero"), field="hero")
    if not hero.is_hero or hero.hired_sword_id:
        raise RuleViolation("Only the warband's own heroes see the physician.", field="hero")
    visited = _visited(ctx.sequence)
    if str(hero.pk) in visited:
        raise RuleViolation(f"{hero.name} has seen a physician in this sequence already.")
    search = (
        SequenceTask.objects.select_for_update(no_key=True)
        .filter(sequence=ctx.sequence, step=6, kind="rarity", void=False, warrior=hero)
        .first()
    )
    if hero.pk in _sought_a_persona(ctx.sequence):
        raise RuleViolation(
            f"{hero.name} has looked for a dramatis persona: a hero does one or the other."
        )
    if search is not None and search.done:
        raise RuleViolation(
            f"{hero.name} has looked for rare items already: a hero does one or the other."
        )
    injury = Injury.objects.filter(warrior=hero, pk=values.get("injury")).first()
    if injury is None:
        raise RuleViolation(f"Choose one of {possessive(hero.name)} injuries.", field="injury")
    table = rules.table_for(injury.name)
    if table is None:
        raise RuleViolation(f"No surgeon treats {a(injury.name.lower())}.", field="injury")
    dice = exactly(dice, Need(2, note="2D6"), "The surgery roll")
    paid = pay(
        ctx, rules.FEE, f"{possessive(hero.name)} visit to the physician", prefer=values["pay_from"]
    )
    roll = dice.roll(2, 6, f"{hero.name}: {table} surgery (2D6)")
    outcome = rules.surgery(injury.name, roll.total)
    told = (
        f"{possessive(hero.name)} {injury.name.lower()}, {table} surgery: "
        f"2D6 {roll.total}, {outcome.summary}"
    )
    if search is not None:
        ctx.journal.update(search, void=True)
    ctx.journal.update(
        ctx.sequence,
        state={**(ctx.sequence.state or {}), "sawbones": {**visited, str(hero.pk): told}},
    )
    note_receipt(ctx, f"{possessive(hero.name)} visit to the physician: {paid}.")
    if outcome.dead:
        injuries.dies_keeping_gear(ctx, hero, dice, "died under the surgeon's knife")
        return f"{told}. The warband keeps his equipment, unstored."
    changes: dict[str, int] = {}
    if outcome.cured or outcome.amputated:
        _give_back(hero, rules.penalty_of(injury.name), changes)
        ctx.journal.delete(injury)
    if outcome.amputated and injury.name == "Hand injury":
        ctx.journal.create(Injury, warrior=hero, name="Lost hand",
                           effect="Lost hand: fights with one one-handed weapon only")  # fmt: skip
    elif outcome.amputated:
        changes["M"] = (changes.get("M", hero.M) + 1) // 2
        ctx.journal.create(Injury, warrior=hero, name="Lost leg",
                           effect="Lost leg: Movement halved")  # fmt: skip
    if outcome.stupid and "stupidity" not in injury.effect.lower():
        ctx.journal.create(Injury, warrior=hero, name="Stupidity",
                           effect="Stupidity: subject to stupidity")  # fmt: skip
    if outcome.unhinged:
        changes["I"] = max(1, changes.get("I", hero.I) - 1)
        ctx.journal.create(Injury, warrior=hero, name="Unhinged",
                           effect="Unhinged: -1 Initiative, causes fear")  # fmt: skip
    if outcome.miss_games:
        changes["games_to_miss"] = hero.games_to_miss + outcome.miss_games
    if changes:
        ctx.journal.update(hero, **changes)
    return f"{told}."
