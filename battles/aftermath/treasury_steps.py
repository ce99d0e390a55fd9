"""What the treasury steps of the post-battle sequence (3 to 9) share: paying and receiving
money, the treasury as the step's page shows it (the treasury page's board, ``step_board``),
storing what lies unstored, and who explored.

Every find, purchase, sale and move goes through ``warbands.treasury`` with the step's context,
so each ledger entry names the battle and the step; roster changes go through the step's
journal, so that undo restores both. Readings where the rules are silent:

- Found or received treasure may wait in the pile of unstored treasure; the player stores it
  in the containers of his choice (within their capacity) in any step up to 9. What is still
  unstored when the sequence ends is lost (step 10).
- A price is paid from the container the player names first, then from the unstored pile,
  then from the other containers in turn; money received goes into the container he names
  (or the unstored pile). A container bought in step 9 is the treasury page's purchase, paid
  as there: from the container named, else from the one that can pay it alone.
- The treasury steps are the owner's alone (``battles.aftermath.permissions.may_act``).
"""

from __future__ import annotations

from battles.aftermath.engine import Context, Step, action
from battles.models import PostBattleSequence, WarriorOutcome
from core.errors import RuleViolation
from warbands import rules as roster_rules
from warbands import services as warband_services
from warbands import treasury
from warbands.models import LedgerEntry, StorageContainer, Warrior, amount_parts
from warbands.rules import trading
from warbands.treasury.board import TreasuryBoard

Reason = LedgerEntry.Reason


# --- Reading the post ----------------------------------------------------------------------


def own_warrior(ctx: Context, pk: int | None, *, field: str = "") -> Warrior:
    """One of the warband's active warriors (with his type and race), else refused (beside
    ``field``, the form's field that chose him)."""
    found = (
        Warrior.objects.filter(warband=ctx.warband, pk=pk, status=Warrior.Status.ACTIVE)
        .select_related("warrior_type", "warrior_type__race")
        .first()
        if pk
        else None
    )
    if found is None:
        raise RuleViolation("Choose one of your warriors.", field=field)
    return found


# --- Money ---------------------------------------------------------------------------------


def locked_containers(ctx: Context, prefer: int | None = None) -> list[StorageContainer]:
    """The warband's held containers under their row locks, the preferred one first, then the
    real containers before the unstored pile. The warband's row is locked first: a step that
    pays may then change the roster (a recruit hired), and every service takes the warband's
    lock before any container's (``warbands.treasury``)."""
    treasury.lock_warbands(ctx.warband.pk)
    containers = list(
        StorageContainer.objects.held()
        .filter(warband=ctx.warband)
        .select_for_update(no_key=True)
        .order_by("pk")
    )
    return sorted(
        containers,
        key=lambda c: (c.pk != prefer, c.kind != StorageContainer.LOOSE, c.pk),
    )


def gold_held(warband) -> int:
    """The gold crowns in all the warband's held containers, the unstored pile included."""
    return treasury.totals(warband)["gold"]


def pay(ctx: Context, amount: int, note: str, *, prefer: int | None = None) -> str:
    """Pay ``amount`` gc from the treasury (the preferred container first). Says where the
    money came from, for the step's receipt (``note_receipt``): "10 gc from the Treasure
    Chest", "10 gc: 6 from the Large Sack 1, 4 from the unstored treasure", "nothing"."""
    if amount <= 0:
        return "nothing"
    containers = locked_containers(ctx, prefer)
    held = sum(c.gold_crowns for c in containers)
    if held < amount:
        raise RuleViolation(f"{note} costs {amount} gc but the treasury holds only {held} gc.")
    remaining, taken = amount, []
    for container in containers:
        take = min(container.gold_crowns, remaining)
        if take:
            treasury.add_treasure(
                container,
                gold=-take,
                reason=Reason.PURCHASE,
                context=ctx.treasury_context(note),
            )
            remaining -= take
            taken.append((take, container.the))
        if not remaining:
            break
    if len(taken) == 1:
        return f"{amount} gc from {taken[0][1]}"
    return f"{amount} gc: " + ", ".join(f"{take} from {the}" for take, the in taken)


def note_receipt(ctx: Context, line: str) -> None:
    """Keep a receipt line of the current step in the sequence's state ("Bought Sword for
    Otto Brandt: 10 gc from the Treasure Chest"), journaled so that undo
    takes it back with the purchase. It names containers: only a page that may show the
    treasury shows it (``receipts``; the sequence page hides the treasury steps from others)."""
    state = ctx.sequence.state or {}
    kept = dict(state.get("receipts", {}))
    step = str(ctx.sequence.current_step)
    kept[step] = [*kept.get(step, []), line]
    ctx.journal.update(ctx.sequence, state={**state, "receipts": kept})


