"""The treasury's forms: the treasury page and the post-battle steps (3 to 9) post the same ones.

Each lists its fields; choices are limited to the warband's own containers, stored items and
warriors (each field's queryset), so a posted id of somebody else's is simply invalid, and the
field says so beside itself. A form drawn by a page takes its options from the page's board
(``board.TreasuryBoard``, which read them once); a posted form looks up only what was posted.
``apply`` makes the change through the treasury's services: the page calls it as it is, a
step with its own context (ledger entries naming the battle and the step) inside its journal.
"""

from __future__ import annotations

from contextlib import contextmanager, nullcontext

from django import forms

from core.errors import RuleViolation
from core.options import OptionsSelect
from warbands import permissions
from warbands.models import LedgerEntry, StorageContainer, StoredItem, Warrior, WarriorItem
from warbands.rules import containers as container_rules
from warbands.treasury import containers, moves
from warbands.treasury.ledger import Context, atomic_change
from warbands.treasury.queries import loose_pile, made

LOOSE = StorageContainer.LOOSE


def _choose(message: str) -> dict:
    return {"invalid_choice": message, "required": message}


class ContainerField(forms.ModelChoiceField):
    """One of the warband's held containers (the form limits the queryset to them). With
    ``pile``, also ``"pile"``: the unstored pile, which a step lets money and items go to; read
    as the pile, or, when the warband has none yet, an unsaved one that ``apply`` makes inside
    the change's transaction (a refusal leaves none). ``preloaded`` (pk → container), when the
    form read the posted containers together, answers without a query of its own."""

    widget = OptionsSelect
    default_error_messages = _choose("Choose one of your containers.")

    def __init__(self, *, pile: bool = False, **kwargs) -> None:
        super().__init__(queryset=StorageContainer.objects.none(), **kwargs)
        self.pile = pile
        self.warband = None
        self.preloaded: dict[int, StorageContainer] | None = None

    def to_python(self, value):
        if self.pile and value == "pile":
            found = [c for c in (self.preloaded or {}).values() if c.kind == LOOSE]
            if self.preloaded is None:
                found = list(self.queryset.filter(kind=LOOSE)[:1])
            return found[0] if found else StorageContainer(warband=self.warband, kind=LOOSE)
        if self.preloaded is None or value in self.empty_values:
            return super().to_python(value)
        try:
            return self.preloaded[int(value)]
        except (KeyError, TypeError, ValueError):
            raise forms.ValidationError(
                self.error_messages["invalid_choice"], code="invalid_choice"
            ) from None


class ChoiceOf(forms.ModelChoiceField):
    """A stored item, a warrior or a warrior's item of the warband (the form's queryset)."""

    widget = OptionsSelect

    def __init__(self, model, message: str, **kwargs) -> None:
        super().__init__(queryset=model.objects.none(), error_messages=_choose(message), **kwargs)


class Amount(forms.IntegerField):
    """Gold crowns or wyrdstone shards to move; blank is none."""

    def __init__(self, label: str, maximum: int) -> None:
        super().__init__(label=label, min_value=0, max_value=maximum, required=False, initial=0)

    def clean(self, value):
        return super().clean(value) or 0


