"""Helpers for checking that a secret value never reaches a response."""

import re


def contains_value(text: str, value: object) -> bool:
    """True when ``value`` appears in ``text`` as a value of its own: 137 in "137 gc", ">137<"
    or "value=\\"137\\"", but not as part of a token, an element id or a path ("aB137x",
    "warrior-137", "/warriors/137/"), which object ids and CSRF tokens produce by chance."""
    pattern = rf"(?<![\w/-]){re.escape(str(value))}(?![\w/-])"
    return re.search(pattern, text) is not None
