"""The benchmark's own pages (included only with ``MORDHEIM_BENCH=1``)."""

urlpatterns: list = []
