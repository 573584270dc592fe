#!/usr/bin/env python3
"""The snapshot demo's own traffic in Wireshark's dissector engine.

    test_capture.py SNAPSHOT_EXE OUT_DIR

Runs the demo for a second with --pcap (what the client's port received, real and
hostile, and the acks it sent), --schema and a budget of 100 bytes a packet (under what a
snapshot's changes take once the player's ball forms: the later packets of that second leave
changes for later ones), generates the Lua dissector with
tools/netser_dissector.py (delta packets on the client's port, acks on the server's), and
runs `tshark -X lua_script:... -r capture -T json`. Then, against FILE.sent.jsonl (what the
server put in each delta packet):

- every real delta packet is dissected, not flagged, with the header the server sent (its
  sequence number, its baseline's and that baseline's fingerprint), within the budget, the
  cubes it changed (and only those: a budgeted packet leaves the others for later), and each
  changed position code's difference (or code) and each changed rotation code's difference
  as the server's codes give it;
- every ack (netser::ack_message) names as its newest a sequence number the server sent;
- every hostile packet is flagged with expert info, except the well-formed ones only the
  client can refuse: a real packet renamed to a baseline the client never had
  (missing_baseline), and a real packet's header over a delta written against another value
  of its baseline (baseline_mismatch: the dissector does not hold the demo's baselines).

It also writes OUT_DIR/demo_capture.txt, tshark's text view of the first real packets (the
README's excerpt comes from it).
"""
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools", "netser_dissector.py")


def pairs(items):
    return items  # keep duplicate keys: tshark repeats a field at one level


def find(tree, key):
    out = []
    if isinstance(tree, list):
        for k, v in tree:
            if k == key:
                out.append(v)
            out.extend(find(v, key))
    return out


def members(tree, out=None):
    """{member path: its item's fields (key -> first value)} of every member item."""
    if out is None:
        out = {}
    if isinstance(tree, list):
        for i, (k, v) in enumerate(tree):
            if k == "netser.member_tree" and i > 0 and tree[i - 1][0] == "netser.member":
                fields = {}
                for kk, x in v:
                    if kk != "netser.member_tree" and kk not in fields:
                        fields[kk] = x
                out[tree[i - 1][1]] = fields
            members(v, out)
    return out


def flagged(layers):
    experts = find(layers, "_ws.expert")
    return any(find(e, "netser.malformed") or find(e, "netser.bad_crc") for e in experts) or \
        bool(find(layers, "netser.malformed")) or bool(find(layers, "netser.bad_crc"))


