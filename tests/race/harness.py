"""The race harness: a value-moving POST fired by several clients at once, each request with
its own fresh one-time form token, as separate browser tabs or a small script would send it.

A race (``Race``) names the endpoint it covers (a URL name, or ``sequence_act:<step>:<action>``
for one action of the post-battle sequence), builds the state the post needs and says how many
of the posts may apply. ``fire`` releases the posts together (a barrier) from threads with
their own database connections, so their transactions really overlap on PostgreSQL; then the
test checks that none answered 500, that exactly the allowed number applied and that the
conservation audit still agrees.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import connection
from django.test import Client

#: Posts fired at once in every race.
POSTS = 4


@dataclass
class Shot:
    """One race's posts: who sends them, where, with what; how to count what applied."""

    user: object
    url: str
    data: dict
    applied: Callable[[], int]
    #: How many of the posts may apply: 1 for a one-time act (selling a container), more for
    #: acts a player may repeat as long as the treasury allows (buying a dagger).
    allowed: int = 1
    htmx: bool = True


@dataclass(frozen=True)
class Race:
    endpoint: str
    setup: Callable[[], Shot]
    note: str = ""


@dataclass
class Volley:
    statuses: list[int] = field(default_factory=list)
    applied: int = 0

    @property
    def refused(self) -> int:
        return sum(1 for status in self.statuses if status >= 400)


RACES: dict[str, Race] = {}


def race(endpoint: str, note: str = ""):
    """Register the decorated setup as the race of ``endpoint``."""

    def register(setup: Callable[[], Shot]) -> Callable[[], Shot]:
        assert endpoint not in RACES, f"two races for {endpoint}"
        RACES[endpoint] = Race(endpoint, setup, note)
        return setup

    return register


def fire(shot: Shot, posts: int = POSTS) -> Volley:
    """Send ``posts`` copies of the shot's post at once, each with a fresh form token."""
    (statuses,) = fire_together((shot, posts))
    return Volley(statuses=statuses, applied=shot.applied())


def fire_together(*volleys: tuple[Shot, int]) -> list[list[int]]:
    """Send several shots' posts at once (``(shot, how many)`` each), every post with a fresh
    form token; the statuses, shot by shot."""
    posts = [(shot, index) for index, (shot, count) in enumerate(volleys) for _ in range(count)]
    clients = []
    for shot, _ in posts:
        client = Client(raise_request_exception=False)
        client.force_login(shot.user)
        clients.append(client)
    barrier = threading.Barrier(len(posts))
    statuses = [0] * len(posts)

    def post(index: int) -> None:
        shot = posts[index][0]
        headers = {"HX-Request": "true"} if shot.htmx else {}
        try:
            data = {**shot.data, "form_token": str(uuid.uuid4())}
            barrier.wait()
            statuses[index] = clients[index].post(shot.url, data, headers=headers).status_code
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(i,)) for i in range(len(posts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    # A post still running would keep its connection to the test database past the test.
    assert not any(thread.is_alive() for thread in threads), "a post did not answer in 60 s"
    assert all(statuses), f"a post raised instead of answering: {statuses}"
    return [
        [status for status, (_, volley) in zip(statuses, posts, strict=True) if volley == index]
        for index in range(len(volleys))
    ]
