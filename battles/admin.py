"""Admin: battles, captives and post-battle sequences for site staff to look into, read-only
(battles change only through their services, which keep the ledger and the sequence's journal
whole).

Being staff shows no warband's secret: what only the treasury's owner may know (a secret
roll's dice and what it decided, the container a ransom goes into, a sequence's receipts)
shows only to whom ``warbands.permissions.can_see_treasury`` lets see that treasury, as on the
site's own pages. The dice log is the battle page's (``battles.permissions.visible_dice``).
"""

from django.contrib import admin

from battles.models import Battle, Captive, DiceRoll, Participant, PostBattleSequence
from battles.permissions import visible_dice
from warbands.permissions import can_see_treasury


class ReadOnlyAdmin(admin.ModelAdmin):
    """Nothing added, changed or deleted here."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ParticipantInline(admin.TabularInline):
    """What every member reads on the battle page; the wyrdstone a warband found in the
    scenario goes to its treasury, so it is not here."""

    model = Participant
    fields = ["warband", "result", "routed", "rout_order", "confirmation", "experience_gained"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Battle)
class BattleAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "campaign", "status", "fought_on", "reported_by"]
    list_filter = ["status"]
    list_select_related = ["campaign", "reported_by"]
    search_fields = ["scenario", "campaign__name"]
    inlines = [ParticipantInline]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """The battle with its dice log as this user may see it
        (``templates/admin/battles/battle/change_form.html``)."""
        rolls = DiceRoll.objects.none()
        if str(object_id).isdigit():
            rolls = DiceRoll.objects.filter(battle=object_id).select_related(
                "warband__campaign", "warband__owner", "rolled_by"
            )
        extra_context = {**(extra_context or {}), "dice_log": visible_dice(request.user, rolls)}
        return super().change_view(request, object_id, form_url, extra_context)


@admin.register(Captive)
class CaptiveAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "battle", "status", "ransom", "created_at", "resolved_at"]
    list_filter = ["status"]
    list_select_related = ["warrior", "captor", "battle"]
    fields = ["warrior", "captor", "battle", "status", "ransom", "exchange_for", "created_at",
              "resolved_at"]  # fmt: skip

    def get_fields(self, request, obj=None):
        """The container the ransom goes into is the captor's secret."""
        if obj is not None and can_see_treasury(request.user, obj.captor):
            return [*self.fields, "ransom_into"]
        return self.fields


@admin.register(PostBattleSequence)
class PostBattleSequenceAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "participant", "current_step", "created_at", "completed_at"]
    list_select_related = ["participant__warband", "participant__battle"]
    fields = ["participant", "current_step", "created_at", "completed_at"]

    def get_fields(self, request, obj=None):
        """What later steps need to know (``state``) holds the treasury steps' receipts."""
        if obj is not None and can_see_treasury(request.user, obj.participant.warband):
            return [*self.fields, "state"]
        return self.fields
