"""Backup and restore of one campaign: its members, warbands with their rosters and secret
treasuries, ledgers, battles, post-battle sequences and feed, as one JSON document
(``manage.py export_campaign`` / ``import_campaign``).

Django's serializers do the work. Rows keep their ids, so the journal of each post-battle step
(which names rows by id) still undoes exactly after a restore; reference data (warband lists,
items, skills, spells) is named by its keys, and users by their usernames, so the document
restores into any database that has the same reference data loaded by the migrations.
Users are written without their passwords, e-mail addresses or log-in times, and an account
the restore creates has no usable password.
Restoring is meant for an empty database: a campaign whose id exists is refused. The ledger's
append-only trigger does not stand in the way, since a restore only inserts.

``pg_dump`` remains the backup of the whole site; this is the backup of one league, small
enough to mail to its organiser.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.utils import timezone

from battles.models import (
    Battle,
    Captive,
    CarriedItemAtEnd,
    DiceRoll,
    Discovery,
    Participant,
    PostBattleSequence,
    SequenceTask,
    StepAction,
    StepRecord,
    WarriorOutcome,
)
from campaign.models import (
    Campaign,
    CampaignEvent,
    Membership,
    OrganiserInvitation,
    RandomFortuneEntry,
)
from core.errors import RuleViolation
from warbands.models import (
    Correction,
    HiredSword,
    Injury,
    LedgerEntry,
    RatingSnapshot,
    StorageContainer,
    StoredItem,
    VesselItem,
    Warband,
    Warrior,
    WarriorItem,
    WarriorSkill,
    WarriorSpell,
)

FORMAT = "mordheim-campaign/2"
# Format 1 kept each step's journal and summary on its record; they are now its actions'
# (``StepAction``). A format 1 document still restores: each record's become one action.
FORMATS = ("mordheim-campaign/1", FORMAT)
# Users as the campaign names them. Never their password hashes, e-mail addresses or log-in
# times: a backup is mailed to an organiser, and an imported account gets no usable password.
USER_FIELDS = ("username", "first_name", "last_name", "is_active", "date_joined")
# What a document written before that may still hold of a user, and a restore leaves out.
USER_SECRETS = {"email": "", "last_login": None}
# Every model of a campaign, and how to find its rows from the campaign.
PARTS = (
    (Campaign, "pk"),
    (Membership, "campaign"),
    (OrganiserInvitation, "campaign"),
    (RandomFortuneEntry, "campaign"),
    (Warband, "campaign"),
    (Warrior, "warband__campaign"),
    (WarriorItem, "warrior__warband__campaign"),
    (WarriorSkill, "warrior__warband__campaign"),
    (WarriorSpell, "warrior__warband__campaign"),
    (Injury, "warrior__warband__campaign"),
    (StorageContainer, "warband__campaign"),
    (StoredItem, "container__warband__campaign"),
    (VesselItem, "warband__campaign"),
    (Battle, "campaign"),
    (Participant, "battle__campaign"),
    (WarriorOutcome, "participant__battle__campaign"),
    (DiceRoll, "battle__campaign"),
    (Discovery, "battle__campaign"),
    (CarriedItemAtEnd, "battle__campaign"),
    (Captive, "battle__campaign"),
    (PostBattleSequence, "participant__battle__campaign"),
    (StepRecord, "sequence__participant__battle__campaign"),
    (StepAction, "record__sequence__participant__battle__campaign"),
    (SequenceTask, "sequence__participant__battle__campaign"),
    (HiredSword, "warband__campaign"),
    (RatingSnapshot, "warband__campaign"),
    (LedgerEntry, "warband__campaign"),
    (Correction, "warband__campaign"),
    (CampaignEvent, "campaign"),
)
# The users a campaign's rows name.
USER_REFERENCES = (
    (Membership, "user"), (Warband, "owner"), (LedgerEntry, "actor"), (Battle, "reported_by"),
    (Participant, "confirmed_by"), (Participant, "side_entered_by"),
    (Participant, "declaration_proposed_by"), (DiceRoll, "rolled_by"),
    (StepRecord, "completed_by"), (StepRecord, "undone_by"), (Correction, "actor"),
    (OrganiserInvitation, "invited_by"), (OrganiserInvitation, "answered_by"),
)  # fmt: skip


def _rows(campaign: Campaign) -> list[tuple[type, Iterable]]:
    return [
        (model, model.objects.filter(**{lookup: campaign.pk}).order_by("pk"))
        for model, lookup in PARTS
    ]


def export_campaign(campaign: Campaign) -> dict:
    """The campaign as a JSON-ready document."""
    user_ids: set[int] = set()
    for model, field in USER_REFERENCES:
        lookup = dict(PARTS)[model]
        user_ids |= set(
            model.objects.filter(
                **{lookup: campaign.pk}, **{f"{field}__isnull": False}
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


def dumps(document: dict) -> str:
    return json.dumps(document, cls=DjangoJSONEncoder, indent=1, ensure_ascii=False)


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
    models = set()
    for restored in serializers.deserialize("python", document["objects"]):
        model = type(restored.object)
        if model is User:
            if User.objects.filter(username=restored.object.username).exists():
                continue  # an account of the same name is kept as it is
            _without_secrets(restored.object)
        restored.save()
        models.add(model)
    # New rows must not collide with the restored ids.
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), list(models)):
            cursor.execute(statement)
    return Campaign.objects.get(pk=campaign_id)


def _without_secrets(user) -> None:
    """A restored account, whatever the document held: no e-mail, no log-in time and no
    usable password (its owner sets one through an administrator, ``changepassword``)."""
    for field, blank in USER_SECRETS.items():
        setattr(user, field, blank)
    user.set_unusable_password()


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
