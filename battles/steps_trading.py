"""Post-battle steps 5 to 9: veterans, rare items, hired swords, recruits and common items,
and reallocation (FACTS.md section 6, the Mayhem in Mordheim storage containers).

Readings where the rules are silent:

- Each successful rarity roll buys at most one rare item, for the whole warband; it goes into
  a container or onto a single-model warrior who may use it (a henchman group would need one
  per model). A variable price is rolled once per roll and item, and stands if the player
  cannot pay it at once.
- Recruits (step 8) are paid from the treasury and buy Common items of their list only.
  Models added to a henchman group without experience are plain recruits (step 8); models
  added to an experienced group are veterans (step 5).
- A hired sword's upkeep falls due after each battle after the one in whose sequence he was
  hired; the player pays it or lets him go.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from battles.models import PostBattleSequence, SequenceTask
from battles.rules import exploration as rules
from battles.sequence import Context
from battles.steps_exploration import Exploration, SellWyrdstone
from battles.steps_treasury import (
    TreasuryStep,
    check_group_grows,
    destination,
    destinations,
    equipment_per_model,
    gold_held,
    own_container,
    own_warrior,
    pay,
    read_int,
    read_pk,
    receive,
    standing_heroes,
    treasury_page,
)
from core.options import Choices
from warbands import rules as roster_rules
from warbands import services as warband_services
from warbands import treasury
from warbands.models import (
    EquipmentListEntry,
    HiredSword,
    Item,
    LedgerEntry,
    StorageContainer,
    StoredItem,
    Warrior,
    WarriorItem,
    WarriorSkill,
    WarriorType,
    amount_parts,
)
from warbands.rules import RuleViolation
from warbands.rules import containers as container_rules

Reason = LedgerEntry.Reason

# --- Step 5: veterans ----------------------------------------------------------------------


def _experienced_groups(warband) -> list[Warrior]:
    return list(
        Warrior.objects.filter(
            warband=warband, is_hero=False, status=Warrior.Status.ACTIVE, experience__gt=0
        ).select_related("warrior_type")
    )


class Veterans(TreasuryStep):
    """Step 5: 2D6 is the experience the new men may bring; each costs his price, his share of
    the group's equipment and 2 gc per experience point."""

    after_tasks = True  # its forms come after its rolls
    number = 5
    rolls = True
    asks = False
    actions = ("add_veterans",)

    def prepare(self, sequence):
        if sequence.tasks.filter(step=5, void=False).exists():
            return
        if _experienced_groups(sequence.participant.warband):
            SequenceTask.objects.create(
                sequence=sequence,
                step=5,
                order=0,
                kind="veterans",
                label="Veterans: 2D6 for the experience available",
            )

    def page_context(self, sequence, user):
        context = treasury_page(sequence, user)
        task = sequence.tasks.filter(step=5, void=False, kind="veterans", done=True).first()
        available = (task.result or {}).get("available", 0) if task else None
        used = sequence.state.get("veterans_used", 0)
        groups = _experienced_groups(sequence.participant.warband)
        context.update(
            available=available,
            experience_left=None if available is None else available - used,
            groups=[
                (g, g.warrior_type.cost + equipment_per_model(g) + 2 * g.experience) for g in groups
            ],
        )
        return context

    def run_task(self, ctx, task, dice):
        roll = dice.roll(2, 6, "Veterans: experience available (2D6)")
        task.result = {"available": roll.total}
        return f"2D6 {roll.faces[0]}+{roll.faces[1]} = {roll.total} experience available."

    def do_add_veterans(self, ctx, data, dice):
        task = ctx.sequence.tasks.filter(step=5, void=False, kind="veterans", done=True).first()
        if task is None:
            raise RuleViolation("Roll for the experience available first.")
        group = own_warrior(ctx, read_pk(data, "group"))
        if group.is_hero or group.experience == 0:
            raise RuleViolation("Veterans join an experienced henchman group.")
        models = read_int(data, "models", "How many", minimum=1, maximum=20)
        used = ctx.sequence.state.get("veterans_used", 0)
        left = task.result["available"] - used
        brought = models * group.experience
        if brought > left:
            raise RuleViolation(
                f"{models} veteran{'s' if models > 1 else ''} of {group.name} bring {brought} "
                f"experience; {left} is left of the roll."
            )
        check_group_grows(ctx, group, models)
        per_model = group.warrior_type.cost + equipment_per_model(group) + 2 * group.experience
        pay(
            ctx,
            per_model * models,
            f"{models} veteran(s) for {group.name}",
            prefer=read_pk(data, "pay_from"),
        )
        ctx.journal.update(group, group_size=group.group_size + models)
        ctx.journal.update(
            ctx.sequence, state={**ctx.sequence.state, "veterans_used": used + brought}
        )
        return f"{models} veteran(s) join {group.name} for {per_model * models} gc."


