"""A skill names the campaign rule the app applies for it (``effect``, as a warrior type's
special rules do): Animal Friendship's ``wardogs_free_slots``. The reference data loaded
again to fill it."""

from django.db import migrations, models

from warbands.reference import load_reference_data


def load(apps, schema_editor):
    load_reference_data(apps)


class Migration(migrations.Migration):
    dependencies = [("warbands", "0041_animosity_effect")]

    operations = [
        migrations.AddField(
            model_name="skill",
            name="effect",
            field=models.CharField(
                blank=True, help_text="The rule the app applies.", max_length=40
            ),
        ),
        migrations.RunPython(load, migrations.RunPython.noop),
    ]
