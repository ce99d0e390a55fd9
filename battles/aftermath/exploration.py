"""Step 3 of the post-battle sequence, exploration (FACTS.md section 4), and the scenario's
own income (``battles.rules.scenario_income``).

The dice and the locations are read by ``battles.rules.exploration``; here their effects are
carried out on the roster (journal) and the treasury (ledger). Readings where the rules are
silent:

- Who explores: each hero who took part in the battle (a ``WarriorOutcome`` of his side) and
  was not put out of action, and is still with the warband, free (not dead, not held
  captive): ``standing_heroes``. A hero who missed the battle rolls no die. A battle reported
  before the sides entered their warriors has no outcomes for the side: then every hero
  free to fight explores, as before.
- Found shards, gold and items land in the pile of unstored treasure; the player stores them.
- The wyrdstone the scenario gave the warband (entered with its side of the report) comes
  with the exploration's roll, as a ledger entry and a line of its own; the winner of Hidden
  Treasure opens the chest in a roll of its own (``treasure_chest``).
- Experience from a location may reach a thick box: the advance is rolled in step 3 itself.
- A prisoner joining a human henchman group pays for his share of the group's equipment
  (only groups the treasury can equip are offered); free Zombies join the Zombie groups, a new
  group when none has room, as far as the warband's size allows.
- Magical artefacts ever found in the campaign are rolled again (``artefacts_found``): one
  lost with its dead carrier still existed, so it is not found a second time.
"""

from __future__ import annotations

from battles.aftermath import mordheim_map
from battles.aftermath.engine import Context, Step
from battles.aftermath.experience import roll_hero_advance
from battles.aftermath.injuries import kill_warrior
from battles.aftermath.treasury_steps import (
    TreasuryStep,
    equipment_per_model,
    gold_held,
    pay,
    receive,
    standing_heroes,
    step_board,
)
from battles.models import Participant, PostBattleSequence, SequenceTask
from battles.rules import exploration as rules
from battles.rules import scenario_income, scenarios
from core.errors import RuleViolation
from core.words import possessive
from warbands import rules as roster_rules
from warbands import services as warband_services
from warbands import treasury
from warbands.models import (
    HiredSword,
    Item,
    LedgerEntry,
    Skill,
    SkillList,
    StoredItem,
    Warrior,
    WarriorItem,
    WarriorSkill,
    WarriorType,
)
from warbands.rules.families import counted_family

Reason = LedgerEntry.Reason


# Hired swords chapter, Elf Ranger, Seeker: one exploration die moved by one.
ELF_RANGER = "elf_ranger"


def _add_experience(ctx: Context, warrior: Warrior, amount: int, order: int) -> list[str]:
    """Experience gained outside step 2 (a location): an advance due is rolled in this step."""
    old = warrior.experience
    ctx.journal.update(warrior, experience=old + amount)
    for threshold in roster_rules.advances_earned(old, old + amount, is_hero=warrior.is_hero):
        ctx.journal.create(
            SequenceTask,
            sequence=ctx.sequence,
            step=ctx.sequence.current_step,
            order=order,
            kind="hero_advance",
            warrior=warrior,
            data={"threshold": threshold},
            label=f"{possessive(warrior.name)} advance ({threshold} experience)",
        )
    return [f"{warrior.name} +{amount} experience"]


