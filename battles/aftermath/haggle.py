"""Haggle (the Merchant's skill, and the Freetraders symbol's): "He may deduct 2D6 gold crowns
from the price of any single item (to a minimum cost of 1gc) once per post battle sequence"
(04-hired-swords.md, the Merchant; ``warbands/data/skills.json``). Readings where the rules
are silent:

- The player asks for it on the form of a purchase (step 6 ``buy_rare``, step 8 ``buy`` and
  ``buy_stash``); it is used by the first warrior of the warband, still with it, who has the
  skill and has not haggled in this sequence (kept in ``sequence.state["haggled"]``, so undoing
  the step gives it back).
- It knocks 2D6 off one item: for a henchman group buying one item a model, off one model's.
- An item of 1 gc or less has nothing to knock off: asking is refused and nothing is rolled.
- The 2D6 is rolled with the purchase's dice (typed in step 6 after any price dice, by the
  server in step 8) and logged in the dice log; once rolled, the haggle is spent even if the
  treasury then cannot pay the price.
"""

from __future__ import annotations

from dataclasses import dataclass

from battles.aftermath.engine import Context
from battles.models import PostBattleSequence
from core.dice import Need
from core.errors import RuleViolation
from warbands.models import Warrior, WarriorSkill

HAGGLE = "haggle"
DICE = 2  # 2D6 off


def haggled_price(price: int, discount: int) -> int:
    """``price`` less ``discount``, never under 1 gc."""
    return max(1, price - discount)


def haggler(sequence: PostBattleSequence) -> Warrior | None:
    """The first warrior still with the warband who has Haggle and has not used it in this
    post-battle sequence."""
    used = sequence.state.get("haggled", [])
    owned = (
        WarriorSkill.objects.filter(
            warrior__warband=sequence.participant.warband_id,
            warrior__status=Warrior.Status.ACTIVE,
            skill__key=HAGGLE,
        )
        .exclude(warrior_id__in=used)
        .select_related("warrior")
        .order_by("-warrior__is_leader", "warrior_id")
        .first()
    )
    return owned.warrior if owned else None


def with_haggle(need: Need) -> Need:
    """The dice a purchase types when it haggles too: its own, then the 2D6 of Haggle."""
    reads = f"{need.reads} then 2D6 for Haggle" if need.count else "2D6 for Haggle"
    return Need(need.count + DICE, reads)


def check(ctx: Context, price: int, what: str) -> Warrior:
    """The warrior who haggles over ``what`` (``price`` gc a model), or ``RuleViolation``
    before anything is rolled."""
    hero = haggler(ctx.sequence)
    if hero is None:
        raise RuleViolation("No one of the warband has Haggle left to use in this sequence.")
    if price <= 1:
        raise RuleViolation(f"{what} costs {price} gc: there is nothing to haggle off.")
    return hero


@dataclass(frozen=True)
class Haggled:
    hero: str
    faces: tuple[int, ...]
    before: int
    price: int

    @property
    def saved(self) -> int:
        return self.before - self.price

    def describe(self) -> str:
        shown = "+".join(map(str, self.faces))
        return f"{self.hero} haggled (2D6 {shown}): {self.before} gc down to {self.price} gc"


def haggle(ctx: Context, hero: Warrior, dice, price: int, what: str) -> Haggled:
    """Roll the 2D6 of ``hero``'s Haggle off one ``what`` of ``price`` gc and spend it."""
    roll = dice.roll(DICE, 6, f"{hero.name}: Haggle off {what} (2D6)")
    used = sorted({*ctx.sequence.state.get("haggled", []), hero.pk})
    ctx.journal.update(ctx.sequence, state={**ctx.sequence.state, "haggled": used})
    return Haggled(hero.name, roll.faces, price, haggled_price(price, roll.total))
