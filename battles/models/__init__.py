"""The battles app's models, re-exported for ``from battles.models import ...``: the battle and
what happened in it (``battle``), a game played with the battle helper (``game``), and the
post-battle sequence as stored (``sequence``)."""

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
from battles.models.sequence import PostBattleSequence, SequenceTask, StepAction, StepRecord

__all__ = [
    "Battle",
    "BattleQuerySet",
    "Captive",
    "CarriedItemAtEnd",
    "DiceRoll",
    "Discovery",
    "Fighter",
    "Game",
    "GameEvent",
    "GameSide",
    "Participant",
    "PostBattleSequence",
    "SequenceTask",
    "StepAction",
    "StepRecord",
    "WarriorOutcome",
]
