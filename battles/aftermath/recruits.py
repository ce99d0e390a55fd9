"""Step 8 of the post-battle sequence, recruits and common items (FACTS.md section 6): hire new
warriors, buy Common items, sell items for half their price. Readings where the rules are
silent:

- Recruits are paid from the treasury. What a warrior buys from his lists and what is bought
  into the stash, and for how much, is ``warbands.rules.trading``'s: Common items only (for
  this warband), at the list price or at the chart's; never a thing only found.
- A Common item with dice in its chart price (blessed water for the Sisters) bought into the
  stash has its dice rolled by the server (this form takes no typed dice), logged.
- Models added to a henchman group without experience are plain recruits (this step); models
  added to an experienced group are veterans (step 5).
- The Undead's dead Vampire may be bought again after the next game; he leads, and the
  Necromancer steps down (``battles.aftermath.leader_return``).
- A Wolfcloak is won in a hunt (``warbands.rules.purchases``): the hero pays, then the
  server rolls his D6 against his Strength (this form takes no typed dice), logged with the
  step's other rolls.
- A recruit whose type has a ``starting_skill`` (the Brutes' Strongman) starts with it.
- Haggle (``battles.aftermath.haggle``) may knock 2D6 off one Common item bought (one model's,
  for a group), rolled by the server (these forms take no typed dice) and logged.
"""

from __future__ import annotations

from battles.aftermath import haggle, leader_return
from battles.aftermath.engine import action
from battles.aftermath.treasury_steps import (
    TreasuryStep,
    check_group_grows,
    equipment_per_model,
    locked_containers,
    note_receipt,
    own_warrior,
    pay,
    receipts,
    receive,
    step_board,
)
from battles.models import PostBattleSequence
from battles.rules import exploration as exploration_rules
from core.errors import RuleViolation
from core.words import possessive
from warbands import equipment, treasury
from warbands import rules as roster_rules
from warbands import services as warband_services
from warbands.models import (
    Item,
    LedgerEntry,
    StoredItem,
    Warrior,
    WarriorItem,
    WarriorType,
)
from warbands.rules import purchases, succession, trading
from warbands.starting_skills import give_starting_skills

Reason = LedgerEntry.Reason


def _recruits(sequence: PostBattleSequence) -> set[int]:
    return set(sequence.state.get("recruits", []))


def list_offers(
    warrior: Warrior, warband_key: str, *, recruit: bool, by_type=None
) -> list[trading.Offer]:
    """What the warrior may buy from his own lists in this step (``trading.list_terms``):
    the items Common for his warband, at the list price a model; mutations only for a recruit
    of this step. Uses the warrior's prefetched items."""
    if by_type is None:
        by_type = equipment.list_entries_by_type([warrior.warrior_type_id])
    buyer = equipment.buyer_of(warrior, founding=False, being_recruited=recruit)
    offers = []
    for entry in by_type.get(warrior.warrior_type_id, []):
        if entry.recruitment_only and not recruit:
            continue
        try:
            offer = trading.list_terms(entry.as_rule(), entry.item.as_ware(), buyer, warband_key)
        except RuleViolation:
            continue
        offers.append(offer)
    return offers


def stash_offers(warband_key: str) -> list[trading.Offer]:
    """What may be bought into a container (``trading.stash_terms``), in the catalogue's
    order; each with why this warband may not have it, if so (shown greyed)."""
    return trading.stash_offers((item.as_ware() for item in Item.objects.all()), warband_key)


