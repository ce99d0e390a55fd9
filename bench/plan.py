"""What ``make bench`` measures, row by row, as bench/load.py runs it (a pure function of the
league that bench/generate.py describes).

- the ceiling: ``/healthz``, no session, no query;
- every main page, drawn for the league's player (``kind: page``, with its size limit);
- every main write, each concurrent client a player of its own on its own warband or
  sequence (``kind: write``), so that the clients do not queue on one row's lock. A write that
  changes the league is paired with the one that changes it back, and both are counted: the
  row's requests per second and latencies are the pair's, each leg's are in ``legs``;
- the battle helper (bench/viewers.py): a game under way, its two players tapping (a warrior
  knocked down, then undone: ``helper tap``, ``kind: tap``) while four viewers poll once a
  second (``helper poll (with changes)``, ``kind: poll``), then the viewers polling a game
  nobody changes (``idle poll``, ``kind: idle``), as fast as the concurrency lets them;
- the league night (``kind: night``): every player at once, bench/night.py's session.
"""

from __future__ import annotations

KB = 1000
TREASURY_BYTES = 40 * KB  # 20 containers and a page of the ledger
PAGE_BYTES = 80 * KB
# The face of every die typed in for an injury roll: a hero's D66 of 44 (full recovery), 4 for
# each henchman (he lives). The roster stays as it is, so every roll costs the same.
INJURY_FACE = "4"
CEILING = "/healthz (ceiling)"
# The battle helper's targets (docs/benchmark.md): a tap at most TAP_QUERIES statements; a poll
# that carries one change at most POLL_BYTES; a poll of a game that did not change an empty 204
# of IDLE_QUERIES statements (the session, the user, the game's version).
TAP_QUERIES = 10
POLL_BYTES = 8 * KB
IDLE_QUERIES = 3


def typed_dice(count: int) -> str:
    """Exactly the ``count`` dice a task's form takes (it refuses more or fewer)."""
    return " ".join([INJURY_FACE] * count)


def _post(user: str, path: str, label: str, form: dict, **more) -> dict:
    return {"user": user, "method": "POST", "path": path, "label": label, "htmx": True,
            "form": {**form, "form_token": "{token}"}, **more}  # fmt: skip


def _moves(user: str, path: str, pair, **extra) -> list[dict]:
    """1 gc from one container to the other, then back: the balances stay put."""
    a, z = pair
    return [
        _post(user, path, "move", {**extra, "source": s, "target": t, "gold": "1",
                                   "wyrdstone": "0"})
        for s, t in ((a, z), (z, a))
    ]  # fmt: skip


def pages(league: dict) -> list[dict]:
    user, w, c = league["player"], league["warband_id"], league["campaign_id"]
    paths = [
        ("dashboard", "/"),
        ("roster", f"/warbands/{w}/"),
        ("treasury", f"/warbands/{w}/treasury/"),
        ("campaign page", f"/campaigns/{c}/"),
        ("league table", f"/campaigns/{c}/table/"),
        ("campaign feed", f"/campaigns/{c}/feed/"),
        ("battle", f"/battles/{league['battle_id']}/"),
        ("sequence (step 9)", f"/sequences/{league['sequence_id']}/"),
    ]
    return [
        {"name": name, "kind": "page", "run": "loop",
         "max_bytes": TREASURY_BYTES if name == "treasury" else PAGE_BYTES,
         "scripts": [[{"user": user, "method": "GET", "path": path, "label": name}]]}
        for name, path in paths
    ]  # fmt: skip


# After a purchase, the board it answers with: the newest container card is the one bought,
# and the sell form is the one for it (a form of its own, or the board's, naming it).
BOUGHT = [
    {"name": "bought", "pattern": r'id="container-(\d+)"', "pick": "max"},
    {"name": "sell", "pick": "first",
     "pattern": r'hx-post="(/containers/{bought}/sell/|/warbands/\d+/treasury/sell/)"'},
]  # fmt: skip