# --- Step 6: rare items --------------------------------------------------------------------


def rare_goods(max_rarity: int) -> tuple[list[Item], list[tuple[str, str, int, int]]]:
    """Rare items and rare containers available at ``max_rarity`` or less."""
    items = list(Item.objects.filter(rarity__isnull=False, rarity__lte=max_rarity).order_by("name"))
    containers = [
        (kind, spec.name, spec.price, spec.rarity)
        for kind, spec in container_rules.CATALOGUE.items()
        if spec.rarity is not None and spec.price is not None and spec.rarity <= max_rarity
    ]
    return items, containers


class RareItems(TreasuryStep):
    """Step 6: one rarity roll (2D6 + modifiers) per hero who was not taken out of action;
    each success buys at most one rare item."""

    after_tasks = True  # its forms come after its rolls
    number = 6
    rolls = True
    asks = False
    actions = ("buy_rare",)

    def prepare(self, sequence):
        if sequence.tasks.filter(step=6, void=False).exists():
            return
        bonus = sequence.participant.warband.warband_type.rare_item_modifier
        heroes = standing_heroes(sequence)
        streetwise = set(
            WarriorSkill.objects.filter(warrior__in=heroes, skill__key="streetwise").values_list(
                "warrior_id", flat=True
            )
        )
        tasks = []
        for order, hero in enumerate(heroes):
            modifier = self.modifier(hero, bonus, streetwise=hero.pk in streetwise)
            tasks.append(SequenceTask(
                sequence=sequence, step=6, order=order, kind="rarity", warrior=hero,
                label=f"{hero.name}'s rarity roll" + (f" (+{modifier})" if modifier else ""),
                data={"streetwise": hero.pk in streetwise},
            ))  # fmt: skip
        SequenceTask.objects.bulk_create(tasks)

    @staticmethod
    def modifier(hero: Warrior, warband_bonus: int, *, streetwise: bool | None = None) -> int:
        if streetwise is None:
            streetwise = hero.skills.filter(skill__key="streetwise").exists()
        return rules.rarity_modifier(
            streetwise=streetwise, warband_bonus=warband_bonus, kept_gems=hero.kept_gems
        )

    def page_context(self, sequence, user):
        context = treasury_page(sequence, user)
        offers = []
        for task in sequence.tasks.filter(step=6, void=False, kind="rarity", done=True):
            result = task.result or {}
            if result.get("bought") or result.get("total") is None:
                continue
            items, containers = rare_goods(result["total"])
            prices = result.get("prices", {})
            offers.append((task, [(i, prices.get(i.key)) for i in items], containers))
        context["offers"] = offers
        return context

    def run_task(self, ctx, task, dice):
        """The roll with the modifier its label shows: Streetwise as the hero had it when the
        step began (skills come in step 2; tasks made before this was kept read it now)."""
        hero = task.warrior  # read with the task
        streetwise = (task.data or {}).get("streetwise")
        modifier = self.modifier(
            hero, ctx.warband.warband_type.rare_item_modifier, streetwise=streetwise
        )
        roll = dice.roll(2, 6, f"{hero.name}: rarity roll (2D6)")
        total = roll.total + modifier
        task.result = {"total": total}
        shown = f"+{modifier} " if modifier else ""
        return f"2D6 {roll.faces[0]}+{roll.faces[1]} {shown}= {total}: items up to Rare {total}."

    def do_buy_rare(self, ctx, data, dice):
        task = (
            SequenceTask.objects.select_for_update()
            .filter(
                sequence=ctx.sequence,
                step=6,
                void=False,
                kind="rarity",
                done=True,
                pk=read_pk(data, "task"),
            )
            .first()
        )
        if task is None:
            raise RuleViolation("Choose a successful rarity roll.")
        result = dict(task.result or {})
        if result.get("bought"):
            raise RuleViolation("Each successful roll buys one rare item; this one has.")
        goods = str(data.get("goods", ""))
        kind, _, key = goods.partition(":")
        if kind == "container":
            spec = container_rules.CATALOGUE.get(key)
            if spec is None or spec.rarity is None or spec.price is None:
                raise RuleViolation("Choose a rare item or container.")
            if spec.rarity > result["total"]:
                raise RuleViolation(
                    f"A {spec.name} is Rare {spec.rarity}: the roll was {result['total']}."
                )
            pay(ctx, spec.price, f"a {spec.name}", prefer=read_pk(data, "pay_from"))
            ctx.journal.create(StorageContainer, warband=ctx.warband, kind=key)
            bought = f"a {spec.name} for {spec.price} gc"
        else:
            item = Item.objects.filter(key=key, rarity__isnull=False).first()
            if item is None:
                raise RuleViolation("Choose a rare item or container.")
            if item.rarity > result["total"]:
                raise RuleViolation(
                    f"{item.name} is Rare {item.rarity}: the roll was {result['total']}."
                )
            destination = str(data.get("to", ""))
            where, _, pk = destination.partition(":")
            warrior = container = None
            if where == "warrior":
                warrior = own_warrior(ctx, int(pk) if pk.isdigit() else None)
                if warrior.group_size > 1:
                    raise RuleViolation(
                        "A henchman group needs one for each model: store it instead."
                    )
                treasury.check_may_use(warrior, item)
            else:
                container = own_container(ctx, int(pk) if pk.isdigit() else None, what=item.name)
            # The price is rolled once; it stands even if the treasury cannot pay it now.
            prices = dict(result.get("prices", {}))
            if key not in prices:
                prices[key] = rules.variable_price(dice, item.price, item.price_dice, item.name)
                result["prices"] = prices
                ctx.journal.update(task, result=result)
            price = prices[key]
            if price > gold_held(ctx.warband):
                return f"{item.name} costs {price} gc: more than the treasury holds."
            pay(ctx, price, item.name, prefer=read_pk(data, "pay_from"))
            if warrior is not None:
                ctx.journal.create(WarriorItem, warrior=warrior, item=item, price_paid=price)
                bought = f"{item.name} for {price} gc, to {warrior.name}"
            else:
                treasury.add_item(
                    container,
                    item=item,
                    reason=Reason.PURCHASE,
                    context=ctx.treasury_context(f"bought for {price} gc"),
                )
                bought = f"{item.name} for {price} gc, into {container.the}"
        result["bought"] = bought
        ctx.journal.update(task, result=result)
        return f"Bought {bought}."


