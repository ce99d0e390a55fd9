"""Which cached fragments a change makes stale: the services say so, inside their transactions.

Pages keep fragments in the "fragments" cache under keys holding a version of what they show
(``Versioned.fragment_version``), read with the page's own objects, so a kept page costs no
query for it. Three things have a version, each a column of its row:

- a campaign: what every member sees alike of it (the league table, the rating chart, the
  battles list, the feed and the members), and the dashboard of each member;
- a warband: its roster sheet and its treasury (cards, ledger, the lists of the forms);
- a battle: its board, and (with the warband's) each of its post-battle sequences' panels.

A service that writes calls ``changed(campaign=…, warband=…, battle=…)`` inside its
transaction with what it changed; each version named grows once the transaction commits. So a
treasury move of one warband redraws its own roster and treasury and nothing of another
warband's, nor any battle's board, nor the league table: the league never shows a treasury.
What the campaign's pages show (a warband's name, status and rating, which warriors fight and
their experience, a battle's results and status, a sequence's step, corrections waiting, the
feed, the members) changes the campaign too; a change that shows everywhere (the campaign's
own settings and status, who organises it, site staff's edits in the admin:
``campaign.admin.ChangesTheCampaign``) passes ``throughout=True`` and makes every version of
the campaign grow. ``tests/campaign/test_cache_coverage.py`` runs the services and fails on a
row written under a warband, a battle or a campaign that its service did not name.

The battle helper's rows (a game, its sides, fighters and log; ``VERSIONED_BY_GAME``) are not
under the battle's version: the helper's pages follow the game's own version and are sent what
changed since it (``battles.helper.delta``), and no fragment that the battle's version keys
shows them. A tap writes no battle; a move that rolls dice changes the battle page's dice log,
and starting and ending a game its status, and those name the battle.

Why the versions are columns, not counters in the cache: the fragments cache is each worker's
own memory (locmem), and a change made by one worker must make every worker's copies stale. A
row read with the page's objects (the campaign with the membership, the warband, the battle)
brings its version for nothing; a shared cache would cost a round trip on every page.

Why after the commit (``transaction.on_commit``), each table in a statement of its own: an
``UPDATE`` of these rows inside the change's transaction would hold their locks until the
commit, and a service that locks more rows after its first write could then wait on a request
that waits on them (a deadlock). After the commit the bump holds nothing else while it waits
for a row. A reader between the commit and the bump may store the new state under the old
key: that is only ever newer than the key says, never older. Were the process to die in
between, the entries of the old version would be served until they expire. A change rolled
back (a savepoint's too) bumps nothing. A row named by several services of one request's
transaction is bumped once. Nothing else writes a version: ``Versioned.save`` never writes it
back.

The answer to a post is drawn by the same request as the change, before or after the commit,
from objects read before the bump: while a request has changed something, its pages draw that
thing's fragments afresh and keep them for no time. The marker is the request's own
(``ChangesMiddleware`` opens it for each request and closes it with the answer; ``changed``
notes in it what the request changed); outside a request (a command, a test calling a
service) there is no page to draw and nothing is noted.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from django.apps import apps
from django.db import models, transaction
from django.db.models import F

FRAGMENT_SECONDS = 600  # how long a cached fragment of a page is kept


@dataclass
class _Request:
    """What the current request has changed, as (kind, primary key) pairs; and what the
    callbacks of its latest commit have bumped already, so that a row named by several
    services of one transaction is bumped once."""

    changed: set[tuple[str, int]] = field(default_factory=set)
    bumped: set[tuple[str, int]] = field(default_factory=set)


_request: ContextVar[_Request | None] = ContextVar("changes_of_the_request", default=None)


class Versioned(models.Model):
    """A row whose ``version`` keys the fragments drawn from it and what belongs to it.
    ``KIND``: the keyword ``changed`` takes it by."""

    KIND = ""

    version = models.PositiveBigIntegerField(
        default=0,
        editable=False,
        help_text="Grows after every change to what the pages show of it (campaign.cache).",
    )

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        """Never writes ``version`` back once the row exists: only ``bump`` changes it, and a
        copy read before a bump must not undo it."""
        if getattr(self, "in_database", False) and kwargs.get("update_fields") is None:
            deferred = self.get_deferred_fields()
            kwargs["update_fields"] = [
                f.name
                for f in self._meta.get_fields()
                if f.concrete
                and not f.primary_key
                and f.name != "version"
                and f.attname not in deferred
            ]
        super().save(*args, **kwargs)
        self.in_database = True

    @classmethod
    def from_db(cls, db, field_names, values):
        instance = super().from_db(db, field_names, values)
        instance.in_database = True
        return instance

    @property
    def fragment_version(self) -> str:
        """What the keys of the fragments drawn from this row hold."""
        return "changing" if pending(self) else str(self.version)

    @property
    def fragment_seconds(self) -> int:
        """How long a fragment drawn now is kept: not at all after this request changed the
        row (its version grows only after the commit, and the page holds the old one)."""
        return 0 if pending(self) else FRAGMENT_SECONDS


@functools.cache
def versioned() -> dict[str, type[Versioned]]:
    """The versioned models by the keyword ``changed`` names them with (``Versioned.KIND``)."""
    return {m.KIND: m for m in apps.get_models() if issubclass(m, Versioned)}


def _ids(given) -> set[int]:
    """Primary keys from a row, a primary key, or an iterable of either (None: nothing)."""
    if given is None:
        return set()
    if isinstance(given, models.Model | int):
        given = [given]
    return {getattr(one, "pk", one) for one in given if one is not None}


def changed(
    *,
    campaign=None,
    warband=None,
    battle=None,
    throughout: bool = False,
) -> None:
    """What the current transaction changes: each named campaign, warband and battle (a row,
    its primary key, or an iterable of them) gets a new version once it commits (at once
    outside a transaction), and the current request draws their fragments afresh.
    ``throughout``: the change shows on every page of the named campaigns, so every warband's
    and battle's version in them grows too."""
    named = {"campaign": _ids(campaign), "warband": _ids(warband), "battle": _ids(battle)}
    if throughout and named["campaign"]:
        for kind in ("warband", "battle"):
            rows = versioned()[kind].objects.filter(campaign__in=named["campaign"])
            named[kind] |= set(rows.values_list("pk", flat=True))
    pairs = {(kind, pk) for kind, ids in named.items() for pk in ids}
    request = _request.get()
    if request is not None:
        request.changed |= pairs
        # The callbacks of one commit run one after another before any later change: a
        # change marks the start of the next commit's.
        request.bumped.clear()
    if pairs:
        transaction.on_commit(functools.partial(_bump_once, request, pairs), robust=True)


