"""The treasury's rows (Mayhem in Mordheim storage containers): containers, what they hold
and the append-only ledger that explains every change of their balances.

The balances only change through ``warbands.treasury``; the constraints here are the last line
that refuses a negative or over-capacity balance.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from warbands.models.reference import Item
from warbands.models.roster import Warband, Warrior
from warbands.rules import containers as container_rules


def amount_parts(gold: int, wyrdstone: int, others=()) -> list[str]:
    """The words for an amount of treasure, none for a zero: ``["24 gc", "3 wyrdstone",
    *others]`` (``others``: items' names, say), for the caller to join."""
    parts = (f"{gold} gc" if gold else "", f"{wyrdstone} wyrdstone" if wyrdstone else "", *others)
    return [part for part in parts if part]


def _capacity_constraints() -> list[models.CheckConstraint]:
    """The database refuses what no container of a kind can hold (per-category maxima from the
    catalogue in ``warbands.rules.containers``) and the pouch holding gold and wyrdstone
    together. A cart's smaller open capacity with containers in it is checked by the service."""
    constraints = [
        models.CheckConstraint(
            condition=Q(gold_crowns__gte=0) & Q(wyrdstone__gte=0) & Q(item_count__gte=0),
            name="container_not_negative",
        ),
        models.CheckConstraint(
            condition=~Q(kind="pouch") | Q(gold_crowns=0) | Q(wyrdstone=0),
            name="pouch_gold_or_wyrdstone",
        ),
        models.CheckConstraint(
            condition=~Q(kind="pouch") | Q(holder__isnull=False) | ~Q(status="held"),
            name="pouch_has_a_hero",
        ),
        models.UniqueConstraint(
            fields=["warband"], condition=Q(kind="loose"), name="one_loose_pile_per_warband"
        ),
        models.CheckConstraint(
            condition=Q(status="held") | (Q(gold_crowns=0) & Q(wyrdstone=0) & Q(item_count=0)),
            name="gone_containers_are_empty",
        ),
    ]
    for kind, container in container_rules.CATALOGUE.items():
        capacity = container.capacity
        constraints.append(
            models.CheckConstraint(
                condition=~Q(kind=kind)
                | (
                    Q(gold_crowns__lte=capacity.gold)
                    & Q(wyrdstone__lte=capacity.wyrdstone)
                    & Q(item_count__lte=capacity.items)
                ),
                name=f"{kind}_capacity",
            )
        )
    return constraints


class StorageContainerQuerySet(models.QuerySet):
    def held(self) -> StorageContainerQuerySet:
        """Containers a warband has now (not sold or lost), the unstored pile included."""
        return self.filter(status=StorageContainer.Status.HELD)

    def real(self) -> StorageContainerQuerySet:
        """Containers proper that the warband holds: not the pile of unstored treasure."""
        return self.held().exclude(kind=StorageContainer.LOOSE)

    def for_treasury(self) -> StorageContainerQuerySet:
        return self.select_related("holder", "parent").order_by("pk")


class StorageContainer(models.Model):
    """A storage container of a warband (or a carrier: pack animal, cart, coach, warmount).

    ``gold_crowns``, ``wyrdstone`` and ``item_count`` are balances: they only change through
    ``warbands.treasury``, in the same transaction as the ``LedgerEntry`` rows that explain
    them. Each warband also has one ``loose`` pile: treasure that has no container yet (found,
    bought or unpacked) and is lost at the end of the post-battle sequence.
    """

    CAMPAIGN_PATH = "warband__campaign"  # league.backup

    LOOSE = "loose"

    class Status(models.TextChoices):
        HELD = "held", "Held"
        SOLD = "sold", "Sold"
        LOST = "lost", "Lost"

    KIND_CHOICES = [
        *((kind, spec.name) for kind, spec in container_rules.CATALOGUE.items()),
        (LOOSE, "Not in a container"),
    ]

    warband = models.ForeignKey(Warband, on_delete=models.PROTECT, related_name="containers")
    kind = models.CharField(max_length=20, choices=KIND_CHOICES)
    label = models.CharField(
        max_length=60,
        blank=True,
        help_text="The player's own name for it (or the name a discovered cart came with).",
    )
    number = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Its number among the warband's containers of its kind, shown while it has "
        "no name (treasury.number_alike).",
    )
    parent = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="children",
        help_text="The pack animal, cart, coach or warmount carrying it.",
    )
    holder = models.ForeignKey(
        Warrior,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The hero wearing a pouch or riding a warmount.",
    )
    gold_crowns = models.PositiveIntegerField(default=0)
    wyrdstone = models.PositiveIntegerField(default=0)
    item_count = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.HELD)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = StorageContainerQuerySet.as_manager()

    class Meta:
        ordering = ["warband_id", "pk"]
        constraints = _capacity_constraints()

    def __str__(self) -> str:
        # A plain dict: get_kind_display() rebuilds its lookup on every call, and the treasury
        # page names each container in every form's list of targets.
        if self.label:
            return f"{_CONTAINER_NAMES.get(self.kind, self.kind)} “{self.label}”"
        return self.public_name  # numbered among its kind (treasury.number_alike)

    @property
    def public_name(self) -> str:
        """What anybody may call it: its kind, with its number among its kind when it has one
        ("Large Sack 2"), never the name its owner gave it (that is as secret as the
        contents)."""
        name = _CONTAINER_NAMES.get(self.kind, self.kind)
        return f"{name} {self.number}" if self.number else name

    @property
    def kind_label(self) -> str:
        """``get_kind_display()`` from a plain dict (see ``__str__``)."""
        return _CONTAINER_NAMES.get(self.kind, self.kind)

    @property
    def contents_label(self) -> str:
        """ "24 gc, 3 wyrdstone, 1 item" or "empty": for the owner's own forms only."""
        items = [f"{self.item_count} item{'s' if self.item_count != 1 else ''}"]
        parts = amount_parts(self.gold_crowns, self.wyrdstone, items if self.item_count else ())
        return ", ".join(parts) or "empty"

    @property
    def the(self) -> str:
        """For sentences: "the Treasure Chest", "the unstored treasure"."""
        return "the unstored treasure" if self.kind == self.LOOSE else f"the {self}"

    @property
    def spec(self) -> container_rules.ContainerSpec | None:
        return None if self.kind == self.LOOSE else container_rules.spec(self.kind)

    @property
    def contents(self) -> container_rules.Contents:
        return container_rules.Contents(self.gold_crowns, self.wyrdstone, self.item_count)

    @property
    def is_heavy(self) -> bool:
        return self.kind != self.LOOSE and container_rules.is_heavy(self.kind, self.contents)

    @property
    def is_empty(self) -> bool:
        return not (self.gold_crowns or self.wyrdstone or self.item_count)