class Exploration(TreasuryStep):
    """Step 3: roll the exploration dice; the shards and what a multiple finds go into the
    unstored pile, the player stores them; notes he cannot leave to us he confirms."""

    after_tasks = True  # its forms come after its rolls
    number = 3
    rolls = True
    blockers = Step.blockers  # its rolls come first (not TreasuryStep's: no rolls to wait for)

    def setup(self, sequence: PostBattleSequence) -> rules.ExplorationSetup:
        """The dice: the heroes who explore are ``standing_heroes`` (they took part, were not
        put out of action, are neither dead nor held captive; every hero free to fight when
        the report has no outcomes for the side), one more die if the warband won."""
        warband = sequence.participant.warband
        heroes = standing_heroes(sequence)
        hunters = Warrior.objects.filter(
            pk__in=[h.pk for h in heroes], skills__skill__key="wyrdstone_hunter"
        ).order_by("pk")
        rerolls = [f"Wyrdstone Hunter ({hunter.name})" for hunter in hunters]
        if warband.catacombs_reroll:
            rerolls.append("Entrance to the catacombs")
        rerolls += mordheim_map.rerolls(warband, heroes)
        rangers = Warrior.objects.filter(
            warband=warband, status=Warrior.Status.ACTIVE, hired_sword__key=ELF_RANGER
        ).order_by("pk")
        won = sequence.participant.result == Participant.Result.WON
        extra = scenarios.exploration_dice(
            scenarios.scenario(sequence.participant.battle.scenario_key), won=won
        )
        if extra is None:  # the scenario lets this warband search nothing
            return rules.ExplorationSetup(heroes_standing=0)
        return rules.ExplorationSetup(
            heroes_standing=len(heroes),
            won=won,
            extra_dice=extra,
            augur=any(h.warrior_type.key == "augur" for h in heroes),
            straggler=warband.exploration_extra_dice > 0,
            rerolls=tuple(rerolls),
            seekers=tuple(f"Seeker ({ranger.name})" for ranger in rangers),
            shard_bonus=sum(
                int(rule.get("bonus", 0))
                for rule in warband.warband_type.special_rules or []
                if rule.get("effect") == "wyrdstone_bonus"
            ),
        )

    def planned(self, sequence):
        setup = self.setup(sequence)
        count = rules.exploration_dice(
            heroes_standing=setup.heroes_standing, won=setup.won, extra=setup.extra_dice
        )
        played = scenarios.scenario(sequence.participant.battle.scenario_key)
        won = sequence.participant.result == Participant.Result.WON
        barred = scenarios.exploration_dice(played, won=won) is None
        extras = [
            f"{played.name}: no exploration" if barred else "",
            "one won" if setup.won else "",
            f"{setup.extra_dice:+d} from {played.name}" if setup.extra_dice else "",
            "the Augur rolls two and keeps one" if setup.augur else "",
            "the Straggler's extra die" if setup.straggler else "",
            "you keep six of them" if count > rules.KEPT_DICE else "",
        ]
        why = ", ".join(e for e in extras if e)
        label = f"Exploration: {count} {'die' if count == 1 else 'dice'}"
        label += f" ({why})" if why else ""
        shards, played = scenario_shards(sequence)
        if shards:
            label += f"; {shards_line(shards, played)}"
        tasks = [SequenceTask(sequence=sequence, step=3, order=0, kind="exploration", label=label)]
        if opens_the_chest(sequence):
            tasks.append(
                SequenceTask(
                    sequence=sequence, step=3, order=2, kind="treasure_chest",
                    label="Hidden Treasure: the chest (3D6 gc, then a D6 for each find)",
                )
            )  # fmt: skip
        return tasks

    def page_context(self, sequence, user, posts=None):
        context = {"board": step_board(sequence, user, posts)}
        context["notes"] = notes_of(sequence, 3)
        played = scenarios.scenario(sequence.participant.battle.scenario_key)
        context["scenario_income"] = played if played.income else None
        return context

    def complete(self, ctx, values):
        if notes_of(ctx.sequence, 3) and not values.get("notes_confirmed"):
            raise RuleViolation(
                "Confirm that you have carried out what is to be done on the table."
            )
        return ""

    def run_task(self, ctx, task, dice):
        if task.kind == "hero_advance":
            warrior = Warrior.objects.select_related("warrior_type", "warrior_type__race").get(
                pk=task.warrior_id
            )
            return roll_hero_advance(ctx, task, warrior, dice)
        if task.kind == "location":
            return self.location(ctx, task, dice)
        if task.kind == "treasure_chest":
            return self.open_chest(ctx, task, dice)
        setup = self.setup(ctx.sequence)
        result = rules.explore(dice, setup, task.answers)
        if setup.straggler:
            ctx.journal.update(ctx.warband, exploration_extra_dice=0)
        if ctx.warband.map_rerolls:  # a Vague or Accurate map's: this exploration only
            ctx.journal.update(ctx.warband, map_rerolls=0)
        if result.shards:
            receive(
                ctx,
                treasury.loose_pile(ctx.warband),
                reason=Reason.INCOME,
                note="exploration",
                shards=result.shards,
            )
        parts = [f"Dice {' '.join(map(str, result.faces)) or 'none'} = {sum(result.faces)}"]
        parts += result.detail
        parts.append(f"{result.shards} wyrdstone shard{'s' if result.shards != 1 else ''}")
        given, played = scenario_shards(ctx.sequence)
        if given:
            receive(
                ctx,
                treasury.loose_pile(ctx.warband),
                reason=Reason.INCOME,
                note=f"scenario: {played.name}",
                shards=given,
            )
            parts.append(shards_line(given, played))
        if result.multiple:
            face, count = result.multiple
            name = rules.location(face, count)
            ctx.journal.create(
                SequenceTask,
                sequence=ctx.sequence,
                step=3,
                order=1,
                kind="location",
                data={"face": face, "count": count},
                label=f"{name} ({'-'.join([str(face)] * min(count, 6))})",
            )
            parts.append(f"{count} × {face}: {name}")
        task.result = {"faces": result.faces, "shards": result.shards, "scenario_shards": given}
        return "; ".join(parts) + "."

    def location(self, ctx: Context, task: SequenceTask, dice) -> str:
        context = location_context(ctx)
        find = rules.resolve_location(
            dice, task.data["face"], task.data["count"], context=context, answers=task.answers
        )
        lines = apply_find(ctx, find, dice)
        task.result = {"notes": find.notes}
        return f"{find.name}: " + ("; ".join(lines) or "nothing of use") + "."

    def open_chest(self, ctx: Context, task: SequenceTask, dice) -> str:
        """Hidden Treasure's chest, the winner's: its gold, shards and items go into the pile
        of unstored treasure like exploration's finds."""
        chest = scenario_income.hidden_treasure_chest(dice)
        lines = receive_finds(
            ctx, note="scenario: Hidden Treasure chest", gold=chest.gold, shards=chest.shards,
            items=chest.items,
        )  # fmt: skip
        task.result = {"gold": chest.gold, "shards": chest.shards, "items": chest.items}
        return f"{'; '.join(chest.detail)}. The chest holds " + ", ".join(lines) + "."