class TreasuryForm(forms.Form):
    """A form of one warband's treasury: its fields choose among that warband's own things.
    ``options``: field → the board's list of options it draws (``TreasuryBoard.options``);
    ``container_filters``: field → a narrower choice of the warband's containers."""

    options: dict[str, str] = {}
    container_filters: dict[str, dict] = {}
    held_containers: list[StorageContainer] | None = None

    def __init__(self, data=None, *, warband, board=None, **kwargs) -> None:
        super().__init__(data, auto_id=False, **kwargs)
        self.warband = warband
        held = StorageContainer.objects.held().filter(warband=warband).order_by("pk")
        for name, field in self.fields.items():
            if isinstance(field, ContainerField):
                field.queryset = held.filter(**self.container_filters.get(name, {}))
                field.warband = warband
            elif isinstance(field, forms.ModelChoiceField) and field.queryset.model is Warrior:
                field.queryset = Warrior.objects.fighting().filter(warband=warband)
        if board is not None:
            self.shown_by(board)
        self._preload_containers()

    def shown_by(self, board) -> None:
        """Draw the options from ``board``'s lists, which the page read once, not by queries
        of this form's own."""
        for name, shown in self.options.items():
            self.fields[name].widget.source = board.options_of(shown)

    def _preload_containers(self) -> None:
        """Two or more container fields, all of the warband's held containers: the posted ones
        are read in one query (``held_containers``, with holder and parent, as they were
        before the change, which the view may use again), and the fields choose among them."""
        fields = {n: f for n, f in self.fields.items() if isinstance(f, ContainerField)}
        if not self.is_bound or len(fields) < 2 or self.container_filters:
            return
        posted = [str(self.data.get(name, "")) for name in fields]
        pks = [int(pk) for pk in posted if pk.isascii() and pk.isdigit() and len(pk) < 19]
        held = StorageContainer.objects.held().filter(warband=self.warband)
        wanted = held.filter(pk__in=pks)
        if "pile" in posted:
            wanted = wanted | held.filter(kind=LOOSE)
        self.held_containers = list(wanted.select_related("holder", "parent"))
        found = {container.pk: container for container in self.held_containers}
        for field in fields.values():
            field.preloaded = found

    def clean(self):
        data = super().clean()
        for value in data.values():
            if isinstance(value, StorageContainer):
                value.warband = self.warband  # as the view loaded and checked it
        return data

    @contextmanager
    def _made(self, context: Context | None):
        """The change's transaction, when an unstored pile chosen before it existed is made
        first (``ContainerField``), so that a refusal leaves none; else the service's own."""
        unsaved = [
            name
            for name, value in self.cleaned_data.items()
            if isinstance(value, StorageContainer) and value.pk is None
        ]
        with atomic_change(context) if unsaved else nullcontext():
            for name in unsaved:
                self.cleaned_data[name] = made(self.cleaned_data[name])
            yield self.cleaned_data


class MoveTreasureForm(TreasuryForm):
    source = ContainerField(label="From", pile=True)
    target = ContainerField(label="To", pile=True)
    gold = Amount("Gold crowns", 100_000)
    wyrdstone = Amount("Wyrdstone", 10_000)
    options = {"source": "sources", "target": "move_targets"}

    def apply(self, *, actor, context: Context | None = None):
        with self._made(context) as data:
            return moves.move_treasure(
                data["source"], data["target"], actor=actor, gold=data["gold"],
                wyrdstone=data["wyrdstone"], context=context,
            )  # fmt: skip


class StorePileForm(TreasuryForm):
    """What lies unstored (gold, shards, items) into one of the warband's containers."""

    target = ContainerField(label="Store in")
    gold = Amount("Gold crowns", 100_000)
    wyrdstone = Amount("Wyrdstone", 10_000)
    items = forms.ModelMultipleChoiceField(
        queryset=StoredItem.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"invalid_choice": "Choose among the unstored items."},
    )
    options = {"target": "stores"}

    def __init__(self, *args, warband, **kwargs) -> None:
        super().__init__(*args, warband=warband, **kwargs)
        self.fields["items"].queryset = StoredItem.objects.filter(
            container__warband=warband, container__kind=LOOSE
        )

    def shown_by(self, board) -> None:
        """Everything unstored is offered, and chosen unless the post said otherwise."""
        super().shown_by(board)
        held = board.pile.contents if board.pile else None
        self.fields["items"].choices = [(s.pk, s.name) for s in held.items] if held else []
        if held:
            self.initial.update(gold=held.gold, wyrdstone=held.wyrdstone,
                                items=[stored.pk for stored in held.items])  # fmt: skip

    def clean_target(self):
        target = self.cleaned_data["target"]
        if target.kind == LOOSE:
            raise forms.ValidationError("Choose a container to store it in.")
        return target

    def apply(self, *, actor, context: Context | None = None) -> str:
        data = self.cleaned_data
        return moves.store_pile(
            loose_pile(self.warband), data["target"], actor=actor, gold=data["gold"],
            wyrdstone=data["wyrdstone"], items=data["items"], context=context,
        )  # fmt: skip


def _stored_items(warband):
    """The items stored in the warband's held containers (the unstored pile included)."""
    return StoredItem.objects.filter(
        container__warband=warband, container__status=StorageContainer.Status.HELD
    ).select_related("container", "item")


