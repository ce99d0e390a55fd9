"""The fields of the sequence's forms: whole numbers within bounds, keys of the warband's
things, tagged choices and short texts, read as the steps take them (a key that does not read
is None: the step asks to choose), and the ``Shown`` forms' drawing of them from the rows the
page read (``RowSelect``, ``Shown.offer``)."""

from __future__ import annotations

import re

from django import forms

LARGEST_KEY = 2**63 - 1  # a bigint primary key
WHOLE = re.compile(r"-?[0-9]{1,12}")  # longer is out of every bound anyway
KEY = re.compile(r"[0-9]{1,19}")


def as_key(raw: str) -> int | None:
    """``raw`` as a primary key (ASCII digits, within a bigint), else None."""
    return int(raw) if KEY.fullmatch(raw) and int(raw) <= LARGEST_KEY else None


class Whole(forms.IntegerField):
    """A whole number from ``minimum`` to ``maximum``; blank means 0. ``attrs``: what its input
    asks for beyond those bounds (a group's usual size: ``max`` 5 where the rules allow 20)."""

    def __init__(
        self, label: str, *, minimum: int = 0, maximum: int = 10_000, attrs=None, **kwargs
    ) -> None:
        bounds = f"{label}: give a number from {minimum} to {maximum}."
        super().__init__(
            label=label,
            required=False,
            min_value=minimum,
            max_value=maximum,
            error_messages={
                "invalid": f"{label}: give a whole number.",
                "min_value": bounds,
                "max_value": bounds,
            },
            **kwargs,
        )
        self.widget.attrs.update(attrs or {})

    def to_python(self, value):
        raw = str(value if value is not None else "").strip()
        if not raw:
            return 0
        if not WHOLE.fullmatch(raw):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return int(raw)


class Key(forms.Field):
    """The key of one of the warband's things. Blank or not a key: None (the step then asks
    to choose). Drawn by its page as a hidden input: a choice among the page's own lists is
    drawn with them (``core.options``)."""

    widget = forms.HiddenInput

    def __init__(self, **kwargs) -> None:
        super().__init__(required=False, **kwargs)

    def to_python(self, value):
        return as_key(str(value or "").strip())


class Tagged(forms.CharField):
    """A choice written ``tag:rest`` ("stored:12", "container:cart"): the pair of its parts,
    the rest a key (an int, else None) when ``key``."""

    def __init__(self, *, key: bool = False, **kwargs) -> None:
        self.key = key
        super().__init__(required=False, max_length=100, **kwargs)

    def to_python(self, value):
        tag, _, rest = super().to_python(value).partition(":")
        if self.key:
            rest = as_key(rest)
        return tag, rest


class Text(forms.CharField):
    """A short text (a name, a choice among the step's own); longer input is cut at
    ``max_length``."""

    def __init__(self, *, max_length: int = 100, **kwargs) -> None:
        self.cut = max_length
        super().__init__(required=False, **kwargs)
        if isinstance(self.widget, forms.TextInput):
            self.widget.attrs.setdefault("maxlength", str(max_length))

    def to_python(self, value):
        return super().to_python(value)[: self.cut]


class RowSelect(forms.Select):
    """A ``<select>`` among rows the page read already (``Shown.offer``): each option may carry
    attributes of its own (an offer the warband may not take: disabled, with the reason as its
    title). Its field reads the posted key as it is; the step checks it under its lock."""

    def __init__(self, attrs=None) -> None:
        super().__init__(attrs)
        self.option_attrs: dict[str, dict] = {}

    def __deepcopy__(self, memo):
        """Each form's copy of the widget holds options of its own, as Django's choice widgets
        copy their choices: its widget copy is shallow, and one page's refusals would
        otherwise grey the next page's options."""
        copied = super().__deepcopy__(memo)
        copied.option_attrs = {value: dict(attrs) for value, attrs in self.option_attrs.items()}
        return copied

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        option["attrs"].update(self.option_attrs.get(str(value), {}))
        return option


# --- The forms of the actions -------------------------------------------------------------


class Shown:
    """A step's form as its page draws it (``battles.aftermath.forms.page.StepForms``).
    ``drawn``: the fields the page draws from the form, each with its message beside it (a
    message of another field is the form's own, at its top); ``row``: the field that tells
    apart the forms of an action drawn once per row (a warrior's purchases), drawn hidden;
    ``lists``: field → the treasury board's list of options it draws
    (``TreasuryBoard.options``, built once for the page); ``show``: what its fields ask for
    that depends on the page (the shards held, the rows a choice offers)."""

    drawn: tuple[str, ...] = ()
    row = ""
    lists: dict[str, str] = {}

    def show(self, page: dict, row: str = "") -> None:
        """Set what depends on ``page``, the step's page context (and on the ``row``)."""
        board = page.get("board")
        for name, shown in self.lists.items():
            self.fields[name].widget.source = board.options_of(shown) if board else str

    @staticmethod
    def row_key(key) -> str:
        """The row of ``key``, as the page names it (``get_item``)."""
        return str(key)

    def posted_row(self) -> str:
        """The row a bound form was posted from (``row``'s value)."""
        return str(self.data.get(self.row, "")).strip() if self.row else ""

    def offer(self, name: str, rows, blank: str | None = None) -> None:
        """The options of the field ``name``: ``rows`` of (value, label) or (value, label,
        the option's attributes), built from what the page read (no query of their own)."""
        widget = self.fields[name].widget
        choices = [("", blank)] if blank is not None else []
        for value, label, *attrs in rows:
            choices.append((value, label))
            if attrs and attrs[0]:
                widget.option_attrs[str(value)] = attrs[0]
        widget.choices = choices
