"""Step 0 of the post-battle sequence, the carried items at the end of the game (Mayhem in
Mordheim, carried items): shared by all the battle's warbands and played on the battle page.

When the battle is confirmed every warband's carried items on the table are listed
(``prepare_carried_items``); each warband declares who controlled them
(``declare_carried_items``); controlled items go to whoever controls them, and the
uncontrolled ones are chosen in turn and resolved on the recovery table (``start_recovery``,
``resolve_item``, with ``battles.rules.carried_items``). Once none is pending the step is
settled for everybody, and each warband's sequence may move on (``CarriedItems``).

Nothing leaves a player's warband on an organiser's word alone: an organiser's declaration
that would let a player's item go waits for that player (``declare_carried_items``), and a
treasury refusal reaches only those who may see inside the container (``_give``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from battles import rules
from battles.aftermath.engine import Step
from battles.aftermath.permissions import check_chooses, check_declares
from battles.dice import check_used, exactly, last_roll_id, note_decided, staged
from battles.models import Battle, CarriedItemAtEnd, Discovery, Participant
from battles.permissions import check_may_roll
from campaign import cache
from campaign.models import CampaignEvent
from campaign.services import record_event
from core.dice import Need
from core.errors import RuleViolation
from core.words import possessive
from warbands import treasury
from warbands.models import StorageContainer, VesselItem, Warband
from warbands.permissions import secret_refusals
from warbands.rules import containers as container_rules


class CarriedItems(Step):
    """Step 0 is shared by all the battle's warbands and played on the battle page."""

    number = 0

    def blockers(self, sequence, tasks=None):
        battle = sequence.participant.battle
        if battle.carried_items_done_at is None:
            return ["The carried items at the end of the game are not settled yet."]
        return []

    def complete(self, ctx, values):
        items = ctx.battle.carried_items.filter(Q(owner=ctx.warband) | Q(secured_by=ctx.warband))
        lines = [
            f"{item.label} of {item.owner.name}: {item.get_outcome_display().lower()}"
            for item in items.select_related("owner")
        ]
        return "; ".join(lines) or "No carried items."


CARRIER_KINDS = {"pack_mule", "pack_horse", "cart_mule", "cart_horse", "opulent_coach", "warmount"}


def _locked(battle: Battle) -> Battle:
    """The battle's row, locked to settle its carried items: every warband of the battle
    may gain or lose by it, and its board and the dashboards change (``campaign.cache``)."""
    battle = (
        Battle.objects.select_for_update(of=("self",), no_key=True)
        .select_related("campaign")
        .get(pk=battle.pk)
    )
    warbands = battle.participants.values_list("warband_id", flat=True)
    cache.changed(campaign=battle.campaign_id, battle=battle, warband=warbands)
    return battle


def _heavy(container: StorageContainer) -> bool:
    """Heavy when its contents make it heavy (computed, never typed). A carrier is heavy only
    when its heavy load halves its movement (a pack horse); carts, the coach and the mule move
    normally with heavy containers (``container_rules.carrier_is_heavy``)."""
    if container.kind in CARRIER_KINDS:
        load_is_heavy = any(_heavy(c) for c in container.children.filter(status="held"))
        return container_rules.carrier_is_heavy(container.kind, load_is_heavy=load_is_heavy)
    return container.is_heavy


def add_discovery_item(battle: Battle, discovery: Discovery) -> CarriedItemAtEnd:
    """Random fortune: what a warband discovered is a carried item of its own at the end of
    the game, secured or lost like the others (Mayhem in Mordheim)."""
    return CarriedItemAtEnd.objects.create(
        battle=battle,
        owner=discovery.warband,
        label=f"Random fortune: {discovery.result}",
        discovery=discovery,
    )


