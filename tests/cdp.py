"""A very small driver for headless Chromium over the DevTools protocol (a websocket, JSON messages).

Debian's `chromium` package is the browser; nothing is downloaded. Chosen over Playwright (a large
wheel with its own Node driver, made to fetch its own browser builds) and over `chromium
--dump-dom` (one snapshot, so it cannot watch a page change): a dozen protocol calls are all the
tests and the screenshots need. Chromium listens on 127.0.0.1 only.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import re
import shutil
import subprocess
import tempfile
import time

import httpx
import websocket

from helpers import HANG


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


class Browser:
    """One headless Chromium with one page (a tab) to drive."""

    def __init__(self, width: int = 390, height: int = 844, flags: tuple[str, ...] = (), env: dict | None = None):
        """``flags``: more of Chromium's command-line switches (``--host-resolver-rules=…``);
        ``env``: more environment variables for it (``FONTCONFIG_FILE``)."""
        exe = chromium_path()
        if exe is None:
            raise RuntimeError("chromium is not installed (apt-get install chromium)")
        self.profile = tempfile.mkdtemp(prefix="pan-chromium-")
        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
             "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--metrics-recording-only", "--hide-scrollbars",
             "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
             f"--user-data-dir={self.profile}", f"--window-size={width},{height}", *flags, "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            env={**os.environ, **env} if env else None)
        port = None
        deadline = time.monotonic() + HANG
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            m = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line)
            if m:
                port = int(m.group(1))
                break
            if not line and self.proc.poll() is not None:
                break
        if port is None:
            self.close()
            raise RuntimeError("chromium did not start its DevTools endpoint")
        pages = [t for t in httpx.get(f"http://127.0.0.1:{port}/json/list", timeout=HANG).json() if t["type"] == "page"]
        self.ws = websocket.create_connection(pages[0]["webSocketDebuggerUrl"], timeout=HANG, suppress_origin=True)
        self.ids = itertools.count(1)
        self.width, self.height = width, height
        self.call("Page.enable")
        self.call("Runtime.enable")
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=True)

    def call(self, method: str, **params):
        msg_id = next(self.ids)
        self.ws.send(json.dumps({"id": msg_id, "method": method, "params": params}))
        while True:
            reply = json.loads(self.ws.recv())
            if reply.get("id") == msg_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if reply.get("method") in self.watched:
                self.events.append(reply)

    watched: frozenset = frozenset()  # the protocol events kept for wait_event (the rest are dropped)

    def watch(self, *methods: str) -> None:
        self.watched, self.events = frozenset(methods), []

    def wait_event(self, method: str, timeout: float = HANG) -> dict:
        """The next kept event of this method (see watch), reading the socket until it comes."""
        deadline = time.monotonic() + timeout
        while True:
            for i, event in enumerate(self.events):
                if event["method"] == method:
                    return self.events.pop(i)["params"]
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {method} within {timeout} s")
            self.ws.settimeout(max(0.01, min(1.0, deadline - time.monotonic())))
            try:
                message = json.loads(self.ws.recv())
            except websocket.WebSocketTimeoutException:
                continue
            finally:
                self.ws.settimeout(HANG)
            if message.get("method") in self.watched:
                self.events.append(message)

    def evaluate(self, expression: str):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def goto(self, url: str, timeout: float = HANG) -> None:
        self.call("Page.navigate", url=url)
        self.wait_for("document.readyState === 'complete' && location.href !== 'about:blank'", timeout)

    def wait_for(self, expression: str, timeout: float = HANG, interval: float = 0.02) -> float:
        """Polls until the expression is true; returns when it became true (time.monotonic()).
        The timeout only guards against a hang."""
        deadline = time.monotonic() + timeout
        while True:
            if self.evaluate(expression):
                return time.monotonic()
            if time.monotonic() > deadline:
                raise TimeoutError(f"still false after {timeout} s: {expression}")
            time.sleep(interval)

    def tap(self, element_js: str) -> None:
        """A finger's tap at the middle of the element (a JS expression giving it), scrolled into view:
        a tap the page cannot tell from a person's, on what is really there to be tapped."""
        box = self.evaluate(f"(() => {{ const e = {element_js}; if (!e) return null; e.scrollIntoView({{block: 'center'}});"
                            " const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        if box is None:
            raise RuntimeError(f"nothing to tap: {element_js}")
        x, y = box
        if not getattr(self, "_touch", False):
            self.call("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=1)
            self._touch = True
        point = {"x": x, "y": y, "radiusX": 4, "radiusY": 4, "force": 1}
        self.call("Input.dispatchTouchEvent", type="touchStart", touchPoints=[point])
        self.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])

    def text(self, selector: str = "body") -> str:
        return self.evaluate(f"(document.querySelector({json.dumps(selector)}) || {{}}).innerText || ''")

    def screenshot(self, path, full_page: bool = True, max_height: int = 2400) -> None:
        height = self.height
        if full_page:
            height = max(self.height, min(max_height, int(self.evaluate("document.documentElement.scrollHeight"))))
            self.call("Emulation.setDeviceMetricsOverride", width=self.width, height=height, deviceScaleFactor=1,
                      mobile=True)
        try:
            data = self.call("Page.captureScreenshot", format="png")["data"]
        finally:
            if full_page:
                self.call("Emulation.setDeviceMetricsOverride", width=self.width, height=self.height,
                          deviceScaleFactor=1, mobile=True)
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self) -> None:
        try:
            if getattr(self, "ws", None):
                self.ws.close()
        finally:
            if self.proc.poll() is None:
                self.proc.terminate()
                try:
                    self.proc.wait(timeout=HANG)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


__all__ = ["Browser", "chromium_path", "os"]
