from django.apps import AppConfig


class BenchConfig(AppConfig):
    """The benchmark's pages and middleware, installed only with ``MORDHEIM_BENCH=1``."""

    name = "bench"
