"""The battle helper under way: viewers polling the board and players tapping (bench/load.py
runs it as the ``helper`` rows of bench/plan.py).

Each viewer is a phone on the live page: it asks for the board with the version it shows
(``?v=``) and keeps the version the answer carries (``data-version``), as htmx does. In the
``helper tap`` row four viewers poll once a second while each of the two players taps his
warriors in turn: knocked down, then, a second later, the Undo his tap's answer offers, so
the game stays as it was. The taps are the row's requests (``tap`` and ``undo`` legs), the
polls another row's (``polls``), each labelled by what its answer carried: ``idle`` (204),
``1 change``, ``2+ changes`` or ``whole board``. In the ``idle poll`` row nobody taps and
every viewer polls as fast as the concurrency lets it: each answer is an empty 204.
"""

from __future__ import annotations

import asyncio
import itertools
import re

VERSION = re.compile(r'data-version="(\d+)"')
UNDO = re.compile(r'name="event" value="(\d+)"')
WHOLE_BOARD = 'id="play-log"'  # the log's own list: only the whole board has it


def poll_label(asked: int, reply) -> tuple[str, int | None]:
    """What a poll's answer carried, and the version it brings (None: the one asked)."""
    if reply.status == 204:
        return "idle", None
    found = VERSION.findall(reply.text)
    version = int(found[-1]) if found else None
    if WHOLE_BOARD in reply.text:
        return "whole board", version
    if version is None:
        return "no version", None
    return ("1 change" if version - asked == 1 else "2+ changes"), version


async def shown_version(window, user: str, path: str) -> int:
    """The version the live page shows when it opens: the whole board, before the row is
    measured (the window's warm-up)."""
    reply = await window.send({"user": user, "method": "GET", "path": f"{path}?v="},
                              count=False)  # fmt: skip
    found = VERSION.findall(reply.text) if reply is not None else []
    return int(found[-1]) if found else 0


async def viewer(polls, user: str, path: str, interval: float) -> None:
    version = await shown_version(polls, user, path)
    while not polls.over():
        step = {"user": user, "method": "GET", "path": f"{path}?v={version}", "htmx": True,
                "expect": (200, 204)}  # fmt: skip
        reply = await polls.send(step, leg=lambda r, asked=version: poll_label(asked, r)[0])
        if reply is not None:
            version = poll_label(version, reply)[1] or version
        if interval:
            await asyncio.sleep(interval)


async def tapper(window, tapper: dict, move: str, pause: float) -> None:
    """One player: each of his warriors in turn knocked down, then undone."""
    user = tapper["username"]
    for fighter in itertools.cycle(tapper["fighters"]):
        if window.over():
            return
        tap = {"user": user, "method": "POST", "path": move, "label": "tap", "htmx": True,
               "form": {"action": "state", "fighter": fighter, "state": "knocked_down",
                        "form_token": "{token}"}}  # fmt: skip
        reply = await window.send(tap)
        event = UNDO.search(reply.text) if reply is not None and reply.status == 200 else None
        if pause:
            await asyncio.sleep(pause)
        if event is None:
            window.notes["taps without an undo"] += 1
            continue
        undo = {"user": user, "method": "POST", "path": move, "label": "undo", "htmx": True,
                "form": {"action": "undo", "event": event[1], "form_token": "{token}"}}  # fmt: skip
        await window.send(undo)
        window.notes["taps undone"] += 1
        if pause:
            await asyncio.sleep(pause)


async def run_helper(window, row: dict, concurrency: int) -> None:
    """The row's scene; the polls of a scene with tappers are counted in a window of their
    own (``window.beside``), reported as the row ``row["polls"]["name"]``."""
    battle = row["battle_id"]
    path, move = f"/battles/{battle}/play/board/", f"/battles/{battle}/play/move/"
    tappers = row.get("tappers", [])
    polls = window.beside(row["polls"]["name"]) if tappers else window
    viewers = row["viewers"] if tappers else list(itertools.islice(
        itertools.cycle(row["viewers"]), concurrency))  # fmt: skip
    interval = row.get("interval", 1.0) if tappers else 0.0
    await asyncio.gather(
        *(viewer(polls, user, path, interval) for user in viewers),
        *(tapper(window, t, move, row.get("pause", 1.0)) for t in tappers),
    )
