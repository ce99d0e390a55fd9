"""Admin: the warband lists are reference data that organisers may extend for house rules.

Being staff shows no warband's secret: the containers and ledger entries of a treasury show
only to whom ``warbands.permissions.can_see_treasury`` lets see it on the site (its owner, an
organiser of a campaign that lets its organisers see them and who plays in it not himself).
A staff user who plays in a league is every other player's opponent there.
"""

from django.contrib import admin
from django.db.models import Q

from campaign.admin import ChangesTheCampaign
from warbands.models import (
    EquipmentList,
    EquipmentListEntry,
    HouseRules,
    Injury,
    Item,
    LedgerEntry,
    RacialMaximum,
    Skill,
    SkillList,
    Spell,
    SpellList,
    StorageContainer,
    StoredItem,
    VesselItem,
    Warband,
    WarbandType,
    Warrior,
    WarriorItem,
    WarriorSkill,
    WarriorSpell,
    WarriorType,
)
from warbands.permissions import can_see_treasury


def treasuries_seen(request) -> list[int]:
    """The warbands whose treasury this user may see, asked of the one gate per warband of his
    own campaigns (each campaign read once, so that what the gate reads of it is shared)."""
    user = request.user
    warbands = list(
        Warband.objects.filter(Q(owner=user) | Q(campaign__memberships__user=user))
        .select_related("campaign")
        .distinct()
    )
    campaigns = {}
    for warband in warbands:
        warband.campaign = campaigns.setdefault(warband.campaign_id, warband.campaign)
    return [w.pk for w in warbands if can_see_treasury(user, w)]


class WarriorTypeInline(admin.StackedInline):
    model = WarriorType
    extra = 0
    filter_horizontal = ["equipment_lists", "skill_lists"]
    show_change_link = True


class EquipmentListInline(admin.TabularInline):
    model = EquipmentList
    extra = 0
    show_change_link = True


@admin.register(WarbandType)
class WarbandTypeAdmin(admin.ModelAdmin):
    list_display = ["name", "family", "grade", "starting_gold", "max_warriors", "max_heroes"]
    list_filter = ["grade"]
    search_fields = ["name", "key"]
    inlines = [EquipmentListInline, WarriorTypeInline]


@admin.register(WarriorType)
class WarriorTypeAdmin(admin.ModelAdmin):
    list_display = ["name", "warband_type", "kind", "cost", "min_count", "max_count"]
    list_filter = ["warband_type", "kind"]
    list_select_related = ["warband_type"]
    search_fields = ["name", "key"]
    filter_horizontal = ["equipment_lists", "skill_lists"]


class EquipmentListEntryInline(admin.TabularInline):
    model = EquipmentListEntry
    extra = 0
    autocomplete_fields = ["item"]


@admin.register(EquipmentList)
class EquipmentListAdmin(admin.ModelAdmin):
    list_display = ["name", "warband_type"]
    list_select_related = ["warband_type"]
    inlines = [EquipmentListEntryInline]


@admin.register(Item)
class ItemAdmin(admin.ModelAdmin):
    list_display = ["name", "category", "price", "price_dice", "rarity", "for_sale"]
    list_filter = ["category", "for_sale"]
    search_fields = ["name", "key"]


class SkillInline(admin.TabularInline):
    model = Skill
    extra = 0


@admin.register(SkillList)
class SkillListAdmin(admin.ModelAdmin):
    list_display = ["name", "warband_type"]
    inlines = [SkillInline]


class SpellInline(admin.TabularInline):
    model = Spell
    extra = 0


@admin.register(SpellList)
class SpellListAdmin(admin.ModelAdmin):
    inlines = [SpellInline]


@admin.register(RacialMaximum)
class RacialMaximumAdmin(admin.ModelAdmin):
    list_display = ["name", "M", "WS", "BS", "S", "T", "W", "I", "A", "Ld"]
    search_fields = ["name"]


@admin.register(HouseRules)
class HouseRulesAdmin(ChangesTheCampaign, admin.ModelAdmin):
    list_display = ["campaign", "list_grades", "sword_grades", "starting_gold", "updated_at"]
    search_fields = ["campaign__name"]
    raw_id_fields = ["campaign"]


@admin.register(Warband)
class WarbandAdmin(ChangesTheCampaign, admin.ModelAdmin):
    list_display = ["name", "warband_type", "campaign", "owner", "status", "created_at"]
    list_filter = ["status", "warband_type"]
    list_select_related = ["campaign", "owner", "warband_type"]
    search_fields = ["name", "owner__username"]
    autocomplete_fields = ["campaign", "owner"]


class WarriorItemInline(admin.TabularInline):
    """An item's provenance (the correction that added it) is not for editing: cleared, the
    item would sell as if paid for."""

    model = WarriorItem
    extra = 0
    autocomplete_fields = ["item"]
    readonly_fields = ["correction"]


class WarriorSkillInline(admin.TabularInline):
    model = WarriorSkill
    extra = 0


class WarriorSpellInline(admin.TabularInline):
    model = WarriorSpell
    extra = 0


class InjuryInline(admin.TabularInline):
    model = Injury
    extra = 0


@admin.register(Warrior)
class WarriorAdmin(ChangesTheCampaign, admin.ModelAdmin):
    list_display = ["name", "warrior_type", "warband", "group_size", "experience", "status"]
    list_filter = ["status", "is_hero"]
    list_select_related = ["warrior_type", "warband"]
    search_fields = ["name", "warband__name"]
    inlines = [WarriorItemInline, WarriorSkillInline, WarriorSpellInline, InjuryInline]


class StoredItemInline(admin.TabularInline):
    model = StoredItem
    extra = 0
    fields = ["name", "item", "correction"]
    readonly_fields = ["name", "item", "correction"]
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(StorageContainer)
class StorageContainerAdmin(ChangesTheCampaign, admin.ModelAdmin):
    """Balances are read-only here: treasure moves only through warbands.treasury, with ledger
    entries. Only the containers of treasuries the user may see (``treasuries_seen``)."""

    list_display = ["__str__", "warband", "status", "gold_crowns", "wyrdstone", "item_count"]
    list_filter = ["kind", "status"]
    list_select_related = ["warband"]
    readonly_fields = ["warband", "kind", "gold_crowns", "wyrdstone", "item_count", "status"]
    inlines = [StoredItemInline]

    def get_queryset(self, request):
        return super().get_queryset(request).filter(warband_id__in=treasuries_seen(request))

    def has_add_permission(self, request):
        return False


@admin.register(VesselItem)
class VesselItemAdmin(ChangesTheCampaign, admin.ModelAdmin):
    list_display = ["name", "kind", "warband", "coach"]
    list_filter = ["kind"]


@admin.register(LedgerEntry)
class LedgerEntryAdmin(admin.ModelAdmin):
    """Append-only: entries can be read, never added, changed or deleted here; only those of
    treasuries the user may see (``treasuries_seen``)."""

    list_display = ["created_at", "warband", "container", "kind", "amount", "item_name", "reason"]
    list_filter = ["reason", "kind"]
    list_select_related = ["warband", "container"]
    search_fields = ["warband__name", "item_name", "note"]

    def get_queryset(self, request):
        return super().get_queryset(request).filter(warband_id__in=treasuries_seen(request))

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
