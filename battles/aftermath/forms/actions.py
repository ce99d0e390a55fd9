"""The forms of the steps' actions (``ACTION_FORMS`` says which reads each): the values each
action takes, and the options each draws from the rows its page read (``Shown.show``)."""

from __future__ import annotations

from django import forms

from battles.aftermath.forms.fields import Key, RowSelect, Shown, Tagged, Text, Whole, as_key
from battles.forms import DiceField
from core.options import OptionsSelect
from warbands.models import HiredSword, StorageContainer, Warrior
from warbands.treasury.forms import ContainerField, TreasuryForm


def _chosen(required: bool = True) -> RowSelect:
    return RowSelect(attrs={"required": True} if required else None)


def _refused_offer(refusal: str | None) -> dict:
    return {"disabled": True, "class": "refused", "title": refusal} if refusal else {}


def _pay_from() -> Key:
    widget = OptionsSelect()
    widget.blank = "Any container with enough (or several together)"
    return Key(label="Pay from", widget=widget)


class NoInput(forms.Form):
    pass


class SellWyrdstoneForm(Shown, TreasuryForm):
    shards = Whole("Shards to sell", minimum=1, maximum=1000, attrs={"required": True})
    into = ContainerField(label="Money into", pile=True)
    drawn = ("shards", "into")
    lists = {"into": "targets"}

    def show(self, page: dict, row: str = "") -> None:
        """All the shards held, and no more."""
        super().show(page, row)
        held = page.get("shards_held") or 0
        self.fields["shards"].widget.attrs["max"] = held
        self.initial.setdefault("shards", held)


class AddModelsForm(Shown, forms.Form):
    """More models for a henchman group (veterans in step 5, new recruits in step 8)."""

    group = Key(label="Group", widget=_chosen())
    models = Whole("How many", minimum=1, maximum=20, initial=1,
                   attrs={"max": 5, "required": True})  # fmt: skip
    pay_from = _pay_from()
    drawn = ("group", "models", "pay_from")
    lists = {"pay_from": "paying"}

    def show(self, page: dict, row: str = "") -> None:
        """Step 5: the experienced groups, with what a veteran costs; step 8: the groups not
        yet blooded."""
        super().show(page, row)
        if "groups" in page:
            self.offer("group", [
                (g.pk, f"{g.name} ({g.experience} exp., {cost} gc each)")
                for g, cost in page["groups"]
            ])  # fmt: skip
        else:
            self.fields["group"].label = "Add to"
            rows = [(g.pk, f"{g.name} (×{g.group_size})") for g in page.get("fresh_groups", ())]
            self.offer("group", rows, blank="Choose…")


def _rare_label(offer, rolled, refusal) -> str:
    price = f"{rolled} gc (rolled)" if rolled else offer.label
    refused = f" ({offer.ware.restriction.label}: not for this warband)" if refusal else ""
    return f"{offer.name}, {offer.availability}, {price}{refused}"


def _container_label(container) -> str:
    held = f" of {container.holder.name}" if container.holder_id else ""
    return f"the {container}{held} ({container.contents_label})"


class BuyRareForm(Shown, TreasuryForm):
    """A rare item: its price dice, when its price has dice not rolled yet (the step checks
    their count: ``battles.aftermath.rare_items.price_roll``). ``to``: a warrior's key, or one
    of the warband's containers (None when it is not one: the step names the item it asks a
    container for)."""

    task = Key()
    goods = Tagged(widget=_chosen())
    to = Tagged(key=True, label="To", widget=_chosen(required=False))
    pay_from = _pay_from()
    haggle = forms.BooleanField(required=False)  # Haggle: 2D6 off (``battles.aftermath.haggle``)
    dice = DiceField(
        label="Price dice", widget=forms.TextInput(attrs={"placeholder": "server rolls"})
    )
    drawn = ("goods", "to", "pay_from", "haggle", "dice")
    row = "task"  # one form per rarity roll that succeeded
    lists = {"pay_from": "paying"}

    def show(self, page: dict, row: str = "") -> None:
        """The row's rare goods (an item a warband may not take, disabled with the reason),
        and where the bought item goes: a container, or a hero."""
        super().show(page, row)
        self.fields["dice"].widget.attrs["maxlength"] = 20  # a price's dice and Haggle's
        for task, items, containers in page.get("offers", ()):
            if str(task.pk) == row:
                self.fields["goods"].label = f"{task.warrior.name} ({task.result['total']}) buys"
                self.offer("goods", [
                    *((f"item:{offer.key}", _rare_label(offer, rolled, refusal),
                       _refused_offer(refusal)) for offer, rolled, refusal in items),
                    *((f"container:{kind}", f"{name}, Rare {rarity}, {price} gc")
                      for kind, name, price, rarity in containers),
                ])  # fmt: skip
        board = page.get("board")
        if board is not None:
            self.offer("to", [
                *((f"container:{c.pk}", _container_label(c)) for c in board.targets),
                *((f"warrior:{w.pk}", w.name) for w in board.warriors if w.group_size == 1),
            ])  # fmt: skip

    def clean_to(self):
        where, pk = self.cleaned_data["to"]
        if where == "warrior":
            return where, pk
        held = StorageContainer.objects.held().filter(warband=self.warband, pk=pk)
        return where, held.first() if pk else None