def scenario_shards(sequence: PostBattleSequence) -> tuple[int, scenarios.Scenario]:
    """The wyrdstone the battle's scenario gave the warband (its side of the report), and
    the scenario."""
    played = scenarios.scenario(sequence.participant.battle.scenario_key)
    return scenario_income.scenario_shards(played, sequence.participant.scenario_shards), played


def shards_line(shards: int, played: scenarios.Scenario) -> str:
    name = played.name if played.key else "the scenario"
    return f"+{shards} shard{'s' if shards != 1 else ''} from {name}"


def opens_the_chest(sequence: PostBattleSequence) -> bool:
    """Hidden Treasure: the warband that won gains the chest (rulebook scenario 7)."""
    participant = sequence.participant
    return (
        participant.battle.scenario_key == "hidden_treasure"
        and participant.result == Participant.Result.WON
    )


def notes_of(sequence: PostBattleSequence, step: int) -> list[str]:
    """What the locations found in ``step`` left for the player to do on the table (the
    Catacombs' deployment, a blessed weapon …): he confirms them before the step ends."""
    notes = []
    for task in sequence.tasks.filter(step=step, void=False, done=True, kind="location"):
        notes.extend((task.result or {}).get("notes", []))
    return notes


def _hero(warrior: Warrior) -> rules.Hero:
    return rules.Hero(warrior.pk, warrior.name, T=warrior.T, Ld=warrior.Ld)


def location_context(ctx: Context) -> rules.LocationContext:
    """What the warband brings to a special location: its active heroes and its leader,
    the human henchman groups a prisoner may join (room left, equipment affordable), and the
    magical artefacts found in the campaign so far (each exists only once)."""
    heroes = list(
        Warrior.objects.filter(warband=ctx.warband, is_hero=True, status=Warrior.Status.ACTIVE)
        .select_related("warrior_type")
        .order_by("-is_leader", "pk")
    )
    leader = next((h for h in heroes if h.is_leader), None)
    groups = []
    on_roster = warband_services.roster(ctx.warband)
    models = sum(w.group_size for w in on_roster)
    room = models < warband_services.max_size(ctx.warband, on_roster)
    for group in on_roster:
        race = group.warrior_type.race
        if (
            room
            and not group.is_hero
            and group.status == Warrior.Status.ACTIVE
            and race is not None
            and race.key == "human"
            and group.group_size < group.warrior_type.group_max
        ):
            cost = equipment_per_model(group)
            if cost <= gold_held(ctx.warband):
                groups.append((group.pk, f"{group.name} (equipment {cost} gc)"))
    return rules.LocationContext(
        family=counted_family(
            ctx.warband.warband_type.family, ctx.warband.warband_type.special_rules
        ),
        heroes=tuple(_hero(h) for h in heroes),
        leader=_hero(leader) if leader else None,
        prisoner_groups=tuple(groups),
        owned_artefacts=artefacts_found(ctx.battle.campaign),
        has_catacombs_reroll=ctx.warband.catacombs_reroll,
    )