def pending(row: Versioned) -> bool:
    """The current request has changed ``row``: a page drawn now must neither use the
    fragments of its version before the change nor keep its own under it."""
    request = _request.get()
    return request is not None and (row.KIND, row.pk) in request.changed


def _bump_once(request: _Request | None, pairs: set[tuple[str, int]]) -> None:
    """After the commit: bump what the commit's other callbacks have not bumped yet."""
    if request is not None:
        pairs = pairs - request.bumped
        request.bumped |= pairs
    bump(pairs)


def bump(pairs: Iterable[tuple[str, int]]) -> None:
    """Each named row ((kind, primary key) pairs) gets a new version: one statement per
    table, in autocommit, so that the bump holds no lock of one table while it waits for a
    row of another."""
    by_kind: dict[str, list[int]] = {}
    for kind, pk in pairs:
        by_kind.setdefault(kind, []).append(pk)
    for kind, ids in by_kind.items():
        versioned()[kind].objects.filter(pk__in=sorted(ids)).update(version=F("version") + 1)


class ChangesMiddleware:
    """Opens, for each request, the note of what it changes (``changed``), and closes it with
    the answer: the marker that makes the answer to a post draw afresh what the post
    changed."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        with noting_changes():
            return self.get_response(request)


@contextmanager
def noting_changes():
    """The note of what a request changes, open for the block (``ChangesMiddleware``'s)."""
    token = _request.set(_Request())
    try:
        yield
    finally:
        _request.reset(token)