# --- Step 7: hired swords and dramatis personae --------------------------------------------


def upkeep_due(sequence: PostBattleSequence) -> list[HiredSword]:
    battle = sequence.participant.battle
    return list(
        HiredSword.objects.filter(
            warband=sequence.participant.warband, status=HiredSword.Status.ACTIVE
        )
        .exclude(hired_after=battle)
        .exclude(created_at__gt=battle.created_at)
        .order_by("pk")
    )


class DramatisPersonae(TreasuryStep):
    """Step 7: hire hired swords and dramatis personae (a name, the fee paid, the upkeep);
    pay the upkeep of those already with the warband, or let them go."""

    number = 7
    actions = ("hire_sword", "upkeep")

    def page_context(self, sequence, user):
        context = treasury_page(sequence, user)
        decided = sequence.state.get("upkeep", {})
        context["upkeep"] = [(h, decided.get(str(h.pk))) for h in upkeep_due(sequence)]
        context["hired_swords"] = list(
            HiredSword.objects.filter(
                warband=sequence.participant.warband, status=HiredSword.Status.ACTIVE
            )
        )
        context["sword_kinds"] = HiredSword.Kind.choices
        return context

    def blockers(self, sequence, tasks=None):
        decided = sequence.state.get("upkeep", {})
        return [
            f"Pay {h.name}'s upkeep or let him go."
            for h in upkeep_due(sequence)
            if str(h.pk) not in decided
        ]

    def do_hire_sword(self, ctx, data, dice):
        name = str(data.get("name", "")).strip()[:100]
        if not name:
            raise RuleViolation("Give the hired sword's name.")
        kind = str(data.get("kind", HiredSword.Kind.HIRED_SWORD))
        if kind not in HiredSword.Kind.values:
            raise RuleViolation("Choose a hired sword or a dramatis persona.")
        fee = read_int(data, "hire_fee", "Hire fee", maximum=1000)
        upkeep = read_int(data, "upkeep", "Upkeep", maximum=1000)
        pay(ctx, fee, f"hiring {name}", prefer=read_pk(data, "pay_from"))
        ctx.journal.create(
            HiredSword,
            warband=ctx.warband,
            name=name,
            kind=kind,
            hire_fee=fee,
            upkeep=upkeep,
            hired_after=ctx.battle,
        )
        return f"Hired {name} for {fee} gc (upkeep {upkeep} gc)."

    def do_upkeep(self, ctx, data, dice):
        sword = next(
            (h for h in upkeep_due(ctx.sequence) if h.pk == read_pk(data, "hired_sword")), None
        )
        if sword is None:
            raise RuleViolation("Choose a hired sword whose upkeep is due.")
        decided = dict(ctx.sequence.state.get("upkeep", {}))
        if str(sword.pk) in decided:
            raise RuleViolation(f"{sword.name}'s upkeep is settled already: nothing changed.")
        if data.get("decision") == "pay":
            pay(ctx, sword.upkeep, f"{sword.name}'s upkeep", prefer=read_pk(data, "pay_from"))
            decided[str(sword.pk)] = "paid"
            text = f"Paid {sword.upkeep} gc upkeep to {sword.name}."
        elif data.get("decision") == "leave":
            ctx.journal.update(sword, status=HiredSword.Status.LEFT)
            decided[str(sword.pk)] = "left"
            text = f"{sword.name} leaves the warband."
        else:
            raise RuleViolation("Pay the upkeep or let him go.")
        ctx.journal.update(ctx.sequence, state={**ctx.sequence.state, "upkeep": decided})
        return text


