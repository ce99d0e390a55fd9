from django.db import migrations


def give_codes(apps, schema_editor):
    from campaign.models import new_join_code

    Campaign = apps.get_model("campaign", "Campaign")
    for campaign in Campaign.objects.filter(join_code__isnull=True):
        campaign.join_code = new_join_code()
        campaign.save(update_fields=["join_code"])


class Migration(migrations.Migration):
    dependencies = [("campaign", "0002_campaign_join_code_campaign_joining_open_and_more")]

    operations = [migrations.RunPython(give_codes, migrations.RunPython.noop)]
