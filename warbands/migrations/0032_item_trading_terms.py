"""What the traders sell: ``Item.for_sale`` (off for the magical artefacts, the Freetraders
symbol and treasure, which are only found) and ``Item.rarity_for`` (an item's availability for
the warband lists whose note on the chart changes it), then those two fields loaded from the
reference data."""

from django.db import migrations, models

from warbands.reference import load_trading_terms


def load(apps, schema_editor):
    load_trading_terms(apps)


class Migration(migrations.Migration):
    dependencies = [("warbands", "0031_merge_summaries_map_hired_skills")]

    operations = [
        migrations.AddField(
            model_name="item",
            name="for_sale",
            field=models.BooleanField(
                default=True,
                help_text="Sold by the traders. Off for what is only found or comes with its "
                "owner (magical artefacts, treasure, a dramatis persona's own gear): never "
                "bought.",
            ),
        ),
        migrations.AddField(
            model_name="item",
            name="rarity_for",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="Availability for some warband lists, where the chart's note changes "
                'it: {"sisters_of_sigmar": null} (Common), {"skaven": 7} (Rare 7).',
            ),
        ),
        migrations.RunPython(load, migrations.RunPython.noop),
    ]
