"""Rules text at hand: a short summary in our own words for each skill,
spell and item, loaded from ``warbands/data/`` (only the summaries, so this migration does not
depend on the other reference fields added beside it)."""

from django.db import migrations, models

from warbands.rule_summaries import load_rule_summaries

HELP = "What it does in play, in one or two sentences of our own (shown on rosters)."


def load(apps, schema_editor):
    load_rule_summaries(apps)


class Migration(migrations.Migration):
    dependencies = [("warbands", "0023_grade_1a_lists")]

    operations = [
        migrations.AddField(
            model_name="skill",
            name="summary",
            field=models.TextField(blank=True, help_text=HELP),
        ),
        migrations.AddField(
            model_name="spell",
            name="summary",
            field=models.TextField(blank=True, help_text=HELP),
        ),
        migrations.AddField(
            model_name="item",
            name="summary",
            field=models.TextField(blank=True, help_text=HELP),
        ),
        migrations.RunPython(load, migrations.RunPython.noop),
    ]