class MoveItemForm(TreasuryForm):
    """Move a stored item into another of the warband's containers."""

    stored_item = ChoiceOf(StoredItem, "Choose a stored item.", label="Move")
    target = ContainerField(label="into", pile=True)
    options = {"stored_item": "stored", "target": "targets"}

    def __init__(self, *args, warband, **kwargs) -> None:
        super().__init__(*args, warband=warband, **kwargs)
        self.fields["stored_item"].queryset = _stored_items(warband)

    def apply(self, *, actor, context: Context | None = None) -> StoredItem:
        with self._made(context) as data:
            return moves.move_stored_item(
                data["stored_item"], data["target"], actor=actor, context=context
            )


class EquipForm(TreasuryForm):
    """Give a stored item to one of the warband's warriors."""

    stored_item = ChoiceOf(StoredItem, "Choose a stored item.", label="Give")
    warrior = ChoiceOf(Warrior, "Choose one of your warriors.", label="to")
    options = {"stored_item": "stored", "warrior": "warriors"}

    def __init__(self, *args, warband, **kwargs) -> None:
        super().__init__(*args, warband=warband, **kwargs)
        self.fields["stored_item"].queryset = _stored_items(warband)

    def apply(self, *, actor, context: Context | None = None) -> WarriorItem:
        data = self.cleaned_data
        return moves.equip_stored_item(
            data["stored_item"], data["warrior"], actor=actor, context=context
        )


class StoreItemForm(TreasuryForm):
    """Take an item a warrior of the warband carries into a container."""

    owned = ChoiceOf(WarriorItem, "Choose an item a warrior carries.", label="Store")
    target = ContainerField(label="in", pile=True)
    options = {"owned": "owned", "target": "targets"}

    def __init__(self, *args, warband, **kwargs) -> None:
        super().__init__(*args, warband=warband, **kwargs)
        self.fields["owned"].queryset = WarriorItem.objects.filter(
            warrior__warband=warband, warrior__status=Warrior.Status.ACTIVE
        ).select_related("item", "warrior")

    def apply(self, *, actor, context: Context | None = None) -> None:
        with self._made(context) as data:
            moves.store_warrior_item(data["owned"], data["target"], actor=actor, context=context)


class BuyContainerForm(TreasuryForm):
    """A Common container at its price (rare ones need a rarity roll: post-battle step 6)."""

    kind = forms.ChoiceField(
        label="Container",
        choices=[
            (kind, f"{container_rules.spec(kind).name} · {container_rules.spec(kind).price} gc")
            for kind in containers.BUYABLE_CONTAINERS
        ],
        error_messages=_choose("Choose a Common container (rare ones are bought in step 6)."),
    )
    pay_from = ContainerField(label="Pay from", required=False)
    holder = ChoiceOf(Warrior, "Choose one of your heroes.", label="Hero (for a pouch)",
                      required=False)  # fmt: skip
    options = {"pay_from": "stores", "holder": "heroes"}

    def __init__(self, *args, warband, board=None, **kwargs) -> None:
        super().__init__(*args, warband=warband, board=board, **kwargs)
        self.fields["pay_from"].widget.blank = "Any container with enough"
        self.fields["holder"].widget.blank = "—"

    def apply(self, *, actor, context: Context | None = None) -> StorageContainer:
        data = self.cleaned_data
        return containers.buy_container(
            self.warband, data["kind"], actor=actor, pay_from=data["pay_from"],
            holder=data["holder"], context=context,
        )  # fmt: skip


class SellContainerForm(TreasuryForm):
    container = ContainerField(label="Sell")
    proceeds_to = ContainerField(label="money into", pile=True, required=False)
    container_filters = {"container": {"kind__in": containers.SELLABLE_CONTAINERS}}
    options = {"container": "sellable", "proceeds_to": "targets"}

    def apply(self, *, actor, context: Context | None = None) -> None:
        with self._made(context) as data:
            containers.sell_container(
                data["container"], actor=actor, proceeds_to=data["proceeds_to"], context=context
            )


class NameContainerForm(TreasuryForm):
    container = ContainerField(label="Name")
    label = forms.CharField(
        max_length=60,
        required=False,
        label="as",
        widget=forms.TextInput(attrs={"placeholder": "Tithes, Loot…"}),
    )
    container_filters = {"container": {"kind__in": tuple(container_rules.CATALOGUE)}}
    options = {"container": "stores"}

    def apply(self, *, actor, context: Context | None = None) -> StorageContainer:
        data = self.cleaned_data
        return containers.name_container(data["container"], data["label"], actor=actor)


