#!/usr/bin/env python3
"""The generated Wireshark dissector, run by the real tshark on a pcap file.

    test_dissector.py EXPORT_DIR

schema_export wrote EXPORT_DIR/capture.pcap (real packets of several types, and hostile
ones: a bad CRC, a truncated packet and a damaged payload with a good CRC, a packet
shorter than the CRC, a byte appended) and capture.json (for each frame, what netser's
read_packet made of it). tools/netser_dissector.py generates the Lua dissector from the
schemas; `tshark -X lua_script:... -r capture.pcap -T json` must show, for every real
packet, each decoded value netser read (path and value), and mark every packet that
read_packet refuses with expert info that names netser's error (code, bit, path). One
frame is the tools' own (expect.tools_only): a hostile 1198-byte recursive sparse packet
that the dissector must refuse at the element budget (docs/schema.md section 7), as the
reference decoder does, with tshark under MAX_TSHARK_MB. Names outside ASCII (Maß) must
reach tshark. tshark 4.0 runs Lua scripts as root on Debian (its init.lua sets
run_user_scripts_when_superuser); the test fails if no frame was dissected, so a tshark
that ignored the script cannot pass.

Delta packets: ports 41001.. carry delta packets (41002 plain packets too), most with
their first baseline given (--delta-baseline). Where the dissector has the baseline (the
given one, or an earlier packet it applied), it must show every value netser's
delta_packet_reader read; where it has not, the changes only, and a note where the wire
needs the baseline. The changes it shows (differences, codes, flips) must be those the
reference decoder (tools/netser_schema_decode.py, itself checked against netser) reads,
and every delta packet netser refuses must be flagged with the error the reference
decoder finds with what the dissector has (the sequence numbers alone: overflow at bit
64). The header's baseline fingerprint is shown; against a baseline given with
--delta-baseline it is checked (a packet written against another value of sequence 0:
netser.baseline_mismatch at bit 64, as netser's reader and the reference decoder say),
against a state the dissector applied it is noted as not verified (the Lua walk cannot
write a value back), and the reference decoder then skips it too. A port with plain
packets of one type and delta packets of another (Ping, Player) takes each packet for
the schema whose protocol id its CRC matches.

Keyed deltas (port 41012, Arena: spawns, despawns, a sorted insertion, a swap-remove, a
reorder; port 41013, Registry: keys of every kind of code, bool slots): the entries the dissector shows by key (netser.key, netser.entry: changed,
removed, unchanged, added, moved) must be those the reference decoder reads, and the
applied maps and sets are shown in key code order. Then the hostile delta packets of the
schemas whose deltas go by key or by slot (schema_export's flips and cuts, and the
forged ones of tests/schema/data/golden_deltas.json) are dissected in a second capture,
each pair on a port that starts from its baseline: every verdict must be the reference
decoder's.

Predicted delta packets (predicted_export's, EXPORT_DIR/predicted/), bit-packed and
range-coded, hostile ones among them, on two delta ports (one given the trained prior):
check_predicted.

smallest_three_codes' own delta and smallest_three's, the same on the codes its baseline
rotation writes to (check_codes_deltas): predicted_export's packets never reach them with
their baselines (the walk stops at Scene.pieces), so the test writes its own packets of a
schema of such members (netser's Piece.spin and Scene.turn, and two with 26-bit codes;
rotations: Piece.rot with the ladder 2 4 8 32, Scene.facing, and one with 26 bits),
against baselines given with --delta-baseline (a near-tie rotation among them), against
an unknown one, and predicted ones, hostile ones among them; the dissector's fields
(changed bits, same largest, steps, differences, whole codes, their bits), its verdicts
and its values must be the reference decoder's.
"""
import json
import math
import os
import random
import re
import resource
import shutil
import struct
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree: not here,
os.environ["PYTHONDONTWRITEBYTECODE"] = "1"  # nor from the tools this test runs
HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools")
TOOL = os.path.join(TOOLS, "netser_dissector.py")
sys.path.insert(0, TOOLS)
import netser_schema_decode as dec  # noqa: E402
PORTS = {40001: "Ping", 40002: "Message", 40003: "Player", 40004: "Snapshot", 40005: "Kitchen",
         40006: "Rotations", 40007: "Slots", 40008: "Mover", 40009: "Hold", 40010: "SNode", 40011: "Mass",
         40012: "Dash", 41002: "Player"}
# Delta ports: the schema, and whether the dissector is given sequence 0's value.
DELTA_PORTS = {41001: ("Codes40", False), 41002: ("Player", True), 41003: ("Kitchen", True), 41004: ("Tuned", True),
               41005: ("Snapshot", True), 41006: ("Mover", True), 41007: ("Message", True), 41008: ("Tree", True),
               41009: ("Rotations", True), 41010: ("Mass", True), 41011: ("SNode", True), 41012: ("Arena", True),
               41013: ("Registry", True)}


MAX_TSHARK_MB = 1024  # tshark itself takes 160 MB


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


def delta_fields(tree):
    """(path, {field: text}) of every member item that says something about a delta."""
    out = []
    if isinstance(tree, list):
        for i, (k, v) in enumerate(tree):
            if k == "netser.member_tree" and i > 0 and tree[i - 1][0] == "netser.member":
                fields = {kk: x for kk, x in v if kk in ("netser.difference", "netser.code")}
                if fields:
                    out.append((tree[i - 1][1], fields))
            out.extend(delta_fields(v))
    return out


def error_path(path, schema, alternatives):
    """A dissector path (decoded-value form: "root" for a root without a name, a variant's
    ".value") in the form of the decoder's changes (netser's error paths)."""
    if schema["root_name"] is None:
        path = path[len("root"):].lstrip(".") if path.startswith("root") else path
    for alt in alternatives:
        v = alt + ".value" if alt else "value"
        if path == v or path.startswith(v + ".") or path.startswith(v + "["):
            path = (alt + path[len(v):]) if alt else path[len(v):].lstrip(".")
    return path


def keyed_entries(tree):
    """(path, key, what) of every entry the dissector shows by key (netser.key): changed,
    removed, unchanged, added, moved."""
    out = []
    if isinstance(tree, list):
        for i, (k, v) in enumerate(tree):
            if k == "netser.member_tree" and i > 0 and tree[i - 1][0] == "netser.member":
                keys = [x for kk, x in v if kk == "netser.key"]
                entries = [x for kk, x in v if kk == "netser.entry"]
                if keys and entries:
                    out.append((tree[i - 1][1], keys[0], entries[0].split(" ")[0]))
            out.extend(keyed_entries(v))
    return out


def decoder_entries(changes):
    """The reference decoder's entries by key, as the dissector shows them."""
    out = []
    for c in changes:
        if "key" not in c:
            continue
        what = {"entry": "removed" if c.get("removed") else "changed", "changed": "unchanged", "plain": "added",
                "move": "moved"}[c["field"]]
        out.append((c["path"], value_text(c["key"]), what))
    return out


def value_text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return "%.17g" % v
    return str(v)


