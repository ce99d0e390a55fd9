"""Each warband list's grade (``WarbandType.grade``): the community's grading of official (1a),
tested fan (1b) and experimental (1c) lists. The column starts at "1a" for the rows already
there (every list the app held was Grade 1a), then each list's grade is read from its file
(``warbands/data/warbands/<key>.json``), which names it."""

from django.db import migrations, models

from warbands.reference import load_grades


def load(apps, schema_editor):
    load_grades(apps)


class Migration(migrations.Migration):
    dependencies = [("warbands", "0034_warband_version")]

    operations = [
        migrations.AddField(
            model_name="warbandtype",
            name="grade",
            field=models.CharField(
                choices=[("1a", "Grade 1a"), ("1b", "Grade 1b"), ("1c", "Grade 1c")],
                default="1a",
                help_text="The Mordheim community's grading of the list: official (1a), "
                "tested fan (1b) or experimental (1c).",
                max_length=2,
            ),
            preserve_default=False,
        ),
        migrations.RunPython(load, migrations.RunPython.noop),
    ]