def receipts(sequence: PostBattleSequence, step: int | None = None) -> list[str]:
    """The receipt lines of ``step`` (the current one by default), oldest first."""
    step = sequence.current_step if step is None else step
    return list((sequence.state or {}).get("receipts", {}).get(str(step), []))


def receive(
    ctx: Context,
    container: StorageContainer,
    *,
    reason: str,
    note: str,
    gold=0,
    shards=0,
    correction_id: int | None = None,
):
    """Put ``gold`` and ``shards`` into ``container``, in the ledger under the step
    (``correction_id``: the proceeds of an item that correction added)."""
    treasury.add_treasure(
        container,
        gold=gold,
        wyrdstone=shards,
        reason=reason,
        context=ctx.treasury_context(note),
        correction_id=correction_id,
    )


# --- Shared pieces of the treasury steps ---------------------------------------------------


class TreasuryStep(Step):
    """A step that touches the secret treasury. Any of them can put unstored treasure into a
    container (``store``)."""

    def blockers(self, sequence, tasks=None):
        return []

    @action
    def store(self, ctx, form, dice):
        return store_from_pile(ctx, form)

    def page_context(self, sequence, user, posts=None):
        return {"board": step_board(sequence, user, posts)}


def step_board(sequence: PostBattleSequence, user, posts=None, *, warriors=None) -> TreasuryBoard:
    """The treasury as the step's page shows it: the treasury page's board (its containers
    through ``permissions.visible_containers``; the sequence page is the owner's), whose forms
    post to the sequence (``posts``: ``battles.aftermath.forms.board_posts``, the step's action
    for each form; none, for a reading that draws no form). Every list of containers names a
    pouch's hero with its contents ("Pouch 1 of Karl (5 gc)": the ``contents`` label of
    ``core.options``), so that two pouches are told apart by who carries them. ``warriors``:
    the step's own read of the warband's warriors, when it needs more of them than the
    treasury's forms."""
    return TreasuryBoard(user, sequence.participant.warband, posts=posts or {}, warriors=warriors)


def store_from_pile(ctx: Context, form) -> str:
    """Put unstored treasure (gold, shards, items) into one of the warband's containers
    (``forms.StorePileForm``: the treasury's moves lock and check both)."""
    form.apply(actor=ctx.actor, context=ctx.treasury_context())
    data = form.cleaned_data
    names = [stored.name for stored in data["items"]]
    stored = ", ".join(amount_parts(data["gold"], data["wyrdstone"], names))
    return f"Stored {stored} in {data['target'].the}."


def _outcomes(sequence: PostBattleSequence) -> dict[int, WarriorOutcome]:
    return {
        o.warrior_id: o for o in WarriorOutcome.objects.filter(participant=sequence.participant)
    }


def standing_heroes(sequence: PostBattleSequence) -> list[Warrior]:
    """Heroes still with the warband who fought and were not put out of action (when the
    report has no outcomes, every active hero). Hired swords are not heroes of the warband:
    they roll no exploration die and search for no rare item."""
    heroes = list(
        Warrior.objects.filter(
            warband=sequence.participant.warband,
            is_hero=True,
            status=Warrior.Status.ACTIVE,
            hired_sword__isnull=True,
        )
        .select_related("warrior_type", "warrior_type__race")
        .order_by("-is_leader", "pk")
    )
    outcomes = _outcomes(sequence)
    if not outcomes:
        return heroes
    return [h for h in heroes if h.pk in outcomes and not outcomes[h.pk].out_of_action]


def equipment_per_model(group: Warrior) -> int:
    """What one more model of the group pays for its equipment (the first dagger is free)."""
    total = 0
    for owned in group.items.select_related("item"):
        if owned.item.key == "dagger" and owned.price_paid == 0:
            continue
        total += owned.item.price
    return total


def check_group_grows(ctx: Context, group: Warrior, models: int) -> None:
    """Refuse ``models`` more henchmen in ``group`` beyond the list's limits (the group's
    size, the type's count, the warband's size), or when the group carries what no trader
    sells (``trading.check_kit``: new models could not be equipped like it)."""
    trading.check_kit(group.name, [owned.item.as_ware() for owned in group.carried()])
    others = ctx.warband.warriors.on_roster().exclude(pk=group.pk).select_related("warrior_type")
    roster_rules.check_hire(
        ctx.warband.warband_type.limits,
        warband_services.roster_entries(list(others)),
        group.warrior_type.as_rule(),
        models=group.group_size + models,
        gold=None,
    )
