"""The one exception every layer raises when a choice breaks the rules (pure Python, so the
rules modules may raise it too)."""


class RuleViolation(ValueError):
    """A choice the rules do not allow. The message is shown to the player as it is."""
