"""The Mordheim map's D6, rolled when it is bought: the re-rolls a Vague or
an Accurate map gives at the next exploration, and a master map's re-roll for good."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("warbands", "0027_hired_sword_types")]

    operations = [
        migrations.AddField(
            model_name="warband",
            name="map_rerolls",
            field=models.PositiveSmallIntegerField(
                default=0,
                help_text="Mordheim maps bought (Vague: 1, Accurate: 3): exploration dice the "
                "warband may re-roll at the next exploration.",
            ),
        ),
        migrations.AddField(
            model_name="warband",
            name="master_map",
            field=models.BooleanField(
                default=False,
                help_text="A Mordheim map bought was a master map: one exploration die "
                "re-rolled for good, while a hero carrying a Mordheim map was not taken out "
                "of action.",
            ),
        ),
    ]
