"""Joins the lists' grade (0035) and the first Grade 1b lists (0037), written side by side:
either order leaves each list with its file's grade (0035 reads it from the files, and 0037's
load writes it once the column is there)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("warbands", "0035_warband_type_grade"),
        ("warbands", "0037_grade_1b_lists"),
    ]

    operations = []