def prepare_carried_items(battle: Battle) -> None:
    """List every carried item each warband had on the table: its containers (the top ones:
    a chest on a mule travels with the mule), Dark Artefacts and Loyalty Symbols not inside a
    coach, and what it discovered. Pouches are hero equipment, not carried items.

    A campaign without Mayhem in Mordheim's carried items skips step 0 altogether."""
    if not battle.campaign.mim_carried_items:
        battle.carried_items_done_at = timezone.now()
        battle.save(update_fields=["carried_items_done_at"])
        return
    for participant in battle.participants.select_related("warband"):
        warband = participant.warband
        containers = list(
            StorageContainer.objects.real()
            .filter(warband=warband, parent__isnull=True)
            .exclude(kind="pouch")
            .order_by("pk")
        )
        labels = table_labels(containers)
        for container in containers:
            CarriedItemAtEnd.objects.create(
                battle=battle,
                owner=warband,
                label=labels[container.pk],
                container=container,
                heavy=_heavy(container),
                is_warmount=container.kind == "warmount",
                is_mule=container.kind == "pack_mule",
            )
        for vessel in VesselItem.objects.filter(warband=warband, is_lost=False, coach__isnull=True):
            CarriedItemAtEnd.objects.create(
                battle=battle, owner=warband, label=vessel.get_kind_display(), vessel=vessel
            )
        for discovery in battle.discoveries.filter(warband=warband, discovered=True):
            add_discovery_item(battle, discovery)


def table_labels(containers: list[StorageContainer]) -> dict[int, str]:
    """What everybody at the table calls each of a warband's containers: its kind, and its
    number when the warband has more than one of that kind ("Large Sack 2"), never the name
    its owner gave it (a secret: ``warbands.permissions``). A container that has no number
    (named before a second of its kind came) gets the next one free, so that no two rows of
    the carried-items form read alike."""
    labels = {}
    for kind in {c.kind for c in containers}:
        alike = [c for c in containers if c.kind == kind]
        if len(alike) == 1:
            labels[alike[0].pk] = alike[0].kind_label
            continue
        taken = {c.number for c in alike if c.number}
        spare = (n for n in range(1, len(alike) + len(taken) + 1) if n not in taken)
        for container in alike:
            labels[container.pk] = (
                container.public_name
                if container.number
                else f"{container.kind_label} {next(spare)}"
            )
    return labels


@dataclass(frozen=True)
class Declaration:
    """Where one carried item ended the game, as its warband declares it (MiM, carried items):
    with its own warriors, with an enemy's (``controlled_by_id``), or uncontrolled; ``exposed``:
    heavy, held by routers and caught in the open."""

    item_id: int
    state: str  # "own", "enemy" or "uncontrolled"
    controlled_by_id: int | None = None
    exposed: bool = False


@transaction.atomic
def declare_carried_items(
    battle: Battle,
    warband: Warband,
    *,
    actor,
    declarations: Sequence[Declaration],
    securers: int,
    pitters: int = 0,
    quartermasters: int = 0,
    override: bool = False,
) -> None:
    """The owner of ``warband`` (or an organiser) says where each of its carried items ended:
    controlled by its own warriors, by an enemy's, or uncontrolled; and how many of its
    warriors are still on the table to secure items.

    Nothing leaves a player's warband on an organiser's word alone. When an organiser
    declares for a warband he does not own and any of its items would not stay with it (held
    by an enemy, uncontrolled and so open to an enemy's recovery roll, or caught in the open),
    the declaration is only a proposal (``Participant.declaration_proposed_by``): the items
    show it, but the warband counts as undeclared and nothing is settled until its player
    confirms, by declaring himself on the same page, which shows the proposal to send as it
    is or change. ``override``: the organiser's explicit choice not to wait, written in the
    campaign feed under his name. A declaration that keeps every item with its warband
    applies at once, whoever makes it."""
    battle = _locked(battle)
    if not battle.is_confirmed:
        raise RuleViolation("The battle is not confirmed yet.")
    if battle.carried_items_done_at:
        raise RuleViolation("The carried items of this battle are settled.")
    check_declares(actor, battle, warband)
    owner = warband.owner_id == actor.pk
    participant = battle.participants.select_for_update(no_key=True).filter(warband=warband).first()
    if participant is None:
        raise RuleViolation(f"{warband.name} did not fight in this battle.")
    if battle.choosing_order:
        raise RuleViolation("Recovery has started: the declarations can no longer change.")
    if not 0 <= pitters <= 2 or not 0 <= securers <= 50 or not 0 <= quartermasters <= 10:
        raise RuleViolation("Check the numbers: Band of Pitters 0-2, warriors 0-50.")
    items = {i.pk: i for i in battle.carried_items.filter(owner=warband)}
    enemies = set(battle.participants.exclude(warband=warband).values_list("warband", flat=True))
    declared = {d.item_id: d for d in declarations}
    if set(declared) != set(items):
        raise RuleViolation("Say where each of the warband's carried items ended the game.")
    for item_id, declaration in declared.items():
        item = items[item_id]
        if declaration.state not in ("own", "enemy", "uncontrolled"):
            raise RuleViolation(f"Say who controlled the {item.label}.")
        if declaration.state == "enemy" and declaration.controlled_by_id not in enemies:
            raise RuleViolation(f"Say which enemy warband controlled the {item.label}.")
        if declaration.exposed and not (
            participant.routed and item.heavy and declaration.state == "own"
        ):
            raise RuleViolation(
                f"Only a heavy item held by a routing warband can be caught in the open "
                f"({item.label})."
            )
        item.state = declaration.state
        item.controlled_by_id = (
            declaration.controlled_by_id if declaration.state == "enemy" else None
        )
        item.exposed = declaration.exposed
        item.save(update_fields=["state", "controlled_by", "exposed"])
    participant.securers, participant.pitters = securers, pitters
    participant.quartermasters = quartermasters if battle.campaign.quartermaster_skill else 0
    leaving = [items[pk].label for pk, d in declared.items() if d.state != "own" or d.exposed]
    proposal = bool(leaving) and not owner and not override
    participant.carried_items_declared = not proposal
    participant.declaration_proposed_by = actor if proposal else None
    participant.save(
        update_fields=["securers", "pitters", "quartermasters", "carried_items_declared",
                       "declaration_proposed_by"]
    )  # fmt: skip
    if leaving and not owner and override:
        record_event(
            battle.campaign, CampaignEvent.Kind.BATTLE,
            f"{actor.username}, organiser, declared where {possessive(warband.name)} carried items "
            f"ended {battle} without waiting for its player ({', '.join(leaving)} not kept).",
            battle=battle,
        )  # fmt: skip
    if not proposal and not battle.participants.filter(carried_items_declared=False).exists():
        _settle_controlled(battle, actor)


