from django.contrib import admin

from warbands.models import Warband


@admin.register(Warband)
class WarbandAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "owner", "created_at"]
    list_select_related = ["campaign", "owner"]
    search_fields = ["name", "owner__username"]
    autocomplete_fields = ["campaign", "owner"]