# --- Step 8: recruits, common items, selling -----------------------------------------------


def _recruits(sequence: PostBattleSequence) -> set[int]:
    return set(sequence.state.get("recruits", []))


def common_entries(warrior: Warrior, by_type=None) -> list[EquipmentListEntry]:
    """The Common items of the warrior's equipment list (FACTS.md section 6)."""
    if by_type is None:
        by_type = warband_services.list_entries_by_type([warrior.warrior_type_id])
    entries = by_type.get(warrior.warrior_type_id, [])
    return [e for e in entries if e.item.rarity is None and (warrior.is_hero or not e.heroes_only)]


class Recruits(TreasuryStep):
    """Step 8: hire new warriors and buy Common items; sell items for half their price."""

    number = 8
    actions = ("hire", "add_models", "buy", "buy_stash", "sell")

    def page_context(self, sequence, user):
        warband = sequence.participant.warband
        # What the recruits' forms need of each warrior: its type, profile and items.
        warriors = list(
            Warrior.objects.filter(warband=warband, status=Warrior.Status.ACTIVE)
            .select_related("warrior_type")
            .with_items()
        )
        context = treasury_page(sequence, user, warriors=warriors)
        recruits = _recruits(sequence)
        by_type = warband_services.list_entries_by_type({w.warrior_type_id for w in warriors})
        types = []
        for warrior_type, reason in warband_services.hireable_types(warband, warriors):
            types.append((warrior_type, reason if reason and "gc" not in reason else None))
        context.update(
            hireable=types,
            recruits=recruits,
            buyers=[(w, common_entries(w, by_type)) for w in warriors],
            fresh_groups=[w for w in warriors if not w.is_hero and w.experience == 0],
            stash_items=Item.objects.filter(rarity__isnull=True)
            .exclude(category__in=[*treasury.NOT_STORABLE, Item.Category.TREASURE])
            .order_by("category", "name"),
            sellable_owned=[
                (w, o)
                for w in warriors
                for o in w.item_list
                if o.item.category not in treasury.NOT_STORABLE
            ],
        )
        return context

    def do_hire(self, ctx, data, dice):
        warrior_type = WarriorType.objects.filter(
            warband_type=ctx.warband.warband_type, pk=read_pk(data, "warrior_type")
        ).first()
        if warrior_type is None:
            raise RuleViolation("Choose a warrior type of your list.")
        models = (
            1
            if warrior_type.is_hero
            else read_int(data, "group_size", "Group size", minimum=1, maximum=20)
        )
        current = list(ctx.warband.warriors.on_roster().select_related("warrior_type"))
        cost = roster_rules.check_hire(
            ctx.warband.warband_type.limits,
            warband_services.roster_entries(current),
            warrior_type.as_rule(),
            models=models,
            gold=None,
        )
        name = str(data.get("name", "")).strip()[:100] or warrior_type.name
        pay(ctx, cost, f"hiring {name}", prefer=read_pk(data, "pay_from"))
        warrior = ctx.journal.create(
            Warrior,
            warband=ctx.warband,
            warrior_type=warrior_type,
            name=name,
            is_hero=warrior_type.is_hero,
            is_leader=False,
            group_size=models,
            experience=warrior_type.starting_experience,
            hired_at_creation=False,
            **warrior_type.profile.as_dict(),
        )
        dagger = warband_services.list_entries_for(warrior_type).filter(
            item__key="dagger", first_free=True
        )
        if dagger.exists():
            ctx.journal.create(WarriorItem, warrior=warrior, item=dagger.first().item, price_paid=0)
        if warrior_type.spell_list_id and warrior_type.starting_spells:
            warband_services.roll_starting_spells(warrior, warrior_type, dice)
        recruits = sorted(_recruits(ctx.sequence) | {warrior.pk})
        ctx.journal.update(ctx.sequence, state={**ctx.sequence.state, "recruits": recruits})
        size = f" ×{models}" if models > 1 else ""
        return f"Hired {name} ({warrior_type.name}{size}) for {cost} gc."

    def do_add_models(self, ctx, data, dice):
        group = own_warrior(ctx, read_pk(data, "group"))
        if group.is_hero:
            raise RuleViolation("Heroes are not in groups.")
        if group.experience:
            raise RuleViolation(f"{group.name} have experience: add veterans in step 5.")
        models = read_int(data, "models", "How many", minimum=1, maximum=20)
        check_group_grows(ctx, group, models)
        cost = (group.warrior_type.cost + equipment_per_model(group)) * models
        pay(ctx, cost, f"{models} more for {group.name}", prefer=read_pk(data, "pay_from"))
        ctx.journal.update(group, group_size=group.group_size + models)
        return f"{models} more join {group.name} for {cost} gc."

    def do_buy(self, ctx, data, dice):
        warrior = own_warrior(ctx, read_pk(data, "warrior"))
        key = str(data.get("item", ""))
        entry = next((e for e in common_entries(warrior) if e.item.key == key), None)
        if entry is None:
            raise RuleViolation(f"That is not a Common item of {warrior.name}'s list.")
        recruit = warrior.pk in _recruits(ctx.sequence)
        if entry.recruitment_only and not recruit:
            raise RuleViolation(
                f"{entry.item.name} can only be bought when the warrior is recruited."
            )
        buyer = replace(warband_services.buyer_of(warrior), being_recruited=recruit)
        _, cost = roster_rules.check_purchase(
            [entry.as_rule()], key, buyer, models=warrior.group_size, gold=10**9
        )
        pay(ctx, cost, f"{entry.item.name} for {warrior.name}", prefer=read_pk(data, "pay_from"))
        ctx.journal.create(
            WarriorItem,
            warrior=warrior,
            item=entry.item,
            price_paid=roster_rules.price_per_model(entry.as_rule(), buyer),
        )
        return f"Bought {entry.item.name} for {warrior.name} ({cost} gc)."

    def do_buy_stash(self, ctx, data, dice):
        item = (
            Item.objects.filter(rarity__isnull=True, key=str(data.get("item", "")))
            .exclude(category__in=[*treasury.NOT_STORABLE, Item.Category.TREASURE])
            .first()
        )
        if item is None:
            raise RuleViolation("Choose a Common item.")
        container = own_container(ctx, read_pk(data, "into"), what=item.name)
        pay(ctx, item.price, item.name, prefer=read_pk(data, "pay_from"))
        treasury.add_item(
            container,
            item=item,
            reason=Reason.PURCHASE,
            context=ctx.treasury_context(f"bought for {item.price} gc"),
        )
        return f"Bought {item.name} for {item.price} gc, into {container.the}."

    def do_sell(self, ctx, data, dice):
        """Trading: any item sells for half its price (rounded down)."""
        what, _, pk = str(data.get("what", "")).partition(":")
        target = destination(ctx, data)
        if what == "stored":
            stored = (
                StoredItem.objects.filter(
                    container__warband=ctx.warband, pk=int(pk or 0), container__status="held"
                )
                .select_related("item", "container")
                .first()
            )
            if stored is None:
                raise RuleViolation("Choose an item to sell.")
            price = stored.item.sale_price if stored.item else 0
            if not price:
                raise RuleViolation(f"No trader buys {stored.name}.")
            treasury.remove_item(
                stored, reason=Reason.SALE, context=ctx.treasury_context(f"sold for {price} gc")
            )
            name = stored.name
        elif what == "owned":
            owned = (
                WarriorItem.objects.filter(
                    warrior__warband=ctx.warband,
                    pk=int(pk or 0),
                    warrior__status=Warrior.Status.ACTIVE,
                )
                .select_related("item", "warrior")
                .first()
            )
            if owned is None:
                raise RuleViolation("Choose an item to sell.")
            if owned.item.category in treasury.NOT_STORABLE:
                raise RuleViolation(f"{owned.item.name} cannot be sold.")
            price = owned.item.sale_price * owned.warrior.group_size
            if not price:
                raise RuleViolation(f"No trader buys {owned.item.name}.")
            name = f"{owned.item.name} of {owned.warrior.name}"
            ctx.journal.delete(owned)
        else:
            raise RuleViolation("Choose an item to sell.")
        receive(ctx, target, reason=Reason.SALE, note=f"sold {name}", gold=price)
        return f"Sold {name} for {price} gc into {target.the}."