# A refused treasury change of step 0 as told to whoever may not see inside the container
# (``warbands.permissions.secret_refusals``): the treasury's reason names its contents.
SETTLE_REFUSED = "The carried items cannot be settled: a treasury change they need was refused."


def _give(item: CarriedItemAtEnd, winner: Warband | None, *, actor, battle: Battle) -> None:
    """Hand a carried item to ``winner`` (or lose it), through the treasury's services. The
    actor may be an organiser or another warband's player: the treasury's refusals reach him
    only when he may see inside (``secret_refusals``)."""
    owner = item.owner
    for warband in (owner, winner):
        if warband is not None and warband.campaign_id == battle.campaign_id:
            warband.campaign = battle.campaign  # one object knows the actor's membership
    if winner is None:
        item.outcome = CarriedItemAtEnd.Outcome.LOST
        if item.container_id:
            with secret_refusals(actor, owner, neutral=SETTLE_REFUSED):
                treasury.lose_container(item.container, actor=actor, battle=battle, step=0)
        elif item.vessel_id:
            VesselItem.objects.filter(pk=item.vessel_id).update(is_lost=True)
        record_event(
            battle.campaign, CampaignEvent.Kind.CONTAINER,
            f"{possessive(owner.name)} {item.label.lower()} was left behind in the ruins.",
            battle=battle,
        )  # fmt: skip
    elif item.discovery_id:
        item.outcome = CarriedItemAtEnd.Outcome.RECOVERED
        with secret_refusals(actor, winner, neutral=SETTLE_REFUSED):
            _bank_discovery(item.discovery, winner, actor=actor, battle=battle)
    elif winner.pk == owner.pk:
        item.outcome = (
            CarriedItemAtEnd.Outcome.RECOVERED
            if item.is_uncontrolled
            else CarriedItemAtEnd.Outcome.SECURED
        )
    else:
        item.outcome = CarriedItemAtEnd.Outcome.CAPTURED
        if item.container_id:
            with secret_refusals(actor, owner, neutral=SETTLE_REFUSED):
                treasury.capture_container(
                    StorageContainer.objects.get(pk=item.container_id), winner, battle=battle,
                    actor=actor, step=0,
                )  # fmt: skip
        elif item.vessel_id:
            VesselItem.objects.filter(pk=item.vessel_id).update(warband=winner, coach=None)
        record_event(
            battle.campaign, CampaignEvent.Kind.CONTAINER,
            f"{winner.name} took a {item.label.lower()} from {owner.name}.", battle=battle,
        )  # fmt: skip
    item.secured_by = winner
    item.resolved_at = timezone.now()
    item.save(update_fields=["outcome", "secured_by", "resolved_at"])


