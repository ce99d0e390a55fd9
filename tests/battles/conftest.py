from campaign.models import Membership


def member(campaign, user) -> Membership:
    return Membership.objects.get(campaign=campaign, user=user)