# --- Step 9: reallocation ------------------------------------------------------------------


def _stored_in(containers) -> list[StoredItem]:
    """The items stored in the warband's held containers (with their ``stored_list``), by
    name, each knowing its container."""
    stored = []
    for container in containers:
        for item in container.stored_list:
            item.container = container
            stored.append(item)
    return sorted(stored, key=lambda item: (item.name, item.pk))


class Reallocate(TreasuryStep):
    """Step 9: move gold, shards and items between containers and warriors (items only to
    warriors whose list allows them), buy, sell and load containers."""

    number = 9
    actions = ("move", "move_item", "equip", "unequip", "buy_container", "sell_container", "place")

    def page_context(self, sequence, user):
        context = treasury_page(sequence, user)
        real = context["real_containers"]
        context.update(
            carriers=Choices(c for c in real if c.kind in container_rules.CARRIERS),
            boxes=Choices(c for c in real if c.kind in container_rules.BOXES),
            buyable=[(kind, container_rules.spec(kind)) for kind in treasury.BUYABLE_CONTAINERS],
            heroes=[w for w in context["warriors"] if w.is_hero],
            stored=_stored_in(context.pop("loaded")),
        )
        return context

    def do_move(self, ctx, data, dice):
        source, target = destinations(ctx, data, "source", "target")
        gold = read_int(data, "gold", "Gold crowns")
        shards = read_int(data, "wyrdstone", "Wyrdstone shards")
        treasury.move_treasure(
            source,
            target,
            actor=ctx.actor,
            gold=gold,
            wyrdstone=shards,
            context=ctx.treasury_context(),
        )
        moved = " and ".join(amount_parts(gold, shards))
        return f"Moved {moved} from {source.the} to {target.the}."

    def do_move_item(self, ctx, data, dice):
        stored = _stored(ctx, data)
        target = destination(ctx, data, "target")
        treasury.move_stored_item(stored, target, actor=ctx.actor, context=ctx.treasury_context())
        return f"Moved {stored.name} to {target.the}."

    def do_equip(self, ctx, data, dice):
        stored = _stored(ctx, data)
        warrior = own_warrior(ctx, read_pk(data, "warrior"))
        owned = treasury.equip_stored_item(
            stored, warrior, actor=ctx.actor, context=ctx.treasury_context()
        )
        ctx.journal.created(owned)
        return f"{warrior.name} takes {stored.name}."

    def do_unequip(self, ctx, data, dice):
        owned = (
            WarriorItem.objects.filter(warrior__warband=ctx.warband, pk=read_pk(data, "owned") or 0)
            .select_related("item", "warrior")
            .first()
        )
        if owned is None:
            raise RuleViolation("Choose an item a warrior carries.")
        target = destination(ctx, data, "target")
        ctx.journal.will_delete(owned)
        treasury.store_warrior_item(owned, target, actor=ctx.actor, context=ctx.treasury_context())
        return f"{owned.item.name} of {owned.warrior.name} stored in {target.the}."

    def do_buy_container(self, ctx, data, dice):
        kind = str(data.get("kind", ""))
        if kind not in treasury.BUYABLE_CONTAINERS:
            raise RuleViolation("Choose a Common container (rare ones are bought in step 6).")
        holder = own_warrior(ctx, read_pk(data, "holder")) if kind == "pouch" else None
        spec = container_rules.spec(kind)
        pay(ctx, spec.price, f"a {spec.name}", prefer=read_pk(data, "pay_from"))
        if holder is not None and not holder.is_hero:
            raise RuleViolation(f"Only heroes may use a {spec.name}; {holder.name} is not one.")
        if (
            holder is not None
            and StorageContainer.objects.held().filter(kind=kind, holder=holder).exists()
        ):
            raise RuleViolation(f"{holder.name} already has a {spec.name}.")
        ctx.journal.create(StorageContainer, warband=ctx.warband, kind=kind, holder=holder)
        return f"Bought a {spec.name} for {spec.price} gc."

    def do_sell_container(self, ctx, data, dice):
        container = own_container(ctx, read_pk(data, "container"))
        if container.kind == StorageContainer.LOOSE:
            raise RuleViolation("Choose a container to sell.")
        proceeds = destination(ctx, data, "proceeds_to")
        with ctx.journal.watch(container, ["status", "parent"]):
            treasury.sell_container(
                container, actor=ctx.actor, proceeds_to=proceeds, context=ctx.treasury_context()
            )
        return f"Sold {container.the} for {container.spec.price // 2} gc."

    def do_place(self, ctx, data, dice):
        container = own_container(ctx, read_pk(data, "container"))
        parent = own_container(ctx, read_pk(data, "parent")) if read_pk(data, "parent") else None
        with ctx.journal.watch(container, ["parent"]):
            treasury.place_container(container, parent, actor=ctx.actor)
        where = f"on {parent.the}" if parent else "on its own"
        return f"The {container} now rides {where}."


def _stored(ctx: Context, data: Mapping) -> StoredItem:
    stored = (
        StoredItem.objects.filter(
            container__warband=ctx.warband,
            container__status="held",
            pk=read_pk(data, "stored_item") or 0,
        )
        .select_related("container", "item")
        .first()
    )
    if stored is None:
        raise RuleViolation("Choose a stored item.")
    return stored


STEPS = {
    step.number: step
    for step in (
        Exploration(),
        SellWyrdstone(),
        Veterans(),
        RareItems(),
        DramatisPersonae(),
        Recruits(),
        Reallocate(),
    )
}
