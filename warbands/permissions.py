"""Who may change a warband, and the one place that decides who sees inside its treasury.

Only a warband's owner changes it. Organisers run the campaign but do not edit other players'
warbands: a roster page under edit shows the muster purse, which becomes the secret treasury.
Every view, partial, export and admin page that shows a container's contents goes through
``can_see_contents`` / ``visible_containers``, which hand templates views that cannot leak.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest

from campaign.models import Membership
from campaign.permissions import can_run_campaign, is_member, is_organiser, members_only
from core.errors import RuleViolation
from core.queries import one
from warbands.models import Correction, StorageContainer, VesselItem, Warband, Warrior
from warbands.rules import containers as container_rules


def _owns_playing(user, warband: Warband) -> bool:
    """The user owns the warband and it still plays (being mustered or active)."""
    return (
        user.is_authenticated
        and warband.owner_id == user.pk
        and warband.status in (Warband.Status.DRAFT, Warband.Status.ACTIVE)
    )


def can_edit_warband(user, warband: Warband) -> bool:
    """Only the owner changes a warband, and only while it plays in an open campaign."""
    return _owns_playing(user, warband) and warband.campaign.is_open


def organisers_see_treasuries(warband: Warband) -> bool:
    """The campaign lets its organisers see inside every warband's containers: each treasury
    page says plainly whether it does, and the campaign feed says when it changed."""
    return warband.campaign.organiser_sees_secrets


def plays_in(user, campaign) -> bool:
    """The user has a warband in play (being mustered or active) in the campaign, read once
    per loaded campaign."""
    known = getattr(campaign, "_playing", None)
    if known is None:
        known = campaign._playing = {}
    if user.pk not in known:
        known[user.pk] = (
            Warband.objects.filter(campaign=campaign, owner_id=user.pk).playing().exists()
        )
    return known[user.pk]


def can_see_treasury(user, warband: Warband) -> bool:
    """The warband's gold, wyrdstone and stored items are the owner's secret (Mayhem in
    Mordheim: "You need not reveal to your opponent what is inside any of your storage
    containers"); an organiser sees them only when the campaign says so, and only while he
    has no warband in play in it himself: an organiser who plays is every player's opponent,
    and the option is for a referee. The owner still reads his own once the campaign is
    closed or archived, without changing it (``can_edit_warband``)."""
    if _owns_playing(user, warband):
        return True
    campaign = warband.campaign
    return (
        organisers_see_treasuries(warband)
        and is_organiser(user, campaign)
        and not plays_in(user, campaign)
    )


def may_keep_offline(user, warband: Warband) -> bool:
    """The user's phone may keep his own warband's roster and printout to read without signal
    (``core.offline``). Only the owner's: the copy holds what he alone sees (the roster's
    treasury), and nobody else's page, an organiser's or an opponent's, is ever kept."""
    return user.is_authenticated and warband.owner_id == user.pk


def owns_treasury(user, warband: Warband) -> bool:
    """The owner reads his own warband's treasury in the download of his data
    (``league.accounts``), whatever became of the warband (disbanded, removed, its campaign
    closed): it is his own. A download is of one's own data, not of what one may see: an
    organiser's sight of the treasuries (``organisers_see_treasuries``) puts nobody else's in
    it."""
    return user.is_authenticated and warband.owner_id == user.pk


def treasury_totals_public(campaign) -> bool:
    """Each warband's gold and wyrdstone totals may be told to every member (the league's
    "richest warband" award) only once the campaign is over: closed or archived. While it
    runs they are as secret as the rest of the treasury, since an opponent who reads them
    knows what a raid would take. What is inside each container stays secret always."""
    return campaign.status != campaign.Status.OPEN


# --- Corrections by hand ------------------------------------------------------------------


def can_read_corrections(user, warband: Warband) -> bool:
    """The warband's owner and the campaign's organisers read its corrections and requests
    (opponents do not: a correction is a matter between a player and the organisers; what
    one changes reaches the campaign feed once it applies)."""
    if not user.is_authenticated:
        return False
    return warband.owner_id == user.pk or is_organiser(user, warband.campaign)


def can_correct(user, warband: Warband) -> bool:
    """The owner or an organiser corrects an active warband while the campaign is open (a
    warband being mustered is changed on its muster board, with its purse)."""
    if not (user.is_authenticated and warband.status == Warband.Status.ACTIVE):
        return False
    if warband.owner_id == user.pk:
        return warband.campaign.is_open
    return can_run_campaign(user, warband.campaign)


def has_other_organiser(user, campaign) -> bool:
    """Somebody besides ``user`` organises the campaign (and could approve his requests)."""
    return (
        Membership.objects.active()
        .filter(campaign=campaign, is_organiser=True)
        .exclude(user=user)
        .exists()
    )


def approves_corrections(user, warband: Warband) -> bool:
    """An organiser approves corrections of the warband (and his own apply at once): an
    organiser of an open campaign with no warband in play in it, for another player's
    warband. An organiser who plays is every player's opponent: his corrections, of his own
    warband or anybody's, wait for another organiser, or apply only when no other organiser
    could approve them (each is then announced to every player). A player's corrections that
    give something wait for an organiser."""
    campaign = warband.campaign
    if not can_run_campaign(user, campaign):
        return False
    return not has_stake(user, warband) or not has_other_organiser(user, campaign)


