"""Forms of the treasury page. Each lists its fields; choices are limited to the warband's own
containers and warriors, so a posted id of somebody else's container is simply invalid."""

from django import forms

from warbands import permissions, treasury
from warbands.models import StorageContainer, StoredItem, Warrior, WarriorItem
from warbands.rules import containers as container_rules


class _ContainerField(forms.ModelChoiceField):
    """A choice of the warband's containers; ``preloaded`` (pk → container), when the form
    read the posted ones together, answers without a query of its own."""

    preloaded: dict[int, StorageContainer] | None = None

    def to_python(self, value):
        if self.preloaded is None or value in self.empty_values:
            return super().to_python(value)
        try:
            return self.preloaded[int(value)]
        except (KeyError, TypeError, ValueError):
            raise forms.ValidationError(
                self.error_messages["invalid_choice"], code="invalid_choice"
            ) from None


class _WarbandForm(forms.Form):
    def __init__(self, *args, warband, **kwargs):
        super().__init__(*args, **kwargs)
        self.warband = warband
        held = StorageContainer.objects.held().filter(warband=warband).order_by("pk")
        for name, field in self.fields.items():
            if isinstance(field, forms.ModelChoiceField):
                if field.queryset.model is StorageContainer:
                    field.queryset = held.filter(
                        **getattr(self, "container_filters", {}).get(name, {})
                    )
                elif field.queryset.model is Warrior:
                    field.queryset = Warrior.objects.fighting().filter(warband=warband)
        self._preload_containers()

    held_containers: list[StorageContainer] | None = None

    def _preload_containers(self) -> None:
        """Two or more container fields, all of the warband's held containers: the posted ones
        are read in one query (``held_containers``, with holder and parent, as they were
        before the change, which the view may use again), and the fields choose among them."""
        fields = {n: f for n, f in self.fields.items() if isinstance(f, _ContainerField)}
        if not self.is_bound or len(fields) < 2 or getattr(self, "container_filters", None):
            return
        posted = [self.data.get(name) for name in fields]
        pks = [
            int(pk)
            for pk in posted
            if isinstance(pk, str) and pk.isascii() and pk.isdigit() and len(pk) < 19
        ]
        self.held_containers = list(
            StorageContainer.objects.held()
            .filter(warband=self.warband, pk__in=pks)
            .select_related("holder", "parent")
        )
        found = {container.pk: container for container in self.held_containers}
        for field in fields.values():
            field.preloaded = found

    def clean(self):
        data = super().clean()
        for value in data.values():
            if isinstance(value, StorageContainer):
                value.warband = self.warband  # as the view loaded and checked it
        return data


class MoveTreasureForm(_WarbandForm):
    source = _ContainerField(queryset=StorageContainer.objects.none(), label="From")
    target = _ContainerField(queryset=StorageContainer.objects.none(), label="To")
    gold = forms.IntegerField(min_value=0, max_value=100_000, required=False, initial=0)
    wyrdstone = forms.IntegerField(min_value=0, max_value=10_000, required=False, initial=0)

    def clean(self):
        data = super().clean()
        data["gold"] = data.get("gold") or 0
        data["wyrdstone"] = data.get("wyrdstone") or 0
        return data


def _stored_items(warband):
    """The items stored in the warband's held containers (the unstored pile included)."""
    return StoredItem.objects.filter(
        container__warband=warband, container__status=StorageContainer.Status.HELD
    )


class MoveItemForm(_WarbandForm):
    """Move a stored item into another of the warband's containers."""

    stored_item = forms.ModelChoiceField(queryset=StoredItem.objects.none(), label="Item")
    target = forms.ModelChoiceField(queryset=StorageContainer.objects.none(), label="Into")

    def __init__(self, *args, warband, **kwargs):
        super().__init__(*args, warband=warband, **kwargs)
        self.fields["stored_item"].queryset = _stored_items(warband)


class EquipForm(_WarbandForm):
    """Give a stored item to one of the warband's warriors."""

    stored_item = forms.ModelChoiceField(queryset=StoredItem.objects.none(), label="Item")
    warrior = forms.ModelChoiceField(queryset=Warrior.objects.none())

    def __init__(self, *args, warband, **kwargs):
        super().__init__(*args, warband=warband, **kwargs)
        self.fields["stored_item"].queryset = _stored_items(warband)


