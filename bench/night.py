"""The league night: what one player does in the app, over and over (bench/load.py runs all
the players at once, at the plan's concurrency).

One pass: the dashboard, the warband's roster, then the next of the player's post-battle
sequences still waiting (bench/generate.py leaves some open at step 1 for every player): the
sequence page, every injury roll with the dice typed in as they fell on the table (as many
as its form asks for), step 1 finished, the experience awarded, each advance that brings
rolled (the server's dice) and its question answered with the first choice, step 2 finished;
then the treasury page, 1 gc moved to another container and back, and the campaign page. A
player whose sequences are all played goes on without that part (the row's notes say how
many were played).

Every form is filled in from the page the server sent, as a browser would: the task forms,
their questions and the step in their hidden field.
"""

from __future__ import annotations

import re

TASK_FORM = re.compile(
    r'<form[^>]*hx-post="(/sequences/\d+/tasks/\d+/)"[^>]*>(.*?)</form>', re.DOTALL
)
COMPLETE_FORM = re.compile(r'<form[^>]*hx-post="(/sequences/\d+/complete/)"[^>]*>(.*?)</form>',
                           re.DOTALL)  # fmt: skip
STEP = re.compile(r'name="step" value="(\d+)"')
ANSWER = re.compile(r'name="answer" value="([^"]*)"')
DICE = re.compile(r'name="dice"[^>]*data-dice="(\d+)"')  # how many dice the field takes
MOST_ADVANCES = 12  # rolls and answers in step 2 before the pass gives up on it


def task_forms(html: str) -> list[tuple[str, str, str | None, int]]:
    """The open task forms of a step panel: (url, step, first answer or None, how many dice
    its field takes: 0 without one)."""
    found = []
    for url, inner in TASK_FORM.findall(html):
        step = STEP.search(inner)
        answer = ANSWER.search(inner)
        dice = DICE.search(inner)
        found.append((url, step[1] if step else "", answer[1] if answer else None,
                      int(dice[1]) if dice else 0))  # fmt: skip
    return found


def tasks(html: str) -> list[tuple[str, str, str | None]]:
    """The open task forms of a step panel: (url, step, first answer or None)."""
    return [(url, step, answer) for url, step, answer, _ in task_forms(html)]


def completion(html: str) -> tuple[str, str, bool] | None:
    """The step panel's "continue" form: (url, step, needs the notes box), or None when the
    panel has none or its button is disabled (something is still to be done)."""
    match = COMPLETE_FORM.search(html)
    if match is None or "disabled" in match[2]:
        return None
    step = STEP.search(match[2])
    return match[1], step[1] if step else "", 'name="notes_confirmed"' in match[2]


def _post(user: str, path: str, label: str, form: dict) -> dict:
    return {"user": user, "method": "POST", "path": path, "label": label, "htmx": True,
            "form": {**form, "form_token": "{token}"}}  # fmt: skip


def _get(user: str, path: str, label: str) -> dict:
    return {"user": user, "method": "GET", "path": path, "label": label}


async def play(window, user: str, sequence: int, face: str) -> bool:
    """Steps 1 and 2 of one sequence, from its page; True when both were finished. Every die
    typed for an injury shows ``face``, as many as the task's form takes."""
    page = await window.send(_get(user, f"/sequences/{sequence}/", "sequence page"))
    if page is None or page.status != 200:
        return False
    panel = page.text
    for url, step, _, count in task_forms(panel):
        if window.over():
            return False
        dice = " ".join([face] * count)
        reply = await window.send(_post(user, url, "injury roll", {"dice": dice, "step": step}))
        if reply is not None and reply.status == 200:
            panel = reply.text
    done = completion(panel)
    if done is None or window.over():
        return False
    reply = await window.send(_post(user, done[0], "complete step", {"step": done[1]}))
    if reply is None or reply.status != 200:
        return False
    reply = await window.send(
        _post(user, f"/sequences/{sequence}/act/", "award experience",
              {"step": "2", "action": "award"})
    )  # fmt: skip
    if reply is None or reply.status != 200:
        return False
    panel = reply.text
    for _ in range(MOST_ADVANCES):
        waiting = tasks(panel)
        if not waiting or window.over():
            break
        url, step, answer = waiting[0]
        form = {"step": step} if answer is None else {"step": step, "answer": answer}
        reply = await window.send(_post(user, url, "advance roll", form))
        if reply is None or reply.status != 200:
            return False
        panel = reply.text
    if tasks(panel) or window.over():
        return False
    done = completion(panel)  # in the step's body, which every answer here carries
    if done is None:
        return False
    form = {"step": done[1], **({"notes_confirmed": "1"} if done[2] else {})}
    reply = await window.send(_post(user, done[0], "complete step", form))
    return reply is not None and reply.status == 200


async def session(window, player: dict, row: dict, start: int = 0) -> None:
    """``player``: ``username``, ``warband_id``, ``move`` (two of its containers) and
    ``night`` (its sequences waiting at step 1); ``row``: ``campaign_id`` and ``face`` (of
    every die typed for an injury).
    ``start``: the part of the pass to begin with, so that the players, who all log in
    together, do not all ask for the same pages at the same time."""
    user, warband = player["username"], player["warband_id"]
    source, target = player["move"]
    waiting = list(player.get("night", []))
    moves = [
        _post(user, f"/warbands/{warband}/treasury/move/", "treasury move",
              {"source": a, "target": b, "gold": "1", "wyrdstone": "0"})
        for a, b in ((source, target), (target, source))
    ]  # fmt: skip

    async def home() -> None:
        await window.send(_get(user, "/", "dashboard"))
        await window.send(_get(user, f"/warbands/{warband}/", "roster"))

    async def sequence() -> None:
        if waiting:
            played = await play(window, user, waiting.pop(0), row["face"])
            window.notes["sequences played (steps 1-2)" if played else "sequences left midway"] += 1

    async def treasury() -> None:
        await window.send(_get(user, f"/warbands/{warband}/treasury/", "treasury"))
        if not window.over():
            for step in moves:  # there and back, both or neither
                await window.send(step)

    async def table() -> None:
        await window.send(_get(user, f"/campaigns/{row['campaign_id']}/", "campaign page"))

    parts = (home, sequence, treasury, table)
    part = start % len(parts)
    while not window.over():
        await parts[part]()
        part = (part + 1) % len(parts)
        if part == 0 and not window.over():
            window.notes["passes"] += 1