class PlaceContainerForm(TreasuryForm):
    container = ContainerField(label="Load")
    parent = ContainerField(label="on", required=False)
    container_filters = {
        "container": {"kind__in": container_rules.BOXES},
        "parent": {"kind__in": container_rules.CARRIERS},
    }
    options = {"container": "loadable", "parent": "carriers"}

    def __init__(self, *args, warband, board=None, **kwargs) -> None:
        super().__init__(*args, warband=warband, board=board, **kwargs)
        self.fields["parent"].widget.blank = "carried on its own"

    def apply(self, *, actor, context: Context | None = None) -> StorageContainer:
        data = self.cleaned_data
        return containers.place_container(data["container"], data["parent"], actor=actor)


class VesselForm(TreasuryForm):
    coach = ContainerField(label="Carry it in", required=False)
    container_filters = {"coach": {"kind": "opulent_coach"}}
    options = {"coach": "coaches"}

    def __init__(self, *args, warband, board=None, **kwargs) -> None:
        super().__init__(*args, warband=warband, board=board, **kwargs)
        self.fields["coach"].widget.blank = "Its own vessel"

    def apply(self, vessel, *, actor) -> None:
        containers.place_vessel_item(vessel, self.cleaned_data["coach"], actor=actor)


def first_error(form: forms.Form) -> str:
    """The form's first message, with its field's label: where the message is not shown
    beside its field (a page drawn without htmx, a step's service called directly)."""
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        if not label or errors[0].startswith(label):
            return errors[0]
        return f"{label[:1].upper()}{label[1:]}: {errors[0]}"
    return "Please check the form."


def refused(form: forms.Form, refusal: RuleViolation) -> forms.Form:
    """``form`` with the service's refusal as its own message (shown at the form)."""
    form.add_error(None, str(refusal))
    return form


class LedgerPageForm(forms.Form):
    """``?page=`` of the ledger. What is not a whole number from 1 shows the first page and a
    number past the end, however large, the last (as Django's ``Paginator.get_page``): the
    number is capped at ``FURTHEST`` before it becomes an offset, which PostgreSQL would
    refuse past a bigint."""

    FURTHEST = 1_000_000_000  # pages: a ledger a hundred million times longer than any
    page = forms.IntegerField(min_value=1, required=False)

    def number(self) -> int:
        if not self.is_valid() or self.cleaned_data["page"] is None:
            return 1
        return min(self.cleaned_data["page"], self.FURTHEST)


class _LedgerContainer(forms.ModelChoiceField):
    """A container the ledger names, as this ledger calls it (``permissions.ledger_name``)."""

    def label_from_instance(self, obj) -> str:
        return permissions.ledger_name(obj, self.warband_id)


class _Battle(forms.ModelChoiceField):
    def label_from_instance(self, obj) -> str:
        return f"{obj.scenario}, {obj.fought_on.day} {obj.fought_on:%b %Y}"


class LedgerFilterForm(forms.Form):
    container = _LedgerContainer(
        queryset=StorageContainer.objects.none(), required=False, empty_label="All containers"
    )
    kind = forms.ChoiceField(
        choices=[("", "Everything"), *LedgerEntry.Kind.choices], required=False
    )
    reason = forms.ChoiceField(
        choices=[("", "Any reason"), *LedgerEntry.Reason.choices], required=False
    )
    # Battles sit a layer above warbands: the model is the ledger's foreign key's, not imported.
    battle = _Battle(
        queryset=LedgerEntry._meta.get_field("battle").related_model.objects.none(),
        required=False,
        empty_label="Any battle",
    )

    def __init__(self, *args, warband, **kwargs) -> None:
        super().__init__(*args, auto_id=False, **kwargs)
        # Past containers (sold, lost, captured) still have entries to filter by.
        self.fields["container"].queryset = StorageContainer.objects.filter(
            pk__in=LedgerEntry.objects.filter(warband=warband).values("container_id")
        )
        self.fields["container"].warband_id = warband.pk
        # The battles whose post-battle sequences changed this treasury.
        self.fields["battle"].queryset = (
            self.fields["battle"]
            .queryset.model.objects.filter(participants__warband=warband)
            .distinct()
            .order_by("-fought_on", "-pk")
        )
