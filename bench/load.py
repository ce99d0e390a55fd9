"""A small HTTP/1.1 load generator for the benchmark: hand-written asyncio, standard library only.

Why not wrk, locust or aiohttp:
- no extra dependency to install, pin or audit; this file runs on any Python 3.11;
- the server's ceiling (``/healthz``) and every page and write are measured by the same code in
  the same way, so their numbers compare directly;
- gunicorn's sync workers close the connection after every response anyway, so keep-alive and
  pipelining (what the bigger tools are good at) would not be used. Each request opens a fresh
  TCP connection and sends ``Connection: close``.

The plan (a JSON list of rows, written by bench/plan.py) is run row after row, each for a
warm-up and then a measured window, at a fixed concurrency: at most that many requests are in
flight at once, whatever the number of players. Every player of the plan is logged in first,
each with a session of its own. A row is one of:

- ``loop``: each worker repeats a script of requests (``scripts[k]`` for the k-th worker), as
  the user the script names; a value captured from one answer (a new container's id) can go
  into the next request. A worker that started a pass before the window closed finishes it
  unmeasured, so a write and its return leg (move there and back, buy and sell) always both
  happen and the league is left as it was.
- ``pool``: the workers take requests from one shared list, each at most once (rolls of
  pending tasks); when the list runs out before the window closes, the row is measured until
  then and says so (``notes``).
- ``night``: every player runs bench/night.py's session over and over, all at once.

Latency is taken from before the connect to after the last byte of the response, after the
request got its place among the concurrent ones (waiting for a place is not latency).
Requests started inside the window are counted; rps divides them by the time until the last of
them finished. Percentiles use the nearest-rank method (``percentile``).

Run it as a separate process from the server (``bench/run.py`` does)::

    python -m bench.load --port 8765 --plan plan.json --concurrency 4 --duration 10 \\
        --out results.json --password P
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import re
import statistics
import time
import uuid
from collections import Counter, deque
from dataclasses import dataclass, field
from urllib.parse import urlencode

from bench import night, viewers

REQUEST_TIMEOUT = 30.0  # seconds; a request taking longer counts as an error
LOGIN_PATH = "/accounts/login/"
FORM = "application/x-www-form-urlencoded"
PLACEHOLDER = re.compile(r"\{(\w+)\}")
FAILURES = (OSError, EOFError, ValueError, IndexError, asyncio.LimitOverrunError, TimeoutError)


@dataclass
class Session:
    username: str
    cookies: dict[str, str]  # sessionid and csrftoken
    csrf: str  # sent as X-CSRFToken on POSTs


@dataclass
class Response:
    status: int
    headers: list[tuple[str, str]]  # lower-cased names, in order (Set-Cookie may repeat)
    body: bytes

    def header(self, name: str) -> str | None:
        return next((v for n, v in self.headers if n == name), None)

    def cookies(self) -> dict[str, str]:
        pairs = (v.split(";", 1)[0].partition("=") for n, v in self.headers if n == "set-cookie")
        return {k.strip(): v.strip() for k, _, v in pairs}

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


def build_request(
    host: str, port: int, method: str, path: str, headers: dict[str, str], body: bytes = b""
) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}:{port}", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    if method == "POST" or body:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


async def fetch(host: str, port: int, request: bytes) -> Response:
    """One request on a fresh connection; the body is read by Content-Length, else until EOF."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(request)
        await writer.drain()
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        status_line, *lines = head.split("\r\n")[:-2]
        status = int(status_line.split()[1])
        headers = [(n.strip().lower(), v.strip()) for n, _, v in (x.partition(":") for x in lines)]
        length = next((v for n, v in headers if n == "content-length"), None)
        body = await reader.readexactly(int(length)) if length is not None else await reader.read()
        return Response(status, headers, body)
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()


def fill(value: str, variables: dict[str, str]) -> str:
    """``{token}`` becomes a fresh uuid4 (every form's one-time token), ``{name}`` a value
    captured earlier in the script; other text stays."""

    def one(match: re.Match) -> str:
        name = match[1]
        if name == "token":
            return str(uuid.uuid4())
        return variables.get(name, match[0])

    return PLACEHOLDER.sub(one, value)


def request_bytes(
    host: str, port: int, step: dict, session: Session | None, variables: dict[str, str]
) -> bytes:
    """The bytes of one scripted request: ``step`` has ``method``, ``path``, and optionally
    ``form`` (POST fields), ``htmx`` (sends ``HX-Request: true``) and ``headers``."""
    method, path = step.get("method", "GET"), fill(step["path"], variables)
    headers = {}
    if session:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in session.cookies.items())
    if step.get("htmx"):
        headers["HX-Request"] = "true"
    headers.update(step.get("headers", {}))
    body = b""
    if method == "POST":
        form = {k: fill(str(v), variables) for k, v in step.get("form", {}).items()}
        body = urlencode(form).encode()
        headers["Content-Type"] = FORM
        headers["Referer"] = f"http://{host}:{port}{path}"
        if session:
            headers["X-CSRFToken"] = session.csrf
    return build_request(host, port, method, path, headers, body)