def correction_approvers(warband: Warband) -> list[int]:
    """The ids of the users who may approve the warband's requests (``approves_corrections``
    for each organiser, in two queries): told when one is asked (``core.notices``)."""
    campaign = warband.campaign
    if not campaign.is_open:
        return []
    organisers = set(
        Membership.objects.organisers().filter(campaign=campaign).values_list("user", flat=True)
    )
    playing = set(
        Warband.objects.filter(campaign=campaign, owner__in=organisers)
        .playing()
        .values_list("owner", flat=True)
    )
    stake = playing | {warband.owner_id}
    return sorted(pk for pk in organisers if pk not in stake or len(organisers) == 1)


def has_stake(user, warband: Warband) -> bool:
    """The user owns the warband or has a warband in play in its campaign: his correction of
    it is not a referee's, and applies only when announced (``approves_corrections``)."""
    return warband.owner_id == user.pk or plays_in(user, warband.campaign)


def can_decide_correction(user, correction: Correction) -> bool:
    """Approve or refuse a request: an organiser who approves the warband's corrections
    (``approves_corrections``), while it waits."""
    return correction.is_pending and approves_corrections(user, correction.warband)


def can_withdraw_correction(user, correction: Correction) -> bool:
    """Whoever asked takes his request back while it waits, in an open campaign."""
    return (
        user.is_authenticated
        and correction.actor_id == user.pk
        and correction.is_pending
        and correction.warband.campaign.is_open
    )


@contextmanager
def secret_refusals(user, warband: Warband, *, neutral: str) -> Iterator[None]:
    """Around a treasury change that ``user`` makes to ``warband``'s containers without being
    sure to own them (an organiser reopening a step, step 0 handing a container to an enemy).
    The treasury's refusals name what is inside a container or what its owner called it
    ("Only 100 gc fit in the Treasure Chest (that would make 107)"), so a refusal raised
    inside reaches a user who may not see that warband's treasury as ``neutral`` instead.
    Decided before the change: its refusal may leave the transaction unable to read more.
    ``user`` None: the app itself, which is told everything."""
    allowed = user is None or can_see_treasury(user, warband)
    try:
        yield
    except RuleViolation as refusal:
        if allowed:
            raise
        raise RuleViolation(neutral) from refusal


def can_see_contents(user, container: StorageContainer) -> bool:
    """Whoever holds the container now sees inside: its owner, and after a capture the captor
    (the container then belongs to the captor's warband)."""
    return can_see_treasury(user, container.warband)


@dataclass(frozen=True)
class StoredView:
    """A stored item as its owner sees it: ``name`` says when a correction added it (it
    fetches nothing from a trader: ``StoredItem.sale_price``)."""

    pk: int
    name: str
    by_correction: bool = False


BY_CORRECTION = "(added by correction)"


def stored_view(stored) -> StoredView:
    if stored.correction_id:
        return StoredView(stored.pk, f"{stored.name} {BY_CORRECTION}", by_correction=True)
    return StoredView(stored.pk, stored.name)


@dataclass(frozen=True)
class Contents:
    gold: int
    wyrdstone: int
    items: tuple[StoredView, ...]
    capacity: container_rules.Capacity

    @property
    def held(self) -> bool:
        """It holds something (gold, wyrdstone or an item)."""
        return bool(self.gold or self.wyrdstone or self.items)


@dataclass(frozen=True)
class ContainerView:
    """What a user may know of a container. Everybody sees its kind, whether it is heavy (it
    is on the table) and who carries it; ``label`` and ``contents`` are None unless
    ``can_see_contents``. ``name``: what to call it, "Large Sack 2" or "Large Sack “Loot”"
    for those who may see inside, the kind and its number ("Large Sack 2") for anybody else
    (the label is the owner's).
    Templates get these, never the model, so they cannot leak."""

    pk: int
    kind: str
    kind_label: str
    heavy: bool
    carried_by: str
    label: str | None
    contents: Contents | None
    name: str


