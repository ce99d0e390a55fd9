"""Found items that change what exploration gives (FACTS.md section 4, the locations): the
Fighting Arena's training manual read by a hero, the Elf Ranger's Seeker moving a die."""

import pytest

from battles.rules import exploration as rules
from battles.rules.tasks import NeedsAnswer
from tests.rules.test_exploration import OTTO, at, dice


def test_a_hero_who_reads_the_training_manual_uses_it_up():
    """Fighting Arena: read, the manual gives its reader Combat skills and +1 WS maximum
    (``manual_reader``) and is not kept to sell; unread, it is the 100 gc item."""
    with pytest.raises(NeedsAnswer) as question:
        at(5, 6)
    assert question.value.question.key == "reader"

    read = at(5, 6, answers={"reader": str(OTTO.id)})

    assert (read.manual_reader, read.items) == (OTTO.id, [])


def test_the_elf_rangers_seeker_moves_one_die_by_one():
    """Seeker: 3 5 becomes 3 4 (shards for 7: 2) or 4 5; the player may leave them."""
    setup = rules.ExplorationSetup(heroes_standing=2, seekers=("Seeker (Aelric)",))
    with pytest.raises(NeedsAnswer) as asked:
        rules.explore(dice(3, 5), setup)
    assert ("1-", "die 2 (showing 5) -1") in asked.value.question.options

    moved = rules.explore(dice(3, 5), setup, {"seeker_0": "0+"})
    left = rules.explore(dice(3, 5), setup, {"seeker_0": "none"})

    assert (moved.faces, moved.multiple) == ([4, 5], None)
    assert rules.explore(dice(3, 5), setup, {"seeker_0": "1-"}).faces == [3, 4]
    assert left.faces == [3, 5]
