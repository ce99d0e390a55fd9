"""A small HTTP/1.1 load generator for the benchmark: hand-written asyncio, standard library only.

Why not wrk, locust or aiohttp:
- no extra dependency to install, pin or audit; this file runs on any Python 3.11;
- the server's ceiling (``/healthz``) and every page are measured by the same code in the same
  way, so their numbers compare directly;
- gunicorn's sync workers close the connection after every response anyway, so keep-alive and
  pipelining (what the bigger tools are good at) would not be used. Each request opens a fresh
  TCP connection and sends ``Connection: close``.

Latency is taken from before the connect to after the last byte of the response. Percentiles use
the nearest-rank method on the sorted latencies: the p-th percentile is the value at index
``ceil(p / 100 * n) - 1``, always a latency that was actually observed.

Run it as a separate process from the server (``bench/run.py`` does)::

    python bench/load.py --host 127.0.0.1 --port 8000 --targets targets.json \\
        --concurrency 8 --duration 10 --out results.json [--username U --password P]
"""

import argparse
import asyncio
import contextlib
import json
import math
import re
import statistics
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlencode

REQUEST_TIMEOUT = 30.0  # seconds; a request taking longer counts as an error
LOGIN_PATH = "/accounts/login/"
FORM = "application/x-www-form-urlencoded"


@dataclass
class Target:
    name: str
    method: str  # "GET" or "POST"
    path: str
    # POST form bodies; each worker's i-th request uses bodies[i % len(bodies)]. The placeholder
    # "{token}" in a value becomes a fresh uuid4 on every request (one-time form tokens).
    bodies: list[dict[str, str]] = field(default_factory=list)
    htmx: bool = False  # send "HX-Request: true"
    headers: dict[str, str] = field(default_factory=dict)  # more request headers
    expect: tuple[int, ...] = (200,)


@dataclass
class Session:
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


def build_target_request(
    host: str, port: int, target: Target, session: Session | None, i: int
) -> bytes:
    headers = {}
    if session:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in session.cookies.items())
    if target.htmx:
        headers["HX-Request"] = "true"
    headers.update(target.headers)
    body = b""
    if target.method == "POST":
        form = target.bodies[i % len(target.bodies)] if target.bodies else {}
        body = urlencode({k: v.replace("{token}", str(uuid.uuid4())) for k, v in form.items()})
        body = body.encode()
        headers["Content-Type"] = FORM
        headers["Referer"] = f"http://{host}:{port}{target.path}"
        if session:
            headers["X-CSRFToken"] = session.csrf
    return build_request(host, port, target.method, target.path, headers, body)


def login(host: str, port: int, username: str, password: str) -> Session:
    return asyncio.run(_login(host, port, username, password))


async def _login(host: str, port: int, username: str, password: str) -> Session:
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
    return Session(cookies=cookies, csrf=cookies["csrftoken"])


def measure(
    host: str,
    port: int,
    target: Target,
    session: Session | None,
    *,
    concurrency: int,
    duration: float,
    warmup: float = 1.0,
) -> dict:
    """Load ``target`` with ``concurrency`` workers: ``warmup`` seconds discarded, then
    ``duration`` seconds measured. Requests started inside the window are counted (those still
    in flight at its end are awaited); rps divides them by the time until the last one finished.
    Latency percentiles cover every response, whatever its status; exceptions (refused or reset
    connections, timeouts, malformed responses) have no latency and count only as errors.
    """
    return asyncio.run(_measure(host, port, target, session, concurrency, duration, warmup))


async def _measure(host, port, target, session, concurrency, duration, warmup) -> dict:
    start = time.perf_counter() + warmup
    end = start + duration
    latencies: list[float] = []
    queries: list[int] = []
    statuses: Counter[int] = Counter()
    exceptions: Counter[str] = Counter()
    last_done = start

    async def worker() -> None:
        nonlocal last_done
        i = 0
        while time.perf_counter() < end:
            request = build_target_request(host, port, target, session, i)
            i += 1
            t0 = time.perf_counter()
            try:
                reply = await asyncio.wait_for(fetch(host, port, request), REQUEST_TIMEOUT)
            except (OSError, EOFError, ValueError, IndexError, asyncio.LimitOverrunError) as exc:
                if t0 >= start:
                    exceptions[type(exc).__name__] += 1
                continue
            t1 = time.perf_counter()
            if t0 < start:
                continue  # warm-up
            latencies.append(t1 - t0)
            last_done = max(last_done, t1)
            statuses[reply.status] += 1
            if (count := reply.header("x-queries")) is not None:
                queries.append(int(count))

    await asyncio.gather(*(worker() for _ in range(concurrency)))

    ms = sorted(x * 1000 for x in latencies)
    n = len(ms)

    def pct(p: float) -> float | None:  # nearest rank
        return round(ms[max(0, math.ceil(p / 100 * n) - 1)], 2) if n else None

    bad = sum(c for s, c in statuses.items() if s not in target.expect)
    return {
        "name": target.name,
        "requests": n,
        "rps": round(n / (last_done - start), 1) if n else 0.0,
        "p50_ms": pct(50),
        "p95_ms": pct(95),
        "p99_ms": pct(99),
        "mean_ms": round(statistics.fmean(ms), 2) if n else None,
        "errors": bad + sum(exceptions.values()),
        "statuses": dict(sorted(statuses.items())),
        "queries": statistics.median_low(queries) if queries else None,
        "queries_max": max(queries) if queries else None,
        "exceptions": dict(exceptions),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--targets", required=True, help="JSON list of Target dicts")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=1.0)
    parser.add_argument("--out", required=True, help="where to write the JSON list of results")
    parser.add_argument("--username")
    parser.add_argument("--password", default="")
    args = parser.parse_args()

    with open(args.targets) as f:
        targets = [Target(**{**t, "expect": tuple(t.get("expect", (200,)))}) for t in json.load(f)]
    session = login(args.host, args.port, args.username, args.password) if args.username else None
    results = []
    for target in targets:
        r = measure(
            args.host,
            args.port,
            target,
            session,
            concurrency=args.concurrency,
            duration=args.duration,
            warmup=args.warmup,
        )
        results.append(r)
        print(
            f"{r['name']:<24} {r['requests']:>7} req {r['rps']:>8.1f} rps  p50 {r['p50_ms']} ms"
            f"  p95 {r['p95_ms']} ms  p99 {r['p99_ms']} ms  errors {r['errors']}"
            f"  queries {r['queries']} (max {r['queries_max']})",
            flush=True,
        )
    with open(args.out, "w") as f:
        json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
