"""The battle helper: a battle played at the table with the app, both players live.

``start`` sets a game up (a battle being played, its sides and a fighter per model);
``moves`` changes states and marks what a warrior did; ``checks`` rolls the tests the rules
call for (Rally, Initiative, falls); ``rout`` prompts and rolls the Rout tests; ``end`` ends
the game and fills in the battle's report, which each side then checks and confirms
(``battles.report.sides``, ``battles.report.services.respond``); ``board`` is the page's
read model, and ``delta`` what a page already showing the game redraws after a change;
``forms`` and ``views`` are the page, its board and its moves.

Every change locks the game's row (``common.locked``), checks who acts, writes, and raises the
game's version with what it touched (``common.changed``), which the pages poll
(``battles.helper.views``). The rules themselves are ``battles.rules.play``.
"""
