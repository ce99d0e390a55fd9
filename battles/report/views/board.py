"""The forms of a battle's board (``views.battle.battle_context``), each as the board draws
it: its labels from the rolls it takes, its choices from the rows the board read. A refused
post's form (``refused``: its name and the bound form) is drawn in place of a fresh one, with
its messages beside its fields. Each is built only when the board draws it."""

from __future__ import annotations

from functools import cached_property

from battles.report.forms import (
    ChoosingForm,
    DiscoveryForm,
    FurtherRollForm,
    MarkersForm,
    RecoverForm,
    RespondForm,
)
from battles.report.forms.side import AsRecordedForm
from battles.report.sides import side_version


class BattleForms:
    def __init__(self, context: dict, *, refused=None, asking: dict | None = None) -> None:
        self.context, self.refused, self.asking = context, refused, asking

    def _form(self, name: str, make):
        if self.refused is not None and self.refused[0] == name:
            return self.refused[1]
        return make()

    @cached_property
    def respond(self) -> RespondForm:
        form = self._form("respond", RespondForm)
        return form.drawn_for(sides_missing=bool(self.context["missing_sides"]))

    @cached_property
    def markers(self) -> MarkersForm:
        c = self.context
        return self._form("markers", MarkersForm).drawn_for(
            c["markers_roll"], c["placement_rolloff"]
        )

    @cached_property
    def discovery(self) -> DiscoveryForm:
        c = self.context
        return self._form("discovery", DiscoveryForm).drawn_for(
            c["testers"], c["discovery_test"], c["table_roll"]()
        )

    @cached_property
    def choosing(self) -> ChoosingForm:
        return self._form("choosing", ChoosingForm).drawn_for(self.context["choosing_rolloff"])

    @cached_property
    def recover(self) -> RecoverForm:
        c, asking = self.context, self.asking
        if asking:
            keep = ("item", "majority", "dice", "then")
            form = RecoverForm(initial={key: asking[key] for key in keep})
        else:
            form = self._form("recover", RecoverForm)
        return form.drawn_for(
            c["pending_items"], c["participants"], c["recovery_roll"], asking=bool(asking)
        )

    @cached_property
    def further(self) -> FurtherRollForm | None:
        return FurtherRollForm().drawn_for(self.asking) if self.asking else None

    @cached_property
    def as_recorded(self) -> dict[int, AsRecordedForm]:
        """By participant: the one post that saves a side as the battle helper wrote it (and
        confirms the battle for its player), for the sides not entered yet that this user may
        enter, once the game has ended; versioned from the outcomes the board read."""
        c = self.context
        game = getattr(c["battle"], "game", None)
        if game is None or game.ended_at is None:
            return {}
        forms = {}
        for participant, may_enter in c["sides"]:
            if not may_enter or participant.side_entered_at is not None:
                continue
            mine = [o for o in c["outcomes"] if o.participant_id == participant.pk]
            version = side_version(participant, mine)
            forms[participant.pk] = self._form(
                "as_recorded", lambda v=version: AsRecordedForm(initial={"version": v})
            )
        return forms