def visible_containers(
    user, containers: Iterable[StorageContainer], *, among: Iterable[StorageContainer] = ()
) -> list[ContainerView]:
    """``containers`` must come with ``warband__campaign``, ``holder`` and ``parent`` loaded
    and, when the user may see inside, their ``stored_list`` (``treasury.held_containers``).
    What a carrier carries (its open capacity shrinks by it) is read from the other containers
    given: pass all the warband's held containers, or give them as ``among`` to see only some
    of them."""
    containers = list(containers)
    carried: dict[int, list[str]] = {}
    for container in list(among) or containers:
        if container.parent_id and container.status == StorageContainer.Status.HELD:
            carried.setdefault(container.parent_id, []).append(container.kind)
    views = []
    allowed: dict[int, bool] = {}
    for container in containers:
        if container.warband_id not in allowed:
            allowed[container.warband_id] = can_see_contents(user, container)
        carried_by = ""
        if container.holder_id:
            carried_by = container.holder.name
        elif container.parent_id:
            carried_by = container.parent.kind_label
        contents = None
        kind_label = container.kind_label
        if allowed[container.warband_id]:
            children = carried.get(container.pk, [])
            contents = Contents(
                gold=container.gold_crowns,
                wyrdstone=container.wyrdstone,
                items=tuple(stored_view(stored) for stored in container.stored_list),
                capacity=container_rules.open_capacity(container.kind, children)
                if container.kind != StorageContainer.LOOSE
                else container_rules.Capacity(0, 0, 0),
            )
        views.append(
            ContainerView(
                pk=container.pk,
                kind=container.kind,
                kind_label=kind_label,
                heavy=container.is_heavy,
                carried_by=carried_by,
                label=container.label if allowed[container.warband_id] else None,
                contents=contents,
                name=str(container) if allowed[container.warband_id] else container.public_name,
            )
        )
    return views


def shown_pile(views: Iterable[ContainerView]) -> ContainerView | None:
    """The unstored pile among ``views`` when this user may see inside it and it holds
    something (a pile a step made stays, often empty, and is then not shown)."""
    return next(
        (v for v in views if v.kind == StorageContainer.LOOSE and v.contents and v.contents.held),
        None,
    )


def ledger_name(container: StorageContainer, warband_id: int) -> str:
    """What warband ``warband_id``'s ledger calls ``container``: its name while the warband
    holds it; once an enemy captured it, only its kind, "Treasure Chest (captured)" (the
    captor's name or number for it is the captor's secret)."""
    if container.warband_id == warband_id:
        return str(container)
    return f"{container.kind_label} (captured)"


def get_warband_for_user(request: HttpRequest, pk: int, *, write: bool = False) -> Warband:
    warband = one(
        members_only(
            Warband.objects.select_related("campaign", "owner", "warband_type").filter(pk=pk),
            request.user,
        )
    )
    if warband is None or not is_member(request.user, warband.campaign):
        raise Http404("No such warband.")
    if write and not can_edit_warband(request.user, warband):
        if not warband.campaign.is_open:
            raise PermissionDenied("The campaign is closed: nothing in it can change.")
        raise PermissionDenied("Only the warband's owner may change it, while it plays.")
    return warband


def get_corrections_for_user(request: HttpRequest, pk: int, *, write: bool = False) -> Warband:
    """The warband, if the user may read its corrections (404 for strangers, 403 for its
    opponents); ``write``: the campaign must be open (the services check the rest)."""
    warband = get_warband_for_user(request, pk)
    if not can_read_corrections(request.user, warband):
        raise PermissionDenied("Only the warband's owner and the organisers see its corrections.")
    if write and not warband.campaign.is_open:
        raise PermissionDenied("The campaign is closed: nothing in it can change.")
    return warband


def get_correction_for_user(
    request: HttpRequest, pk: int, correction_pk: int, *, decide: bool = False
) -> Correction:
    """One correction of the warband, for a post on it (404 for strangers and for another
    warband's correction); ``decide``: only an organiser who approves the warband's
    corrections (``approves_corrections``), else whoever asked it (to withdraw it), 403."""
    warband = get_corrections_for_user(request, pk, write=True)
    correction = one(
        Correction.objects.select_related("actor").filter(pk=correction_pk, warband=warband)
    )
    if correction is None:
        raise Http404("No such correction.")
    correction.warband = warband
    if decide and not approves_corrections(request.user, warband):
        raise PermissionDenied(
            "Only an organiser decides requests, and another one those of his own warband or "
            "those he asked while playing himself."
        )
    if not decide and correction.actor_id != request.user.pk:
        raise PermissionDenied("Only whoever asked withdraws a request.")
    return correction


def get_treasury_for_user(request: HttpRequest, pk: int, *, write: bool = False) -> Warband:
    """The warband, if the user may open its treasury (404 for strangers, 403 for others)."""
    warband = get_warband_for_user(request, pk, write=write)
    if not can_see_treasury(request.user, warband):
        raise PermissionDenied("A warband's treasury is its owner's secret.")
    return warband


def get_warrior_for_user(request: HttpRequest, pk: int, *, write: bool = False) -> Warrior:
    warrior = one(
        members_only(
            Warrior.objects.select_related(
                "warband", "warband__campaign", "warband__owner", "warband__warband_type"
            ).filter(pk=pk),
            request.user,
        )
    )
    if warrior is None:
        raise Http404("No such warrior.")
    get_warband_for_user(request, warrior.warband_id, write=write)
    return warrior


def get_vessel_for_user(request: HttpRequest, pk: int) -> VesselItem:
    """A vessel item of a warband of the user's campaigns (404 for anyone else, as for one
    that does not exist); whether he may move it is ``get_treasury_for_user``'s."""
    vessel = one(members_only(VesselItem.objects.filter(pk=pk), request.user))
    if vessel is None:
        raise Http404("No such item.")
    return vessel