class StoreItemForm(_WarbandForm):
    """Take an item a warrior of the warband carries into a container."""

    owned = forms.ModelChoiceField(queryset=WarriorItem.objects.none(), label="Item")
    target = forms.ModelChoiceField(queryset=StorageContainer.objects.none(), label="Into")

    def __init__(self, *args, warband, **kwargs):
        super().__init__(*args, warband=warband, **kwargs)
        self.fields["owned"].queryset = WarriorItem.objects.filter(
            warrior__warband=warband, warrior__status=Warrior.Status.ACTIVE
        )


class BuyContainerForm(_WarbandForm):
    kind = forms.ChoiceField(
        choices=[
            (kind, f"{container_rules.spec(kind).name} · {container_rules.spec(kind).price} gc")
            for kind in treasury.BUYABLE_CONTAINERS
        ]
    )
    pay_from = forms.ModelChoiceField(
        queryset=StorageContainer.objects.none(), required=False, label="Pay from"
    )
    holder = forms.ModelChoiceField(
        queryset=Warrior.objects.none(), required=False, label="Hero (for a pouch)"
    )


class SellContainerForm(_WarbandForm):
    container = forms.ModelChoiceField(queryset=StorageContainer.objects.none(), label="Sell")
    proceeds_to = forms.ModelChoiceField(
        queryset=StorageContainer.objects.none(), required=False, label="Money into"
    )
    container_filters = {"container": {"kind__in": treasury.SELLABLE_CONTAINERS}}


class NameContainerForm(_WarbandForm):
    container = forms.ModelChoiceField(queryset=StorageContainer.objects.none(), label="Name")
    label = forms.CharField(max_length=60, required=False, label="Name")
    container_filters = {"container": {"kind__in": tuple(container_rules.CATALOGUE)}}


class PlaceContainerForm(_WarbandForm):
    container = forms.ModelChoiceField(queryset=StorageContainer.objects.none(), label="Load")
    parent = forms.ModelChoiceField(
        queryset=StorageContainer.objects.none(),
        required=False,
        label="Put on or in",
        empty_label="Nothing (carried on its own)",
    )
    container_filters = {
        "container": {"kind__in": container_rules.BOXES},
        "parent": {"kind__in": container_rules.CARRIERS},
    }


class VesselForm(_WarbandForm):
    coach = forms.ModelChoiceField(
        queryset=StorageContainer.objects.none(), required=False, empty_label="Its own vessel"
    )
    container_filters = {"coach": {"kind": "opulent_coach"}}


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


class LedgerFilterForm(_WarbandForm):
    container = forms.ModelChoiceField(queryset=StorageContainer.objects.none(), required=False)
    kind = forms.ChoiceField(
        choices=[("", "Everything"), *treasury.LedgerEntry.Kind.choices], required=False
    )
    reason = forms.ChoiceField(
        choices=[("", "Any reason"), *treasury.LedgerEntry.Reason.choices], required=False
    )
    # Battles sit a layer above warbands: the model is the ledger's foreign key's, not imported.
    battle = forms.ModelChoiceField(
        queryset=treasury.LedgerEntry._meta.get_field("battle").related_model.objects.none(),
        required=False,
    )

    def __init__(self, *args, warband, **kwargs):
        super().__init__(*args, warband=warband, **kwargs)
        # Past containers (sold, lost, captured) still have entries to filter by.
        self.fields["container"].queryset = StorageContainer.objects.filter(
            pk__in=treasury.LedgerEntry.objects.filter(warband=warband).values("container_id")
        )
        # The battles whose post-battle sequences changed this treasury.
        self.fields["battle"].queryset = (
            self.fields["battle"]
            .queryset.model.objects.filter(participants__warband=warband)
            .distinct()
            .order_by("-fought_on", "-pk")
        )

    def container_names(self) -> list[tuple[StorageContainer, str]]:
        """The filter's containers with what this ledger calls them (``ledger_name``)."""
        return [
            (container, permissions.ledger_name(container, self.warband.pk))
            for container in self.fields["container"].queryset
        ]
