"""The Grade 1a warband lists: a list's own recruiting rules (``roster_rules``: the
Plague Cart's two extra warriors, the Trained Bear's Bear Tamer, the Orc Mob's Goblin ratio),
then the reference data loaded again, which adds the seven new lists, their items, skills and
spells (``warbands/data/``, written by ``python -m warbands.data.convert_bsdata``)."""

from django.db import migrations, models

from warbands.reference import load_reference_data


def load(apps, schema_editor):
    load_reference_data(apps)


class Migration(migrations.Migration):
    dependencies = [("warbands", "0022_corrections")]

    operations = [
        migrations.AddField(
            model_name="warbandtype",
            name="roster_rules",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="The list's own recruiting rules: extra_warriors, needs, ratios "
                "(see warbands/data/README.md).",
            ),
        ),
        migrations.RunPython(load, migrations.RunPython.noop),
    ]