def by_key_code(node, v, decoder, inline=()):
    """v with the maps and sets whose delta goes by key in key code order: the order the
    dissector shows an applied delta's entries in (docs/schema.md, "keyed")."""
    kind = node["kind"]
    if v is None:
        return v
    if kind == "recursive":
        return by_key_code(inline[-1 - node["depth"]], v, decoder, inline)
    if kind in ("set", "map"):
        inner = node["element"] if kind == "set" else node["key"]
        items = [by_key_code(inner, x, decoder, inline) if kind == "set" else
                 [x[0], by_key_code(node["value"], x[1], decoder, inline)] for x in v]
        if node.get("delta_body", {}).get("form") == "keyed":
            items.sort(key=lambda x: decoder._key_code(inner, x[0] if kind == "map" else x, 0, ""))
        return items
    if kind in ("array", "vector", "sparse"):
        return [by_key_code(node["element"], x, decoder, inline) for x in v]
    if kind == "optional":
        return by_key_code(node["value"], v, decoder, inline)
    if kind == "variant":
        alt = node["alternatives"][v["index"]]
        return dict(v, value=by_key_code(alt["encoding"], v["value"], decoder, inline))
    if kind == "aggregate":
        return {f["name"]: by_key_code(f["encoding"], v[f["name"]], decoder, inline + (node,)) for f in node["fields"]}
    if kind == "struct":
        definition = node if "members" in node else decoder.types[node["name"]]
        inline = inline + (node,) if "members" in node else inline
        out = dict(v)
        for base in definition["bases"]:
            out.update(by_key_code(base, v, decoder, inline))
        for m in definition["members"]:
            if m["name"] in v and "encoding" in m:
                out[m["name"]] = by_key_code(m["encoding"], v[m["name"]], decoder, inline)
        return out
    return v


def decoder_changes(changes):
    """The reference decoder's differences, flips and codes, as the dissector shows them."""
    out = []
    for c in changes:
        if c["field"] == "difference":
            out.append((c["path"], {"netser.difference": ("-" if c["difference"] < 0 else "+") + str(abs(c["difference"]))}))
        elif c["field"] == "flip":
            out.append((c["path"], {"netser.difference": "flip"}))
        elif c["field"] == "code":
            out.append((c["path"], {"netser.code": str(c["code"])}))
    return out


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


ERROR_TEXT = re.compile(r"(\w+) at bit (\d+)(?: in (.*)|: .*)?\Z")
EXPERT_BYTES = 239  # Wireshark cuts an expert message to this many bytes


def shows_error(layers, want, schema):
    """Whether the dissector's expert info names the error `want` (code, bit, path) as
    the dissector writes paths: "root" for a root without a name, a variant's
    alternative as ".value" where netser writes "<Name>". netser cuts a long path to its
    end ("..."), Wireshark a long message to its start."""
    path = want["path"]
    if schema["root_name"] is None and path.startswith(want.get("cpp_root", "")):
        path = path[len(want.get("cpp_root", "")):]
    path = re.sub(r"<[^>]*>", ".value", path)
    path = path if path.startswith("...") else path.lstrip(".")
    for text in find(layers, "_ws.expert.message"):
        m = ERROR_TEXT.match(text)
        if m is None or (m.group(1), int(m.group(2))) != (want["error"], want["bit"]):
            continue
        shown = m.group(3) or ""
        if schema["root_name"] is None and shown.startswith("root"):
            shown = shown[len("root"):]
        shown = shown.lstrip(".")
        cut = len(text.encode("utf-8")) >= EXPERT_BYTES - 3
        if path.startswith("..."):
            if cut or shown.endswith(path[3:]):
                return True
        elif shown == path or (cut and path.startswith(shown)):
            return True
    print(f"  the dissector says {find(layers, '_ws.expert.message')}, expected {want}")
    return False


