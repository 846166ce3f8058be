"""The club over real Syncthing: three Syncthing instances on loopback (discovery, relays, NAT,
usage reporting and upgrades off), each with its own home folder and ports, share one folder; each
instance's copy is the sync folder of a pancli host with its own database. A night recorded on one
host, the roster written on another and a third host's `pan sync` converge with no word from
anyone: every host counts the first host's seats for the person the second host registered, and
`pan versus` agrees to the chip on every host.

Slow (run by .ci/run); skipped only when the `syncthing` binary is absent. The fast suite keeps a
plain shared folder (tests/test_club.py)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
import urllib.request
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

from helpers import Pan, free_port

SYNCTHING = shutil.which("syncthing")
FOLDER_ID = "pancli-club"
DEADLINE = 180.0  # seconds for one round of convergence: only a broken build takes this long

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(SYNCTHING is None, reason="the `syncthing` binary is not installed (Debian: apt install syncthing)"),
]


@dataclass
class Instance:
    name: str
    home: Path
    folder: Path
    gui: int
    port: int
    device: str = ""
    apikey: str = ""
    proc: subprocess.Popen | None = None

    def rest(self, path: str) -> dict:
        req = urllib.request.Request(f"http://127.0.0.1:{self.gui}{path}", headers={"X-API-Key": self.apikey})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())


def _generate(inst: Instance) -> None:
    out = subprocess.run([SYNCTHING, "generate", "--home", str(inst.home), "--no-default-folder",
                          "--skip-port-probing"], capture_output=True, text=True, check=True, timeout=120)
    found = re.search(r"Device ID: ([A-Z0-9-]+)", out.stdout + out.stderr)
    assert found, out.stdout + out.stderr
    inst.device = found.group(1)
    inst.apikey = ET.parse(inst.home / "config.xml").getroot().findtext("gui/apikey") or ""
    assert inst.apikey


def _set(parent: ET.Element, tag: str, text: str) -> None:
    el = parent.find(tag)
    if el is None:
        el = ET.SubElement(parent, tag)
    el.text = text


def _configure(inst: Instance, everyone: list[Instance]) -> None:
    """config.xml written before start: loopback only, nothing announced or reported, every other
    instance introduced by id and address, and the one shared folder, watched with a short delay."""
    path = inst.home / "config.xml"
    tree = ET.parse(path)
    root = tree.getroot()
    for el in root.findall("folder") + root.findall("device"):
        root.remove(el)
    options = root.find("options")
    assert options is not None
    for tag, text in {"listenAddress": f"tcp://127.0.0.1:{inst.port}", "globalAnnounceEnabled": "false",
                      "localAnnounceEnabled": "false", "relaysEnabled": "false", "natEnabled": "false",
                      "urAccepted": "-1", "urSeen": "3", "autoUpgradeIntervalH": "0", "startBrowser": "false",
                      "crashReportingEnabled": "false", "stunKeepaliveStartS": "0", "stunServer": "",
                      "reconnectionIntervalS": "1", "restartOnWakeup": "false", "setLowPriority": "false"}.items():
        _set(options, tag, text)
    gui = root.find("gui")
    assert gui is not None
    _set(gui, "address", f"127.0.0.1:{inst.gui}")
    folder = ET.Element("folder", {"id": FOLDER_ID, "label": "pancli", "path": str(inst.folder),
                                   "type": "sendreceive", "rescanIntervalS": "5", "fsWatcherEnabled": "true",
                                   "fsWatcherDelayS": "1", "ignorePerms": "false", "autoNormalize": "true"})
    for other in everyone:
        ET.SubElement(folder, "device", {"id": other.device, "introducedBy": ""})
    root.insert(0, folder)
    for i, other in enumerate(everyone, start=1):
        dev = ET.Element("device", {"id": other.device, "name": other.name, "compression": "metadata",
                                    "introducer": "false", "skipIntroductionRemovals": "false", "introducedBy": ""})
        ET.SubElement(dev, "address").text = f"tcp://127.0.0.1:{other.port}"
        root.insert(i, dev)
    tree.write(path, encoding="utf-8", xml_declaration=False)
    inst.folder.mkdir(parents=True, exist_ok=True)
    (inst.folder / ".stfolder").mkdir(exist_ok=True)  # the marker Syncthing wants in a folder it shares


def _start(inst: Instance, log: Path) -> None:
    env = dict(os.environ, STNOUPGRADE="1", STNODEFAULTFOLDER="1", HOME=str(inst.home))
    with open(log, "wb") as out:
        inst.proc = subprocess.Popen([SYNCTHING, "serve", "--home", str(inst.home), "--no-browser", "--no-restart",
                                      "--no-upgrade"],
                                     stdout=out, stderr=subprocess.STDOUT, env=env)


def _stop(instances: list[Instance]) -> None:
    for inst in instances:
        if inst.proc is not None and inst.proc.poll() is None:
            inst.proc.terminate()
    for inst in instances:
        if inst.proc is None:
            continue
        try:
            inst.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            inst.proc.kill()
            inst.proc.wait(timeout=30)


def _files(folder: Path) -> dict[str, bytes]:
    """Every file of the folder a host reads (not Syncthing's marker nor its temporary files)."""
    out = {}
    for path in folder.rglob("*"):
        rel = path.relative_to(folder)
        if any(part.startswith(".") for part in rel.parts) or not path.is_file():
            continue
        try:
            out[str(rel)] = path.read_bytes()
        except FileNotFoundError:
            continue  # replaced by the sync engine while listed
    return out


def _wait_converged(instances: list[Instance], logs: list[Path], why: str) -> None:
    """Until every instance's copy holds the same files, byte for byte, and Syncthing says each
    remote device is complete; fails (with the engines' logs) only past a generous deadline."""
    end = time.monotonic() + DEADLINE
    while True:
        for inst, log in zip(instances, logs, strict=True):
            assert inst.proc is not None and inst.proc.poll() is None, (
                f"syncthing {inst.name} exited: {log.read_text(errors='replace')[-3000:]}")
        copies = [_files(i.folder) for i in instances]
        if all(c == copies[0] for c in copies[1:]):
            try:
                done = all(i.rest(f"/rest/db/completion?folder={FOLDER_ID}&device={o.device}")["completion"] == 100
                           for i in instances for o in instances if o is not i)
            except OSError:
                done = False
            if done:
                return
        if time.monotonic() > end:
            differ = {i.name: sorted(c) for i, c in zip(instances, copies, strict=True)}
            tails = "\n".join(f"--- {log.name}\n{log.read_text(errors='replace')[-2000:]}" for log in logs)
            pytest.fail(f"the folders did not converge ({why}) in {DEADLINE:.0f} s: {differ}\n{tails}")
        time.sleep(0.5)


def _wait_rest(inst: Instance, log: Path) -> None:
    end = time.monotonic() + DEADLINE
    while True:
        assert inst.proc is not None and inst.proc.poll() is None, log.read_text(errors="replace")[-3000:]
        try:
            inst.rest("/rest/system/ping")
            return
        except OSError:
            if time.monotonic() > end:
                pytest.fail(f"syncthing {inst.name} never answered: {log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.3)


def _night(pan: Pan, name: str, players: list[str]) -> None:
    quoted = [f"'{p}'" for p in players]
    pan(f"session new {name} --players " + ",".join(quoted))
    a, b, c = quoted
    for line in ("deal", f"drop {c}", f"meld {a} 5S 5S 5S", f"meld {b} 7H 7H 7H", f"out {b} KD KD KD"):
        pan(line, ok=False)  # the last line is refused (too few cards melded): the night stays open


def test_a_night_the_roster_and_a_third_host_converge_over_syncthing(tmp_path):
    instances = [Instance(n, tmp_path / f"{n}-home", tmp_path / f"{n}-folder", free_port(), free_port())
                 for n in ("alpha", "bravo", "charlie")]
    logs = [tmp_path / f"{i.name}.log" for i in instances]
    try:
        for inst in instances:
            _generate(inst)
        for inst in instances:
            _configure(inst, instances)
        for inst, log in zip(instances, logs, strict=True):
            _start(inst, log)
        for inst, log in zip(instances, logs, strict=True):
            _wait_rest(inst, log)
        a_inst, b_inst, c_inst = instances
        alpha, bravo, charlie = (Pan(tmp_path / f"{i.name}.db") for i in instances)

        # host A records a night where Ana was typed "Anna K." and shares it
        _night(alpha, "a1", ["Anna K.", "Ben", "Dee"])
        alpha(f"sync {a_inst.folder} --device-name alpha")
        _wait_converged(instances, logs, "A's night")

        # host B takes the night in and, as the club's registrar, says who Ana is
        bravo(f"sync {b_inst.folder} --device-name bravo")
        bravo("club init 'Loopback club'")
        bravo("club add Ana --alias 'Anna K.'")
        bravo("club add Ben")
        _wait_converged(instances, logs, "B's roster")
        assert any((c_inst.folder / d / "club").is_dir() for d in os.listdir(c_inst.folder) if not d.startswith("."))

        # host C has a night of its own ("ana") and syncs: A's night and B's roster arrive with no word
        _night(charlie, "c1", ["ana", "Ben", "Fay"])
        charlie(f"sync {c_inst.folder} --device-name charlie")
        career = charlie.json("player Ana")
        assert career["person"], career
        assert sorted(n["session"] for n in career["nights"]) == ["a1", "c1"], career
        assert career["sessions"] == 2
        _wait_converged(instances, logs, "C's night")

        # A and B sync again: every host counts the same seats for the same person, to the chip
        alpha(f"sync {a_inst.folder}")
        bravo(f"sync {b_inst.folder}")
        careers = {p.db: p.json("player 'Anna K.'") for p in (alpha, bravo, charlie)}
        assert len({c["person"] for c in careers.values()}) == 1
        assert {json.dumps(c, sort_keys=True) for c in careers.values()} == {json.dumps(careers[charlie.db], sort_keys=True)}
        versus = [p.json("versus Ana Ben") for p in (alpha, bravo, charlie)]
        assert versus[0] == versus[1] == versus[2], versus
        assert versus[0]["nights"] == 2 and versus[0]["net"] != 0
        assert versus[0]["net"] == sum(n["net"] for n in versus[0]["sessions"])
    finally:
        _stop(instances)
    for inst in instances:
        assert inst.proc is None or inst.proc.returncode is not None
