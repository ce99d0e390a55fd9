"""The race harness: a value-moving POST fired by several clients at once, each request with
its own fresh one-time form token, as separate browser tabs or a small script would send it.

A race (``Race``) names the endpoint it covers (a URL name, or ``sequence_act:<step>:<action>``
for one action of the post-battle sequence), builds the state the post needs and says how many
of the posts may apply. ``fire`` releases the posts together (a barrier) from threads with
their own database connections, so their transactions really overlap on PostgreSQL; then the
test checks that none answered 500, that exactly the allowed number applied and that the
conservation audit still agrees.

A pair (``Pair``) is two different posts on the same objects, fired together: the owner's
undo of a step and the captor's sale of the hero it took captive, a move on the treasury page
and step 9's move of the same gold. Its setup gives the two shots (``Clash``), each counting
whether it applied (0 or 1), and the pair says which outcomes are allowed: one of them, or
both in some order. The test also checks that a post which answered with success did apply
and one refused did not, the pair's own invariants, and the conservation audit.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import connection
from django.test import Client
from django.urls import URLPattern, get_resolver

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
#: Apps whose endpoints the harness answers for: every app of ours but core (sign-up, log-in
#: and the health checks move nothing).
RACED_APPS = ("campaign", "warbands", "battles", "league")


def endpoints() -> set[str]:
    """The URL names of the raced apps' endpoints."""
    names = set()
    for pattern in get_resolver().url_patterns:
        for inner in getattr(pattern, "url_patterns", [pattern]):
            if isinstance(inner, URLPattern) and inner.callback.__module__.split(".")[0] in (
                RACED_APPS
            ):
                names.add(inner.name)
    return names


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


# --- Pairs: two different posts on the same objects -------------------------------------------

#: One of the two applies, never both (the other is refused).
ONE = frozenset({(1, 0), (0, 1)})
#: The first applies; the second is refused, or applies after it.
FIRST_THEN_MAYBE_SECOND = frozenset({(1, 0), (1, 1)})


@dataclass
class Clash:
    """A pair's two posts, set up on the same objects. ``problems``: what must hold whatever
    the order (the hero is not both sold and home), as a list of what does not."""

    first: Shot
    second: Shot
    problems: Callable[[], list[str]] = list


@dataclass(frozen=True)
class Pair:
    name: str
    setup: Callable[[], Clash]
    allowed: frozenset[tuple[int, int]]
    note: str = ""
    #: Fresh setups fired in turn: more for a pair whose window is narrow.
    trials: int = 1

    @property
    def endpoints(self) -> tuple[str, str]:
        first, second = self.name.split(" × ")
        return first.split(":")[0], second.split(":")[0]


PAIRS: dict[str, Pair] = {}


def pair(first: str, second: str, *, allowed=ONE, note: str = "", trials: int = 1):
    """Register the decorated setup as the pair of ``first`` and ``second`` (URL names, with a
    ``:variant`` when one pair of endpoints is raced on different objects)."""

    def register(setup: Callable[[], Clash]) -> Callable[[], Clash]:
        name = f"{first} × {second}"
        assert name not in PAIRS, f"two pairs named {name}"
        PAIRS[name] = Pair(name, setup, frozenset(allowed), note, trials)
        return setup

    return register


@dataclass
class Outcome:
    statuses: tuple[int, int]
    applied: tuple[int, int]
    problems: list[str]


def fire_pair(clash: Clash) -> Outcome:
    """Fire the clash's two posts at once, each with a fresh form token."""
    (first,), (second,) = fire_together((clash.first, 1), (clash.second, 1))
    return Outcome(
        statuses=(first, second),
        applied=(clash.first.applied(), clash.second.applied()),
        problems=clash.problems(),
    )