def _bank_discovery(discovery: Discovery, warband: Warband, *, actor, battle: Battle) -> None:
    """Random fortune "becomes a part of their treasury": a carried item waits, unstored, for a
    container in the post-battle sequence; a cart or coach becomes the warband's. An animal is
    left for the player to add to the roster."""
    context = treasury.Context(actor=actor, step=0, battle=battle, note="random fortune")
    if discovery.kind == Discovery.Kind.CARRIED_ITEM:
        treasury.add_item(
            treasury.loose_pile(warband), item=None, name=discovery.result[:100],
            reason=treasury.Reason.INCOME, context=context,
        )  # fmt: skip
    elif discovery.kind in (Discovery.Kind.CART, Discovery.Kind.COACH):
        kind = "cart_mule" if discovery.kind == Discovery.Kind.CART else "opulent_coach"
        StorageContainer.objects.create(warband=warband, kind=kind, label=discovery.result[:60])


def _settle_controlled(battle: Battle, actor) -> None:
    """Everybody declared: controlled items are secured by whoever controls them (an enemy
    captures), an uncontrolled warmount goes home; the rest waits for recovery rolls."""
    for item in battle.carried_items.select_related("owner", "controlled_by"):
        if item.is_uncontrolled:
            if item.is_warmount:
                _give(item, item.owner, actor=actor, battle=battle)
                item.outcome = CarriedItemAtEnd.Outcome.HOME
                item.save(update_fields=["outcome"])
            continue
        winner = item.controlled_by if item.state == "enemy" else item.owner
        _give(item, winner, actor=actor, battle=battle)
    _finish_step_zero_if_done(battle)


def sides(battle: Battle) -> list[rules.Side]:
    """Each warband as the recovery table reads it: routed or not (and in which order), and
    who it has left on the table to secure items (MiM, carried items)."""
    return sides_of(battle.participants.select_related("warband").order_by("pk"))


def sides_of(participants) -> list[rules.Side]:
    """``sides`` of participants already read (in the order of their keys)."""
    return [
        rules.Side(
            warband_id=p.warband_id,
            name=p.warband.name,
            routed=p.routed,
            rout_order=p.rout_order,
            securers=p.securers,
            pitters=p.pitters,
            quartermasters=p.quartermasters,
        )
        for p in sorted(participants, key=lambda p: p.pk)
    ]


# --- The dice each roll of step 0 takes ----------------------------------------------------


def choosing_rolloff(sides: Sequence[rules.Side]) -> Need:
    """``rules.choosing_order``: the warbands that did not rout roll off, a D6 each, when there
    are several; otherwise nothing is rolled."""
    remaining = [s.name for s in sides if not s.routed]
    if len(remaining) < 2:
        return Need(0, note="no roll-off: the warbands choose in the order they routed")
    names = ", ".join(remaining)
    return Need(len(remaining), f"one D6 per warband that did not rout, in turn: {names}")


def first_recovery_roll(sides: Sequence[rules.Side]) -> Need:
    """The dice an uncontrolled item's recovery rolls first, as ``rules.resolve_uncontrolled``
    does: none when one warband is left, a roll-off of a D6 per warband when three or more
    remain and none routed, else one D6. What follows from it (the roll-off of several
    warbands remaining, the routers' chain, a tied roll-off again) is asked for after it, a
    field a roll, the first dice kept (``battles.dice.staged``)."""
    remaining = [s.name for s in sides if not s.routed]
    routers = len(sides) - len(remaining)
    if not remaining and routers == 1:
        return Need(0, note="the only warband left secures it: nothing to roll")
    if not routers and len(remaining) > 2:
        names = ", ".join(remaining)
        return Need(len(remaining), f"a roll-off, one D6 per warband, in turn: {names}")
    return Need(1, "D6")


