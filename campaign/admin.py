from django.contrib import admin

from campaign import cache
from campaign.models import Campaign, Membership, OrganiserInvitation
from campaign.services import record_secrets_switch


class ChangesTheCampaign:
    """A ``ModelAdmin`` of a campaign's rows: site staff's edits go round the services, so
    each tells the cache that every page of the row's campaign changed (``campaign.cache``)."""

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        self.changed(form.instance)

    def delete_model(self, request, obj):
        self.changed(obj)
        super().delete_model(request, obj)

    def delete_queryset(self, request, queryset):
        for obj in queryset:
            self.changed(obj)
        super().delete_queryset(request, queryset)

    def changed(self, obj) -> None:
        path = type(obj).CAMPAIGN_PATH
        rows = type(obj)._default_manager.filter(pk=obj.pk)
        campaign = rows.values_list(path, flat=True).first()
        cache.changed(campaign=campaign, throughout=True)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Campaign)
class CampaignAdmin(ChangesTheCampaign, admin.ModelAdmin):
    list_display = ["name", "start_date", "mim_carried_items", "organiser_sees_secrets"]
    search_fields = ["name"]
    inlines = [MembershipInline]

    def save_model(self, request, obj, form, change):
        """Site staff switching "organiser sees secrets" is written in the feed too."""
        stored = Campaign.objects.filter(pk=obj.pk).values_list("organiser_sees_secrets")
        was = stored.first()[0] if change else obj.organiser_sees_secrets
        super().save_model(request, obj, form, change)
        record_secrets_switch(obj, actor=request.user, was=was)


@admin.register(Membership)
class MembershipAdmin(ChangesTheCampaign, admin.ModelAdmin):
    list_display = ["user", "campaign", "is_organiser", "joined_at"]
    list_filter = ["is_organiser"]
    list_select_related = ["user", "campaign"]
    autocomplete_fields = ["user", "campaign"]


@admin.register(OrganiserInvitation)
class OrganiserInvitationAdmin(admin.ModelAdmin):
    """Invitations to co-organise, for site staff to look into. Read-only: only the holder of
    the invited name answers one (``campaign.co_organisers``)."""

    list_display = ["username", "campaign", "invited_by", "status", "created_at", "answered_at"]
    list_filter = ["status"]
    list_select_related = ["campaign", "invited_by"]
    search_fields = ["username", "campaign__name"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