class Recruits(TreasuryStep):
    """Step 8: hire new warriors and buy Common items; sell items for half their price."""

    number = 8

    def page_context(self, sequence, user, posts=None):
        warband = sequence.participant.warband
        # What the recruits' forms need of each warrior: its type, profile and items.
        warriors = list(
            Warrior.objects.filter(warband=warband, status=Warrior.Status.ACTIVE)
            .select_related("warrior_type")
            .with_items()
        )
        context = {"board": step_board(sequence, user, posts, warriors=warriors)}
        recruits = _recruits(sequence)
        key = warband.warband_type.key
        by_type = equipment.list_entries_by_type({w.warrior_type_id for w in warriors})
        types = []
        for warrior_type, reason in warband_services.hireable_types(warband, warriors):
            reason = leader_return.hire_refusal(sequence, warrior_type, reason, warriors)
            types.append((warrior_type, reason if reason and "gc" not in reason else None))
        context.update(
            hireable=types,
            recruits=recruits,
            buyers=[
                (w, list_offers(w, key, recruit=w.pk in recruits, by_type=by_type))
                for w in warriors
                if w.hired_sword_id is None
            ],
            fresh_groups=[w for w in warriors if not w.is_hero and w.experience == 0],
            haggler=haggle.haggler(sequence),
            receipts=receipts(sequence),
            stash_items=stash_offers(key),
            sellable_owned=[
                (w, o)
                for w in warriors
                for o in w.item_list
                if o.item.category not in treasury.NOT_STORABLE
            ],
        )
        return context

    @action
    def hire(self, ctx, values, dice):
        warrior_type = WarriorType.objects.filter(
            warband_type=ctx.warband.warband_type, pk=values["warrior_type"]
        ).first()
        if warrior_type is None:
            raise RuleViolation("Choose a warrior type of your list.", field="warrior_type")
        models = 1 if warrior_type.is_hero else values["group_size"]
        if not 1 <= models <= 20:
            raise RuleViolation("Group size: give a number from 1 to 20.")
        current = list(ctx.warband.warriors.on_roster().select_related("warrior_type"))
        entries = warband_services.roster_entries(current)
        leads = leader_return.returns(ctx.sequence, warrior_type)
        if leads:
            entries = succession.acting_leader_steps_down(entries)
        cost = roster_rules.check_hire(
            ctx.warband.warband_type.limits,
            entries,
            warrior_type.as_rule(),
            models=models,
            gold=None,
        )
        name = values["name"].strip() or warrior_type.name
        paid = pay(ctx, cost, f"hiring {name}", prefer=values["pay_from"])
        stepped_down = leader_return.step_down(ctx, current) if leads else []
        warrior = ctx.journal.create(
            Warrior,
            warband=ctx.warband,
            warrior_type=warrior_type,
            name=name,
            is_hero=warrior_type.is_hero,
            is_leader=leads,
            group_size=models,
            experience=warrior_type.starting_experience,
            hired_at_creation=False,
            **warrior_type.profile.as_dict(),
        )
        dagger = equipment.list_entries_for(warrior_type).filter(
            item__key="dagger", first_free=True
        )
        if dagger.exists():
            ctx.journal.create(WarriorItem, warrior=warrior, item=dagger.first().item, price_paid=0)
        if warrior_type.spell_list_id and warrior_type.starting_spells:
            warband_services.roll_starting_spells(warrior, warrior_type, dice)
        give_starting_skills(warrior, warrior_type, create=ctx.journal.create)
        recruits = sorted(_recruits(ctx.sequence) | {warrior.pk})
        ctx.journal.update(ctx.sequence, state={**ctx.sequence.state, "recruits": recruits})
        size = f" ×{models}" if models > 1 else ""
        led = "; ".join(["", f"{name} leads", *stepped_down]) if leads else ""
        note_receipt(ctx, f"Hired {name} ({warrior_type.name}{size}): {paid}.")
        return f"Hired {name} ({warrior_type.name}{size}) for {cost} gc{led}."

    @action
    def add_models(self, ctx, values, dice):
        group = own_warrior(ctx, values["group"], field="group")
        if group.is_hero:
            raise RuleViolation("Heroes are not in groups.", field="group")
        if group.experience:
            raise RuleViolation(
                f"{group.name} have experience: add veterans in step 5.", field="group"
            )
        models = values["models"]
        check_group_grows(ctx, group, models)
        cost = (group.warrior_type.cost + equipment_per_model(group)) * models
        paid = pay(ctx, cost, f"{models} more for {group.name}", prefer=values["pay_from"])
        ctx.journal.update(group, group_size=group.group_size + models)
        note_receipt(ctx, f"Hired {models} more for {group.name}: {paid}.")
        return f"{models} more join {group.name} for {cost} gc."

    @action
    def buy(self, ctx, values, dice):
        """A warrior buys from his own lists (``trading.list_terms``): Common items at the
        list price. Hired swords keep their own equipment: nothing is bought for them."""
        warrior = own_warrior(ctx, values["warrior"])
        if warrior.hired_sword_id is not None:
            raise RuleViolation(
                f"{warrior.name} is a hired sword: he keeps his own equipment and nothing is "
                "bought for him."
            )
        key = values["item"]
        listed = equipment.list_entries_by_type([warrior.warrior_type_id])
        entries = listed.get(warrior.warrior_type_id, [])
        entry = next((e for e in entries if e.item.key == key), None)
        if entry is None:
            raise RuleViolation(
                f"That is not an item of {possessive(warrior.name)} list.", field="item"
            )
        recruit = warrior.pk in _recruits(ctx.sequence)
        buyer = equipment.buyer_of(warrior, founding=False, being_recruited=recruit)
        offer = trading.list_terms(
            entry.as_rule(), entry.item.as_ware(), buyer, ctx.warband.warband_type.key
        )
        if offer.refusal:
            raise RuleViolation(offer.refusal)
        if entry.recruitment_only and not recruit:
            raise RuleViolation(
                f"{entry.item.name} can only be bought when the warrior is recruited."
            )
        _, cost = roster_rules.check_purchase(
            [entry.as_rule()], key, buyer, models=warrior.group_size, gold=10**9
        )
        each = offer.price
        paid_each, haggled = each, ""
        if values.get("haggle"):
            hero = haggle.check(ctx, each, entry.item.name)
            done = haggle.haggle(ctx, hero, dice, each, entry.item.name)
            cost, paid_each, haggled = cost - done.saved, done.price, f"; {done.describe()}"
        paid = pay(ctx, cost, f"{entry.item.name} for {warrior.name}", prefer=values["pay_from"])
        models = f" ×{warrior.group_size}" if warrior.group_size > 1 else ""
        if purchases.needs_wolf_hunt(key, being_founded=False):
            hunt = purchases.wolf_hunt(dice, hero=warrior.name, strength=warrior.S)
            if not hunt.slain:
                note_receipt(
                    ctx,
                    f"Paid for {possessive(warrior.name)} wolf hunt "
                    f"(no {entry.item.name}): {paid}.",
                )
                return (
                    f"{warrior.name} paid {cost} gc for the wolf hunt and rolled {hunt.roll}, "
                    f"over his Strength {hunt.strength}: no {entry.item.name}{haggled}."
                )
            bought = f"{warrior.name} slew the wolf ({hunt.roll}, Strength {hunt.strength}): "
        else:
            bought = "Bought "
        ctx.journal.create(
            WarriorItem,
            warrior=warrior,
            item=entry.item,
            price_paid=paid_each if warrior.group_size == 1 else each,
        )
        note_receipt(ctx, f"Bought {entry.item.name}{models} for {warrior.name}: {paid}{haggled}.")
        return f"{bought}{entry.item.name} for {warrior.name} ({cost} gc{haggled})."

    @action
    def buy_stash(self, ctx, values, dice):
        """A Common item of the chart into a container (``trading.stash_terms``), at the
        chart's price; its dice, if it has any, rolled by the server now."""
        item = Item.objects.filter(key=values["item"]).first()
        offer = trading.stash_terms(item.as_ware() if item else None, ctx.warband.warband_type.key)
        if offer.refusal:
            raise RuleViolation(offer.refusal)
        container = values["into"]  # one of the warband's (``BuyStashForm``)
        price, haggled = offer.price, ""
        if offer.price_dice:
            price = exploration_rules.variable_price(dice, price, offer.price_dice, item.name)
        if values.get("haggle"):
            hero = haggle.check(ctx, price, item.name)
            done = haggle.haggle(ctx, hero, dice, price, item.name)
            price, haggled = done.price, f" ({done.describe()})"
        paid = pay(ctx, price, item.name, prefer=values["pay_from"])
        treasury.add_item(
            container,
            item=item,
            reason=Reason.PURCHASE,
            context=ctx.treasury_context(f"bought for {price} gc"),
        )
        note_receipt(ctx, f"Bought {item.name} into {container.the}: {paid}{haggled}.")
        return f"Bought {item.name} for {price} gc{haggled}, into {container.the}."

    @action
    def sell(self, ctx, values, dice):
        """Trading: any item sells for half its price (rounded down). An item a correction
        added was never paid for: it goes for nothing (``WarriorItem.sale_price``), and the
        ledger names where it came from, so that the audit would see any gold it brought.
        A warrior's item is read under its row lock, after the container the money goes to
        (the treasury's lock order: containers before items): one taken away meanwhile (a
        correction, another tab) is refused, not paid for."""
        what, pk = values["what"]
        target = treasury.made(values["into"])  # the unstored pile, made now if chosen
        if what == "stored":
            stored = (
                StoredItem.objects.filter(
                    container__warband=ctx.warband, pk=pk or 0, container__status="held"
                )
                .select_related("item", "container")
                .first()
            )
            if stored is None:
                raise RuleViolation("Choose an item to sell.", field="what")
            price, corrected, name = stored.sale_price, stored.correction_id, stored.name
            if not (price or corrected):
                raise RuleViolation(f"No trader buys {stored.name}.")
            note = f"sold for {price} gc" if price else "given away: added by a correction"
            treasury.remove_item(stored, reason=Reason.SALE, context=ctx.treasury_context(note))
        elif what == "owned":
            # The item under its lock, after the warband's containers (the lock order): stored
            # or sold on the treasury page meanwhile, it is not sold again here.
            locked_containers(ctx)
            owned = (
                WarriorItem.objects.filter(
                    warrior__warband=ctx.warband,
                    pk=pk or 0,
                    warrior__status=Warrior.Status.ACTIVE,
                )
                .select_related("item", "warrior")
                .select_for_update(of=("self",), no_key=True)
                .first()
            )
            if owned is None:
                raise RuleViolation("Choose an item to sell.", field="what")
            if owned.item.category in treasury.NOT_STORABLE:
                raise RuleViolation(f"{owned.item.name} cannot be sold.")
            price = owned.sale_price * owned.warrior.group_size
            corrected = owned.correction_id
            if not (price or corrected):
                raise RuleViolation(f"No trader buys {owned.item.name}.")
            name = f"{owned.item.name} of {owned.warrior.name}"
            ctx.journal.delete(owned)
        else:
            raise RuleViolation("Choose an item to sell.", field="what")
        if not price:
            note_receipt(ctx, f"Gave away {name}: added by a correction, it fetches nothing.")
            return f"{name} fetches nothing: a correction added it, nobody paid for it. It is gone."
        receive(ctx, target, reason=Reason.SALE, note=f"sold {name}", gold=price,
                correction_id=corrected)  # fmt: skip
        note_receipt(ctx, f"Sold {name}: {price} gc into {target.the}.")
        return f"Sold {name} for {price} gc into {target.the}."
