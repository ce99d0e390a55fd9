"""Step 10 of the post-battle sequence, update the rating (campaigns text, Warband rating): the
rating is recomputed and charted; any treasure that no container holds is lost (Mayhem in
Mordheim: "lost at the end of any post battle sequence").
"""

from __future__ import annotations

from django.utils import timezone

from battles.aftermath.engine import Step
from warbands import services as warband_services
from warbands import treasury
from warbands.models import RatingSnapshot, StorageContainer, amount_parts


class UpdateRating(Step):
    """Step 10: the rating is recomputed; any treasure that no container holds is lost
    (MiM: "lost at the end of any post battle sequence")."""

    number = 10

    def blockers(self, sequence, tasks=None):
        return []

    def page_context(self, sequence, user, posts=None):
        warband = sequence.participant.warband
        # The rating before the battle and now, side by side: what the battle changed.
        before = sequence.participant.rating_before
        now = warband_services.ratings_of([warband])[warband.pk]
        change = f"+{now - before}" if now > before else f"−{before - now}" if now < before else ""
        context = {"rating_before": before, "rating_now": now, "rating_change": change}
        pile = StorageContainer.objects.filter(
            warband=warband, kind=StorageContainer.LOOSE, status="held"
        ).first()
        if pile is None or pile.is_empty:
            return context
        unstored = {
            "gold": pile.gold_crowns,
            "wyrdstone": pile.wyrdstone,
            "items": list(pile.stored_items.values_list("name", flat=True)),
        }
        return {
            **context,
            "unstored": unstored,
            "confirm_complete": "Finish and lose the treasure that has no container?",
        }

    def complete(self, ctx, values):
        lost = treasury.settle_unstored_treasure(ctx.warband, actor=ctx.actor, step=10)
        ctx.journal.note_ledger()
        # The rulebook's rating summed in SQL (``rating_expression``, checked against
        # ``rules.warband_rating``): the roster's warriors need not be loaded for it.
        rating = warband_services.ratings_of([ctx.warband])[ctx.warband.pk]
        snapshot = ctx.journal.create(
            RatingSnapshot, warband=ctx.warband, rating=rating, taken_at=timezone.now(),
            battle=ctx.battle, note=f"after {ctx.battle.scenario}",
        )  # fmt: skip
        before = ctx.sequence.participant.rating_before
        parts = [f"Rating {snapshot.rating}.", f"Before the battle: {before}."]
        gone = amount_parts(lost["gold"], lost["wyrdstone"], lost["items"])
        if gone:
            parts.append(f"Lost for want of a container: {', '.join(gone)}.")
        return " ".join(parts)
