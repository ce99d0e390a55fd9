"""A campaign's version: a number that grows after every committed change to the campaign.

Pages cache fragments that every member of a campaign sees alike (the league table, a roster
sheet, a battle's report) under keys holding the campaign's version, which the page reads with
the campaign anyway (``Campaign.fragment_version``). A change commits, then the version
grows, so a key made after that finds nothing and the fragment is drawn afresh; an old key is
never asked for again and its entry expires. The answer to the post that made the change is
drawn before the commit: while its thread has a change ``pending``, the campaign's fragments
are drawn afresh and kept for no time (``Campaign.fragment_seconds``).

What changes a campaign: saving or deleting a row of a model that names its campaign's path
(``CAMPAIGN_PATH``, such as ``"warband__campaign"``) calls ``changed``, through Django's model
signals, which ``campaign.apps`` connects for every such model; so do the writes that send no
signal (``update``, ``bulk_create``, ``bulk_update``) of those models' querysets
(``VersionedQuerySet``).

Why after the commit (``transaction.on_commit``), in a statement of its own: an ``UPDATE`` of
the campaign's row inside the change's transaction would hold that row's lock until the
commit, and a service that locks more rows after its first write could then wait on a
request that waits on the campaign (a deadlock). After the commit nothing waits. A reader
between the commit and the bump may store the new state under the old key: that is only ever
newer than the key says, never older. Were the process to die in between, the entries of
the old version would be served until they expire.
"""

from __future__ import annotations

import functools
import threading

from django.apps import apps
from django.db import models, transaction
from django.db.models import F

_pending = threading.local()


def changed(campaign_id: int | None) -> None:
    """The campaign changes in the current transaction: its version grows once it commits
    (at once outside a transaction)."""
    if campaign_id is None:
        return
    ids = getattr(_pending, "ids", None)
    if ids is None:
        ids = _pending.ids = set()
    ids.add(campaign_id)
    transaction.on_commit(bump, robust=True)


def pending(campaign_id: int) -> bool:
    """The current thread changed the campaign and its version has not grown yet: a page
    drawn now (the answer to the post that changed it) must not use the fragments of the
    version before the change, nor leave its own under that version."""
    return campaign_id in getattr(_pending, "ids", ())


def bump() -> None:
    """Every campaign changed since the last bump gets a new version, in one statement. The
    callbacks of one transaction run one after the other: the first bumps, the others find
    nothing left. A rolled-back change leaves its campaign to the next commit's bump."""
    ids = getattr(_pending, "ids", None)
    if not ids:
        return
    _pending.ids = set()
    # The base manager's plain queryset: the bump is no change of the campaign's own.
    apps.get_model("campaign", "Campaign")._base_manager.filter(pk__in=ids).update(
        version=F("version") + 1
    )


def campaign_of(instance) -> int | None:
    """The campaign of a row of a model with ``CAMPAIGN_PATH``: read through the foreign key
    the path starts with (an object never changes campaign, so each parent's campaign is
    looked up once per process)."""
    path = type(instance).CAMPAIGN_PATH
    if path == "pk":
        return instance.pk
    first, _, rest = path.partition("__")
    field = instance._meta.get_field(first)
    parent_id = getattr(instance, field.attname)
    if parent_id is None:
        return None
    if not rest:
        return parent_id
    return _parent_campaign(field.related_model._meta.label, parent_id, rest)


def forget_parents() -> None:
    """Forget the campaigns of the parent rows ``campaign_of`` has looked up in this process,
    so that its next answers are read from the database (the tests that check where each
    model's path leads)."""
    _parent_campaign.cache_clear()


@functools.lru_cache(maxsize=4096)
def _parent_campaign(label: str, pk: int, path: str) -> int | None:
    rows = apps.get_model(label)._default_manager.filter(pk=pk).order_by()
    return next(iter(rows.values_list(path, flat=True)[:1]), None)


def on_write(sender, instance, **kwargs) -> None:
    """``post_save``, ``post_delete`` and ``m2m_changed`` of a model with ``CAMPAIGN_PATH``."""
    if kwargs.get("action", "post_").startswith("pre_") or kwargs.get("raw"):
        return  # before an m2m change; or loaddata, whose rows nothing has cached yet
    if hasattr(type(instance), "CAMPAIGN_PATH"):  # the other side of an m2m has none
        changed(campaign_of(instance))


class VersionedQuerySet(models.QuerySet):
    """The queryset of a model with ``CAMPAIGN_PATH``: its writes that send no model signal
    change the campaigns of the rows they write too."""

    def update(self, **kwargs):
        path = self.model.CAMPAIGN_PATH
        for campaign_id in self.order_by().values_list(path, flat=True).distinct():
            changed(campaign_id)
        return super().update(**kwargs)

    def bulk_create(self, objs, *args, **kwargs):
        objs = list(objs)
        created = super().bulk_create(objs, *args, **kwargs)
        for obj in objs:
            changed(campaign_of(obj))
        return created

    def bulk_update(self, objs, fields, *args, **kwargs):
        objs = list(objs)
        for obj in objs:
            changed(campaign_of(obj))
        # A plain queryset's: its own update() would read the campaigns a second time.
        plain = models.QuerySet(model=self.model, using=self.db)
        return plain.bulk_update(objs, fields, *args, **kwargs)
