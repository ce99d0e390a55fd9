"""A step's journal and summary move from its record to one row per action (``StepAction``).

Each existing record's journal and summary become its one action; ``changes`` counts the
journal's entries. Reversible: the actions are folded back into the record in their order.
"""

import django.db.models.deletion
from django.db import migrations, models

FORWARD = """
INSERT INTO battles_stepaction (record_id, journal, summary)
SELECT id, journal, summary FROM battles_steprecord
WHERE journal <> '[]'::jsonb OR summary <> ''
ORDER BY id;
UPDATE battles_steprecord SET changes = jsonb_array_length(journal)
WHERE journal <> '[]'::jsonb;
"""

BACKWARD = """
UPDATE battles_steprecord AS r SET
    journal = COALESCE((
        SELECT jsonb_agg(op ORDER BY a.id, n)
        FROM battles_stepaction AS a, jsonb_array_elements(a.journal) WITH ORDINALITY AS e(op, n)
        WHERE a.record_id = r.id), '[]'::jsonb),
    summary = COALESCE((
        SELECT string_agg(a.summary, E'\\n' ORDER BY a.id)
        FROM battles_stepaction AS a WHERE a.record_id = r.id AND a.summary <> ''), '');
"""


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0007_orderings_without_joins"),
    ]

    operations = [
        migrations.AddField(
            model_name="steprecord",
            name="changes",
            field=models.PositiveIntegerField(
                default=0, help_text="How many changes its actions' journals hold."
            ),
        ),
        migrations.CreateModel(
            name="StepAction",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("journal", models.JSONField(blank=True, default=list)),
                ("summary", models.TextField(blank=True)),
                (
                    "record",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="actions",
                        to="battles.steprecord",
                    ),
                ),
            ],
            options={
                "ordering": ["record_id", "pk"],
            },
        ),
        migrations.RunSQL(FORWARD, BACKWARD),
        migrations.RemoveField(model_name="steprecord", name="journal"),
        migrations.RemoveField(model_name="steprecord", name="summary"),
    ]
