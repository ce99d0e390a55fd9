from django.contrib import admin

from campaign.models import Campaign, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "start_date", "mim_carried_items", "organiser_sees_secrets"]
    search_fields = ["name"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "campaign", "is_organiser", "joined_at"]
    list_filter = ["is_organiser"]
    list_select_related = ["user", "campaign"]
    autocomplete_fields = ["user", "campaign"]
