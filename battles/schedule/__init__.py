"""The organiser's schedule: rounds and their pairings (``services``, over the pure rules of
``battles.rules.pairings``), challenges between players (``challenges``), what the report
and the helper ask when a battle is played from a planned game (``starting``), and the reads
of the pages and the dashboard (``queries``); ``permissions`` says who may plan, challenge and
answer; ``views`` and ``forms`` are the schedule's and a round's pages."""
