"""Who may open a battle, who acts in it for whom, and what they may see of its dice log:
every roll is witnessed, a secret step's rolls only by those who may see that warband's
treasury (``warbands.permissions``).

What every feature of ``battles`` shares lives here (the campaign open, an organiser acting
for the players, rolling on the table); each feature's own "may" rules are in its
``permissions`` module, which raises ``PermissionDenied`` with what the user may do instead."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest

from battles.models import Battle, PostBattleSequence
from campaign.permissions import can_run_campaign, is_member, is_organiser, members_only
from core.queries import one
from warbands.permissions import can_see_treasury


def fought_in(user, battle: Battle) -> bool:
    """One of the user's warbands took part in the battle (read once per loaded battle)."""
    if not user.is_authenticated:
        return False
    known = getattr(battle, "_fought_by", None)
    if known is None:
        known = battle._fought_by = {}
    if user.pk not in known:
        known[user.pk] = battle.participants.filter(warband__owner=user).exists()
    return known[user.pk]


def acts_for_players(user, battle: Battle) -> bool:
    """An organiser acts for the players of a battle (enters a side, confirms for everybody,
    declares step 0's carried items, tests a fortune marker, moves warriors and turns in the
    battle helper, plays the public steps of a post-battle sequence, reopens a step, corrects
    a confirmed result) while the campaign is open, and only in a battle none of his own
    warbands fought. In his own battles he is one of the players: acting for his opponents
    would let him decide what they lose and he gains (a hero out of action, an item left
    uncontrolled, a result); another organiser, or the players themselves, do it there."""
    return can_run_campaign(user, battle.campaign) and not fought_in(user, battle)


FOUGHT = (
    "You fought in this battle: here you act for your own warbands only. Your opponents do "
    "it themselves, or an organiser who did not fight in it does it for them."
)
CLOSED = "The campaign is closed: nothing in it can change."


def check_open(campaign) -> None:
    """Nothing in a closed (or archived) campaign changes."""
    if not campaign.is_open:
        raise PermissionDenied(CLOSED)


def check_for_players(actor, battle: Battle, refusal: str, *, own: bool = False) -> None:
    """``actor`` acts for himself (``own``) or as an organiser for the players
    (``acts_for_players``); an organiser who fought in the battle hears why he may not
    (``FOUGHT``), anyone else ``refusal``."""
    if own or acts_for_players(actor, battle):
        return
    raise PermissionDenied(FOUGHT if can_run_campaign(actor, battle.campaign) else refusal)


def check_may_roll(battle: Battle, actor) -> None:
    """The battle's participants and the campaign's organisers roll for what happens on the
    table (random fortune markers, discoveries, the recovery of carried items), while the
    campaign is open; anyone else is refused."""
    check_open(battle.campaign)
    if not fought_in(actor, battle) and not is_organiser(actor, battle.campaign):
        raise PermissionDenied("Only the battle's participants and organisers do this.")


def get_battle_for_user(request: HttpRequest, pk: int) -> Battle:
    """The battle, for the members of its campaign (404 for anyone else)."""
    battle = one(
        members_only(
            Battle.objects.select_related("campaign", "reported_by", "game").filter(pk=pk),
            request.user,
        )
    )
    if battle is None or not is_member(request.user, battle.campaign):
        raise Http404("No such battle.")
    return battle


def get_sequence_for_user(request: HttpRequest, pk: int) -> PostBattleSequence:
    """The warband's owner and the campaign's organisers open a sequence; other members of
    the campaign follow it on the battle page (its treasury steps are secret); anyone else
    gets a 404. A post's service locks the sequence's row and reads it again itself."""
    sequence = one(
        members_only(
            PostBattleSequence.objects.select_related(
                "participant__battle__campaign", "participant__warband__warband_type"
            ).filter(pk=pk),
            request.user,
        )
    )
    if sequence is None:
        raise Http404("No such sequence.")
    campaign = sequence.participant.battle.campaign
    if sequence.participant.warband.campaign_id == campaign.pk:
        # the same campaign: one object knows the user's membership
        sequence.participant.warband.campaign = campaign
    if not is_member(request.user, campaign):
        raise Http404("No such sequence.")
    warband = sequence.participant.warband
    if warband.owner_id == request.user.pk:
        warband.owner = request.user
    if warband.owner_id != request.user.pk and not is_organiser(request.user, campaign):
        raise PermissionDenied("A warband's post-battle sequence is its owner's to play.")
    return sequence


#: What those who may not see a warband's treasury see of its rolls in a treasury step.
SECRET_PURPOSE = "A roll in a secret step of the post-battle sequence"
SECRET_SHOWN = "a secret roll"


@dataclass(frozen=True)
class DiceView:
    """A line of a battle's dice log as this user may see it."""

    created_at: object
    warband: str
    purpose: str
    shown: str
    result: str
    rolled_by: str
    source: str
    hidden: bool


def visible_dice(user, rolls) -> list[DiceView]:
    """The rulebook wants every roll witnessed; Mayhem in Mordheim wants the treasury secret.
    Rolls made for a warband's treasury (``secret``: a treasury step, the slavers' price)
    show those who may not see that treasury only that the warband rolled there, when, and
    who rolled: one line, "a secret roll", for each run of its secret rolls in a row, saying
    what the roll was for when that is public (``DiceRoll.public``: a hero sold to the
    slavers), else that it was a step of the post-battle sequence. Nothing on it follows from
    the dice: not the number of dice nor the number of rolls (exploration that finds doubles
    rolls again, so "three dice, then one" would say what was found), nor whether they were
    typed in. Purpose, faces, result and source are for those who may see the treasury.
    ``rolls`` come in the log's order with ``warband__campaign`` and ``rolled_by`` loaded."""
    allowed: dict[int, bool] = {}
    views: list[DiceView] = []
    run = None  # the warband whose hidden run the last line is, if it is one
    for roll in rolls:
        hidden = False
        if roll.secret and roll.warband_id is not None:
            if roll.warband_id not in allowed:
                allowed[roll.warband_id] = can_see_treasury(user, roll.warband)
            hidden = not allowed[roll.warband_id]
        if hidden and run == (roll.warband_id, roll.public):
            continue  # the run's line stands for this roll too
        run = (roll.warband_id, roll.public) if hidden else None
        views.append(
            DiceView(
                created_at=roll.created_at,
                warband=roll.warband.name if roll.warband_id else "",
                purpose=(roll.public or SECRET_PURPOSE) if hidden else roll.purpose,
                shown=SECRET_SHOWN if hidden else roll.shown,
                result="" if hidden else roll.result,
                rolled_by=roll.rolled_by.username if roll.rolled_by_id else "",
                source="secret" if hidden else roll.get_source_display().lower(),
                hidden=hidden,
            )
        )
    return views