def artefacts_found(campaign) -> frozenset[str]:
    """FACTS.md section 4: each magical artefact exists only once in a campaign, even after
    its carrier died with it. Found: every artefact that ever entered a treasury of the
    campaign (a ledger entry not taken back by undo), and any carried or stored now, whatever
    became of its carrier or container (an organiser's correction writes no ledger entry)."""
    keys = {key for key, _ in rules.MAGICAL_ARTEFACTS}
    ledger = (
        LedgerEntry.objects.filter(
            warband__campaign=campaign, item__key__in=keys, amount__gt=0,
            reversed_by__isnull=True,
        )
        .exclude(reason=Reason.REVERSAL)
        .values_list("item__key", flat=True)
    )  # fmt: skip
    carried = WarriorItem.objects.filter(
        warrior__warband__campaign=campaign, item__key__in=keys
    ).values_list("item__key", flat=True)
    stored = StoredItem.objects.filter(
        container__warband__campaign=campaign, item__key__in=keys
    ).values_list("item__key", flat=True)
    return frozenset(ledger.union(carried, stored))


def apply_find(ctx: Context, find: rules.Find, dice) -> list[str]:
    """Carry out a location's effects on the roster and the treasury."""
    lines = receive_finds(
        ctx, note=f"exploration: {find.name}", gold=find.gold, shards=find.shards,
        items=find.items,
    )  # fmt: skip
    warriors = {
        w.pk: w for w in Warrior.objects.filter(warband=ctx.warband).select_related("warrior_type")
    }
    order = 2
    for hero_id, amount in find.experience.items():
        order += 1
        lines += _add_experience(ctx, warriors[hero_id], amount, order)
    for hero_id in find.miss_game:
        hero = warriors[hero_id]
        ctx.journal.update(hero, games_to_miss=hero.games_to_miss + 1)
        lines.append(f"{hero.name} misses the next game")
    if find.hero_lost:
        hero = warriors[find.hero_lost]
        kill_warrior(ctx, hero, dice)
        lines.append(f"{hero.name} is lost in the pit")
    if find.academic_skills:
        academic = SkillList.objects.filter(key="academic").first()
        hero = warriors[find.academic_skills]
        if academic and not hero.extra_skill_lists.filter(pk=academic.pk).exists():
            ctx.journal.add_m2m(hero, "extra_skill_lists", [academic.pk])
        lines.append(f"{hero.name} gains access to Academic skills")
    if find.manual_reader:
        lines.append(_read_manual(ctx, warriors[find.manual_reader]))
    if find.symbol_bearer:
        lines.append(_bear_symbol(ctx, warriors[find.symbol_bearer]))
    if find.kept_gems:
        hero = warriors[find.kept_gems]
        ctx.journal.update(hero, kept_gems=True)
        lines.append(f"{hero.name} keeps the gems (+1 to his rarity rolls)")
    if find.prisoner_joins:
        group = warriors[find.prisoner_joins]
        pay(ctx, equipment_per_model(group), f"equipment of the prisoner who joins {group.name}")
        ctx.journal.update(group, group_size=group.group_size + 1)
        lines.append(f"a prisoner joins {group.name}")
    if find.zombies:
        lines.append(_free_zombies(ctx, find.zombies))
    if find.wardog_for_leader:
        leader = next((w for w in warriors.values() if w.is_leader and w.status == "active"), None)
        wardog = Item.objects.filter(key="wardog").first()
        if leader and wardog:
            ctx.journal.create(WarriorItem, warrior=leader, item=wardog, price_paid=0)
            lines.append(f"a wardog joins {leader.name}")
    if find.free_hired_sword:
        ctx.journal.create(
            HiredSword,
            warband=ctx.warband,
            name="Hired sword returning a favour",
            hired_after=ctx.battle,
            notes="Fights for free in the next battle; afterwards pay his upkeep or he leaves.",
        )
        lines.append("a hired sword will fight for free in the next battle")
    if find.straggler:
        ctx.journal.update(ctx.warband, exploration_extra_dice=1)
        lines.append("next exploration: one extra die, discard one")
    if find.catacombs_reroll:
        ctx.journal.update(ctx.warband, catacombs_reroll=True)
        lines.append("the warband may re-roll one exploration die from now on")
    return [line for line in lines if line]