async def login(host: str, port: int, username: str, password: str) -> Session:
    page = await fetch(host, port, build_request(host, port, "GET", LOGIN_PATH, {}))
    csrf = page.cookies().get("csrftoken")
    hidden = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page.body)
    if page.status != 200 or not csrf or not hidden:
        raise RuntimeError(
            f"login: GET {LOGIN_PATH} returned {page.status} without a csrftoken cookie "
            "and a csrfmiddlewaretoken input (SECURE_COOKIES=0 needed on plain http?)"
        )
    form = {"username": username, "password": password, "csrfmiddlewaretoken": hidden[1].decode()}
    headers = {
        "Cookie": f"csrftoken={csrf}",
        "Referer": f"http://{host}:{port}{LOGIN_PATH}",
        "Content-Type": FORM,
    }
    request = build_request(host, port, "POST", LOGIN_PATH, headers, urlencode(form).encode())
    reply = await fetch(host, port, request)
    cookies = {"csrftoken": csrf, **reply.cookies()}
    if reply.status != 302 or not cookies.get("sessionid"):
        raise RuntimeError(
            f"login as {username!r} failed: POST {LOGIN_PATH} returned {reply.status}, expected "
            "302 with a sessionid cookie (wrong password, or locked out by django-axes?)"
        )
    cookies = {"sessionid": cookies["sessionid"], "csrftoken": cookies["csrftoken"]}
    return Session(username, cookies, cookies["csrftoken"])