def chooser(battle: Battle) -> Warband | None:
    """Whose turn it is to choose the next uncontrolled item."""
    if not battle.choosing_order:
        return None
    warband_id = battle.choosing_order[battle.choosing_turn % len(battle.choosing_order)]
    return Warband.objects.get(pk=warband_id)


@transaction.atomic
def start_recovery(battle: Battle, *, actor, dice) -> list[int]:
    """Fix the order in which warbands choose items (rolling off among non-routers: typed,
    exactly a die each, ``choosing_rolloff``)."""
    battle = _locked(battle)
    check_may_roll(battle, actor)
    if battle.participants.filter(carried_items_declared=False).exists():
        raise RuleViolation("Every warband must declare its carried items first.")
    if battle.choosing_order or battle.carried_items_done_at:
        raise RuleViolation("Recovery has already started.")
    warbands = sides(battle)
    dice = exactly(dice, choosing_rolloff(warbands), "The roll-off for the choosing order")
    since = last_roll_id(battle)
    order = rules.choosing_order(warbands, dice)
    note_decided(battle, since, "choosing order: " + ", ".join(side.name for side in order))
    battle.choosing_order = [side.warband_id for side in order]
    battle.save(update_fields=["choosing_order"])
    return battle.choosing_order


@transaction.atomic
def resolve_item(
    battle: Battle,
    item: CarriedItemAtEnd,
    *,
    actor,
    dice,
    majority_id: int | None = None,
    further: Sequence[Sequence[int]] = (),
) -> rules.Recovery:
    """The warband whose turn it is chooses ``item``; the recovery table decides who secures
    it. ``majority_id``: the warband whose warriors are the majority within sight and charge
    range of the item, if any.

    Typed ``dice`` are exactly the first roll's (``first_recovery_roll``); a roll it leads to
    raises ``MoreDice`` until its dice come in ``further``, a group per roll asked for so far
    (nothing changes meanwhile: the form posts them all again). Typed dice left over are
    refused."""
    battle = _locked(battle)
    check_may_roll(battle, actor)
    item = (
        CarriedItemAtEnd.objects.select_for_update(of=("self",), no_key=True)
        .select_related("owner")
        .get(pk=item.pk)
    )
    if item.battle_id != battle.pk or item.outcome != CarriedItemAtEnd.Outcome.PENDING:
        raise RuleViolation("That item is not waiting to be resolved.")
    if not battle.choosing_order:
        raise RuleViolation("Roll for the choosing order first.")
    turn = chooser(battle)
    check_chooses(actor, battle, turn)
    participants = {p.warband_id for p in battle.participants.all()}
    if majority_id is not None and majority_id not in participants:
        raise RuleViolation("The majority must be one of the battle's warbands.")
    loose = rules.LooseItem(
        label=item.label,
        heavy=item.heavy,
        majority=majority_id,
        mule_of=item.owner_id if item.is_mule else None,
    )
    warbands = sides(battle)
    who = f"Recovering the {item.label}"
    dice = staged(dice, first_recovery_roll(warbands), further, who)
    since = last_roll_id(battle)
    recovery = rules.resolve_uncontrolled(
        loose, warbands, dice, quartermaster_option=battle.campaign.quartermaster_skill
    )
    check_used(dice, who)
    winner = Warband.objects.get(pk=recovery.winner) if recovery.winner else None
    item.recovery = "; ".join(roll.description for roll in recovery.rolls) + (
        f" ({recovery.note})" if recovery.note else ""
    )
    item.save(update_fields=["recovery"])
    _give(item, winner, actor=actor, battle=battle)
    if winner is not None:
        Participant.objects.filter(battle=battle, warband=winner, securers__gt=0).update(
            securers=F("securers") - 1
        )
    note_decided(battle, since, f"{winner.name} secures it" if winner else "nobody secures it")
    battle.choosing_turn += 1
    battle.save(update_fields=["choosing_turn"])
    _finish_step_zero_if_done(battle)
    return recovery


def _finish_step_zero_if_done(battle: Battle) -> None:
    """Step 0 is over for the whole battle once no carried item is pending."""
    if battle.carried_items.filter(outcome=CarriedItemAtEnd.Outcome.PENDING).exists():
        return
    battle.carried_items_done_at = timezone.now()
    battle.save(update_fields=["carried_items_done_at"])