def _buy_and_sell(buyer: dict) -> list[dict]:
    """A large sack (2 gc) bought from each chest in turn and sold back (1 gc) into it."""
    user, w = buyer["username"], buyer["warband_id"]
    script = []
    for chest in buyer["chests"]:
        script += [
            _post(user, f"/warbands/{w}/treasury/buy/", "buy",
                  {"kind": "large_sack", "pay_from": chest, "holder": ""}, capture=BOUGHT),
            _post(user, "{sell}", "sell", {"container": "{bought}", "proceeds_to": chest}),
        ]  # fmt: skip
    return script


def writes(league: dict) -> list[dict]:
    players = {p["username"]: p for p in league["players"]}
    movers = [players[s["username"]] for s in league["step9"]] or [players[league["player"]]]
    rows = [
        ("treasury move", "loop", [
            _moves(p["username"], f"/warbands/{p['warband_id']}/treasury/move/", p["move"])
            for p in movers
        ]),
        ("buy a container (+ sell)", "loop", [_buy_and_sell(b) for b in league["buyers"]]),
        ("injury roll (step 1, dice)", "pool", [
            _post(r["username"], f"/sequences/{r['sequence_id']}/tasks/{r['task_id']}/",
                  "roll", {"dice": typed_dice(r["dice"]), "step": "1"})
            for r in league["rolls"]
        ]),
        ("step 9 move", "loop", [
            _moves(s["username"], f"/sequences/{s['sequence_id']}/act/", s["move"],
                   step="9", action="move")
            for s in league["step9"]
        ]),
        ("finish a step (+ undo)", "loop", [
            [_post(s["username"], f"/sequences/{s['sequence_id']}/complete/", "complete",
                   {"step": "8", "notes_confirmed": "1"}),
             _post(s["username"], f"/sequences/{s['sequence_id']}/undo/", "undo",
                   {"step": "8"})]
            for s in league["step8"]
        ]),
    ]  # fmt: skip
    return [
        {"name": name, "kind": "write", "run": run,
         **({"steps": work} if run == "pool" else {"scripts": work})}
        for name, run, work in rows
    ]  # fmt: skip


def helper(league: dict) -> list[dict]:
    """The helper's scene, then its idle polls; none for a league without a game under way."""
    game = league.get("helper")
    if not game:
        return []
    scene = {"battle_id": game["battle_id"], "viewers": game["viewers"], "run": "helper"}
    return [
        {**scene, "name": "helper tap", "kind": "tap", "tappers": game["tappers"],
         "interval": 1.0, "pause": 1.0, "concurrency": len(game["viewers"]) + 2,
         "max_queries": TAP_QUERIES,
         "polls": {"name": "helper poll (with changes)", "kind": "poll",
                   "max_bytes": POLL_BYTES}},
        {**scene, "name": "idle poll", "kind": "idle", "max_queries": IDLE_QUERIES},
    ]  # fmt: skip


def row_kinds(rows: list[dict]) -> dict[str, dict]:
    """Each reported row's ``kind`` and limits, by name (the helper's scene reports its polls
    as a row of their own)."""
    kinds = {}
    for row in rows:
        kinds[row["name"]] = {k: row[k] for k in ("kind", "max_bytes", "max_queries") if k in row}
        if "polls" in row:
            polls = row["polls"]
            kinds[polls["name"]] = {k: v for k, v in polls.items() if k != "name"}
    return kinds


def night(league: dict, duration: float) -> dict:
    return {"name": "league night (40 players)" if len(league["players"]) == 40
            else f"league night ({len(league['players'])} players)",
            "kind": "night", "run": "night", "duration": duration,
            "campaign_id": league["campaign_id"], "face": INJURY_FACE,
            "players": league["players"]}  # fmt: skip


def ceiling() -> dict:
    return {"name": CEILING, "kind": "ceiling", "run": "loop",
            "scripts": [[{"method": "GET", "path": "/healthz", "label": "healthz"}]]}  # fmt: skip


def plan(league: dict, *, night_duration: float) -> list[dict]:
    return [ceiling(), *pages(league), *writes(league), *helper(league),
            night(league, night_duration)]  # fmt: skip


def smallest_pool(league: dict) -> int:
    """How many clients can write at once, each on its own warband or sequence."""
    return min(len(league["step9"]), len(league["step8"]), len(league["buyers"])) or 1