def _read_manual(ctx: Context, hero: Warrior) -> str:
    """Fighting Arena (FACTS.md section 4): the reader gains access to Combat skills and +1 to
    his Weapon Skill maximum."""
    combat = SkillList.objects.filter(key="combat").first()
    if combat and not hero.extra_skill_lists.filter(pk=combat.pk).exists():
        ctx.journal.add_m2m(hero, "extra_skill_lists", [combat.pk])
    bonuses = dict(hero.maximum_bonuses or {})
    bonuses["WS"] = int(bonuses.get("WS", 0)) + 1
    ctx.journal.update(hero, maximum_bonuses=bonuses)
    return f"{hero.name} reads the training manual: Combat skills and +1 to his WS maximum"


def _bear_symbol(ctx: Context, hero: Warrior) -> str:
    """Merchant's House (FACTS.md section 4): the hero carries the Freetraders symbol and gains
    the Haggle skill with it."""
    symbol = Item.objects.filter(key="freetraders_symbol").first()
    if symbol is not None:
        ctx.journal.create(WarriorItem, warrior=hero, item=symbol, price_paid=0)
    haggle = Skill.objects.filter(key="haggle").first()
    if haggle is not None and not hero.skills.filter(skill=haggle).exists():
        ctx.journal.create(WarriorSkill, warrior=hero, skill=haggle)
    return f"{hero.name} carries the Freetraders symbol and gains the Haggle skill"


def receive_finds(
    ctx: Context, *, note: str, gold: int, shards: int, items: list[tuple[str, str, int]]
) -> list[str]:
    """Found gold, shards and items (catalogue key or "", name, how many) into the pile of
    unstored treasure, in the ledger under ``note``; a line for each."""
    lines: list[str] = []
    pile = treasury.loose_pile(ctx.warband)
    if gold or shards:
        receive(ctx, pile, reason=Reason.INCOME, note=note, gold=gold, shards=shards)
        if gold:
            lines.append(f"{gold} gc")
        if shards:
            lines.append(f"{shards} wyrdstone")
    found = {i.key: i for i in Item.objects.filter(key__in=[k for k, _, _ in items if k])}
    for key, name, count in items:
        item = found.get(key)
        for _ in range(count):
            treasury.add_item(
                pile,
                item=item,
                name=name if item is None else item.name,
                reason=Reason.INCOME,
                context=ctx.treasury_context(note),
            )
        lines.append(f"{count} × {name}" if count > 1 else name)
    return lines


def _free_zombies(ctx: Context, count: int) -> str:
    """Free Zombies join the warband's Zombie groups (a new group when none has room), as far
    as the warband's size allows."""
    zombie = WarriorType.objects.filter(warband_type=ctx.warband.warband_type, key="zombie").first()
    if zombie is None:
        return ""
    on_roster = list(warband_services.roster(ctx.warband))
    room = warband_services.max_size(ctx.warband, on_roster) - sum(w.group_size for w in on_roster)
    joining = min(count, max(room, 0))
    left = joining
    for group in [w for w in on_roster if w.warrior_type_id == zombie.pk and w.status == "active"]:
        add = min(left, zombie.group_max - group.group_size)
        if add > 0:
            ctx.journal.update(group, group_size=group.group_size + add)
            left -= add
    while left:
        size = min(left, zombie.group_max)
        group = ctx.journal.create(
            Warrior,
            warband=ctx.warband,
            warrior_type=zombie,
            name="Zombies",
            is_hero=False,
            group_size=size,
            hired_at_creation=False,
            **zombie.profile.as_dict(),
        )
        left -= size
    text = f"{joining} free Zombie{'s' if joining != 1 else ''} join"
    if joining < count:
        text += f" ({count - joining} turned away: the warband is full)"
    return text
