"""Articles, plurals and possessives for names from the data, entry by entry."""

import pytest
from django.template import Context, Template

from core.words import a, article, plural, plural_of, possessive


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("Orc Mob", "an Orc Mob"),
        ("Arabian Merchant", "an Arabian Merchant"),
        ("Ogre Bodyguard", "an Ogre Bodyguard"),
        ("Elf Ranger", "an Elf Ranger"),
        ("Imperial Assassin", "an Imperial Assassin"),
        ("Undead", "an Undead"),
        ("Unicorn", "a Unicorn"),
        ("Eunuch", "a Eunuch"),
        ("One-eyed Jack", "a One-eyed Jack"),
        ("hour", "an hour"),
        ("Honour Guard", "an Honour Guard"),
        ("Halfling Cook", "a Halfling Cook"),
        ("Hunter", "a Hunter"),
        ("Dwarf Troll Slayer", "a Dwarf Troll Slayer"),
        ("", ""),
    ],
)
def test_a_chooses_the_article_by_the_first_sound(phrase, expected):
    assert a(phrase) == expected


def test_article_alone():
    assert article("Orc") == "an"
    assert article("Skaven") == "a"


@pytest.mark.parametrize(
    ("count", "singular", "expected"),
    [
        (1, "warrior", "1 warrior"),
        (3, "warrior", "3 warriors"),
        (0, "Zombie", "0 Zombies"),
        (2, "Giant Rat", "2 Giant Rats"),
        (2, "Swordsman", "2 Swordsmen"),
        (2, "Beastman", "2 Beastmen"),
        (2, "Shaman", "2 Shamans"),
        (2, "Human", "2 Humans"),
        (2, "Dire Wolf", "2 Dire Wolves"),
        (2, "Dwarf", "2 Dwarfs"),
        (2, "Witch", "2 Witches"),
        (2, "Fury", "2 Furies"),
        (2, "Warrior-Priest of Ulric", "2 Warrior-Priests of Ulric"),
        (4, "Undead", "4 Undead"),
        (2, "Saddle Bags", "2 Saddle Bags"),
        (2, "Boss", "2 Bosses"),
    ],
)
def test_plural_follows_the_count(count, singular, expected):
    assert plural(count, singular) == expected


def test_plural_takes_a_given_plural():
    assert plural(2, "Ogre", "Ogres of the Mountains") == "2 Ogres of the Mountains"
    assert plural(1, "Ogre", "Ogres of the Mountains") == "1 Ogre"
    assert plural_of("Day") == "Days"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Ulrich", "Ulrich's"),
        ("The Grey Scourge", "The Grey Scourge's"),
        ("Zealots", "Zealots'"),
        ("Flagellants", "Flagellants'"),
        ("Brother Marius", "Brother Marius'"),
        ("REAVERS", "REAVERS'"),
        ("Saddle Bags", "Saddle Bags'"),
        ("Felix", "Felix's"),
        ("Ogre Bodyguard", "Ogre Bodyguard's"),
    ],
)
def test_possessive_takes_an_apostrophe_alone_after_an_s(name, expected):
    assert possessive(name) == expected


def test_possessive_filter_escapes_the_name_but_not_its_apostrophe():
    """Unlike ``escape`` on the whole phrase, so a page reads "Zealots' " as the source did."""
    page = Template("{{ name|possessive }} roster").render(Context({"name": "<b>Zealots"}))
    assert page == "&lt;b&gt;Zealots' roster"
    page = Template("{{ name|possessive }} turn").render(Context({"name": "Ulrich"}))
    assert page == "Ulrich's turn"
    quiet = "{% autoescape off %}{{ name|possessive }}{% endautoescape %}"
    assert Template(quiet).render(Context({"name": "<b>Mice"})) == "<b>Mice's"
