"""The schedule's part of the URL matrix (``tests/test_url_matrix.py``): its codes and what its
scenario adds, a round whose game was played (the confirmed battle), one paired and not played
yet, and a challenge of the opponent's waiting for the owner's answer."""

from django.utils.timezone import localdate

from battles.models import Fixture
from battles.schedule import challenges
from battles.schedule import services as schedule

# Members follow the schedule; organisers plan rounds; players challenge each other; the
# challenged (the owner) answers, the challenger (the opponent) withdraws.
MATRIX = {
    "campaign_schedule": ("LHOOO", "LMMMM"),
    "round_detail": ("LHOOO", "LMMMM"),
    "round_create": ("LMMMM", "LHFFO"),
    "round_pair": ("LMMMM", "LHFFO"),
    "round_fixture_add": ("LMMMM", "LHFFO"),
    "round_clear": ("LMMMM", "LHFFO"),
    "round_delete": ("LHFFO", "LHFFO"),
    "challenge_create": ("LMMMM", "LHOOO"),
    "challenge_answer": ("LMMMM", "LHFOF"),
    "challenge_withdraw": ("LMMMM", "LHOFF"),
}


def build(campaign, organiser, mine, theirs, battle) -> dict:
    """The schedule's rows; the URL arguments of its routes."""
    day = localdate()
    played = schedule.create_round(campaign, actor=organiser, number=1, starts_on=day,
                                   ends_on=day)  # fmt: skip
    Fixture.objects.create(campaign=campaign, round=played, battle=battle).sides.create(
        warband=mine
    )
    paired = schedule.create_round(campaign, actor=organiser, number=2, starts_on=day,
                                   ends_on=day)  # fmt: skip
    schedule.pair_round(paired, actor=organiser, method="closest")
    challenge = challenges.issue_challenge(
        campaign, actor=theirs.owner, challenger_id=theirs.pk, opponent_ids=[mine.pk]
    )
    return {
        **{name: {"pk": campaign.pk}
           for name in ("campaign_schedule", "round_create", "challenge_create")},
        **{name: {"pk": paired.pk}
           for name in ("round_detail", "round_pair", "round_fixture_add", "round_clear",
                        "round_delete")},
        **{name: {"pk": challenge.pk} for name in ("challenge_answer", "challenge_withdraw")},
    }  # fmt: skip