def check_delta_frame(number, want, layers, layer, malformed, out_dir, known, counts):
    """A delta frame against netser's reading; the number of failures."""
    port, expect = want["port"], want["expect"].get("unbounded", want["expect"])  # as the tools count: section 7
    name = DELTA_PORTS[port][0]
    with open(os.path.join(out_dir, name + ".schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    experts = find(layers, "_ws.expert")
    missing_note = any(find(e, "netser.missing_baseline") for e in experts) or bool(find(layers, "netser.missing_baseline"))
    if not expect["ok"] and expect["error"] != "missing_baseline":
        # What the dissector can say is what the reference decoder reads with the baseline
        # the dissector has: netser's answer when it has it.
        header = expect.get("header")
        base = known[port].get(header["baseline"], dec.MISSING) if header else dec.MISSING
        try:
            dec.Decoder(schema).decode_delta_packet(dec.parse_hex(want["hex"]), None, base)
            if base is dec.MISSING:
                return 0  # netser refused it on a check that needs the baseline
            print(f"frame {number}: the reference decoder reads a delta packet netser refuses: {expect}")
            return 1
        except dec.DecodeError as e:
            oracle = {"error": e.code, "bit": e.bit, "path": e.path}
        if oracle["error"] == "missing_baseline":
            if missing_note:
                return 0
            print(f"frame {number}: no baseline, the wire needs it, and no netser.missing_baseline note")
            return 1
        if not malformed or not shows_error(layers, oracle, schema):
            print(f"frame {number}: delta_packet_reader says {expect['error']}, the dissector did not say {oracle}")
            return 1
        counts["flagged"] += 1
        return 0
    if malformed:
        print(f"frame {number}: a good delta packet was flagged: {experts}")
        return 1
    header = expect["header"]
    base = known[port].get(header["baseline"], dec.MISSING)
    # The reference decoder's reading with what the dissector has.
    decoder = dec.Decoder(schema)
    try:
        decoder.decode_delta_packet(dec.parse_hex(want["hex"]), None, base)
        stopped = False
    except dec.DecodeError as e:
        stopped = e.code == "missing_baseline"
        if not stopped:
            print(f"frame {number}: the reference decoder refuses a packet netser reads: {e}")
            return 1
    failures = 0
    alternatives = sorted((c["path"] for c in decoder.changes if c["field"] == "alternative"), key=len)
    shown_changes = sorted((error_path(path, schema, alternatives), f) for path, f in delta_fields(layer))
    want_changes = sorted(decoder_changes(decoder.changes))
    counts["changes compared"] += len(want_changes)
    if shown_changes != want_changes:
        failures += 1
        print(f"frame {number}: the dissector shows the changes {shown_changes[:6]}..., "
              f"the reference decoder reads {want_changes[:6]}...")
    # Entries by key (keyed deltas): each shown with its key, as the reference decoder reads it.
    shown_entries = sorted((error_path(path, schema, alternatives), key, what) for path, key, what in keyed_entries(layer))
    want_entries = sorted(decoder_entries(decoder.changes))
    counts["entries by key"] += len(want_entries)
    if shown_entries != want_entries:
        failures += 1
        print(f"frame {number}: the dissector shows the entries {shown_entries[:8]}..., "
              f"the reference decoder reads {want_entries[:8]}...")
    if base is dec.MISSING or not expect["ok"]:
        counts["missing baseline" if stopped else "changes only"] += 1
        if stopped and not missing_note:
            failures += 1
            print(f"frame {number}: no baseline, the wire needs it, and no netser.missing_baseline note")
        if not stopped and missing_note:
            failures += 1
            print(f"frame {number}: a missing_baseline note on a packet read without its baseline")
        return failures
    counts["applied"] += 1
    known[port][header["sequence"]] = expect["value"]
    shown = dict(members(layer))
    leaves = {}
    flatten(by_key_code(schema["root"], expect["value"], decoder), schema["root_name"] or "root", leaves)
    for path, value in leaves.items():
        if path not in shown:
            failures += 1
            print(f"frame {number}: {path} = {value!r} not shown (shown: {sorted(shown)[:8]}...)")
        elif not same_leaf(value, shown[path]):
            failures += 1
            print(f"frame {number}: {path}: dissector shows {shown[path]!r}, netser read {value!r}")
    return failures


# Schemas whose deltas go by key or by slot: their hostile delta packets (flips, cuts, a
# byte appended, a bad CRC, a plain packet) are dissected too, each pair's on a port of its
# own that starts from the pair's baseline.
KEYED_SCHEMAS = ("Arena", "Registry", "Units", "Scores", "HashScores", "Tags", "Slots8", "Kitchen", "Slots", "SNode")


def schemas_by_name(out_dir, name):
    with open(os.path.join(out_dir, name + ".schema.json"), encoding="utf-8") as f:
        return json.load(f)


def write_pcap(path, datagrams):
    """datagrams: (port, bytes), as schema_export writes them (Ethernet, IPv4, UDP)."""
    out = bytearray(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    for k, (port, data) in enumerate(datagrams):
        udp = struct.pack(">HHHH", 50000, port, 8 + len(data), 0) + data
        ip = bytearray(struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 1, 0x4000, 64, 17, 0,
                                   bytes([127, 0, 0, 1]), bytes([127, 0, 0, 1])))
        total = sum(struct.unpack(">10H", bytes(ip)))
        while total >> 16:
            total = (total & 0xFFFF) + (total >> 16)
        ip[10:12] = struct.pack(">H", ~total & 0xFFFF)
        frame = bytes([2] * 6 + [4] * 6) + b"\x08\x00" + bytes(ip) + udp
        out += struct.pack("<IIII", 1700000000 + k, 0, len(frame), len(frame)) + frame
    with open(path, "wb") as f:
        f.write(out)


def dissect_datagrams(tshark, lua, pcap, datagrams, what):
    """Writes datagrams [(port, bytes)] to pcap and dissects them with the Lua dissector:
    tshark's frames, one per datagram, or None (reported) when tshark fails or skips one."""
    write_pcap(pcap, datagrams)
    run = subprocess.run([tshark, "-X", f"lua_script:{lua}", "-r", pcap, "-T", "json"], capture_output=True, text=True)
    if run.returncode != 0 or "Lua: Error" in run.stderr:
        print(f"tshark failed on the {what}:", run.returncode, run.stderr[:400])
        return None
    shown = json.loads(run.stdout, object_pairs_hook=pairs)
    if len(shown) != len(datagrams):
        print(f"{what}: {len(shown)} frames dissected, {len(datagrams)} written")
        return None
    return shown


def check_hostile_deltas(out_dir, tshark):
    """The hostile delta packets of KEYED_SCHEMAS (schema_export's <name>.delta.json): the
    dissector must flag each with the error the reference decoder finds with the baselines
    the dissector has (its port's first, then what it applied), read the others without
    a flag, and note a missing baseline. The number of failures."""
    frames, args, port = [], [sys.executable, TOOL, "-o", os.path.join(out_dir, "netser_hostile.lua")], 43000
    for name in KEYED_SCHEMAS:
        with open(os.path.join(out_dir, name + ".delta.json"), encoding="utf-8") as f:
            cases = json.load(f)["cases"]
        schema_file = os.path.join(out_dir, name + ".schema.json")
        for i in (0, 1):
            mine = [c for c in cases if c["mode"] == "delta_packet" and re.search(rf"delta #{i} packet", c["name"])]
            if not mine:
                continue
            seed = os.path.join(out_dir, f"{name}.hostile{i}.json")
            with open(seed, "w", encoding="utf-8") as f:
                json.dump(mine[0]["baseline"], f)
            args += ["--delta-port", f"{port}={schema_file}", "--delta-baseline", f"{port}={i}:{seed}"]
            frames += [(port, schema_file, i, c) for c in mine if c["hex"]]  # tshark skips an empty datagram
            port += 1
    # The hand-written golden deltas of these schemas (tests/schema/data/golden_deltas.json:
    # forged keys, counts and moves too), each as delta packet 1 against baseline 0.
    with open(os.path.join(HERE, "data", "golden_deltas.json"), encoding="utf-8") as f:
        golden = [c for c in json.load(f) if c["schema"] in KEYED_SCHEMAS and c["mode"] == "delta_payload"]
    for k, case in enumerate(golden):
        schema_file = os.path.join(out_dir, case["schema"] + ".schema.json")
        with open(schema_file, encoding="utf-8") as f:
            layout = json.load(f)["delta_packet"]
        seed = os.path.join(out_dir, f"golden_delta{k}.json")
        with open(seed, "w", encoding="utf-8") as f:
            json.dump(case["baseline"], f)
        body = dec.parse_hex(case["hex"])
        bits = 64 + case["expect"].get("bits", 8 * len(body))  # a refused body fails before its end
        end = (int(layout["end_check"]["magic"]) ^ bits) & 0xFFFFFFFF
        # The baseline's fingerprint, as the reference decoder (checked against netser) takes it.
        fingerprint = dec.Decoder(schemas_by_name(out_dir, case["schema"])).baseline_fingerprints(case["baseline"])[0]
        rest = (1).to_bytes(2, "little") + (0).to_bytes(2, "little") + fingerprint.to_bytes(4, "little") + body + \
            end.to_bytes(4, "little")
        crc = dec.crc32(int(layout["protocol_id"]["value"]).to_bytes(4, "little") + rest)
        args += ["--delta-port", f"{port}={schema_file}", "--delta-baseline", f"{port}=0:{seed}"]
        frames.append((port, schema_file, 0, dict(case, hex=(crc.to_bytes(4, "little") + rest).hex())))
        port += 1
    subprocess.run(args, check=True)
    pcap = os.path.join(out_dir, "hostile_deltas.pcap")
    shown = dissect_datagrams(tshark, args[3], pcap, [(port, dec.parse_hex(c["hex"])) for port, _, _, c in frames],
                              "hostile delta packets")
    if shown is None:
        return 1
    failures, stores, schemas, outcomes = 0, {}, {}, set()
    counts = {"verified": 0, "unverified": 0, "no baseline": 0}
    for (port, schema_file, i, case), frame in zip(frames, shown):
        if schema_file not in schemas:
            with open(schema_file, encoding="utf-8") as f:
                schemas[schema_file] = json.load(f)
        schema = schemas[schema_file]
        layers = dict(dict(frame)["_source"])["layers"]
        messages = find(layers, "_ws.expert.message")
        data = dec.parse_hex(case["hex"])
        store = stores.setdefault(port, {i: (case["baseline"], True)})  # sequence -> (value, given)
        decoder = dec.Decoder(schema)
        baseline, given = store.get(int.from_bytes(data[6:8], "little"), (dec.MISSING, False)) \
            if len(data) >= 8 else (dec.MISSING, False)
        if not given:
            # The dissector has the fingerprints of the baselines it was given, not of the
            # states it applied (docs/schema.md, the dissector): those it does not verify.
            decoder._check_fingerprint = lambda *args: None
        try:
            header, value, _ = decoder.decode_delta_packet(data, None, baseline)
            if value is not dec.MISSING:
                store[header["sequence"]] = (value, False)  # as the dissector keeps what it applied
            want = None
        except dec.DecodeError as e:
            want = {"error": e.code, "bit": e.bit, "path": e.path}
        outcomes.add("ok" if want is None else want["error"])
        errors = [m for m in messages if ERROR_TEXT.match(m) or m.startswith("dissector error")]
        # A packet read past its header against an applied state says that state's
        # fingerprint is not verified, and only such a packet.
        unverified = any("is not verified" in m for m in messages)
        past_header = decoder.header is not None and len(decoder.header) == 3
        if unverified != (baseline is not dec.MISSING and not given and past_header):
            failures += 1
            if failures <= 10:
                print(f"hostile delta {case['name']}: the fingerprint note is {'' if unverified else 'not '}shown "
                      f"(baseline {'given' if given else 'applied' if baseline is not dec.MISSING else 'missing'})")
        counts[("unverified" if unverified else "verified") if baseline is not dec.MISSING and past_header
               else "no baseline"] += 1
        if want is None:
            ok = not errors
        elif want["error"] == "missing_baseline":
            ok = any("is not in the capture" in m for m in messages)
        else:
            ok = shows_error(layers, want, schema)
        if not ok:
            failures += 1
            if failures <= 10:
                print(f"hostile delta {case['name']}: the reference decoder says {want}, the dissector {messages[:3]}")
    print(f"{len(frames)} hostile delta frames of {', '.join(KEYED_SCHEMAS)}: outcomes {', '.join(sorted(outcomes))}, "
          f"{failures} failures; baseline fingerprints: " + ", ".join(f"{v} {k}" for k, v in counts.items()))
    if min(counts.values()) == 0:
        failures += 1
    for needed in ("ok", "bad_crc", "overflow", "out_of_range", "invalid_value", "too_large", "check_failed",
                   "baseline_mismatch"):
        if needed not in outcomes:
            failures += 1
            print(f"no hostile delta frame ended with {needed}")
    return failures


PREDICTED_PORTS = {45000: "Scene", 45001: "Crowd"}  # Scene's with its trained prior (--prior), Crowd's without


def check_predicted(out_dir, tshark):
    """Predicted delta packets (predicted_export's, EXPORT_DIR/predicted: bit-packed,
    range-coded with the library default prior and with a trained one, hostile ones
    beside them) on two delta ports, one given the trained prior (--prior) and one not.
    The dissector must take each packet for the coding it was written in (a trained-prior
    packet on the port without the prior: bad_crc), show the header the reference decoder
    reads (sequence, the baselines, their combined fingerprint), flag a forged header
    with the reference decoder's error; of a bit-packed body, show the changes the
    reference decoder reads without the baselines, and its missing_baseline note, or its
    error; of a range-coded body, its bytes, "not decoded", and no verdict. The number
    of failures."""
    pdir = os.path.join(out_dir, "predicted")
    cases = [json.loads(line) for line in open(os.path.join(pdir, "cases.jsonl"), encoding="utf-8")]
    lua = os.path.join(out_dir, "netser_predicted.lua")
    args = [sys.executable, TOOL, "-o", lua, "--prior", f"45000={os.path.join(pdir, 'Scene.prior.hpp')}"]
    schemas, ports = {}, {name: port for port, name in PREDICTED_PORTS.items()}
    for port, name in PREDICTED_PORTS.items():
        args += ["--delta-port", f"{port}={os.path.join(pdir, name + '.schema.json')}"]
        schemas[name] = schemas_by_name(pdir, name)
    subprocess.run(args, check=True)
    pcap = os.path.join(out_dir, "predicted.pcap")
    shown = dissect_datagrams(tshark, lua, pcap, [(ports[c["type"]], dec.parse_hex(c["hex"])) for c in cases],
                              "predicted packets")
    if shown is None:
        return 1
    trained = dec.read_prior(os.path.join(pdir, "Scene.prior.hpp"))
    failures, counts, compared = 0, {}, 0
    for number, (case, frame) in enumerate(zip(cases, shown), 1):
        layers = dict(dict(frame)["_source"])["layers"]
        layer = ([v for k, v in layers if k == "netser"] or [[]])[0]
        schema = schemas[case["type"]]
        coding = case["name"].split()[3]  # the coding it was written in
        data = dec.parse_hex(case["hex"])
        prior = {"packed": None, "range": dec.RangePrior(), "trained": trained}[coding]
        if coding == "trained" and case["type"] != "Scene":
            prior = None  # its port has no --prior: neither coding's CRC
        decoder = dec.Decoder(schema)
        try:
            if coding == "trained" and prior is None:
                raise dec.DecodeError("bad_crc", 0)
            decoder.decode_predicted_packet(data, None, None, prior)
            oracle = None
        except dec.DecodeError as e:
            oracle = {"error": e.code, "bit": e.bit, "path": e.path}
        experts = find(layers, "_ws.expert")
        flagged = any(find(e, "netser.malformed") or find(e, "netser.bad_crc") for e in experts)
        missing_note = any(find(e, "netser.missing_baseline") for e in experts)
        h = getattr(decoder, "header", None) or {}
        header_bits = 32 + 18 + 16 * len(h.get("baselines", ())) + 32
        header_end = header_bits + (-header_bits % 8 if coding != "packed" else 0)  # a range-coded body at a byte
        body_error = oracle is not None and oracle["error"] != "bad_crc" and oracle["bit"] >= header_end
        if oracle and oracle["error"] == "bad_crc":
            outcome = "bad_crc"
        elif oracle and not body_error:
            outcome = f"{coding} header {oracle['error']}"
        elif coding != "packed":
            outcome = f"{coding} body shown"
        else:
            outcome = f"packed body {oracle['error'] if oracle else 'whole'}"
        counts[outcome] = counts.get(outcome, 0) + 1
        problems = []
        if oracle and oracle["error"] == "bad_crc":
            if not find(layers, "netser.bad_crc") and not any(find(e, "netser.bad_crc") for e in experts):
                problems.append("not flagged bad_crc")
        else:
            kind = "predicted delta" if coding == "packed" else "predicted delta, range-coded"
            if (find(layers, "netser.kind") or [None])[0] != kind:
                problems.append(f"kind {find(layers, 'netser.kind')}, not {kind}")
            if "sequence" in h and (find(layers, "netser.delta.sequence") or [None])[0] != str(h["sequence"]):
                problems.append(f"sequence {find(layers, 'netser.delta.sequence')}, the decoder reads {h['sequence']}")
            if "baselines" in h and find(layers, "netser.delta.baseline") != [str(b) for b in h["baselines"]]:
                problems.append(f"baselines {find(layers, 'netser.delta.baseline')}, the decoder reads {h['baselines']}")
            if "baseline_fingerprint" in h and \
                    find(layers, "netser.delta.baseline_fingerprint") != [f"0x{h['baseline_fingerprint']:08x}"]:
                problems.append(f"fingerprint {find(layers, 'netser.delta.baseline_fingerprint')}")
            if oracle and not body_error:  # a forged header (or one cut short)
                if not flagged or not shows_error(layers, oracle, schema):
                    problems.append(f"the header's error {oracle} not flagged")
            elif coding != "packed":
                body = find(layers, "netser.range_body")
                if body != [f"{len(data) - header_bits // 8 - (1 if header_bits % 8 else 0)} bytes: not decoded by "
                            "this dissector"]:
                    problems.append(f"range-coded body shown as {body}")
                if flagged or missing_note:
                    problems.append(f"a range-coded body got a verdict: {find(layers, '_ws.expert.message')}")
            else:
                shown_changes = sorted(delta_fields(layer))
                want_changes = sorted(decoder_changes(decoder.changes))
                compared += len(want_changes)
                if shown_changes != want_changes:
                    problems.append(f"changes {shown_changes[:4]}..., the decoder reads {want_changes[:4]}...")
                if oracle and oracle["error"] == "missing_baseline":
                    if not missing_note or flagged:
                        problems.append("no missing_baseline note for the prediction")
                elif oracle:
                    if not flagged or not shows_error(layers, oracle, schema):
                        problems.append(f"the body's error {oracle} not flagged")
                elif flagged or missing_note:
                    problems.append(f"flagged: {find(layers, '_ws.expert.message')}")
        if problems:
            failures += 1
            if failures <= 10:
                print(f"predicted frame {number} ({case['name']}): {'; '.join(problems)}")
    print(f"{len(cases)} predicted delta frames: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())) +
          f"; {compared} changes compared; {failures} failures")
    if compared == 0:
        failures += 1
    for needed in ("bad_crc", "packed body missing_baseline", "range body shown", "trained body shown",
                   "packed header out_of_range", "range header invalid_value"):
        if not counts.get(needed):
            failures += 1
            print(f"no predicted frame ended with {needed}")
    return failures


CODES_PORT = 45100  # check_codes_deltas' port
CODES_BASELINES = 8  # the values given with --delta-baseline, sequences 0..7
CODES_UNKNOWN = 5000  # a baseline number the dissector never sees


WIDE_CODES = ("wide", "rwide")  # the members whose values are not computed on a switch
ROTATIONS = ("rot", "facing", "rwide")  # the float smallest_three members


def codes_schema(pdir):
    """A schema of smallest-three members (Spins): smallest_three_codes' netser encodings of
    Piece.spin (max_code 511, ladder 2 4 8 32) and Scene.turn (1022, ladder 1 16 256 4096)
    from predicted_export's Scene schema, and two made from turn's with 26-bit codes: max_code
    2^25 (the largest the dissector re-expresses) and 2^26 - 1 (values not computed on a
    switch of the largest component); the float smallest_three's (a rotation, its delta that
    of smallest_three_codes on its codes, max_code its max_int): Piece.rot (smallest_three(9))
    with spin's ladder 2 4 8 32, Scene.facing (smallest_three(10)) and rwide, facing's with
    26 bits (max_int 2^26 - 2: no values on a switch)."""
    schema = json.loads(json.dumps(schemas_by_name(pdir, "Scene")))
    spin = [m for m in schema["types"]["Piece"]["members"] if m["name"] == "spin"][0]
    turn = [m for m in schema["types"]["Scene"]["members"] if m["name"] == "turn"][0]
    rot = json.loads(json.dumps([m for m in schema["types"]["Piece"]["members"] if m["name"] == "rot"][0]))
    facing = [m for m in schema["types"]["Scene"]["members"] if m["name"] == "facing"][0]
    rot["attributes"] = [a for a in rot["attributes"] if a["attr"] == "user"]
    rot["attributes"][0]["delta_ladder"] = [2, 4, 8, 32]
    d = rot["encoding"]["delta_body"]
    d.update(ladder=[2, 4, 8, 32], rungs=spin["encoding"]["delta_body"]["rungs"], max_code=510, code_bits=9,
             max_delta_bits=2 + 2 + 3 * 10)
    rwide = json.loads(json.dumps(facing))
    rwide["name"] = "rwide"
    e = rwide["encoding"]
    e["bits"], e["quantization"]["bits"], e["quantization"]["max_int"] = 26, 26, (1 << 26) - 2
    e["max_bits"] = e["min_bits"] = rwide["attributes"][0]["max_bits"] = 2 + 3 * 26
    for f in e["wire"][1:]:
        f["bits"], f["max_code"], f["quantization"] = 26, (1 << 26) - 2, e["quantization"]
    e["delta_body"].update(max_code=(1 << 26) - 2, code_bits=26, max_delta_bits=2 + 2 + 3 * 30)
    members = [spin, turn, rot, facing, rwide]
    for name, max_code in (("edge", 1 << 25), ("wide", (1 << 26) - 1)):
        m = json.loads(json.dumps(turn))
        m["name"] = name
        e = m["encoding"]
        e["max_bits"] = e["min_bits"] = m["attributes"][0]["max_bits"] = 2 + 3 * 26
        for f in e["wire"][1:]:
            f["bits"], f["max_code"] = 26, max_code
        e["delta_body"].update(max_code=max_code, code_bits=26, max_delta_bits=2 + 2 + 3 * 28)
        members.append(m)
    schema["types"] = {"Spins": {"kind": "struct", "name": "Spins", "recursive": False, "bases": [],
                                 "members": members}}
    schema["root_name"] = "Spins"
    schema["root"] = {"kind": "struct", "name": "Spins", "delta_body": {"form": "members"}}
    schema["max_bits"] = sum(m["encoding"]["max_bits"] for m in members)
    schema["max_delta_bits"] = 1 + sum(m["encoding"]["delta_body"]["max_delta_bits"] for m in members)
    return schema, [m["name"] for m in members]


def codes_value(rng, max_code):
    """A smallest_three_codes value: a random rotation's codes, or (one in four) any codes."""
    if rng.random() < 0.25:
        return {"largest": rng.randrange(4), "a": rng.randrange(max_code + 1), "b": rng.randrange(max_code + 1),
                "c": rng.randrange(max_code + 1)}
    q = [rng.gauss(0, 1) for _ in range(4)]
    largest = max(range(4), key=lambda i: abs(q[i]))
    norm = math.sqrt(sum(x * x for x in q)) * (1 if q[largest] > 0 else -1)
    codes = [min(max_code, max(0, round((q[i] / norm * math.sqrt(2) + 1) / 2 * max_code)))
             for i in range(4) if i != largest]
    return dict(zip(dec.SMALLEST_THREE_FIELDS, [largest] + codes))


def rotation_value(rng, decoder, e, near_tie=False):
    """A float smallest_three value: the rotation a reader decodes from codes_value's codes,
    or (near_tie) one whose fields are not a fixed point (docs/game_encodings.md: the writer
    searches for other fields, which the reference decoder does not model: unsupported)."""
    max_int = e["quantization"]["max_int"]
    while True:
        v = codes_value(rng, max_int)
        value = decoder._smallest_three_decode(e, v["largest"], [v[k] for k in "abc"])
        try:
            decoder._smallest_three_written(e, value, 0, "")
            tie = False
        except dec.DecodeError:
            tie = True
        if tie == near_tie:
            return value


def delta_codes(decoder, e, v):
    """The codes a smallest-three member's delta against v starts from, as codes_value's:
    v itself (smallest_three_codes), the fields rotation v writes to (smallest_three)."""
    if e["tag"] == "smallest_three_codes":
        return v
    largest, codes = decoder._smallest_three_fields(e, v, 0, "")
    return dict(zip(dec.SMALLEST_THREE_FIELDS, [largest] + codes))


def write_codes_delta(rng, w, e, base, hostile):
    """One smallest-three member's own delta against base (its codes, delta_codes; None:
    not known, any codes) into w; hostile: a step of 3 or a code out of its range. Whether it wrote the
    hostile field (a code out of range needs a rung or a code past the range's ends)."""
    d = e["delta_body"]
    max_code, rungs = d["max_code"], d["rungs"]
    if rng.random() < 0.2 and not hostile:
        w.put(0, 1)
        return False
    w.put(1, 1)
    largest = base["largest"] if base else 0
    codes = [base[k] for k in "abc"] if base else [max_code // 2] * 3
    if rng.random() < 0.4 and hostile != "step":
        w.put(1, 1)
    else:
        w.put(0, 1)
        step = 3 if hostile == "step" else rng.randrange(3)
        w.put(step, 2)
        if step == 3:
            return True
        largest, codes = dec.smallest_three_reexpress(largest, codes, (largest + 1 + step) & 3, max_code)
    bad = rng.randrange(3) if hostile == "range" else None
    wrote = False
    for k in range(3):
        if k == bad:
            past = []  # (rung, negative, amount) that leave the range, or (None, code) past max_code
            for j, g in enumerate(rungs):
                for negative, room in ((True, codes[k]), (False, max_code - codes[k])):
                    if g["hi"] > room:
                        past.append((j, negative, max(g["lo"], room + 1)))
            if max_code + 1 < 1 << d["code_bits"]:
                past.append((None, False, max_code + 1))
            if past:
                j, negative, amount = rng.choice(past)
                w.put(1, 1)
                if j is None:
                    w.put(0, len(rungs))
                    w.put(amount, d["code_bits"])
                else:
                    w.put(0, j)
                    w.put(1, 1)
                    w.put(1 if negative else 0, 1)
                    w.put(amount - rungs[j]["lo"], rungs[j]["bits"])
                wrote = True
                break  # the reader stops there
        if rng.random() < 0.35:
            w.put(0, 1)
            continue
        w.put(1, 1)
        j = rng.randrange(len(rungs) + 1)
        lo, hi = (rungs[j]["lo"], rungs[j]["hi"]) if j < len(rungs) else (0, 0)
        room = [x for x in (-1, 1) if j < len(rungs) and lo <= (codes[k] if x < 0 else max_code - codes[k])]
        if not room:  # the code whole
            w.put(0, len(rungs))
            codes[k] = rng.randrange(max_code + 1)
            w.put(codes[k], d["code_bits"])
            continue
        negative = rng.choice(room) < 0
        amount = rng.randint(lo, min(hi, codes[k] if negative else max_code - codes[k]))
        codes[k] += -amount if negative else amount
        w.put(0, j)
        w.put(1, 1)
        w.put(1 if negative else 0, 1)
        w.put(amount - lo, rungs[j]["bits"])
    return wrote


def codes_packet(rng, schema, names, header, bases, hostile, predicted):
    """A delta packet (header: sequence, baseline, fingerprint) or a predicted one
    (sequence, baselines, fingerprint) of Spins: the root's changed bit, each member's own
    delta, the end check, the CRC."""
    w = dec.BitWriter()
    w.put(0, 32)
    w.put(header[0], 16)
    if predicted:
        w.put(len(header[1]) - 1, 2)
        for b in header[1]:
            w.put(b, 16)
    else:
        w.put(header[1], 16)
    w.put(header[2], 32)
    w.put(1, 1)
    members = {m["name"]: m["encoding"] for m in schema["types"]["Spins"]["members"]}
    bad = rng.choice(names) if hostile else None
    for name in names:
        base = bases and delta_codes(dec.Decoder(schema), members[name], bases[name])
        if write_codes_delta(rng, w, members[name], base, hostile if name == bad else None):
            break  # the reader stops there
    payload = w.pos - 32
    w.align()
    layout = schema["packet"] if predicted else schema["delta_packet"]
    w.put(layout["end_check"]["magic"] ^ payload, 32)
    data = bytearray(w.data())
    ident = schema["packet"]["protocol_id"]["value"] ^ dec.PREDICTED_DELTA_PACKET_SALT if predicted else \
        schema["delta_packet"]["protocol_id"]["value"]
    data[0:4] = dec.crc32(ident.to_bytes(4, "little") + bytes(data[4:])).to_bytes(4, "little")
    return bytes(data)


def codes_fields(layer, names, root):
    """The dissector's fields of the smallest-three deltas: (bit, path, width, what); not
    the leaves of a rotation's value (smallest_three shows the rotation read there)."""
    out = []
    prefixes = tuple(f"{root}.{n}" for n in names)
    wholes = set(prefixes)

    def walk(tree):
        if not isinstance(tree, list):
            return
        for i, (k, v) in enumerate(tree):
            if k == "netser.member_tree" and i > 0 and tree[i - 1][0] == "netser.member":
                path = tree[i - 1][1]
                f = {kk: x for kk, x in v if not isinstance(x, list)}
                if path.partition("#")[0] in wholes and "netser.bit_offset" in f:
                    base, _, part = path.partition("#")
                    bit, width = int(f["netser.bit_offset"]), int(f["netser.bit_width"])
                    if "netser.same_largest" in f:
                        out.append((bit, base, width, "same_largest=" + f["netser.same_largest"]))
                    elif "netser.largest_step" in f:
                        out.append((bit, base, width, "step=" + f["netser.largest_step"]))
                    elif "netser.changed" in f:
                        what = "changed=" + f["netser.changed"]
                        if "netser.difference" in f:
                            what += " " + f["netser.difference"]
                        elif "netser.code" in f:
                            what += " code " + f["netser.code"]
                        out.append((bit, path, width, what))
                    else:
                        out.append((bit, path, width, "?"))
            walk(v)
    walk(layer)
    return sorted(out)


def decoder_codes_fields(changes, names, root):
    """The reference decoder's reading of the same deltas, in codes_fields' form: a code's
    changed bit and its difference (or whole code) are one field of the dissector's."""
    out = []
    prefixes = tuple(f"{root}.{n}" for n in names)
    for c in changes:
        path = c["path"]
        if not path.startswith(prefixes):
            continue
        if c["field"] == "changed":
            out.append([c["bit"], path, c["bits"], "changed=" + ("1" if c["changed"] else "0")])
        elif c["field"] == "same_largest":
            out.append([c["bit"], path, c["bits"], "same_largest=" + ("1" if c["same_largest"] else "0")])
        elif c["field"] == "largest_step":
            out.append([c["bit"], path, c["bits"], f"step={c['step']}"])
        elif c["field"] in ("difference", "code"):
            last = out[-1]
            assert last[1] == path and last[0] + 1 == c["bit"], (last, c)
            last[2] += c["bits"]
            last[3] += (" " + ("-" if c["difference"] < 0 else "+") + str(abs(c["difference"]))
                        if c["field"] == "difference" else f" code {c['code']}")
        else:
            out.append([c["bit"], path, c["bits"], c["field"]])
    return sorted(tuple(x) for x in out)


def check_codes_deltas(out_dir, tshark):
    """smallest_three_codes' own delta and smallest_three's, the same delta on the codes
    its baseline rotation writes to (docs/schema.md, user_attribute): delta packets of a
    schema of such members (codes_schema) against baselines given with --delta-baseline
    (one rotation among them a near tie: unsupported), against one the dissector does not
    have, and predicted ones (no prediction in the dissector), some hostile (a step of 3, a
    code out of its range). For every frame the dissector's fields of those deltas (changed
    bits, same largest, steps, differences, whole codes; their bits) must be the reference
    decoder's, its verdict the decoder's, and with a known baseline the values it shows the
    decoder's: the re-expressed codes, the rotation they read as, or (max_code past 2^25 on
    a switch) no values and a note. The number of failures."""
    rng = random.Random(20240611)
    schema, names = codes_schema(os.path.join(out_dir, "predicted"))
    encodings = {m["name"]: m["encoding"] for m in schema["types"]["Spins"]["members"]}
    schema_path = os.path.join(out_dir, "Spins.schema.json")
    with open(schema_path, "w", encoding="utf-8") as f:
        json.dump(schema, f)
    decoder = dec.Decoder(schema)
    max_codes = {m["name"]: m["encoding"]["delta_body"]["max_code"] for m in schema["types"]["Spins"]["members"]}
    lua = os.path.join(out_dir, "netser_codes.lua")
    args = [sys.executable, TOOL, "-o", lua, "--delta-port", f"{CODES_PORT}={schema_path}"]
    bases = []
    for s in range(CODES_BASELINES):
        # baseline 7's rot: a near tie (the reference decoder's unsupported)
        v = {name: rotation_value(rng, decoder, encodings[name], (s, name) == (7, "rot")) if name in ROTATIONS
             else codes_value(rng, max_codes[name]) for name in names}
        bases.append(v)
        path = os.path.join(out_dir, f"Spins.baseline{s}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(v, f)
        args += ["--delta-baseline", f"{CODES_PORT}={s}:{path}"]
    subprocess.run(args, check=True)
    frames = []  # (kind, bytes, baseline value or MISSING)
    for i in range(240):
        kind = ("known", "known", "known", "unknown", "predicted")[i % 5]
        hostile = rng.choice(("step", "range")) if i % 7 == 3 else None
        sequence = 100 + i
        if kind == "known":
            s = rng.randrange(CODES_BASELINES)
            header = (sequence, s, decoder.baseline_fingerprints(bases[s])[0])
            frames.append((kind, codes_packet(rng, schema, names, header, bases[s], hostile, False), bases[s]))
        elif kind == "unknown":
            header = (sequence, CODES_UNKNOWN, rng.getrandbits(32))
            frames.append((kind, codes_packet(rng, schema, names, header, None, hostile, False), dec.MISSING))
        else:
            header = (sequence, [sequence - 1, sequence - 3], rng.getrandbits(32))
            frames.append((kind, codes_packet(rng, schema, names, header, None, hostile, True), dec.MISSING))
    pcap = os.path.join(out_dir, "codes.pcap")
    shown = dissect_datagrams(tshark, lua, pcap, [(CODES_PORT, data) for _, data, _ in frames],
                              "smallest-three packets")
    if shown is None:
        return 1
    failures, counts = 0, {}
    for number, ((kind, data, base), frame) in enumerate(zip(frames, shown), 1):
        layers = dict(dict(frame)["_source"])["layers"]
        layer = ([v for k, v in layers if k == "netser"] or [[]])[0]
        decoder = dec.Decoder(schema)
        value = dec.MISSING
        try:
            if kind == "predicted":
                decoder.decode_predicted_packet(data, None, None, None)
            else:
                _, value, _ = decoder.decode_delta_packet(data, None, base)
            oracle = None
        except dec.DecodeError as e:
            oracle = {"error": e.code, "bit": e.bit, "path": e.path}
        problems = []
        experts = find(layers, "_ws.expert")
        flagged = any(find(e, "netser.malformed") or find(e, "netser.bad_crc") or find(e, "netser.baseline_mismatch")
                      or find(e, "netser.missing_baseline") for e in experts)
        want = decoder_codes_fields(decoder.changes, names, "Spins")
        got = codes_fields(layer, names, "Spins")
        counts["fields compared"] = counts.get("fields compared", 0) + len(want)
        if got != want:
            diff = [x for x in got if x not in want][:3], [x for x in want if x not in got][:3]
            problems.append(f"fields: the dissector's own {diff[0]}, the decoder's own {diff[1]}")
        if oracle:
            counts[f"{kind} {oracle['error']}"] = counts.get(f"{kind} {oracle['error']}", 0) + 1
            if not flagged or not shows_error(layers, oracle, schema):
                problems.append(f"the error {oracle} not flagged")
        elif flagged:
            problems.append(f"flagged: {find(layers, '_ws.expert.message')}")
        else:
            counts[kind] = counts.get(kind, 0) + 1
            values = dict(members(layer))
            leaves = {}
            if value is not dec.MISSING:
                flatten(value, "Spins", leaves)
            for path, v in leaves.items():
                member = re.split(r"[.\[]", path)[1]
                switched = any(c["field"] == "largest_step" and c["path"] == "Spins." + member for c in decoder.changes)
                if member in WIDE_CODES and switched:
                    if path in values:
                        problems.append(f"{path} shown ({values[path]}) past exact arithmetic")
                    if not any(p == f"Spins.{member}#values" for p in find(layer, "netser.member")):
                        problems.append(f"no note that the {member} codes' values are not computed")
                    continue
                counts["values checked"] = counts.get("values checked", 0) + 1
                if member in ROTATIONS:
                    what = "rotation values checked" + (" (switched)" if switched else "")
                    counts[what] = counts.get(what, 0) + 1
                if path not in values or not same_leaf(v, values[path]):
                    problems.append(f"{path}: the dissector shows {values.get(path)!r}, the decoder reads {v!r}")
            if value is dec.MISSING and any(p.startswith("Spins.") for p in values):
                problems.append(f"values shown without the baseline: {sorted(values)[:4]}")
        if problems:
            failures += 1
            if failures <= 10:
                print(f"smallest-three frame {number} ({kind}): {'; '.join(problems)}")
    print(f"{len(frames)} smallest-three delta frames: " +
          ", ".join(f"{v} {k}" for k, v in sorted(counts.items())) + f"; {failures} failures")
    for needed in ("known", "unknown", "predicted", "known out_of_range", "values checked", "known unsupported",
                   "rotation values checked", "rotation values checked (switched)"):
        if not counts.get(needed):
            failures += 1
            print(f"no smallest-three frame: {needed}")
    return failures


MIXED_PORT = 44500


def check_mixed_port(out_dir, tshark, capture):
    """One port, plain packets of one type and delta packets of another (--port
    P=Ping.schema.json --delta-port P=Player.schema.json): each packet must be taken for
    the kind whose protocol id its CRC matches (Ping's schema hash, Player's XOR the
    salt), and a Player packet, which is neither, refused with bad_crc. The number of
    failures."""
    frames = [f for f in capture if (f["port"] == 40001 and not f["delta"]) or f["port"] == 41002]
    lua = os.path.join(out_dir, "netser_mixed.lua")
    subprocess.run([sys.executable, TOOL, "-o", lua, "--port", f"{MIXED_PORT}={os.path.join(out_dir, 'Ping.schema.json')}",
                    "--delta-port", f"{MIXED_PORT}={os.path.join(out_dir, 'Player.schema.json')}",
                    "--delta-baseline", f"{MIXED_PORT}=0:{os.path.join(out_dir, 'Player.baseline0.json')}"], check=True)
    frames = [f for f in frames if f["hex"]]  # tshark skips an empty datagram
    pcap = os.path.join(out_dir, "mixed_port.pcap")
    shown = dissect_datagrams(tshark, lua, pcap, [(MIXED_PORT, dec.parse_hex(f["hex"])) for f in frames], "mixed port")
    if shown is None:
        return 1
    failures, kinds, applied = 0, {"plain": 0, "delta": 0, "neither": 0}, 0
    for number, (want, frame) in enumerate(zip(frames, shown), 1):
        layers = dict(dict(frame)["_source"])["layers"]
        expect = want["expect"]
        if want["port"] == 41002 and not want["delta"]:
            kind, root = None, None  # a Player packet: neither Ping's nor a Player delta packet
        else:
            kind, root = ("delta", "Player") if want["delta"] else ("plain", "Ping")
            if not expect["ok"] and expect["error"] in ("bad_crc", "overflow") and expect["bit"] == 0:
                kind, root = None, None
        bad_crc = bool(find(layers, "netser.bad_crc")) or any(find(e, "netser.bad_crc")
                                                            for e in find(layers, "_ws.expert"))
        shown_kind = (find(layers, "netser.kind") or [None])[0]
        shown_root = (find(layers, "netser.root") or [None])[0]
        if kind is None:
            kinds["neither"] += 1
            ok = shown_kind is None and (bad_crc or expect.get("error") == "overflow")
        else:
            kinds[kind] += 1
            ok = not bad_crc and shown_kind == kind and shown_root == root
        if ok and kind == "delta" and expect["ok"] and "value" in expect:
            values = dict(members(dict(layers)["netser"]))
            leaves = {}
            flatten(expect["value"], "Player", leaves)
            if all(p in values and same_leaf(v, values[p]) for p, v in leaves.items()):
                applied += 1
            elif any(p in values for p in leaves):
                ok = False
        if not ok:
            failures += 1
            if failures <= 10:
                print(f"mixed port frame {number}: want {kind or 'bad_crc'} {root or ''}, the dissector shows kind "
                      f"{shown_kind}, root {shown_root}, bad_crc {bad_crc}")
    print(f"mixed port: {len(frames)} frames ({', '.join(f'{v} {k}' for k, v in kinds.items())}), {applied} deltas "
          f"applied, {failures} failures")
    if min(kinds.values()) == 0 or applied == 0:
        failures += 1
    return failures


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
    known = {}  # port -> {sequence: the value netser read}: what the dissector can apply
    for port, (name, seeded) in DELTA_PORTS.items():
        args += ["--delta-port", f"{port}={os.path.join(out_dir, name + '.schema.json')}"]
        known[port] = {}
        if seeded:
            seed = os.path.join(out_dir, name + ".baseline0.json")
            args += ["--delta-baseline", f"{port}=0:{seed}"]
            with open(seed, encoding="utf-8") as f:
                known[port][0] = json.load(f)
    subprocess.run(args, check=True)
    started = time.monotonic()
    run = subprocess.run([tshark, "-X", f"lua_script:{lua}", "-r", os.path.join(out_dir, "capture.pcap"), "-T", "json"],
                         capture_output=True, text=True)
    seconds = time.monotonic() - started
    megabytes = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024  # the largest child: tshark
    print(f"tshark: {seconds:.2f} s, {megabytes} MB")
    if run.returncode != 0:
        print("tshark failed:", run.returncode, run.stderr)
        return 1
    # The capture holds a hostile 1198-byte packet (schema_export's hostile_snode): without
    # the element budget, tshark took 2.1 GB and 6.5 s on it (docs/schema.md section 7).
    if megabytes > MAX_TSHARK_MB:
        print(f"tshark took {megabytes} MB, more than {MAX_TSHARK_MB}: the element budget does not bound it")
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
    delta_counts = {"applied": 0, "changes only": 0, "missing baseline": 0, "changes compared": 0, "flagged": 0,
                    "entries by key": 0}
    for number, (frame, want) in enumerate(zip(frames, expected), 1):
        layers = dict(dict(frame)["_source"])["layers"]
        netser = [v for k, v in layers if k == "netser"]
        if not netser:
            failures += 1
            print(f"frame {number}: not dissected as netser (was the Lua script loaded?)")
            continue
        experts = find(layers, "_ws.expert")
        malformed = any(find(e, "netser.malformed") or find(e, "netser.bad_crc") or find(e, "netser.baseline_mismatch")
                        for e in experts) or \
            any(find(layers, f) for f in ("netser.malformed", "netser.bad_crc", "netser.baseline_mismatch"))
        if want["delta"]:
            failures += check_delta_frame(number, want, layers, netser[0], malformed, out_dir, known, delta_counts)
            continue
        # Past netser's allocation budget, what netser reads without it (the tools count
        # elements, docs/schema.md section 7); tools_only: the tools' own answer.
        expect = want["expect"].get("unbounded", want["expect"])
        root = expect.get("value") if expect["ok"] else None
        with open(os.path.join(out_dir, PORTS[want["port"]] + ".schema.json"), encoding="utf-8") as f:
            schema = json.load(f)
        if not expect["ok"]:
            if not malformed or not shows_error(layers, expect, schema):
                failures += 1
                print(f"frame {number}: read_packet says {expect['error']}, the dissector did not")
            else:
                flagged += 1
            continue
        if malformed:
            failures += 1
            print(f"frame {number}: a good packet was flagged: {experts}")
            continue
        shown = dict(members(netser[0]))
        leaves = {}
        flatten(root, schema["root_name"] or "root", leaves)
        for path, value in leaves.items():
            checked_values += 1
            if path not in shown:
                failures += 1
                print(f"frame {number}: {path} = {value!r} not shown (shown: {sorted(shown)[:8]}...)")
            elif not same_leaf(value, shown[path]):
                failures += 1
                print(f"frame {number}: {path}: dissector shows {shown[path]!r}, netser read {value!r}")
    print(f"{len(frames)} frames, {checked_values} values checked, {flagged} hostile frames flagged, {failures} failures")
    print("delta frames: " + ", ".join(f"{v} {k}" for k, v in delta_counts.items()))
    if checked_values == 0 or flagged == 0 or min(delta_counts.values()) == 0:
        failures += 1
    failures += check_hostile_deltas(out_dir, tshark)
    failures += check_mixed_port(out_dir, tshark, expected)
    failures += check_predicted(out_dir, tshark)
    failures += check_codes_deltas(out_dir, tshark)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
