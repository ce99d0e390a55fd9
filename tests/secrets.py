"""Helpers for checking that a secret never reaches a response.

Two complementary checks:
- ``contains_value``: a distinctive value (a stored item's name, a large total) does not appear.
- ``assert_unchanged_by_secrets``: the differential check. The page is fetched, the secret
  treasury is changed (different gold, wyrdstone, items, on the same side of the Heavy
  thresholds, which are public), and the page is fetched again: for someone who may not see
  the secret, both responses must be identical. Small numbers that would collide with public
  ones (a profile's 7, an experience box) are caught this way too.
"""

import difflib
import re
from collections.abc import Callable

_CSRF = [
    re.compile(r'("X-CSRFToken": ")[^"]*(")'),
    re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*(")'),
    re.compile(r'(name="form_token" value=")[^"]*(")'),
]


# Where a page names rows by id: an option's value ("1557", "container:1557") and a hidden
# input's. A secret total of gold is a number too, and a fighter numbered 214 is no leak of the
# 214 gc of a warband (the database's sequences do not restart between tests).
IDS = re.compile(r'(<option value=|<input type="hidden" name="\w+" value=)"[^"]*"')


def without_ids(text: str) -> str:
    """``text`` with the values of its options and hidden inputs emptied (``IDS``)."""
    return IDS.sub(r'\1""', text)


def shown_pattern(values) -> re.Pattern:
    """One pattern finding any of ``values`` as a value of its own: 137 in "137 gc", ">137<"
    or "value=\\"137\\"", but not as part of a token, an element id or a path ("aB137x",
    "warrior-137", "/warriors/137/"), which object ids and CSRF tokens produce by chance. The
    longest first, so that one value inside another is found as the longer."""
    texts = sorted({str(value) for value in values}, key=len, reverse=True)
    return re.compile(rf"(?<![\w/-])({'|'.join(re.escape(text) for text in texts)})(?![\w/-])")


def contains_value(text: str, value: object) -> bool:
    """True when ``value`` appears in ``text`` as a value of its own (``shown_pattern``); a
    number, not as the value of an option or a hidden input (``IDS``)."""
    if str(value).isdigit():
        text = without_ids(text)
    return shown_pattern([value]).search(text) is not None


def normalised(text: str) -> str:
    """The response without what differs between two requests anyway (CSRF and one-time form
    tokens)."""
    for pattern in _CSRF:
        text = pattern.sub(r"\1…\2", text)
    return text


def assert_unchanged_by_secrets(fetch: Callable[[], str], change_secrets: Callable[[], None]):
    before = normalised(fetch())
    change_secrets()
    after = normalised(fetch())
    if before != after:
        diff = "\n".join(
            difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=1)
        )
        raise AssertionError(f"the response depends on a secret:\n{diff[:3000]}")
