from django.apps import AppConfig, apps
from django.db.models.signals import m2m_changed, post_delete, post_save

from campaign import versions


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        """Every model that names its campaign (``CAMPAIGN_PATH``) changes that campaign's
        version when it is saved or deleted (``campaign.versions``)."""

        for model in apps.get_models():
            if not hasattr(model, "CAMPAIGN_PATH"):
                continue
            post_save.connect(versions.on_write, sender=model, weak=False)
            post_delete.connect(versions.on_write, sender=model, weak=False)
            for field in model._meta.local_many_to_many:
                m2m_changed.connect(
                    versions.on_write, sender=field.remote_field.through, weak=False
                )
