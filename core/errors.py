"""The one exception every layer raises when a choice breaks the rules (pure Python, so the
rules modules may raise it too)."""


class RuleViolation(ValueError):
    """A choice the rules do not allow. The message is shown to the player as it is.
    ``field``: the name of the form's field whose choice broke the rule, when one did, so
    that a page may show the message beside it."""

    def __init__(self, *args, field: str = "") -> None:
        super().__init__(*args)
        self.field = field
