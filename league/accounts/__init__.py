"""What a player does with his own account: its page, the download of all his data and
closing the account.

- ``permissions``: every page here reads and changes the account logged in, and no other;
- ``download``: his data as one JSON document (his own only, never another's secret);
- ``deletion``: what closing the account does to his warbands and campaigns, and the service;
- ``forms`` and ``views``: the pages, in ``templates/league/account_*.html``.

It sits in ``league``, the top layer, because an account reaches into every app: campaigns,
warbands and their treasuries, battles and the captives they hold.
"""
