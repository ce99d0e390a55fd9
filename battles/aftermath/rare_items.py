"""Step 6 of the post-battle sequence, rare items (FACTS.md section 6): one rarity roll (2D6 +
modifiers) per hero who was not taken out of action. Readings where the rules are silent:

- Who searches: the heroes who explored in step 3 (``standing_heroes``), as they are now:
  each hero who took part in the battle and was not put out of action, unless he has died
  since (the Pit) or is held captive. The rules bar only the heroes taken out of action; our
  reading bars also a hero who missed the battle (he was kept back, recovering, as he
  explores nothing in step 3) and a captive (held by the enemy). A battle reported before the
  sides entered their warriors has no outcomes for the side: every hero free to fight searches.
- Haggle (``battles.aftermath.haggle``) may knock 2D6 off one rare item or container: its dice
  are typed after any price dice.
- A Mordheim map's D6 (``battles.aftermath.mordheim_map``) is typed last, after those.
- What a roll finds, and for how much, is ``warbands.rules.trading.rare_terms``'s: an item
  rare for this warband (at its rarity for it: a holy relic is Rare 6 for the Sisters), at the
  chart's price; never a thing only found, nor a Common item (step 8 sells those).
- Each successful rarity roll buys at most one rare item, for the whole warband; it goes into
  a container or onto a single-model warrior who may use it (a henchman group would need one
  per model). A variable price is rolled once per roll and item, and stands if the player
  cannot pay it at once.
"""

from __future__ import annotations

from battles.aftermath import haggle, mordheim_map, persona_search, sawbones
from battles.aftermath.engine import action
from battles.aftermath.treasury_steps import (
    TreasuryStep,
    gold_held,
    note_receipt,
    own_warrior,
    pay,
    receipts,
    standing_heroes,
    step_board,
)
from battles.dice import exactly
from battles.models import SequenceTask
from battles.rules import exploration as rules
from core.dice import MoreDice, Need, TypedDice
from core.errors import RuleViolation
from core.words import A, a, possessive
from warbands import treasury
from warbands.models import Item, LedgerEntry, StorageContainer, Warrior, WarriorItem, WarriorSkill
from warbands.rules import containers as container_rules
from warbands.rules import trading

Reason = LedgerEntry.Reason


def price_roll(item: Item, prices: dict) -> Need:
    """The dice a buy of ``item`` types for its price: those of its variable price
    (``rules.variable_price``, asked with no dice, says how many), none for a fixed price or
    one rolled already for this rarity roll (``prices``)."""
    if item.key in prices:
        return Need(0, note=f"its price was rolled already: {prices[item.key]} gc")
    try:
        rules.variable_price(TypedDice([]), item.price, item.price_dice, item.name)
    except MoreDice as asked:
        return Need(asked.n, item.price_dice)
    return Need(0, note=f"its price is fixed: {item.price} gc")


def rare_wares() -> list[trading.Ware]:
    """The catalogue as the traders see it, by name: ``trading.rare_offers`` picks what a
    rarity roll finds."""
    return [item.as_ware() for item in Item.objects.order_by("name")]


def rare_goods(
    wares: list[trading.Ware], warband_key: str, roll: int
) -> tuple[list[trading.Offer], list[tuple[str, str, int, int]]]:
    """Rare items (``trading.rare_terms``: rare for this warband, at its rarity for it, each
    with its restriction) and rare containers available to a rarity roll of ``roll``."""
    containers = [
        (kind, spec.name, spec.price, spec.rarity)
        for kind, spec in container_rules.CATALOGUE.items()
        if spec.rarity is not None and spec.price is not None and spec.rarity <= roll
    ]
    return trading.rare_offers(wares, warband_key, roll=roll), containers


def rarity_modifiers(warband_type) -> list[str]:
    """The modifiers of the rarity roll that may apply to this warband (FACTS.md section 6):
    its own list's bonus only, never another list's: a player reads only what may change
    his own roll."""
    own = warband_type.rare_item_modifier
    named = [f"{warband_type.name} {own:+d}"] if own else []
    return ["Streetwise +2", *named, "kept gems +1"]


