"""The daily digest: what waits for each user who chose it (the default), mailed at most once
a calendar day (``NoticePreference.last_digest_on``) and only when something waits.
``manage.py send_digests`` runs it, from cron."""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign, Membership
from campaign.todo import Waiting
from core import notices
from core.models import NoticePreference
from league.todo import waiting_for

Choice = NoticePreference.Choice


def compose(items: list[Waiting]) -> tuple[str, str]:
    """The digest's subject and body: each item's words, campaign, date and link, nothing
    more (an item is public words only)."""
    count = "one thing waits" if len(items) == 1 else f"{len(items)} things wait"
    lines = [f"In your Mordheim campaigns, {count} for you:", ""]
    for item in items:
        since = f", since {item.since:%d %b %Y}" if item.since else ""
        lines += [f"- {item.text}", f"  {item.campaign}{since}", f"  {notices.absolute(item.url)}"]
    lines += [
        "",
        f"Your dashboard: {notices.absolute(reverse('dashboard'))}",
        f"You get this digest once a day at most: {notices.absolute(reverse('notice_settings'))} "
        "changes that.",
    ]
    return f"Waiting for you: {count}", "\n".join(lines)


def recipients():
    """Active users with an address and a running campaign, who did not choose another way."""
    playing = Membership.objects.active().filter(
        user=OuterRef("pk"), campaign__status=Campaign.Status.OPEN
    )
    return (
        get_user_model()
        .objects.filter(Exists(playing), is_active=True)
        .exclude(email="")
        .exclude(notice_preference__choice__in=[Choice.NONE, Choice.EACH])
        .order_by("pk")
    )


def send_digests(*, today: datetime.date | None = None) -> int:
    """Mail each recipient his digest (``league.todo.waiting_for``), unless he had today's
    already or nothing waits. Each user's row is locked
    while his mail goes, so two runs at once send it once; a mail that fails leaves the day
    unmarked, for the next run. Returns how many were sent."""
    today = today or timezone.localdate()
    sent = 0
    for user in recipients().iterator():
        items = waiting_for(user)
        if not items:
            continue
        with transaction.atomic():
            NoticePreference.objects.get_or_create(user=user)
            preference = NoticePreference.objects.select_for_update().get(user=user)
            if preference.choice != Choice.DIGEST or preference.last_digest_on == today:
                continue
            notices.send(user, *compose(items))
            preference.last_digest_on = today
            preference.save(update_fields=["last_digest_on"])
        sent += 1
    return sent
