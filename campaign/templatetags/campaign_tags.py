"""Template tags of campaigns: ``{% load campaign_tags %}``."""

from django import template

from campaign.invitations import invitation_in

register = template.Library()


@register.inclusion_tag("campaign/_invitation.html")
def join_invitation(next_url):
    """The campaign a join link in ``next`` invites to, for the log-in and sign-up pages that a
    logged-out visitor passes through on the way, so he knows what he signs up for; nothing
    otherwise."""
    return {"invitation": invitation_in(next_url or "")}
