from django.apps import AppConfig
from django.utils.module_loading import import_string


class BattlesConfig(AppConfig):
    name = "battles"
    verbose_name = "Battles"

    def ready(self) -> None:
        """The printout's rules at hand get the post-battle charts
        (``battles.aftermath.printout``): the warbands app, below this one, imports nothing of
        it. Imported by name once the models are loaded, which both modules need."""
        rules_at_hand = import_string("battles.aftermath.printout.rules_at_hand")
        at_hand = import_string("warbands.print_views.AT_HAND")
        if rules_at_hand not in at_hand:
            at_hand.append(rules_at_hand)
