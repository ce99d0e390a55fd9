"""Walk the URLconf and produce one concrete path per pattern (for policy tests)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern

# Sample values tried for a pattern's arguments, in order, until the path resolves.
SAMPLES = ("1", "campaign", "x")


@dataclass(frozen=True)
class Route:
    name: str  # namespace:name, or the pattern's text when it has no name
    path: str
    view: object


def iter_routes() -> Iterator[Route]:
    yield from _walk(get_resolver().url_patterns, prefix="", namespace="")


def _walk(patterns, *, prefix: str, namespace: str) -> Iterator[Route]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            child_namespace = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _walk(
                entry.url_patterns,
                prefix=prefix + _sample(entry.pattern),
                namespace=child_namespace,
            )
        elif isinstance(entry, URLPattern):
            name = f"{namespace}{entry.name}" if entry.name else f"{namespace}{entry.pattern}"
            yield Route(name=name, path="/" + prefix + _sample(entry.pattern), view=entry.callback)


def _sample(pattern) -> str:
    if isinstance(pattern, RoutePattern):
        return re.sub(r"<(?:\w+:)?\w+>", SAMPLES[0], str(pattern))
    if isinstance(pattern, RegexPattern):
        regex = str(pattern).lstrip("^").rstrip("$").replace("\\Z", "")

        def group(match: re.Match) -> str:
            body = match.group(2)
            alternatives = body.split("|") if re.fullmatch(r"[\w|]+", body) else []
            return alternatives[0] if alternatives else SAMPLES[0]

        return re.sub(r"\(\?P<(\w+)>([^)]*)\)", group, regex)
    raise TypeError(f"unknown pattern type {pattern!r}")
