"""Pure rules of the warbands app: no Django, no ORM, no randomness of its own.

``roster``: profiles, experience, rating, hiring and equipment.
``containers``: Mayhem in Mordheim storage containers, their capacities and nesting.
``succession``: a dead leader bought again (the Undead's Vampire) and who steps down.
``purchases``: items whose later purchase takes more than their price (the Wolfcloak's hunt).
``trading``: what the traders sell on each path (muster, step 6, step 8) and for how much.
``restrictions``: which warband lists may have an item.

The roster rules are re-exported here (``from warbands import rules; rules.check_hire``).
"""

from core.errors import RuleViolation
from warbands.rules.roster import *  # noqa: F403
from warbands.rules.roster import __all__ as _roster_all

# RuleViolation lives in core.errors; the name stays here only for the battles modules that
# still import it from warbands.rules, and goes once they import it from core.errors.
__all__ = [*_roster_all, "RuleViolation"]
