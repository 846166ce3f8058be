"""Run by .ci/package with the Python of a fresh venv that has only the built wheel installed: the
installed pancli (not the checkout's) answers `pan --version`, `panguingue demo`, `pan export
--format-doc` and `pan serve`'s page with its stylesheet, from the templates, static files and
data inside the wheel. Prints what it checked; exits non-zero at the first thing wrong."""

from __future__ import annotations

import html as html_module
import os
import re
import signal
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
from pathlib import Path

HANG = 120  # a guard against a hang, not a bound on speed

bin_dir = Path(sys.executable).parent
home = Path(tempfile.mkdtemp(prefix="pancli-wheel-home-"))
env = {k: v for k, v in os.environ.items() if not k.startswith(("PANCLI_", "XDG_"))}
env.update(HOME=str(home), COLUMNS="80", NO_COLOR="1", PYTHONUNBUFFERED="1")


def run(*args: str) -> str:
    done = subprocess.run(args, capture_output=True, text=True, env=env, cwd=home, timeout=HANG)
    if done.returncode:
        sys.exit(f"{' '.join(args)} exited {done.returncode}:\n{done.stdout}{done.stderr}")
    return done.stdout


import pancli  # noqa: E402 - the installed one, checked to be so
from pancli.storage.paths import data_dir  # noqa: E402

here = Path(pancli.__file__).resolve()
if bin_dir.parent.resolve() not in here.parents:
    sys.exit(f"pancli was imported from {here}, not from the fresh venv")

version = run(str(bin_dir / "pan"), "--version").strip()
if version != f"pan (pancli) {pancli.__version__}":
    sys.exit(f"pan --version says {version!r}; the package is {pancli.__version__}")
print(f"ok: {version}")

demo = run(str(bin_dir / "panguingue"), "demo")
if "Standings" not in demo:
    sys.exit(f"panguingue demo printed no standings:\n{demo}")
print("ok: panguingue demo recorded the sample evening")

for lang, word in (("pl", "w pikach"), ("ru", "в пиках")):  # the catalogs are in the wheel
    said = run(str(bin_dir / "pan"), "--lang", lang, "check", "5S", "5S", "5S")
    if word not in said:
        sys.exit(f"pan --lang {lang} check printed no {lang} ruling:\n{said}")
print("ok: pan --lang pl / ru check")

if not run(str(bin_dir / "pan"), "export", "--format-doc").startswith("# Session archives"):
    sys.exit("pan export --format-doc did not print the archive format")
print("ok: pan export --format-doc")

os.environ["HOME"] = str(home)  # where the child's data folder is, for data_dir()
db = data_dir() / "demo.db"
proc = subprocess.Popen([str(bin_dir / "pan"), "--db", str(db), "serve", "--host", "127.0.0.1", "--port", "0",
                         "--no-qr"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=home)
try:
    address = proc.stdout.readline().strip() if proc.stdout else ""
    if not address.startswith("http://127.0.0.1:"):
        sys.exit(f"pan serve printed {address!r} first: {proc.stderr.read() if proc.poll() is not None else ''}")
    with urllib.request.urlopen(address, timeout=HANG) as page:
        html = page.read().decode("utf-8")
    if page.status != 200 or "tonight" not in html or "pan.css" not in html:
        sys.exit(f"pan serve's page is not the table of the demo evening:\n{html[:2000]}")
    found = re.search(r'rel="stylesheet" href="([^"]+)"', html)
    if not found:
        sys.exit("pan serve's page links no stylesheet")
    css_url = urllib.parse.urljoin(address, html_module.unescape(found[1]))
    with urllib.request.urlopen(css_url, timeout=HANG) as css:
        if css.status != 200 or not css.read():
            sys.exit(f"{css_url}: no stylesheet")
    print(f"ok: pan serve's page and its stylesheet ({len(html)} bytes of HTML)")
finally:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=HANG)
    except subprocess.TimeoutExpired:
        proc.kill()