def main():
    exe, out_dir = sys.argv[1], sys.argv[2]
    tshark = shutil.which("tshark")
    if tshark is None:
        print("tshark is not installed (make test installs it: Debian package tshark)")
        return 1
    os.makedirs(out_dir, exist_ok=True)
    pcap = os.path.join(out_dir, "demo.pcap")
    schema = os.path.join(out_dir, "demo.schema.json")
    run = subprocess.run([exe, "--seconds", "1", "--budget", "100", "--pcap", pcap, "--schema", schema,
                          "--svg", os.path.join(out_dir, "demo.svg")], capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        print(run.stdout, run.stderr)
        print("the demo failed")
        return 1
    m = re.search(r"server 127\.0\.0\.1:(\d+) -> client 127\.0\.0\.1:(\d+) <- hostile sender 127\.0\.0\.1:(\d+)",
                  run.stdout)
    server, client, hostile = (int(x) for x in m.groups())
    budget = int(re.search(r"delta packets of at most (\d+) bytes", run.stdout).group(1))
    with open(pcap + ".sent.jsonl", encoding="utf-8") as f:
        sent = [json.loads(line) for line in f]

    lua = os.path.join(out_dir, "netser.lua")
    subprocess.run([sys.executable, TOOL, "-o", lua, "--delta-port", f"{client}={schema}",
                    "--port", f"{server}={schema}.ack.json"], check=True)
    view = subprocess.run([tshark, "-X", f"lua_script:{lua}", "-r", pcap, "-T", "json"], capture_output=True, text=True)
    if view.returncode != 0 or "Lua: Error" in view.stderr:
        print("tshark failed:", view.returncode, view.stderr)
        return 1
    frames = json.loads(view.stdout, object_pairs_hook=pairs)
    text = subprocess.run([tshark, "-X", f"lua_script:{lua}", "-r", pcap, "-O", "netser",
                           "-Y", f"udp.srcport == {server}", "-c", "400"], capture_output=True, text=True)
    with open(os.path.join(out_dir, "demo_capture.txt"), "w", encoding="utf-8") as f:
        f.write(text.stdout)

    real_payloads = []
    for frame in frames:
        layers = dict(dict(frame)["_source"])["layers"]
        if find(layers, "udp.srcport") == [str(server)]:
            real_payloads.append(bytes.fromhex(find(layers, "udp.payload")[0].replace(":", "")))

    failures, real, acks, hostile_flagged, renamed, wrong_base, checked = 0, 0, 0, 0, 0, 0, 0
    sequences = {s["sequence"] for s in sent}

    def fail(message):
        nonlocal failures
        failures += 1
        if failures <= 20:
            print(message)

    for number, frame in enumerate(frames, 1):
        layers = dict(dict(frame)["_source"])["layers"]
        source = int(find(layers, "udp.srcport")[0])
        netser = [v for k, v in layers if k == "netser"]
        if not netser:
            if source == hostile and find(layers, "udp.length") == ["8"]:
                continue  # an empty datagram (a copy cut to nothing): Wireshark dissects no payload
            fail(f"frame {number}: not dissected as netser (was the Lua script loaded?)")
            continue
        shown = members(netser[0])
        if source == server:
            if real >= len(sent):
                fail(f"frame {number}: more real packets than the server sent")
                continue
            want = sent[real]
            real += 1
            if flagged(layers):
                fail(f"frame {number}: a real delta packet was flagged")
                continue
            header = (find(netser[0], "netser.delta.sequence"), find(netser[0], "netser.delta.baseline"))
            if header != ([str(want["sequence"])], [str(want["baseline"])]):
                fail(f"frame {number}: header {header}, the server sent {want['sequence']} against {want['baseline']}")
            fingerprint = [int(x, 0) for x in find(netser[0], "netser.delta.baseline_fingerprint")]
            if fingerprint != [want["fingerprint"]]:
                fail(f"frame {number}: baseline fingerprint {fingerprint}, the server's {want['fingerprint']}")
            length = int(find(layers, "udp.length")[0]) - 8
            if length != want["bytes"] or length > budget:
                fail(f"frame {number}: {length} bytes, the server wrote {want['bytes']}, budget {budget}")
            changed = {int(x.group(1)) for p in shown if (x := re.fullmatch(r"DeltaSnapshot\.cubes\[(\d+)\]", p))}
            expected = {c["index"] for c in want["changed"]}
            if changed != expected:
                fail(f"frame {number}: changed cubes {sorted(changed)[:10]}, the server sent {sorted(expected)[:10]}")
            for cube in want["changed"]:
                base = f"DeltaSnapshot.cubes[{cube['index']}]"
                codes, before = cube["codes"], cube["baseline_codes"]
                for k, axis in ((4, "x"), (5, "y"), (6, "z")):
                    item = shown.get(f"{base}.position.{axis}")
                    if item is None or item.get("netser.changed") != "1":
                        continue
                    checked += 1
                    if "netser.difference" in item:
                        if int(item["netser.difference"]) != codes[k] - before[k]:
                            fail(f"frame {number}: {base}.position.{axis} difference {item['netser.difference']}, "
                                 f"the server's codes differ by {codes[k] - before[k]}")
                    elif codes[k] != before[k] and "netser.difference" not in item and "netser.code" not in item:
                        fail(f"frame {number}: {base}.position.{axis} shows neither difference nor code: {item}")
                same = shown.get(f"{base}.orientation#largest")
                if same is not None and same.get("netser.raw") == "1":
                    for j in range(3):
                        item = shown.get(f"{base}.orientation#code{j}")
                        if item and "netser.difference" in item:
                            checked += 1
                            if int(item["netser.difference"]) != codes[1 + j] - before[1 + j]:
                                fail(f"frame {number}: {base}.orientation code {j} difference "
                                     f"{item['netser.difference']}, the server's: {codes[1 + j] - before[1 + j]}")
        elif source == client:
            acks += 1
            item = shown.get("ack_message.newest")
            if item is None or int(item.get("netser.value", -1)) not in sequences or flagged(layers):
                fail(f"frame {number}: an ack that names no sent snapshot: {item}")
        elif source == hostile:
            if flagged(layers):
                hostile_flagged += 1
                continue
            payload = bytes.fromhex(find(layers, "udp.payload")[0].replace(":", ""))
            # Bytes 4..7: the sequence numbers, 8..11: the baseline's fingerprint.
            if any(len(p) == len(payload) and p[4:6] == payload[4:6] and p[8:] == payload[8:] for p in real_payloads):
                renamed += 1  # a real packet naming a baseline the client never had
            elif any(p[4:8] == payload[4:8] and p[8:12] != payload[8:12] for p in real_payloads):
                wrong_base += 1  # a real header over a delta against another value of its baseline
            else:
                fail(f"frame {number}: a hostile packet was not flagged")
        else:
            fail(f"frame {number}: from port {source}, unexpected")
    if real != len(sent):
        fail(f"{real} real packets in the capture, the server sent {len(sent)}")
    print(f"{len(frames)} frames: {real} real delta packets ({checked} differences checked against the server's "
          f"codes), {acks} acks, {hostile_flagged} hostile packets flagged, {renamed} renamed real packets "
          f"(refused by the client as missing_baseline), {wrong_base} against a wrong baseline (refused by the "
          f"client as baseline_mismatch); {failures} failures")
    deferred = sum(s["deferred"] for s in sent)
    if deferred == 0:
        print("no packet left a change for later: the budget was not exercised")
    if real == 0 or checked == 0 or acks == 0 or hostile_flagged == 0 or renamed == 0 or wrong_base == 0 \
            or deferred == 0:
        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
