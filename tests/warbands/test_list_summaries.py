"""Each warband list has a sentence of our own saying what it is and how it plays, shown on the
new-warband page as players choose a list; never a run of the rule texts' words."""

import pytest
from django.urls import reverse

from tests.factories import MembershipFactory
from tests.warbands.test_rule_summaries import RULES, rule_texts, runs
from warbands.models.lists import list_summary, summaries
from warbands.reference import warband_files

pytestmark = pytest.mark.django_db


def list_keys() -> set[str]:
    return {path.stem for path in warband_files()}


def test_every_list_has_a_short_summary_and_no_summary_names_a_list_that_is_gone():
    written = summaries()
    assert set(written) == list_keys()
    for key, text in written.items():
        assert text.strip() and len(text) <= 140, key


@pytest.mark.skipif(not RULES.is_dir(), reason="the rule texts (../shared/rules) are not here")
def test_no_list_summary_copies_the_rule_texts():
    rule_runs = runs(rule_texts())
    assert [key for key, text in summaries().items() if runs(text) & rule_runs] == []


def test_the_new_warband_page_shows_each_lists_summary(client):
    membership = MembershipFactory()
    client.force_login(membership.user)
    page = client.get(reverse("warband_create", args=[membership.campaign_id])).content.decode()
    for key in ("reikland", "norse_explorers", "black_dwarfs"):
        assert list_summary(key) and list_summary(key) in page.replace("&#x27;", "'"), key
    assert list_summary("no_such_list") == ""