def percentile(values: list[float], p: float) -> float | None:
    """Nearest rank: the value at index ``ceil(p / 100 * n) - 1`` of the sorted values, always
    one that was actually observed; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


@dataclass
class Tally:
    """What the requests of one kind (a row, or one leg of it) came back with."""

    latencies: list[float] = field(default_factory=list)  # seconds
    statuses: Counter = field(default_factory=Counter)
    exceptions: Counter = field(default_factory=Counter)
    queries: list[int] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    bad: int = 0  # answered with a status the request did not expect

    def add(self, seconds: float, reply: Response, expect) -> None:
        self.latencies.append(seconds)
        self.statuses[reply.status] += 1
        self.sizes.append(len(reply.body))
        self.bad += reply.status not in expect
        if (count := reply.header("x-queries")) is not None:
            self.queries.append(int(count))

    def summary(self, elapsed: float) -> dict:
        ms = [x * 1000 for x in self.latencies]
        n = len(ms)

        def rounded(value):
            return None if value is None else round(value, 2)

        return {
            "requests": n,
            "rps": round(n / elapsed, 1) if n and elapsed > 0 else 0.0,
            "p50_ms": rounded(percentile(ms, 50)),
            "p95_ms": rounded(percentile(ms, 95)),
            "p99_ms": rounded(percentile(ms, 99)),
            "mean_ms": round(statistics.fmean(ms), 2) if n else None,
            "errors": self.bad + sum(self.exceptions.values()),
            "statuses": {str(k): v for k, v in sorted(self.statuses.items())},
            "exceptions": dict(self.exceptions),
            "queries": statistics.median_low(self.queries) if self.queries else None,
            "queries_max": max(self.queries) if self.queries else None,
            "bytes": statistics.median_low(self.sizes) if self.sizes else None,
            "bytes_max": max(self.sizes) if self.sizes else None,
        }


class Window:
    """One row's measurement: a warm-up, then ``duration`` seconds counted; at most
    ``concurrency`` requests in flight (a semaphore shared by every worker or player)."""

    def __init__(self, host, port, sessions, *, concurrency, duration, warmup) -> None:
        self.host, self.port, self.sessions = host, port, sessions
        self.permits = asyncio.Semaphore(concurrency)
        self.start = time.perf_counter() + warmup
        self.end = self.start + duration
        self.total = Tally()
        self.legs: dict[str, Tally] = {}
        self.last_done = self.start
        self.notes: Counter = Counter()  # what the scripts report (passes, sequences played)
        self.besides: list[tuple[str, Window]] = []

    def over(self) -> bool:
        return time.perf_counter() >= self.end

    async def send(
        self, step: dict, variables: dict | None = None, *, leg=None, count: bool = True
    ) -> Response | None:
        """Send one scripted request as ``step["user"]`` (None: anonymous) and count it under
        the row and under ``step["label"]`` (or the label ``leg`` gives its answer), if it
        started inside the window (and ``count``)."""
        session = self.sessions.get(step.get("user")) if step.get("user") else None
        request = request_bytes(self.host, self.port, step, session, variables or {})
        expect = tuple(step.get("expect", (200,)))
        async with self.permits:
            t0 = time.perf_counter()
            counted = count and self.start <= t0 < self.end
            try:
                answer = fetch(self.host, self.port, request)
                reply = await asyncio.wait_for(answer, REQUEST_TIMEOUT)
            except FAILURES as exc:
                if counted:
                    for tally in (self.total, self.leg(step)):
                        tally.exceptions[type(exc).__name__] += 1
                return None
            t1 = time.perf_counter()
        if counted:
            self.last_done = max(self.last_done, t1)
            named = self.legs.setdefault(leg(reply), Tally()) if leg else self.leg(step)
            for tally in (self.total, named):
                tally.add(t1 - t0, reply, expect)
        return reply

    def beside(self, name: str) -> Window:
        """A window measured at the same time as this one, reported as the row ``name``
        after it (the polls of the helper's scene, beside its taps)."""
        other = Window(self.host, self.port, self.sessions, concurrency=1000, duration=0,
                       warmup=0)  # fmt: skip
        other.start, other.end, other.last_done = self.start, self.end, self.start
        self.besides.append((name, other))
        return other

    def leg(self, step: dict) -> Tally:
        return self.legs.setdefault(step.get("label") or step["path"], Tally())

    def result(self) -> dict:
        elapsed = self.last_done - self.start
        legs = {name: tally.summary(elapsed) for name, tally in self.legs.items()}
        return {**self.total.summary(elapsed), "legs": legs, "notes": dict(self.notes)}


def capture(step: dict, reply: Response | None, variables: dict[str, str]) -> bool:
    """Keep what ``step["capture"]`` asks for from the answer, in order: each a ``name``, a
    ``pattern`` (in which ``{name}`` is a value kept before it) and ``pick``: ``max``, the
    largest number found (the newest row), or ``first``. False when the answer has none of
    one, which ends the pass."""
    wanted = step.get("capture", [])
    if reply is None:
        return False
    if not wanted:
        return True
    if reply.status not in tuple(step.get("expect", (200,))):
        return False  # a refused buy: the newest container on the page is not the one bought
    for one in wanted:
        found = re.findall(fill(one["pattern"], variables), reply.text)
        if not found:
            return False
        pick = one.get("pick", "max")
        variables[one["name"]] = str(max(int(x) for x in found)) if pick == "max" else found[0]
    return True


async def run_loop(window: Window, row: dict, concurrency: int) -> None:
    scripts = row["scripts"]

    async def worker(k: int) -> None:
        script = scripts[k % len(scripts)]
        while not window.over():
            variables: dict[str, str] = {}
            for step in script:
                if not capture(step, await window.send(step, variables), variables):
                    window.notes["passes cut short"] += 1
                    break
            window.notes["passes"] += 1

    await asyncio.gather(*(worker(k) for k in range(concurrency)))


async def run_pool(window: Window, row: dict, concurrency: int) -> None:
    steps = deque(row["steps"])

    async def worker() -> None:
        while not window.over():
            if not steps:
                window.notes["ran out"] = 1  # measured until then: rps counts to the last
                return
            await window.send(steps.popleft())

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    window.notes["left"] = len(steps)


async def run_night(window: Window, row: dict, concurrency: int) -> None:
    players = row["players"]
    await asyncio.gather(*(night.session(window, p, row, n) for n, p in enumerate(players)))


RUNNERS = {"loop": run_loop, "pool": run_pool, "night": run_night, "helper": viewers.run_helper}


async def run_plan(args, plan: list[dict]) -> list[dict]:
    users = sorted({user for row in plan for user in users_of(row)})
    sessions: dict[str, Session] = {}
    places = asyncio.Semaphore(2)  # a password check is slow on purpose: two at a time

    async def one(username: str) -> None:
        async with places:
            sessions[username] = await login(args.host, args.port, username, args.password)

    await asyncio.gather(*(one(u) for u in users))
    results = []
    for row in plan:
        window = Window(
            args.host, args.port, sessions,
            concurrency=row.get("concurrency", args.concurrency),
            duration=row.get("duration", args.duration),
            warmup=args.warmup,
        )  # fmt: skip
        await RUNNERS[row.get("run", "loop")](window, row, args.concurrency)
        for name, measured in [(row["name"], window), *window.besides]:
            result = {"name": name, **measured.result()}
            results.append(result)
            print(
                f"{result['name']:<32} {result['requests']:>6} req {result['rps']:>7.1f} rps"
                f"  p50 {result['p50_ms']} ms  p95 {result['p95_ms']} ms  errors "
                f"{result['errors']}  queries {result['queries']} (max {result['queries_max']})",
                flush=True,
            )
    return results


def users_of(row: dict) -> set[str]:
    steps = [*row.get("steps", []), *(s for script in row.get("scripts", []) for s in script)]
    return (
        {s["user"] for s in steps if s.get("user")}
        | {p["username"] for p in row.get("players", [])}
        | set(row.get("viewers", []))
        | {t["username"] for t in row.get("tappers", [])}
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--plan", required=True, help="JSON list of rows (bench/plan.py)")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=1.0)
    parser.add_argument("--out", required=True, help="where to write the JSON list of results")
    parser.add_argument("--password", default="")
    args = parser.parse_args()
    with open(args.plan) as f:
        plan = json.load(f)
    results = asyncio.run(run_plan(args, plan))
    with open(args.out, "w") as f:
        json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
