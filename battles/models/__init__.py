"""The battles app's models, re-exported for ``from battles.models import ...``: the battle and
what happened in it (``battle``), a game played with the battle helper (``game``), and the
post-battle sequence as stored (``sequence``), and the organiser's rounds, fixtures and
challenges (``schedule``)."""

from battles.models.battle import (
    Battle,
    BattleQuerySet,
    Captive,
    CarriedItemAtEnd,
    DiceRoll,
    Discovery,
    Participant,
    WarriorOutcome,
)
from battles.models.game import Fighter, Game, GameEvent, GameSide
from battles.models.schedule import Challenge, ChallengeAnswer, Fixture, FixtureSide, Round
from battles.models.sequence import PostBattleSequence, SequenceTask, StepAction, StepRecord

__all__ = [
    "Battle",
    "BattleQuerySet",
    "Captive",
    "CarriedItemAtEnd",
    "Challenge",
    "ChallengeAnswer",
    "DiceRoll",
    "Discovery",
    "Fighter",
    "Fixture",
    "FixtureSide",
    "Game",
    "GameEvent",
    "GameSide",
    "Participant",
    "PostBattleSequence",
    "Round",
    "SequenceTask",
    "StepAction",
    "StepRecord",
    "WarriorOutcome",
]
