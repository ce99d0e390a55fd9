"""Starting the post-battle sequence when a battle is confirmed (campaigns text: the
post-battle sequence follows every battle): one sequence per participant, and step 0's list
of the carried items on the table.

The battle's reporting (``battles.report.services.confirm``) calls ``start_sequences``; nothing in
the sequence imports the reporting, so the dependency points one way.
"""

from __future__ import annotations

from django.urls import reverse

from battles.aftermath.carried_items import prepare_carried_items
from battles.models import Battle, PostBattleSequence
from core import notices


def sequences_for(battle: Battle) -> list[PostBattleSequence]:
    """One sequence per participant, created when the battle is confirmed (and read, later)."""
    return [
        PostBattleSequence.objects.get_or_create(participant=participant)[0]
        for participant in battle.participants.all()
    ]


def start_sequences(battle: Battle) -> None:
    """The confirmed battle's sequences, each at step 0, and the carried items that step 0
    settles (``prepare_carried_items``); each player is told his has started."""
    sequences = sequences_for(battle)
    prepare_carried_items(battle)
    owners = dict(battle.participants.values_list("pk", "warband__owner"))
    for sequence in sequences:
        notices.notify(
            [owners[sequence.participant_id]],
            kind="sequence",
            campaign=battle.campaign.name,
            url=reverse("sequence_detail", args=[sequence.pk]),
        )
