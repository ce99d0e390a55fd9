"""The board: a warband's treasury as a page shows it, read only when the page draws it.

The treasury page and the treasury steps of the post-battle sequence (3 to 9) draw the same
board with the same partials (``templates/warbands/treasury/``): the containers and what the
viewer may see of them (``permissions.visible_containers``, the one gate of the secrets), the
lists the forms choose from, and the forms (``forms``). The page posts each form to a view of
its own and keeps the board's parts with its fragments (under the warband's version,
``campaign.cache``); a step posts them to the sequence (``posts``: its address and which
action of the step), and its whole panel is kept instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, partial

from django.core.cache import caches
from django.core.paginator import Page, Paginator
from django.db.models import Count, Subquery
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from core.options import OptionList, render_groups, render_options
from warbands import permissions
from warbands.models import LedgerEntry, StorageContainer, VesselItem, Warrior, amount_parts
from warbands.rules import containers as container_rules
from warbands.treasury import forms
from warbands.treasury.containers import SELLABLE_CONTAINERS
from warbands.treasury.moves import NOT_STORABLE
from warbands.treasury.queries import held_containers, totals_of

LEDGER_FIELDS = tuple(f.name for f in LedgerEntry._meta.concrete_fields)
LEDGER_PAGE = 30  # rows per page of the ledger

#: The board's forms by name, and the page's view each one posts to.
FORMS = {
    "move": (forms.MoveTreasureForm, "treasury_move"),
    "store_pile": (forms.StorePileForm, "treasury_store_pile"),
    "move_item": (forms.MoveItemForm, "treasury_move_item"),
    "equip": (forms.EquipForm, "treasury_equip"),
    "store_item": (forms.StoreItemForm, "treasury_store"),
    "buy": (forms.BuyContainerForm, "treasury_buy"),
    "sell": (forms.SellContainerForm, "treasury_sell"),
    "name": (forms.NameContainerForm, "treasury_name"),
    "place": (forms.PlaceContainerForm, "treasury_place"),
}


NO_FIELDS = mark_safe("")


@dataclass(frozen=True)
class Post:
    """Where a form of the board posts, and the hidden fields that say what it is for there
    (a step's number and action)."""

    url: str
    hidden: SafeString = NO_FIELDS


class _Forms:
    """The board's forms by name (``board.forms.move``), each made when first drawn; the one a
    refusal sent back (``refused``) with its messages instead of a fresh one."""

    def __init__(self, board: TreasuryBoard, refused) -> None:
        self.board, self.made = board, {}
        if refused is not None:
            self.refuse(*refused)

    def refuse(self, name: str, form) -> None:
        """Draw ``form``, which a refusal sent back, as the form ``name`` (drawn even when the
        board would offer it no longer: ``refused``)."""
        form.shown_by(self.board)
        self.made[name] = form
        self.board.refused = name

    def __getitem__(self, name: str):
        if name not in self.made:
            form_class = FORMS[name][0]
            board = self.board
            self.made[name] = form_class(warband=board.warband, board=board)
        return self.made[name]


class TreasuryBoard:
    """What a page shows of ``warband``'s treasury to ``user``. Each part is read when the page
    first draws it. ``request``: the treasury page's (its ledger's filter and page);
    ``posts``: form name → ``Post``, for a step (whose lists name each container with what it
    holds, and offer the unstored pile as a destination); ``refused``: (name, the bound form a
    refusal sent back); ``warriors``: a step's own read of the warband's fighting warriors."""

    def __init__(self, user, warband, *, request=None, posts=None, refused=None, warriors=None):
        self.user, self.warband, self.request = user, warband, request
        self.step_posts = posts
        self.in_step = posts is not None
        self.style = "contents" if self.in_step else "holder"
        self.given_warriors = warriors
        self.refused = None  # the name of the form drawn with a refusal's messages
        self.forms = _Forms(self, refused)

    @cached_property
    def posts(self) -> dict[str, Post]:
        if self.in_step:
            return self.step_posts
        return {
            name: Post(reverse(view, args=[self.warband.pk])) for name, (_, view) in FORMS.items()
        }

    # --- What is held, as this user may see it ----------------------------------------------

    @cached_property
    def held(self) -> list[StorageContainer]:
        return held_containers(self.warband)

    @cached_property
    def views(self) -> list:
        return permissions.visible_containers(self.user, self.held)

    @cached_property
    def containers(self) -> list:
        return [v for v in self.views if v.kind != StorageContainer.LOOSE]

    @cached_property
    def pile(self):
        """Treasure outside any container, when there is some."""
        return permissions.shown_pile(self.views)

    @cached_property
    def pile_parts(self) -> list[str]:
        """What lies unstored, in words ("12 gc", "Sword")."""
        if not self.pile:
            return []
        held = self.pile.contents
        return amount_parts(held.gold, held.wyrdstone, [stored.name for stored in held.items])

    @cached_property
    def totals(self) -> dict[str, int]:
        return totals_of(self.held)

    @cached_property
    def stored_groups(self) -> list:
        """The stored items by container, for the item forms."""
        return [
            (view.name, [(stored.pk, stored.name) for stored in view.contents.items])
            for view in self.views
            if view.contents
        ]

    # --- What the forms choose from (the owner's alone: drawn only for him) ------------------

    @cached_property
    def _real(self) -> list[StorageContainer]:
        return [c for c in self.held if c.kind != StorageContainer.LOOSE]

    @cached_property
    def targets(self) -> OptionList:
        return OptionList(self._real)

    @cached_property
    def paying(self) -> OptionList:
        """Containers holding gold ("Pay from" of the steps' purchases)."""
        return OptionList(c for c in self._real if c.gold_crowns)

    @cached_property
    def carriers(self) -> OptionList:
        return OptionList(c for c in self._real if c.kind in container_rules.CARRIERS)

    @cached_property
    def loadable(self) -> OptionList:
        """Boxes to load on a carrier, when there is a carrier."""
        boxes = (c for c in self._real if c.kind in container_rules.BOXES)
        return OptionList(boxes if self.carriers else ())

    @cached_property
    def sellable(self) -> OptionList:
        """Empty containers carrying nothing, when another would take the money."""
        carrying = {c.parent_id for c in self.held if c.parent_id}
        if len(self._real) < 2:
            return OptionList()
        return OptionList(
            c
            for c in self._real
            if c.kind in SELLABLE_CONTAINERS and c.is_empty and c.pk not in carrying
        )

    @cached_property
    def warriors(self) -> OptionList:
        if self.given_warriors is not None:
            return OptionList(self.given_warriors)
        return OptionList(Warrior.objects.fighting().filter(warband=self.warband).for_forms())

    @cached_property
    def heroes(self) -> list[Warrior]:
        return [w for w in self.warriors if w.is_hero]

    @cached_property
    def owned_groups(self) -> list:
        """What each warrior carries that may be stored, by warrior."""
        return [
            (warrior.name, storable)
            for warrior in self.warriors
            if (
                storable := [
                    (owned.pk, owned.item.name)
                    for owned in warrior.item_list
                    if owned.item.category not in NOT_STORABLE
                ]
            )
        ]

    @cached_property
    def coaches(self) -> list[StorageContainer]:
        return [c for c in self.held if c.kind == "opulent_coach"]

    def options_of(self, name: str):
        """What draws the options of the list ``name`` (for ``forms.TreasuryForm``)."""
        return partial(self.options, name)

    def options(self, name: str) -> SafeString:
        """The ``<option>`` elements of the list ``name``, kept with the page's fragments;
        nothing for a user who may not see inside the treasury."""
        if not permissions.can_see_treasury(self.user, self.warband):
            return mark_safe("")
        return self._kept(f"options-{name}-{self.style}", lambda: self._options(name))

    def _options(self, name: str) -> SafeString:
        style = self.style
        pile = format_html('<option value="pile">{}</option>', "not stored yet")
        if name == "sources":  # the unstored pile first, when it holds something
            shown = render_options(self.targets, style)
            if not self.pile:
                return shown
            return (
                format_html('<option value="{}">Not in a container</option>', self.pile.pk) + shown
            )
        if name == "move_targets":  # not the source's first choice
            second = None if self.pile or len(self.targets) < 2 else self.targets[1].pk
            shown = render_options(self.targets, style, selected=second)
            return shown + pile if self.in_step else shown
        if name == "targets":
            return render_options(self.targets, style) + (pile if self.in_step else "")
        if name in ("stored", "owned"):
            return render_groups(self.stored_groups if name == "stored" else self.owned_groups)
        if name == "warriors":
            return render_options(self.warriors, "group")
        if name == "heroes":
            return render_options(self.heroes)
        chosen = {"stores": self.targets, "sellable": self.sellable, "coaches": self.coaches,
                  "loadable": self.loadable, "carriers": self.carriers,
                  "paying": self.paying}  # fmt: skip
        return render_options(chosen[name], style)

    # --- The page's own parts ---------------------------------------------------------------

    @cached_property
    def vessels(self) -> list:
        """The Dark Artefacts and Loyalty Symbols, each with its form and where it posts."""
        vessels = VesselItem.objects.filter(warband=self.warband).select_related("coach")
        return [
            (
                vessel,
                self.forms.made.get(f"vessel-{vessel.pk}")
                or forms.VesselForm(warband=self.warband, board=self),
                Post(reverse("vessel_place", args=[vessel.pk])),
            )
            for vessel in vessels
        ]

    @cached_property
    def ledger(self):
        return _ledger(self.request, self.warband)

    def _kept(self, name: str, read):
        """``read()``, kept with the page's fragments under the warband's version
        (``campaign.cache``); a step's panel is kept whole instead."""
        if self.in_step:
            return read()
        warband = self.warband
        key = f"treasury-{name}:{warband.pk}:{warband.fragment_version}"
        return caches["fragments"].get_or_set(key, read, warband.fragment_seconds)

    @cached_property
    def shape(self) -> dict:
        """Which of the forms have something to offer, kept with the fragments: the forms
        themselves carry one-time tokens and are drawn each time."""
        return self._kept(
            "shape",
            lambda: {
                "items": self.totals["items"],
                "pile": bool(self.pile),
                "targets": bool(self.targets),
                "sellable": bool(self.sellable),
                "loadable": bool(self.loadable),
            },
        )

    @cached_property
    def others(self) -> dict:
        """Whether the warriors carry anything to store, and whether there are vessels."""
        return self._kept(
            "others",
            lambda: {
                "owned": bool(self.owned_groups),
                "vessels": VesselItem.objects.filter(warband=self.warband).exists(),
            },
        )


def _ledger(request, warband):
    form = forms.LedgerFilterForm(request.GET or None, warband=warband)
    entries = (
        LedgerEntry.objects.filter(warband=warband)
        .select_related("container", "actor", "battle")
        # What a row shows of its container, player and battle (the ledger_rows tag).
        .only(
            *LEDGER_FIELDS,
            "container__kind",
            "container__label",
            "container__number",
            "container__warband",
            "actor__username",
            "battle__scenario",
        )
    )
    if form.is_valid():
        for name in ("container", "kind", "reason", "battle"):
            if form.cleaned_data[name]:
                entries = entries.filter(**{name: form.cleaned_data[name]})
    return form, _page(entries, forms.LedgerPageForm(request.GET).number())


def _page(entries, number: int) -> Page:
    """A page of the ledger in one query: each row carries the total (an uncorrelated
    subquery, counted once) that Django's paginator would otherwise count in a query of its
    own; the page is read newest first through the ``ledger_recent`` index. An empty ledger,
    or a page number past the end, falls back to the paginator (it counts, then shows the
    last page)."""
    start = (number - 1) * LEDGER_PAGE
    total = entries.order_by().values("warband").annotate(n=Count("pk")).values("n")[:1]
    rows = list(entries.annotate(total=Subquery(total))[start : start + LEDGER_PAGE])
    if not rows:
        return Paginator(entries, LEDGER_PAGE).get_page(number)
    return Paginator(_ReadPage(rows, start, rows[0].total), LEDGER_PAGE).page(number)


class _ReadPage:
    """The ledger as Django's paginator reads it (a sliceable object with a ``count()``,
    as its documentation allows) when the page's rows are read already: ``count()`` is the
    total the rows carry, and the page's slice is the rows themselves."""

    def __init__(self, rows: list, start: int, total: int) -> None:
        self.rows, self.start, self.total = rows, start, total

    def count(self) -> int:
        return self.total

    def __getitem__(self, index: slice) -> list:
        return self.rows[index.start - self.start : index.stop - self.start]