class RareItems(TreasuryStep):
    """Step 6: one rarity roll (2D6 + modifiers) per hero who took part and was not taken out
    of action (``standing_heroes``); each success buys at most one rare item."""

    after_tasks = True  # its forms come after its rolls
    number = 6
    rolls = True
    asks = False

    def planned(self, sequence):
        bonus = sequence.participant.warband.warband_type.rare_item_modifier
        # Sent after a persona or to the physician: no rare items for them.
        searching = persona_search.searching_heroes(sequence) | sawbones.patients_seen(sequence)
        heroes = [hero for hero in standing_heroes(sequence) if hero.pk not in searching]
        if not heroes:
            return []
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
                label=f"{possessive(hero.name)} rarity roll"
                + (f" (+{modifier})" if modifier else ""),
                data={"streetwise": hero.pk in streetwise},
            ))  # fmt: skip
        return tasks

    @staticmethod
    def modifier(hero: Warrior, warband_bonus: int, *, streetwise: bool | None = None) -> int:
        if streetwise is None:
            streetwise = hero.skills.filter(skill__key="streetwise").exists()
        return rules.rarity_modifier(
            streetwise=streetwise, warband_bonus=warband_bonus, kept_gems=hero.kept_gems
        )

    def page_context(self, sequence, user, posts=None):
        context = {"board": step_board(sequence, user, posts)}
        offers, wares = [], None
        key = sequence.participant.warband.warband_type.key
        for task in sequence.tasks.filter(step=6, void=False, kind="rarity", done=True):
            result = task.result or {}
            if result.get("bought") or result.get("total") is None:
                continue
            wares = rare_wares() if wares is None else wares
            items, containers = rare_goods(wares, key, result["total"])
            prices = result.get("prices", {})
            offered = [(offer, prices.get(offer.key), offer.refusal) for offer in items]
            offers.append((task, offered, containers))
        context["offers"] = offers
        context["haggler"] = haggle.haggler(sequence)
        context["rarity_modifiers"] = rarity_modifiers(sequence.participant.warband.warband_type)
        context["receipts"] = receipts(sequence)
        context["persona_searchers"] = persona_search.searchers(sequence)
        context["persona_offers"] = persona_search.offered(sequence)
        context["persona_searches"] = persona_search.searches(sequence)
        if sawbones.plays(sequence):
            context["patients"] = sawbones.patients(sequence)
            context["visits"] = sawbones.visits(sequence)
        return context

    @action
    def seek_persona(self, ctx, values, dice):
        """Heroes sent to look for a dramatis persona instead of rare items
        (``persona_search``)."""
        return persona_search.seek(ctx, values, dice)

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

    @action
    def treat(self, ctx, values, dice):
        """Sawbones: a hero sees a physician instead of searching (``aftermath.sawbones``)."""
        return sawbones.treat(ctx, values, dice)

    @action
    def buy_rare(self, ctx, values, dice):
        task = (
            SequenceTask.objects.select_for_update(no_key=True)
            .filter(
                sequence=ctx.sequence,
                step=6,
                void=False,
                kind="rarity",
                done=True,
                pk=values["task"],
            )
            .first()
        )
        if task is None:
            raise RuleViolation("Choose a successful rarity roll.")
        result = dict(task.result or {})
        if result.get("bought"):
            raise RuleViolation("Each successful roll buys one rare item; this one has.")
        kind, key = values["goods"]
        if kind == "container":
            spec = container_rules.CATALOGUE.get(key)
            if spec is None or spec.rarity is None or spec.price is None:
                raise RuleViolation("Choose a rare item or container.", field="goods")
            if spec.rarity > result["total"]:
                raise RuleViolation(
                    f"{A(spec.name)} is Rare {spec.rarity}: the roll was {result['total']}."
                )
            need = Need(0, note=f"its price is fixed: {spec.price} gc")
            hero = haggle.check(ctx, spec.price, A(spec.name)) if values.get("haggle") else None
            need = haggle.with_haggle(need) if hero else need
            dice = exactly(dice, need, f"The {possessive(spec.name)} price")
            price, haggled = spec.price, ""
            if hero is not None:
                done = haggle.haggle(ctx, hero, dice, price, a(spec.name))
                price, haggled = done.price, f" ({done.describe()})"
            paid = pay(ctx, price, a(spec.name), prefer=values["pay_from"])
            made = ctx.journal.create(StorageContainer, warband=ctx.warband, kind=key)
            treasury.number_alike(ctx.warband.pk, key, [made])
            bought = f"{a(spec.name)} for {price} gc{haggled}"
            receipt = f"Bought the {made}: {paid}{haggled}."
        else:
            item = Item.objects.filter(key=key).first()
            offer = trading.rare_terms(
                item.as_ware() if item else None, ctx.warband.warband_type.key, roll=result["total"]
            )
            if offer.refusal:
                raise RuleViolation(offer.refusal)
            # A warrior's key, or one of the warband's containers (``BuyRareForm.clean_to``).
            where, chosen = values["to"]
            warrior = container = None
            if where == "warrior":
                warrior = own_warrior(ctx, chosen)
                if warrior.group_size > 1:
                    raise RuleViolation(
                        "A henchman group needs one for each model: store it instead."
                    )
                treasury.check_may_use(warrior, item)
            else:
                container = chosen
                if container is None:
                    raise RuleViolation(f"Choose one of your containers for the {item.name}.")
                container.warband = ctx.warband  # loaded with the sequence
            # The price is rolled once; it stands even if the treasury cannot pay it now.
            prices = dict(result.get("prices", {}))
            need = price_roll(item, prices)
            hero = None
            if values.get("haggle"):  # checked before any die is rolled
                least = prices.get(key, item.price + need.count)  # a price not rolled: its least
                hero = haggle.check(ctx, least, item.name)
                need = haggle.with_haggle(need)
            if key == mordheim_map.KEY:
                need = mordheim_map.with_map_die(need)
            dice = exactly(dice, need, f"The {possessive(item.name)} price")
            if key not in prices:
                prices[key] = rules.variable_price(dice, item.price, item.price_dice, item.name)
                result["prices"] = prices
                ctx.journal.update(task, result=result)
            price, haggled = prices[key], ""
            if hero is not None:
                done = haggle.haggle(ctx, hero, dice, price, item.name)
                price, haggled = done.price, f" ({done.describe()})"
            if price > gold_held(ctx.warband):
                return f"{item.name} costs {price} gc{haggled}: more than the treasury holds."
            paid = pay(ctx, price, item.name, prefer=values["pay_from"])
            if warrior is not None:
                ctx.journal.create(WarriorItem, warrior=warrior, item=item, price_paid=price)
                bought = f"{item.name} for {price} gc{haggled}, to {warrior.name}"
                receipt = f"Bought {item.name} for {warrior.name}: {paid}{haggled}."
            else:
                treasury.add_item(
                    container,
                    item=item,
                    reason=Reason.PURCHASE,
                    context=ctx.treasury_context(f"bought for {price} gc"),
                )
                bought = f"{item.name} for {price} gc{haggled}, into {container.the}"
                receipt = f"Bought {item.name} into {container.the}: {paid}{haggled}."
            if key == mordheim_map.KEY:
                bought = f"{bought}; {mordheim_map.bought(ctx, dice)}"
        result["bought"] = bought
        ctx.journal.update(task, result=result)
        note_receipt(ctx, receipt)
        return f"Bought {bought}."
