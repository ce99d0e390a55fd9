"""Rules text at hand: every item of the price chart has a
summary of our own now; load the summaries again (``load_rule_summaries`` sets an item's
summary when the data gives one) so existing databases get them."""

from django.db import migrations

from warbands.rule_summaries import load_rule_summaries


def load(apps, schema_editor):
    load_rule_summaries(apps)


class Migration(migrations.Migration):
    dependencies = [("warbands", "0027_hired_sword_types")]

    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
