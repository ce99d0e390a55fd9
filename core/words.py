"""Small English helpers for sentences the app writes about named things ("an Orc Mob",
"3 Giant Rats", "the Zealots' advance"), so a fixed "a", a bare count or a fixed "'s" never
reads wrong with a name from the data.

Pure Python: no Django, so rules modules and views alike may use it."""

import re

# Words spelt with a vowel but said with a consonant first ("a Unicorn"), and the reverse
# ("an hour"): matched on the start of the first word, in lower case.
_CONSONANT_SOUND = ("uni", "use", "usu", "uti", "ute", "eu", "ewe", "one", "once", "ouija")
_VOWEL_SOUND = ("hour", "honest", "honour", "honor", "heir")
# The few plurals the usual endings get wrong, by the last word in lower case.
_IRREGULAR = {
    "man": "men",
    "woman": "women",
    "foot": "feet",
    "tooth": "teeth",
    "mouse": "mice",
    "child": "children",
    "ox": "oxen",
    "wolf": "wolves",
    "dwarf": "dwarfs",
    "staff": "staves",
    "knife": "knives",
    "sheep": "sheep",
    "fish": "fish",
    "undead": "undead",
}
# Words ending in "man" that are not men: "Shamans", "Talismans".
_NOT_MEN = ("shaman", "talisman", "human", "german", "caiman")


def article(phrase: str) -> str:
    """ "a" or "an" for ``phrase``, by the sound of its first word."""
    word = phrase.strip().lower()
    if not word:
        return "a"
    if word.startswith(_VOWEL_SOUND):
        return "an"
    if word.startswith(_CONSONANT_SOUND):
        return "a"
    return "an" if word[0] in "aeiou" else "a"


def a(phrase: str, *, capital: bool = False) -> str:
    """``phrase`` after its indefinite article: "an Orc Mob", "a Unicorn"; ``capital`` for
    the start of a sentence ("An Orc Mob")."""
    if not phrase.strip():
        return phrase
    said = article(phrase)
    return f"{said.capitalize() if capital else said} {phrase}"


def _plural_word(word: str) -> str:
    lower = word.lower()
    for single, many in _IRREGULAR.items():
        if lower == single or (lower.endswith(single) and single in ("man", "woman")):
            if lower.endswith(_NOT_MEN):
                break
            cut = len(word) - len(single)
            many = many if not word[cut:][:1].isupper() else many.capitalize()
            return word[:cut] + many
    if re.search(r"[^su]s$", lower):
        return word  # a name already plural: "Saddle Bags"
    if re.search(r"[^aeiou]y$", lower):
        return word[:-1] + "ies"
    if re.search(r"(s|x|z|ch|sh)$", lower):
        return word + "es"
    return word + "s"


def plural_of(singular: str) -> str:
    """The plural of a name: its last word changes ("Giant Rats"), or the word before
    " of " ("Warrior-Priests of Ulric")."""
    head, sep, tail = singular.partition(" of ")
    words = head.split(" ")
    words[-1] = _plural_word(words[-1])
    return " ".join(words) + sep + tail


def plural(count: int, singular: str, plural: str | None = None) -> str:
    """``count`` and the name in the number it asks for: "1 warrior", "3 warriors"."""
    if count == 1:
        return f"{count} {singular}"
    return f"{count} {plural or plural_of(singular)}"


def A(phrase: str) -> str:
    """``a`` at the start of a sentence: "An Orc Mob warband …"."""
    return a(phrase, capital=True)


def possessive(name: str) -> str:
    """``name`` owning what follows: "Ulrich's", "The Grey Scourge's", but "Zealots'" and
    "Brother Marius'": a name ending in s or S takes an apostrophe alone. We use the plain
    apostrophe for every name ending in s, singular or plural alike, so that one rule holds
    for all names whatever their number."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"
