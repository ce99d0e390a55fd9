"""House rules per campaign: the organiser chooses which warband lists and hired swords the
campaign allows and the gold each warband starts with, before anyone musters.

- ``allowed``: what a campaign's house rules allow, read in one place by every path that
  creates a warband or hires a hired sword (muster, post-battle step 7);
- ``services``: setting them, under the campaign's row lock, refused once a warband exists;
- ``permissions``: who may change them and when;
- ``forms`` and ``views``: the house-rules page (members read it, organisers change it).

The rules themselves (how grades and named entries combine) are pure, in
``warbands.rules.house_rules``.
"""
