"""Who may have an item: the warband lists allowed and refused and the
restriction's label, then the reference data loaded again, which adds the rest of the
equipment catalogue (ithilmar weapons, the Grade 1a items) and fills the restrictions."""

from django.db import migrations, models

from warbands.reference import load_reference_data


def load(apps, schema_editor):
    load_reference_data(apps)


class Migration(migrations.Migration):
    dependencies = [("warbands", "0023_grade_1a_lists")]

    operations = [
        migrations.AddField(
            model_name="item",
            name="allowed_warbands",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text="Keys of the warband lists that may have it; empty: all.",
            ),
        ),
        migrations.AddField(
            model_name="item",
            name="refused_warbands",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text="Keys of the warband lists that may not have it.",
            ),
        ),
        migrations.AddField(
            model_name="item",
            name="restriction",
            field=models.CharField(
                blank=True,
                help_text="The restriction in a few words: 'Skaven only'.",
                max_length=120,
            ),
        ),
        migrations.RunPython(load, migrations.RunPython.noop),
    ]
