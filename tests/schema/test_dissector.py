#!/usr/bin/env python3
"""The generated Wireshark dissector, run by the real tshark on a pcap file.

    test_dissector.py EXPORT_DIR

schema_export wrote EXPORT_DIR/capture.pcap (real packets of several types, and hostile
ones: a bad CRC, a truncated packet and a damaged payload with a good CRC, a packet
shorter than the CRC, a byte appended) and capture.json (for each frame, what netser's
read_packet made of it). tools/netser_dissector.py generates the Lua dissector from the
schemas; `tshark -X lua_script:... -r capture.pcap -T json` must show, for every real
packet, each decoded value netser read (path and value), and mark every packet that
read_packet refuses with expert info. tshark 4.0 runs Lua scripts as root on Debian
(its init.lua sets run_user_scripts_when_superuser); the test fails if no frame was
dissected, so a tshark that ignored the script cannot pass.
"""
import json
import os
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools", "netser_dissector.py")
PORTS = {40001: "Ping", 40002: "Message", 40003: "Player", 40004: "Snapshot", 40005: "Kitchen",
         40006: "Rotations", 40007: "Slots", 40008: "Mover", 40009: "Hold"}


def pairs(items):
    return items  # keep duplicate keys: tshark repeats a field at one level


def find(tree, key):
    """Every value under `key`, at any depth, in order."""
    out = []
    if isinstance(tree, list):
        for k, v in tree:
            if k == key:
                out.append(v)
            out.extend(find(v, key))
    return out


def members(tree):
    """(path, value text) of every leaf member item."""
    out = []
    if isinstance(tree, list):
        for i, (k, v) in enumerate(tree):
            if k == "netser.member_tree" and i > 0 and tree[i - 1][0] == "netser.member":
                values = [x for kk, x in v if kk == "netser.value"]
                if values:
                    out.append((tree[i - 1][1], values[0]))
            out.extend(members(v))
    return out


def flatten(v, path, out):
    if v is None:
        return
    if isinstance(v, dict):
        if set(v) == {"index", "alternative", "value"}:
            out[path + ".alternative"] = v["alternative"]
            flatten(v["value"], path + ".value", out)
            return
        for k, x in v.items():
            flatten(x, f"{path}.{k}", out)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            flatten(x, f"{path}[{i}]", out)
    else:
        out[path] = v


def same_leaf(expected, text):
    if isinstance(expected, bool):
        return text == ("true" if expected else "false")
    if isinstance(expected, int):
        return text == str(expected)
    if isinstance(expected, float):
        try:
            return struct.pack("<d", float(text)) == struct.pack("<d", expected)
        except ValueError:
            return False
    return text == expected


def main():
    out_dir = sys.argv[1]
    tshark = shutil.which("tshark")
    if tshark is None:
        print("tshark is not installed (make test installs it: Debian package tshark)")
        return 1
    lua = os.path.join(out_dir, "netser.lua")
    args = [sys.executable, TOOL, "-o", lua]
    for port, name in PORTS.items():
        args += ["--port", f"{port}={os.path.join(out_dir, name + '.schema.json')}"]
    subprocess.run(args, check=True)
    run = subprocess.run([tshark, "-X", f"lua_script:{lua}", "-r", os.path.join(out_dir, "capture.pcap"), "-T", "json"],
                         capture_output=True, text=True)
    if run.returncode != 0:
        print("tshark failed:", run.returncode, run.stderr)
        return 1
    if "Lua: Error" in run.stderr or "lua_script" in run.stderr and "error" in run.stderr.lower():
        print("tshark reported a Lua error:", run.stderr)
        return 1
    frames = json.loads(run.stdout, object_pairs_hook=pairs)
    with open(os.path.join(out_dir, "capture.json"), encoding="utf-8") as f:
        expected = json.load(f)
    if len(frames) != len(expected):
        print(f"{len(frames)} frames dissected, {len(expected)} written")
        return 1
    failures, checked_values, flagged = 0, 0, 0
    for number, (frame, want) in enumerate(zip(frames, expected), 1):
        layers = dict(dict(frame)["_source"])["layers"]
        netser = [v for k, v in layers if k == "netser"]
        if not netser:
            failures += 1
            print(f"frame {number}: not dissected as netser (was the Lua script loaded?)")
            continue
        experts = find(layers, "_ws.expert")
        malformed = any(find(e, "netser.malformed") or find(e, "netser.bad_crc") for e in experts) or \
            bool(find(layers, "netser.malformed")) or bool(find(layers, "netser.bad_crc"))
        root = want["expect"].get("value") if want["expect"]["ok"] else None
        if not want["expect"]["ok"]:
            if not malformed:
                failures += 1
                print(f"frame {number}: read_packet says {want['expect']['error']}, the dissector flagged nothing")
            else:
                flagged += 1
            continue
        if malformed:
            failures += 1
            print(f"frame {number}: a good packet was flagged: {experts}")
            continue
        shown = dict(members(netser[0]))
        schema_root = json.load(open(os.path.join(out_dir, PORTS[want["port"]] + ".schema.json")))["root_name"]
        leaves = {}
        flatten(root, schema_root or "root", leaves)
        for path, value in leaves.items():
            checked_values += 1
            if path not in shown:
                failures += 1
                print(f"frame {number}: {path} = {value!r} not shown (shown: {sorted(shown)[:8]}...)")
            elif not same_leaf(value, shown[path]):
                failures += 1
                print(f"frame {number}: {path}: dissector shows {shown[path]!r}, netser read {value!r}")
    print(f"{len(frames)} frames, {checked_values} values checked, {flagged} hostile frames flagged, {failures} failures")
    if checked_values == 0 or flagged == 0:
        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
