"""A battle's report: how a battle gets into the campaign and becomes true.

``services`` records (an organiser) or reports (a player) a battle, its result and who
fought, and takes the players' confirmations or disputes, and corrections; ``sides`` is each
side's own part of the report (its warriors out of action, their deeds, the leader, the
wyrdstone found); ``fortune`` is random fortune (markers, discovery tests, the table).
A battle every player confirmed starts the post-battle sequences (``battles.aftermath``);
step 0, the carried items at the end of the game, is played on the battle's own page
(``views.battle``). ``forms`` and ``views`` are the pages.
"""
