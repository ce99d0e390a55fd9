"""The installed app's part of the URL matrix (``tests/test_url_matrix.py``): its manifest,
its service worker and the page that worker shows offline, the same for everybody (they show
nobody's data, so need no log-in) and read-only."""

MATRIX = {
    "manifest": ("OOOOO", "MMMMM"),
    "service_worker": ("OOOOO", "MMMMM"),
    "offline": ("OOOOO", "MMMMM"),
}
