"""Browser-test plumbing shared by the browser test modules: a served database and a chromium page."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.conftest import ROOT

SHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}


@contextmanager
def launched(extra_args: tuple[str, ...] = ()) -> Iterator[Any]:
    """Debian's chromium driven by playwright (screenshots go to ``SHOTS``)."""
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), "Debian's chromium is installed by the README's test command"
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[*ARGS, *extra_args])
        try:
            yield browser
        finally:
            browser.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(db_path: Path, workers: int = 2, extra: tuple[str, ...] = (), timeout: float = 60.0) -> Iterator[str]:
    """`judgekb serve` on a free loopback port for ``db_path``; yields the base URL, stops it after.

    ``timeout`` bounds the start (serve may render the offline bundle before it listens; each worker loads its
    lookup index before it answers, 1-2 s on a quiet machine and 15 s seen with both cores busy under
    ``pytest -n 2``).
    """
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "judgekb", "serve", "--port", str(port), "--workers", str(workers), *extra],
        cwd=ROOT,
        env=dict(os.environ, JUDGEKB_DB=str(db_path)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                urllib.request.urlopen(base + "/", timeout=1)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    proc.kill()
                    raise RuntimeError("judgekb serve did not start: " + proc.stderr.read().decode()[-2000:]) from None
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def new_page(browser, size: str, **context: Any) -> tuple[Any, Any]:
    """A browser context at the phone or desktop width (``WIDTHS``) and a page in it."""
    width, height = WIDTHS[size]
    opened = browser.new_context(viewport={"width": width, "height": height}, **context)
    return opened, opened.new_page()


def search_drawn(page, base: str, query: str, drawn: str, edition: int = 2) -> None:
    """Search on the page, its results drawn as ``drawn`` says: "typed" (the page's own script draws them as the judge
    types) or "loaded" (the server draws them, as a link or a page without script gets them)."""
    if drawn == "loaded":
        page.goto(f"{base}/?edition={edition}&q=" + query.replace(" ", "+"))
    else:
        page.goto(f"{base}/?edition={edition}")
        page.fill("#q", query)


def no_horizontal_scroll(page) -> None:
    width = page.evaluate("document.documentElement.clientWidth")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"page scrolls horizontally: {scroll} > {width}"


def open_card_page(page, base: str, name: str, edition: str) -> None:
    """Type a card's name into the Cards page's form, as a judge does, and wait for the card."""
    page.goto(base + "/card")
    page.fill("#name", name)
    page.select_option("#card-edition", edition)
    page.click("#card-form button")
    page.wait_for_selector("article.card h1")
