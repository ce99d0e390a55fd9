"""The forms of carrying a warband into another campaign and of importing a warband file."""

from __future__ import annotations

import json

from django import forms
from django.core import signing

from core.middleware import LONGEST_VALUE
from warbands.transfer import reading

SALT = "warbands.transfer.import"
MOST_SECONDS = 3600  # a report confirmed later is read again from a new upload


class CarryForm(forms.Form):
    campaign = forms.ModelChoiceField(
        queryset=None,
        label="Into the campaign",
        empty_label=None,
        error_messages={"invalid_choice": "Choose one of the campaigns listed."},
    )
    name = forms.CharField(max_length=100, required=False, help_text="Blank: it keeps its name.")
    confirm = forms.BooleanField(
        label="I understand the copy cannot be taken back (it can be disbanded there).",
        error_messages={"required": "Tick the box to confirm: the copy cannot be taken back."},
    )

    def __init__(self, *args, targets, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["campaign"].queryset = targets


class ImportFileForm(forms.Form):
    file = forms.FileField(
        label="Warband file (JSON)",
        help_text=f"The file a roster's “Export JSON” link saves, at most "
        f"{reading.MOST_BYTES // 1024} KB.",
        widget=forms.ClearableFileInput(attrs={"accept": "application/json,.json"}),
    )

    def clean_file(self) -> reading.WarbandFile:
        upload = self.cleaned_data["file"]
        if upload.size > reading.MOST_BYTES:
            raise forms.ValidationError(
                f"The file is larger than {reading.MOST_BYTES // 1024} KB: it is not a warband."
            )
        raw = upload.read(reading.MOST_BYTES + 1)
        try:
            self.parsed = reading.read(raw)
        except reading.FileRefused as refusal:
            raise forms.ValidationError(str(refusal)) from None
        # Signed so that the confirmation cannot bring another file, and read again then;
        # without the file's spaces, so that the page's field stays within what a form takes.
        compact = json.dumps(reading.parse(raw), separators=(",", ":"), ensure_ascii=False)
        self.signed = signing.dumps(compact, salt=SALT, compress=True)
        if len(self.signed) > LONGEST_VALUE:
            raise forms.ValidationError(
                "The file holds far more than a warband's roster: export the warband again."
            )
        return self.parsed


class ImportConfirmForm(forms.Form):
    """The report's confirmation: the file travels signed by the server, and is read and
    checked again when it comes back."""

    payload = forms.CharField(widget=forms.HiddenInput)
    name = forms.CharField(max_length=100, label="Name of the warband")
    confirm = forms.BooleanField(
        label="Create the warband as the report says.",
        error_messages={"required": "Tick the box to confirm the report."},
    )

    def clean_payload(self) -> reading.WarbandFile:
        try:
            raw = signing.loads(self.cleaned_data["payload"], salt=SALT, max_age=MOST_SECONDS)
            return reading.read(raw.encode("utf-8"))
        except signing.SignatureExpired:
            raise forms.ValidationError(
                "The report is over an hour old: upload the file again."
            ) from None
        except (signing.BadSignature, reading.FileRefused, AttributeError):
            raise forms.ValidationError("The report was changed: upload the file again.") from None
