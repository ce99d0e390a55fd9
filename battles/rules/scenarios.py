"""The rulebook's scenarios (1 to 9 of ``reference/06-scenarios.md``): their experience
awards and any special income, and the experience lines of one warrior after a battle.

Every scenario gives +1 to each hero and henchman group that survives, +1 to the winning
warband's leader and +1 to a hero per enemy he puts out of action; ``Award`` lists what a
scenario adds to those. "Other" (``OTHER``) is any scenario not listed here: its awards are
typed in as a number per warrior.

Readings where the texts are silent:

- "Survives" means took part and is still with the warband after the injuries of step 1: a
  dead hero earns nothing, nor does a captured one (he is held by the enemy, not with his
  warband, and cannot be rewarded by it); a henchman group survives while a model is left.
- The winning leader is the warrior the side named as its leader in the battle (the
  ``leader`` of the report), so a hero who led while the leader missed the game earns it.
  In Occupy the winner is the side holding more buildings, which is how the result is
  reported, and a draw gives no leader the bonus.
- Awards that one warrior of the whole battle can earn (Street Fight's first hero to escape,
  Hidden Treasure's finder of the chest) are refused for a second warrior.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = [
    "OTHER",
    "SCENARIOS",
    "Award",
    "ExperienceLine",
    "Scenario",
    "experience_lines",
    "scenario",
]


@dataclass(frozen=True)
class Award:
    """A scenario's own experience award. ``heroes_only``: henchmen groups cannot earn it.
    ``most``: how many times one warrior may earn it (1 for a deed done once; more for
    something counted, such as wyrdstone counters). ``once_per_battle``: only one warrior of
    the whole battle earns it."""

    key: str
    label: str
    experience: int
    heroes_only: bool = False
    most: int = 1
    once_per_battle: bool = False


@dataclass(frozen=True)
class Scenario:
    key: str
    number: int
    name: str
    awards: tuple[Award, ...] = ()
    income: str = ""  # the scenario's special income, in our words
    most_shards: int = 0  # the most wyrdstone shards one warband can take from the scenario
    rout_tests: bool = True  # False: no Rout tests are taken (Occupy: eight turns at most)

    @property
    def title(self) -> str:
        return f"{self.number}. {self.name}"


SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        "defend_the_find", 1, "Defend the Find",
        income="A shard of wyrdstone for each of the warband's heroes inside the objective "
        "building at the end, three at most.",
        most_shards=3,
    ),
    Scenario("skirmish", 2, "Skirmish"),
    Scenario(
        "wyrdstone_hunt", 3, "Wyrdstone Hunt",
        awards=(Award("wyrdstone_counter", "wyrdstone counter carried at the end", 1, most=4),),
        income="A shard of wyrdstone for each counter the warband's warriors hold at the end "
        "(there are D3+1 counters).",
        most_shards=4,
    ),
    Scenario(
        "breakthrough", 4, "Breakthrough",
        awards=(Award("breaking_through", "broke through the enemy lines", 1),),
    ),
    Scenario(
        "street_fight", 5, "Street Fight",
        awards=(
            Award("escaping", "first hero to escape by the far edge", 1, heroes_only=True,
                  once_per_battle=True),
        ),
    ),
    Scenario(
        "chance_encounter", 6, "Chance Encounter",
        income="The D3 shards the warband carried, less one per own hero put out of action, "
        "plus one per enemy hero it put out of action, up to what the enemy carried.",
        most_shards=6,
    ),
    Scenario(
        "hidden_treasure", 7, "Hidden Treasure",
        awards=(
            Award("finding_chest", "found the treasure chest", 2, heroes_only=True,
                  once_per_battle=True),
        ),
        income="The winner opens the chest: 3D6 gc, and on a D6 each: D3 shards (5+), light "
        "armour (4+), a sword (3+), D3 gems worth 10 gc each (5+).",
    ),
    Scenario("occupy", 8, "Occupy", rout_tests=False),
    Scenario("surprise_attack", 9, "Surprise Attack"),
)  # fmt: skip

OTHER = Scenario("", 0, "Other", most_shards=10)  # shards typed in: at most ten

_BY_KEY = {s.key: s for s in SCENARIOS}


def scenario(key: str) -> Scenario:
    """The scenario of ``key``; ``OTHER`` for a blank or unknown key."""
    return _BY_KEY.get(key, OTHER)


@dataclass(frozen=True)
class ExperienceLine:
    reason: str
    experience: int

    def __str__(self) -> str:
        return f"+{self.experience} {self.reason}"


def experience_lines(
    *,
    is_hero: bool,
    survived: bool,
    enemies_out_of_action: int,
    led_the_winners: bool,
    underdog: int,
    awards: Mapping[str, int],
    typed: int,
    played: Scenario,
    extra: Mapping[str, int] | None = None,
) -> list[ExperienceLine]:
    """Each experience award a warrior who took part earns, one line each (campaigns text,
    Experience; the scenario's experience list). ``awards``: how often he earned each of the
    scenario's own awards; ``typed``: the experience typed in for an "other" scenario;
    ``extra``: experience from elsewhere (an injury), by reason. A warrior who did not survive
    earns nothing."""
    if not survived:
        return []
    lines = [ExperienceLine("survived", 1)]
    if is_hero and enemies_out_of_action:
        lines.append(
            ExperienceLine(
                f"for putting {enemies_out_of_action} "
                f"{'enemy' if enemies_out_of_action == 1 else 'enemies'} out of action",
                enemies_out_of_action,
            )
        )
    if led_the_winners:
        lines.append(ExperienceLine("winning leader", 1))
    for award in played.awards:
        times = min(awards.get(award.key, 0), award.most)
        if times and (is_hero or not award.heroes_only):
            label = award.label if times == 1 else f"{award.label} ×{times}"
            lines.append(ExperienceLine(label, award.experience * times))
    if typed:
        lines.append(ExperienceLine("scenario", typed))
    if underdog:
        lines.append(ExperienceLine("underdog", underdog))
    for reason, experience in (extra or {}).items():
        if experience:
            lines.append(ExperienceLine(reason, experience))
    return lines