class TreatForm(Shown, TreasuryForm):
    """Sawbones: one hero's visit to the physician (one form per hero who may go): which of
    his injuries, paid from where, and the 2D6 (blank: the server rolls)."""

    hero = Key()
    injury = Key(label="Injury to treat", widget=_chosen())
    pay_from = _pay_from()
    dice = DiceField(
        label="Surgery dice (2D6)", widget=forms.TextInput(attrs={"placeholder": "server rolls"})
    )
    drawn = ("injury", "pay_from", "dice")
    row = "hero"
    lists = {"pay_from": "paying"}

    def show(self, page: dict, row: str = "") -> None:
        super().show(page, row)
        for hero, injuries in page.get("patients", ()):
            if str(hero.pk) == row:
                self.fields["injury"].label = f"{hero.name}: injury to treat"
                self.offer("injury", [(i.pk, i.effect or i.name) for i in injuries])


class HireSwordForm(Shown, forms.Form):
    # A hired sword of the catalogue, by key (one form per row); blank: typed by hand.
    sword = Text(max_length=60, widget=forms.HiddenInput)
    name = Text(label="Name")
    kind = Text(label="Kind", widget=forms.Select(choices=HiredSword.Kind.choices))
    hire_fee = Whole("Hire fee", maximum=1000, initial=0)
    upkeep = Whole("Upkeep", maximum=1000, initial=0)
    pay_from = _pay_from()
    drawn = ("name", "kind", "hire_fee", "upkeep", "pay_from")
    row = "sword"
    lists = {"pay_from": "paying"}

    def show(self, page: dict, row: str = "") -> None:
        """A sword of the catalogue may be named; one typed by hand must be."""
        super().show(page, row)
        name = self.fields["name"].widget
        if not row:
            name.attrs["required"] = True
            return
        offered = [*page.get("sword_catalogue", ()), *page.get("persona_catalogue", ())]
        swords = {sword.key: sword.name for sword, _reason in offered}
        named = swords.get(row, "hired sword")
        name.attrs.update(
            {"placeholder": "Name (optional)", "aria-label": f"Name of the new {named}"}
        )


class Keys(forms.Field):
    """Several keys of the warband's things, ticked (the heroes sent to search): those that
    do not read are left out, and at most twenty are read."""

    widget = forms.CheckboxSelectMultiple

    def __init__(self, **kwargs) -> None:
        super().__init__(required=False, **kwargs)

    def to_python(self, value):
        if value in (None, ""):
            return []
        values = [value] if isinstance(value, str | int) else list(value)[:20]
        keys = [as_key(str(v).strip()) for v in values]
        return [key for key in keys if key is not None]


class SeekPersonaForm(Shown, forms.Form):
    """Step 6: heroes sent to look for one dramatis persona (``persona_search``)."""

    persona = Text(label="Dramatis persona", max_length=60, widget=_chosen())
    heroes = Keys(label="Heroes who search")
    dice = DiceField(
        label="Dice, one D6 per hero in the order listed",
        widget=forms.TextInput(attrs={"placeholder": "server rolls"}),
    )
    drawn = ("persona", "heroes", "dice")

    def show(self, page: dict, row: str = "") -> None:
        """The personae (one the warband may not seek disabled, with why) and the heroes who
        may still search."""
        super().show(page, row)
        self.offer("persona", [
            (persona.key, f"{persona.name} ({persona.hire_fee} gc)" + (f": {why}" if why else ""),
             _refused_offer(why))
            for persona, why in page.get("persona_offers", ())
        ], blank="Choose one")  # fmt: skip
        self.fields["heroes"].widget.choices = [
            (hero.pk, f"{hero.name} (I {hero.I})") for hero in page.get("persona_searchers", ())
        ]


