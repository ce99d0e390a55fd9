"""Pure rules of the warbands app: no Django, no ORM, no randomness of its own.

``roster``: profiles, experience, rating, hiring and equipment.
``containers``: Mayhem in Mordheim storage containers, their capacities and nesting.
``succession``: a dead leader bought again (the Undead's Vampire) and who steps down.
``purchases``: items whose later purchase takes more than their price (the Wolfcloak's hunt).
``trading``: what the traders sell on each path (muster, step 6, step 8) and for how much.
``restrictions``: which warband lists may have an item.
``equipment_lists``: buying from a warrior's equipment list, and what refuses it.

The roster rules and the equipment lists' are re-exported here (``from warbands import rules;
rules.check_hire``).
"""

from warbands.rules.equipment_lists import *  # noqa: F403
from warbands.rules.equipment_lists import __all__ as _lists_all
from warbands.rules.roster import *  # noqa: F403
from warbands.rules.roster import __all__ as _roster_all

__all__ = [*_roster_all, *_lists_all]