_CONTAINER_NAMES = dict(StorageContainer.KIND_CHOICES)


class StoredItem(models.Model):
    """An item in a container: weapons, armour, equipment, or a random fortune discovery
    (``item`` empty, ``name`` says what it is). Counts as one stored item for capacity.
    ``correction``: as ``WarriorItem.correction``, the correction that added it."""

    CAMPAIGN_PATH = "container__warband__campaign"  # league.backup

    container = models.ForeignKey(
        StorageContainer, on_delete=models.PROTECT, related_name="stored_items"
    )
    item = models.ForeignKey(
        Item, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    name = models.CharField(max_length=100)
    correction = models.ForeignKey(
        "warbands.Correction",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Added by this correction, never paid for: it sells for nothing.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def sale_price(self) -> int:
        """What a trader gives for it: nothing for a discovery the chart does not list or an
        item a correction added (``WarriorItem.sale_price``)."""
        if self.item is None or self.correction_id:
            return 0
        return self.item.sale_price


class VesselItem(models.Model):
    """A Dark Artefact or Loyalty Symbol. MiM: they "cannot be placed in storage containers,
    but are considered to have special vessels into which they are stored as carried items";
    only an opulent coach may carry them (inside, whatever is on its roof). No correction
    makes one, none becomes a warrior's or stored item, and no trader buys one: it carries
    no provenance."""

    CAMPAIGN_PATH = "warband__campaign"  # league.backup

    class Kind(models.TextChoices):
        DARK_ARTEFACT = "dark_artefact", "Dark Artefact"
        LOYALTY_SYMBOL = "loyalty_symbol", "Loyalty Symbol"

    warband = models.ForeignKey(Warband, on_delete=models.PROTECT, related_name="vessel_items")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    name = models.CharField(max_length=100)
    is_lost = models.BooleanField(default=False, help_text="Left behind or lost to the cult.")
    coach = models.ForeignKey(
        StorageContainer,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="vessel_items",
        limit_choices_to={"kind": "opulent_coach"},
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = models.QuerySet.as_manager()

    class Meta:
        ordering = ["kind", "name"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.name}"


class LedgerQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise TypeError("Ledger entries are append-only: write a new entry instead.")

    def delete(self):
        raise TypeError("Ledger entries are append-only: write a reversing entry instead.")


class LedgerEntry(models.Model):
    """One change to a warband's treasury, written in the same transaction as the container
    balance it changes. Append-only: the model, its queryset, the admin and a database trigger
    all refuse updates and deletes; a mistake is undone by a reversing entry."""

    CAMPAIGN_PATH = "warband__campaign"  # league.backup

    class Kind(models.TextChoices):
        GOLD = "gold", "Gold crowns"
        WYRDSTONE = "wyrdstone", "Wyrdstone"
        ITEM = "item", "Stored item"

    class Reason(models.TextChoices):
        STARTING_TREASURY = "starting_treasury", "Starting treasury"
        INCOME = "income", "Income"
        SALE = "sale", "Sale"
        PURCHASE = "purchase", "Purchase"
        CAPTURE = "capture", "Capture"
        LOSS = "loss", "Loss"
        TRANSFER = "transfer", "Transfer between containers"
        EQUIP = "equip", "Equipped on a warrior"
        UNEQUIP = "unequip", "Stored from a warrior"
        REVERSAL = "reversal", "Reversal"
        CARRIED_IN = "carried_in", "Carried in from another campaign"

    warband = models.ForeignKey(Warband, on_delete=models.PROTECT, related_name="ledger")
    container = models.ForeignKey(
        StorageContainer, on_delete=models.PROTECT, related_name="ledger_entries"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    amount = models.IntegerField()
    item = models.ForeignKey(
        Item, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    item_name = models.CharField(max_length=100, blank=True)
    reason = models.CharField(max_length=20, choices=Reason.choices)
    note = models.CharField(max_length=200, blank=True)
    battle = models.ForeignKey(
        "battles.Battle", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    step = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The post-battle step (0-10) that made the change."
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reverses = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    )
    # A sale's proceeds name the container sold (and so does the entry that reverses them):
    # the conservation audit sees a container's price paid out at most once.
    sold_container = models.ForeignKey(
        StorageContainer,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="sale_entries",
    )
    # An item a correction added names it on every entry that moves it, and so does the
    # sale that takes it (which pays nothing): the audit counts what came in that way.
    correction = models.ForeignKey(
        "warbands.Correction", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = LedgerQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "ledger entries"
        # The treasury page reads a warband's newest entries first, a page at a time; its
        # filter lists the containers the warband's entries name (ledger_containers: an
        # index-only probe per container instead of reading the warband's whole ledger).
        indexes = [
            models.Index(fields=["warband", "-created_at", "-id"], name="ledger_recent"),
            models.Index(fields=["warband", "container"], name="ledger_containers"),
        ]
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="ledger_amount_not_zero"),
            models.CheckConstraint(
                condition=~Q(kind="item") | Q(amount__in=[1, -1]), name="ledger_one_item_a_row"
            ),
            # Only a sale's proceeds (and their reversal) name a container sold. "Sold once"
            # itself is the services' check of the container's status under its row lock, and
            # the audit's (warbands.treasury.audit.sale_problems): a unique index could not
            # tell a second sale from a sale made again after its step was undone.
            models.CheckConstraint(
                condition=Q(sold_container__isnull=True)
                | Q(reason__in=["sale", "reversal"], kind="gold"),
                name="ledger_sold_container_on_sales",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.amount:+d} {self.get_kind_display()} ({self.get_reason_display()})"

    def save(self, *args, **kwargs):
        """Inserts only: an entry read back from the database has its primary key."""
        if self.pk is not None:
            raise TypeError("Ledger entries are append-only: write a new entry instead.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError("Ledger entries are append-only: write a reversing entry instead.")

    @property
    def what(self) -> str:
        if self.kind == self.Kind.ITEM:
            return self.item_name
        return "gc" if self.kind == self.Kind.GOLD else "wyrdstone"