class UpkeepForm(Shown, forms.Form):
    """One hired sword's upkeep: one form per row, a dramatis persona's (``hired_sword``) or a
    hired sword's of the catalogue on the roster (``warrior``), its row key ``h<pk>`` or
    ``w<pk>``; the decision is the button pressed."""

    hired_sword = Key()
    warrior = Key()  # a hired sword of the catalogue on the roster
    decision = Text()
    pay_from = _pay_from()
    drawn = ("pay_from",)
    lists = {"pay_from": "paying"}
    row = "upkeep"  # no field of that name: ``posted_row`` says which

    @staticmethod
    def row_key(key) -> str:
        """A warrior (a hired sword of the catalogue) or a dramatis persona."""
        return f"{'w' if isinstance(key, Warrior) else 'h'}{key.pk}"

    def posted_row(self) -> str:
        for name, tag in (("hired_sword", "h"), ("warrior", "w")):
            key = str(self.data.get(name, "")).strip()
            if key:
                return tag + key
        return ""

    def show(self, page: dict, row: str = "") -> None:
        super().show(page, row)
        if row:
            self.initial["hired_sword" if row[0] == "h" else "warrior"] = row[1:]


class HireForm(Shown, forms.Form):
    warrior_type = Key(label="Type", widget=_chosen())
    # Henchmen only: the step asks for 1 or more.
    group_size = Whole("Group size", maximum=20, initial=1, attrs={"min": 1, "max": 5})
    name = Text(label="Name", widget=forms.TextInput(attrs={"placeholder": "optional"}))
    pay_from = _pay_from()
    drawn = ("warrior_type", "name", "group_size", "pay_from")
    lists = {"pay_from": "paying"}

    def show(self, page: dict, row: str = "") -> None:
        """The types of the list, one the warband may not hire now disabled, with why."""
        super().show(page, row)
        self.offer("warrior_type", [
            (t.pk, f"{t.name}, {t.cost} gc" + (f" ({reason})" if reason else ""),
             {"disabled": True} if reason else {})
            for t, reason in page.get("hireable", ())
        ], blank="Choose…")  # fmt: skip


class BuyForm(Shown, forms.Form):
    warrior = Key()
    item = Text(widget=_chosen())
    pay_from = Key()
    haggle = forms.BooleanField(required=False)
    drawn = ("item", "haggle")
    row = "warrior"  # one form per warrior

    def show(self, page: dict, row: str = "") -> None:
        """The row's warrior's list (an item he may not take disabled, with why)."""
        for warrior, entries in page.get("buyers", ()):
            if str(warrior.pk) == row:
                each = " each" if warrior.group_size > 1 else ""
                self.fields["item"].widget.attrs["aria-label"] = f"Item for {warrior.name}"
                self.offer("item", [
                    (offer.key, f"{offer.name}, {offer.label}{each}",
                     _refused_offer(offer.refusal))
                    for offer in entries
                ], blank="Choose an item…")  # fmt: skip


class BuyStashForm(Shown, TreasuryForm):
    item = Text(label="For the stash", widget=_chosen())
    into = ContainerField(label="into")
    pay_from = Key()
    haggle = forms.BooleanField(required=False)
    drawn = ("item", "into", "haggle")
    lists = {"into": "stores"}  # no pile: an item bought is stored

    def show(self, page: dict, row: str = "") -> None:
        """The stash's items (an item the warband may not take disabled, with why), into one
        of its containers (not the pile: an item bought is stored)."""
        super().show(page, row)
        self.fields["item"].widget.attrs["aria-label"] = "Item for the stash"
        self.fields["into"].widget.attrs["aria-label"] = "Container for the item"
        self.offer("item", [
            (offer.key, f"{offer.name}, {offer.label}"
             + (" (rolled when bought)" if offer.price_dice else "")
             + (f" ({offer.ware.restriction.label}: not for this warband)"
                if offer.refusal else ""), _refused_offer(offer.refusal))
            for offer in page.get("stash_items", ())
        ], blank="Choose an item…")  # fmt: skip


class SellItemForm(Shown, TreasuryForm):
    what = Tagged(key=True, label="Item", widget=_chosen())
    into = ContainerField(label="Money into", pile=True)
    drawn = ("what", "into")
    lists = {"into": "targets"}

    def show(self, page: dict, row: str = "") -> None:
        """The stored items (in a container, or not stored yet) and the warriors' own."""
        super().show(page, row)
        board = page.get("board")
        rows = []
        if board is not None:
            for c in board.containers:
                rows += [
                    (f"stored:{i.pk}", f"{i.name} (in the {c.name})") for i in c.contents.items
                ]
            if board.pile:
                rows += [(f"stored:{i.pk}", f"{i.name} (not stored)")
                         for i in board.pile.contents.items]  # fmt: skip
        for warrior, owned in page.get("sellable_owned", ()):
            rows.append((f"owned:{owned.pk}", f"{owned.item.name} of {warrior.name}"
                         + (f" (all {warrior.group_size})" if warrior.group_size > 1 else "")
                         + (" (added by correction: fetches nothing)"
                            if owned.correction_id else "")))  # fmt: skip
        self.offer("what", rows, blank="Choose an item…")
