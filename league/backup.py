"""Backup and restore of one campaign: every row that belongs to it (members, warbands with
their rosters and secret treasuries, ledgers, corrections, battles and their dice, captives and
the offers made for them, post-battle sequences, games under way in the battle helper with
their sides, fighters and events, and the feed) as one JSON document
(``manage.py export_campaign`` / ``import_campaign``).

What belongs to a campaign is what names its campaign: every model with a ``CAMPAIGN_PATH``
(the path ``campaign.permissions`` narrows reads by too) is exported, found through that
path, unless ``NOT_CAMPAIGN_DATA`` says why not; every other model is declared there with its
reason. A new model is therefore either given a ``CAMPAIGN_PATH`` (and is backed up) or declared
there, and ``tests/league/test_backup.py`` fails on a model that is neither.

Django's serializers do the work. Rows keep their ids, so the journal of each post-battle step
(which names rows by id) still undoes exactly after a restore; reference data (warband lists,
items, skills, spells) is named by its keys, and users by their usernames, so the document
restores into any database that has the same reference data loaded by the migrations.
Users are written without their passwords, e-mail addresses or log-in times, and an account
the restore creates has no usable password and no staff rights, whatever the document says.
Restoring is meant for an empty database: a campaign whose id exists is refused, and so is a
row of a model that no backup holds. The ledger's append-only trigger does not stand in the
way, since a restore only inserts.

``pg_dump`` remains the backup of the whole site; this is the backup of one league, small
enough to mail to its organiser.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.utils import timezone

from campaign.models import Campaign
from core.errors import RuleViolation

FORMAT = "mordheim-campaign/2"
# Format 1 kept each step's journal and summary on its record; they are now its actions'
# (``StepAction``). A format 1 document still restores: each record's become one action.
FORMATS = ("mordheim-campaign/1", FORMAT)
# Users as the campaign names them. Never their password hashes, e-mail addresses or log-in
# times: a backup is mailed to an organiser, and an imported account gets no usable password.
USER_FIELDS = ("username", "first_name", "last_name", "is_active", "date_joined")
# The models whose rows belong to no one campaign, and why a campaign's backup leaves them out.
NOT_CAMPAIGN_DATA = {
    "core.FormToken": "one-time form tokens: a week's bookkeeping of requests, not of the league",
    "core.NoticePreference": "an account's own choice of e-mails, not a campaign's",
    **dict.fromkeys(
        ("warbands.RacialMaximum", "warbands.SkillList", "warbands.Skill", "warbands.SpellList",
         "warbands.Spell", "warbands.Item", "warbands.WarbandType", "warbands.EquipmentList",
         "warbands.EquipmentListEntry", "warbands.WarriorType", "warbands.HiredSwordType"),
        "the rulebook's reference data, shared by every campaign: loaded by the migrations "
        "and named in a backup by its keys",
    ),
    "auth.User": "accounts belong to people, not to a campaign: a backup holds only the names "
    "of those its rows name (USER_FIELDS), never a password, an e-mail address or a right",
    "auth.Group": "site permissions, not a campaign's",
    "auth.Permission": "site permissions, made by the migrations",
    "contenttypes.ContentType": "Django's registry of models, made by the migrations",
    "sessions.Session": "who is logged in on this site",
    "admin.LogEntry": "the site staff's history in the admin",
    **dict.fromkeys(
        ("axes.AccessAttempt", "axes.AccessFailureLog", "axes.AccessLog",
         "axes.AccessAttemptExpiration"),
        "log-in attempts and lockouts, kept for the site's security",
    ),
}  # fmt: skip


def campaign_models() -> list[tuple[type, str]]:
    """Every model of a campaign and the lookup that finds its rows from the campaign's id
    (its ``CAMPAIGN_PATH``), in the order of the app registry."""
    return [
        (model, model.CAMPAIGN_PATH)
        for model in apps.get_models()
        if hasattr(model, "CAMPAIGN_PATH") and model._meta.label not in NOT_CAMPAIGN_DATA
    ]


def user_references() -> list[tuple[type, str]]:
    """Every foreign key from a model of a campaign to an account: whose names the backup
    holds."""
    User = get_user_model()
    return [
        (model, field.name)
        for model, _ in campaign_models()
        for field in model._meta.concrete_fields
        if field.is_relation and field.related_model is User
    ]


def _rows(campaign: Campaign) -> list[tuple[type, Iterable]]:
    return [
        (model, model._default_manager.filter(**{lookup: campaign.pk}).order_by("pk"))
        for model, lookup in campaign_models()
    ]


def export_campaign(campaign: Campaign) -> dict:
    """The campaign as a JSON-ready document."""
    user_ids: set[int] = set()
    lookups = dict(campaign_models())
    for model, field in user_references():
        user_ids |= set(
            model._default_manager.filter(
                **{lookups[model]: campaign.pk}, **{f"{field}__isnull": False}
            ).values_list(field, flat=True)
        )
    users = get_user_model().objects.filter(pk__in=user_ids).order_by("username")
    objects = serializers.serialize(
        "python", users, fields=USER_FIELDS, use_natural_primary_keys=True
    )
    counts = {}
    for model, rows in _rows(campaign):
        rows = list(rows)
        counts[model._meta.label] = len(rows)
        objects += serializers.serialize("python", rows, use_natural_foreign_keys=True)
    return {
        "format": FORMAT,
        "exported_at": timezone.now(),
        "campaign": {"id": campaign.pk, "name": campaign.name},
        "counts": counts,
        "objects": objects,
    }


class _BackupEncoder(DjangoJSONEncoder):
    """Django's encoder, but a moment keeps its microseconds: Django's cuts them to
    milliseconds, so a restore would move every timestamp by up to a millisecond, and one
    whose milliseconds are 000 would read back as another text ("…:01.000Z", then "…:01Z")."""

    def default(self, o):
        if isinstance(o, datetime.datetime):
            text = o.isoformat()
            return text.removesuffix("+00:00") + "Z" if text.endswith("+00:00") else text
        return super().default(o)


def dumps(document: dict) -> str:
    return json.dumps(document, cls=_BackupEncoder, indent=1, ensure_ascii=False)


@transaction.atomic
def import_campaign(document: dict) -> Campaign:
    """Restore an exported campaign into a database that does not hold it."""
    if document.get("format") not in FORMATS:
        raise RuleViolation(f"Not a campaign backup (expected format {FORMAT}).")
    if document["format"] != FORMAT:
        document = _step_actions(document)
    campaign_id = document["campaign"]["id"]
    if Campaign.objects.filter(pk=campaign_id).exists():
        raise RuleViolation(
            f"Campaign {campaign_id} exists already: restore into an empty database."
        )
    User = get_user_model()
    exported = {model for model, _ in campaign_models()}
    models = set()
    try:
        for restored in serializers.deserialize("python", document["objects"]):
            model = type(restored.object)
            if model is User:
                _restore_account(restored.object)
            elif model in exported:
                _unlink_original(restored.object)
                restored.save()
                models.add(model)
            else:
                raise RuleViolation(
                    f"The backup holds rows of {model._meta.label}, which no campaign backup "
                    "holds: restore only files that export_campaign wrote."
                )
    except DeserializationError as error:
        raise RuleViolation(f"Not a campaign backup that this site can read: {error}") from None
    # New rows must not collide with the restored ids.
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), list(models)):
            cursor.execute(statement)
    return Campaign.objects.get(pk=campaign_id)


def _unlink_original(row) -> None:
    """A warband carried in from another campaign names its original
    (``Warband.carried_from``), which is not in the backup: the link is kept only when this
    database holds that warband, still its player's; else it is dropped, not pointed at a
    stranger's warband of the same id."""
    original = getattr(row, "carried_from_id", None)
    if original is None or row._meta.label != "warbands.Warband":
        return
    found = apps.get_model("warbands", "Warband").objects.filter(pk=original).first()
    if found is None or found.owner_id != row.owner_id:
        row.carried_from_id = None


def _restore_account(found) -> None:
    """An account the document names, made from its ``USER_FIELDS`` alone, whatever else the
    document held (a password hash, an e-mail address, staff rights, groups): no usable
    password (its owner sets one through an administrator, ``changepassword``). An account of
    the same name is kept as it is."""
    User = get_user_model()
    if User.objects.filter(username=found.username).exists():
        return
    account = User(**{name: getattr(found, name) for name in USER_FIELDS})
    account.set_unusable_password()
    account.save()


def _step_actions(document: dict) -> dict:
    """A format 1 document as format 2: each step record's journal and summary become its one
    action (as migration battles 0008 did in the database)."""
    objects = []
    for row in document["objects"]:
        if row["model"] != "battles.steprecord":
            objects.append(row)
            continue
        fields = dict(row["fields"])
        journal, summary = fields.pop("journal", []), fields.pop("summary", "")
        fields["changes"] = len(journal)
        objects.append({**row, "fields": fields})
        if journal or summary:
            objects.append({"model": "battles.stepaction", "pk": None,
                            "fields": {"record": row["pk"], "journal": journal,
                                       "summary": summary}})  # fmt: skip
    return {**document, "format": FORMAT, "objects": objects}
