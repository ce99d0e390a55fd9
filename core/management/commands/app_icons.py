"""Draws the installed app's icons (static/icons/*.png) from static/favicon.svg.

The PNGs are committed; run this again only when the favicon changes. Chromium draws them (the
browser tests' own, launched by path like tests/browser/conftest.py), so no image library is
needed. The maskable icon puts the star inside the middle 80 % on a full square of the
favicon's own dark, since a phone may cut it to any shape within that safe zone.
"""

from __future__ import annotations

import os
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

# name: (size, maskable)
ICONS = {
    "icon-192.png": (192, False),
    "icon-512.png": (512, False),
    "maskable-512.png": (512, True),
}
MASK_BACKGROUND = "#1b1b1b"  # the favicon's disc


def page_for(svg: str, size: int, maskable: bool) -> str:
    inner = int(size * 0.8) if maskable else size
    background = MASK_BACKGROUND if maskable else "transparent"
    return (
        "<!doctype html><html><body style='margin:0;background:transparent'>"
        f"<div style='width:{size}px;height:{size}px;display:grid;place-items:center;"
        f"background:{background}'>"
        f"<div style='width:{inner}px;height:{inner}px'>{svg}</div></div></body></html>"
    ).replace("<svg ", "<svg width='100%' height='100%' ", 1)


class Command(BaseCommand):
    help = "Draws static/icons/*.png from static/favicon.svg with Chromium."

    def handle(self, *args, **options) -> None:
        # Playwright is a development dependency: a server without it never runs this.
        from playwright.sync_api import sync_playwright  # noqa: PLC0415

        static = Path(settings.BASE_DIR) / "static"
        svg = (static / "favicon.svg").read_text()
        target = static / "icons"
        target.mkdir(exist_ok=True)
        chromium = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            for name, (size, maskable) in ICONS.items():
                page = browser.new_page(viewport={"width": size, "height": size})
                page.set_content(page_for(svg, size, maskable))
                page.screenshot(path=str(target / name), omit_background=True)
                page.close()
                self.stdout.write(f"static/icons/{name}: {size}×{size}")
            browser.close()
