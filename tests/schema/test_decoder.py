#!/usr/bin/env python3
"""The independent decoder (tools/netser_schema_decode.py) against netser's reader.

    test_decoder.py EXPORT_DIR

EXPORT_DIR holds what schema_export wrote: for each type its schema and cases (packets,
bare payloads, hostile packets) with what netser's read_packet / read_stream made of
each. The decoder, given only the schema, must give the same values (floats bit for
bit), or the same error code, bit and path. Then the golden packets of
tests/schema/data/golden_packets.json, written by hand from docs/wire_format.md, are
decoded against the exported schemas.

Deltas: EXPORT_DIR/*.delta.json hold delta bodies and delta packets (hostile ones
included) with the baseline as netser's reader held it and what that reader made of
them. Given the baseline, the decoder must agree exactly; without it, it may stop with
missing_baseline where the wire depends on the baseline, and must otherwise agree (an
error it finds is netser's, unless netser failed earlier on a check that needs the
baseline). A delta packet's header carries the fingerprint of its baseline (the CRC-32 of
the baseline's plain encoding): given the baseline, the decoder writes it back and checks
the fingerprint, so every delta packet netser reads checks its plain write against
netser's (every exported type's, none left unchecked), and the packets read against
another baseline, or flipped in that field, fail with baseline_mismatch at bit 64 as in
netser. tests/schema/data/golden_deltas.json, written by hand from the golden
vectors of tests/delta/delta_golden_test.cpp and tests/delta/keyed_golden_test.cpp and
docs/wire_format.md ("Delta", "Keyed deltas"; forged keys, counts and moves too), also
fixes the changes (changed bits, differences, element lists, entries by key, the order of
a keyed vector) the decoder reports. Values are compared with their sets and maps sorted
by key (an unordered map's own order is its buckets').

Hostile input the tools must stop on in bounded time and memory: schema_export's
SNode.hostile.json, a 1198-byte packet of a recursive sparse vector nested to the
limit, refused with too_large at the tools' element budget (docs/schema.md section 7),
under a memory limit and a time limit; a large set (its keys compared in linear time).
Bad input files (missing, not JSON, JSON of another shape, schemas that are not
netser's, bad baselines) and bad arguments: every tool (the decoder, the diff, the
dissector generator) says so in one line and exits with status 2.
Exit status 0 when everything agrees.
"""
import contextlib
import copy
import glob
import importlib
import io
import json
import math
import os
import resource
import struct
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree: not here,
os.environ["PYTHONDONTWRITEBYTECODE"] = "1"  # nor from the tools this test runs
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOOLS = os.path.join(ROOT, "tools")
sys.path.insert(0, TOOLS)
import netser_schema_decode as dec  # noqa: E402


def same(a, b):
    """Deep equality; floats bit for bit (-0.0 differs from 0.0), ints never equal floats."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, float) and isinstance(b, float) and struct.pack("<d", a) == struct.pack("<d", b)
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a.keys()) == list(b.keys()) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def sort_key(x):
    if isinstance(x, list):
        return tuple(sort_key(e) for e in x)
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return (0, x, "")
    return (1, 0, json.dumps(x, sort_keys=True))


def ordered(node, v, types, inline=()):
    """v with its sets and maps sorted by key: netser's std::set / std::map read them in
    key order, the decoder gives them in wire order (schema.md section 8)."""
    kind = node["kind"]
    if v is None:
        return v
    if kind in ("set", "map"):
        inner = node["element"] if kind == "set" else node["key"]
        items = [ordered(inner, x, types, inline) if kind == "set" else
                 [ordered(node["key"], x[0], types, inline), ordered(node["value"], x[1], types, inline)] for x in v]
        return sorted(items, key=sort_key)
    if kind in ("array", "vector", "sparse"):
        return [ordered(node["element"], x, types, inline) for x in v]
    if kind == "optional":
        return ordered(node["value"], v, types, inline)
    if kind == "variant":
        alt = node["alternatives"][v["index"]]
        return dict(v, value=ordered(alt["encoding"], v["value"], types, inline))
    if kind == "recursive":
        return ordered(inline[-1 - node["depth"]], v, types, inline)
    if kind == "aggregate":
        return {f["name"]: ordered(f["encoding"], v[f["name"]], types, inline + (node,)) for f in node["fields"]}
    if kind == "struct":
        definition = node if "members" in node else types[node["name"]]
        inline = inline + (node,) if "members" in node else inline
        out = dict(v)
        for base in definition["bases"]:
            out.update(ordered(base, {k: x for k, x in v.items()}, types, inline))
        for m in definition["members"]:
            if m["name"] in v and "encoding" in m:
                out[m["name"]] = ordered(m["encoding"], v[m["name"]], types, inline)
        return out
    return v


def expand(v):
    """Golden values may write a long sparse array as {"sparse_length": N, "slots": {index: value}}."""
    if isinstance(v, dict):
        if "sparse_length" in v:
            out = [None] * v["sparse_length"]
            for k, x in v["slots"].items():
                out[int(k)] = expand(x)
            return out
        return {k: expand(x) for k, x in v.items()}
    if isinstance(v, list):
        return [expand(x) for x in v]
    return v


def run(decoder, case):
    data = dec.parse_hex(case["hex"])
    try:
        if case["mode"] == "payload":
            value, r = decoder.decode_payload(data)
            return {"ok": True, "value": value, "bits": r.pos}
        value, bits = decoder.decode_packet(data, case.get("protocol_id"))
        return {"ok": True, "value": value, "bits": bits}
    except dec.DecodeError as e:
        return {"ok": False, "error": e.code, "bit": e.bit, "path": e.path}


def expected_path(expect, schema):
    path = expect["path"]
    if schema.get("root_name") is None and path.startswith(expect["cpp_root"]):
        # netser roots the path at the compiler's spelling of a type without a name.
        path = path[len(expect["cpp_root"]):].lstrip(".")
    return path


def agrees(got, expect, schema):
    if got["ok"] != expect["ok"]:
        return False
    if got["ok"]:
        # Both sorted: an unordered map's or set's own order is its buckets'.
        got_value = ordered(schema["root"], got["value"], schema["types"])
        expect_value = ordered(schema["root"], expect["value"], schema["types"])
        return same(got_value, expect_value) and ("bits" not in expect or got["bits"] == expect["bits"])
    return got["error"] == expect["error"] and got["bit"] == expect["bit"] and got["path"] == expected_path(expect, schema)


def run_delta(decoder, case, baseline):
    """The decoder on a delta case: the outcome and the changes it read."""
    data = dec.parse_hex(case["hex"])
    decoder.header = None
    try:
        if case["mode"] == "delta_payload":
            value, r = decoder.decode_delta(data, 0, baseline)
            out = {"ok": True, "bits": r.pos}
        else:
            header, value, bits = decoder.decode_delta_packet(data, case.get("protocol_id"), baseline)
            out = {"ok": True, "header": header, "bits": bits}
        if value is not dec.MISSING:
            out["value"] = value
    except dec.DecodeError as e:
        out = {"ok": False, "error": e.code, "bit": e.bit, "path": e.path}
        if decoder.header is not None:
            out["header"] = decoder.header
    return out, decoder.changes


def delta_agrees(got, expect, schema):
    if got.get("header") != expect.get("header"):
        return False
    return agrees(got, expect, schema)


def consistent_without_baseline(got, expect, with_baseline, schema):
    """What a decode without the baseline may say, given netser's answer with it."""
    if not got["ok"]:
        if got["error"] == "missing_baseline":
            return True
        if expect["ok"]:
            return False
        # netser failed first on a check that needs the baseline, or on the same thing
        return expect["bit"] < got["bit"] or (expect["error"], expect["bit"], expected_path(expect, schema)) == \
            (got["error"], got["bit"], got["path"])
    if not expect["ok"]:
        # the walk completed, so netser failed on a check that needs the baseline
        return with_baseline["ok"] is False and with_baseline["error"] == expect["error"]
    return got["bits"] == with_baseline["bits"] and got.get("header") == expect.get("header")


def change_tuple(item):
    """A change as golden_deltas.json writes it: [path, field, detail]."""
    detail = {"changed": "changed", "difference": "difference", "code": "code", "elements": "mode",
              "index": "index", "end": "index", "same_count": "same_count", "count": "count",
              "present": "present", "alternative": "alternative", "plain": "value", "entry": "removed",
              "added": "count", "order": "order", "move": "place"}.get(item["field"])
    return [item["path"], item["field"], item.get(detail) if detail else None]


def check_deltas(out_dir):
    failures, total, partial = 0, 0, 0
    kinds = set()
    fingerprints = {}  # what the decoder did with the fingerprints of the delta packets
    for cases_file in sorted(glob.glob(os.path.join(out_dir, "*.delta.json"))):
        with open(cases_file, encoding="utf-8") as f:
            cases = json.load(f)
        with open(os.path.join(out_dir, cases["schema"]), encoding="utf-8") as f:
            schema = json.load(f)
        decoder = dec.Decoder(schema)
        for case in cases["cases"]:
            total += 1
            got, changes = run_delta(decoder, case, case["baseline"])
            expect = case["expect"].get("unbounded", case["expect"])  # past netser's byte budget: section 7
            kinds.add(got["error"] if not got["ok"] else "ok")
            if case["mode"] == "delta_packet" and decoder.fingerprint is not None:
                fingerprints[decoder.fingerprint] = fingerprints.get(decoder.fingerprint, 0) + 1
            if not delta_agrees(got, expect, schema):
                failures += 1
                if failures <= 20:
                    print(f"DELTA MISMATCH {case['name']} ({case['mode']}): {case['hex'][:120]}")
                    print(f"  baseline: {json.dumps(case['baseline'])[:300]}")
                    print(f"  netser:   {json.dumps(expect)[:600]}")
                    print(f"  decoder:  {json.dumps(got)[:600]}")
                continue
            bare, _ = run_delta(decoder, case, dec.MISSING)
            if not bare["ok"] and bare["error"] == "missing_baseline":
                partial += 1
            if not consistent_without_baseline(bare, expect, got, schema):
                failures += 1
                if failures <= 20:
                    print(f"DELTA WITHOUT BASELINE {case['name']} ({case['mode']}): {case['hex'][:120]}")
                    print(f"  netser:  {json.dumps(expect)[:400]}")
                    print(f"  decoder: {json.dumps(bare)[:400]}")
    print(f"{total} delta cases, {partial} stopped for want of a baseline; outcomes seen: {', '.join(sorted(kinds))}")
    print("baseline fingerprints: " + ", ".join(f"{n} {what}" for what, n in sorted(fingerprints.items())))
    # Every exported type has a plain write the decoder knows: none goes unchecked.
    if set(fingerprints) != {"checked", "mismatch"}:
        failures += 1
        print("the baseline fingerprints were not all checked, or none was found to differ")
    for needed in ("ok", "bad_crc", "overflow", "out_of_range", "invalid_value", "too_large", "check_failed",
                   "baseline_mismatch"):
        if needed not in kinds:
            failures += 1
            print(f"no delta case ended with {needed}: the hostile cases do not cover it")
    # Golden vectors written by hand.
    with open(os.path.join(HERE, "data", "golden_deltas.json"), encoding="utf-8") as f:
        golden = json.load(f)
    for case in golden:
        total += 1
        with open(os.path.join(out_dir, case["schema"] + ".schema.json"), encoding="utf-8") as f:
            schema = json.load(f)
        decoder = dec.Decoder(schema)
        got, changes = run_delta(decoder, case, case["baseline"])
        expect = dict(case["expect"], cpp_root="")
        shown = [change_tuple(c) for c in changes]
        if not delta_agrees(got, expect, schema) or shown != case["changes"]:
            failures += 1
            print(f"GOLDEN DELTA MISMATCH {case['name']}:\n  expected {json.dumps(case['expect'])}\n"
                  f"  decoder  {json.dumps(got)}\n  changes expected {json.dumps(case['changes'])}\n"
                  f"  changes read     {json.dumps(shown)}")
            continue
        bare, bare_changes = run_delta(decoder, case, dec.MISSING)
        want = dict(case["without_baseline"])
        ok = bare["ok"] == want["ok"] and all(bare.get(k) == v for k, v in want.items())
        bare_shown = [change_tuple(c) for c in bare_changes]
        # A packet refused for its baseline's fingerprint reads its changes without one.
        shown = case.get("changes_without_baseline", shown)
        if not ok or bare_shown != shown[:len(bare_shown)] or (bare["ok"] and bare_shown != shown):
            failures += 1
            print(f"GOLDEN DELTA WITHOUT BASELINE {case['name']}:\n  expected {json.dumps(want)}\n"
                  f"  decoder  {json.dumps(bare)}\n  changes {json.dumps(bare_shown)}")
    print(f"{len(golden)} golden deltas")
    failures += check_unencodable(out_dir)
    return total, failures


def check_unencodable(out_dir):
    """A baseline the decoder cannot write back (an opaque codec of variable width): its
    fingerprint is reported as not checked, not as a mismatch."""
    with open(os.path.join(out_dir, "Ping_id.schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    opaque = {"kind": "user_type", "tag": None, "max_bits": 8, "min_bits": 1, "delta_body": {"form": "plain"}}
    schema["types"]["Ping"]["members"][1]["encoding"] = opaque
    decoder = dec.Decoder(schema)
    try:
        decoder.baseline_fingerprints({"sequence": 677, "reply": {"code": 1, "bits": 1}})
        print("UNENCODABLE: an opaque codec of variable width was written back")
        return 1
    except dec.NotEncodable:
        pass
    golden = dec.parse_hex("AB F2 50 1A 05 00 04 00 F9 BC 16 E1 07 B1 C6 24 47")
    try:
        decoder.decode_delta_packet(golden, 0x12345678, {"sequence": 677, "reply": {"code": 1, "bits": 1}})
    except dec.DecodeError as e:
        if e.code == "baseline_mismatch":
            print("UNENCODABLE: a fingerprint the decoder cannot take was reported as a mismatch")
            return 1
    if not (decoder.fingerprint or "").startswith("not checked"):
        print(f"UNENCODABLE: the fingerprint is {decoder.fingerprint!r}, not 'not checked'")
        return 1
    return 0


def limited(megabytes):
    """A child's preexec_fn: at most `megabytes` of address space."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))
    return limit


def check_hostile(out_dir):
    """Hostile packets the decoder must refuse or read in bounded time and memory."""
    failures = 0
    with open(os.path.join(out_dir, "SNode.hostile.json"), encoding="utf-8") as f:
        hostile = json.load(f)
    # Without the element budget: 127 s, 8.4 GB and 2 GB of output (65535 slots a node).
    with tempfile.TemporaryDirectory() as tmp:
        packet = os.path.join(tmp, "hostile.bin")
        with open(packet, "wb") as f:
            f.write(dec.parse_hex(hostile["hex"]))
        started = time.monotonic()
        try:
            cli = subprocess.run([sys.executable, os.path.join(TOOLS, "netser_schema_decode.py"),
                                  os.path.join(out_dir, hostile["schema"]), packet],
                                 capture_output=True, text=True, timeout=60, preexec_fn=limited(512))
            got = json.loads(cli.stdout) if cli.returncode == 1 else {"exit": cli.returncode}
        except ValueError:  # a traceback (out of memory)
            got = {"exit": cli.returncode, "stderr": cli.stderr[-300:]}
        except subprocess.TimeoutExpired:
            got = {"timeout": 60}
        seconds = time.monotonic() - started
    want = {k: hostile["expect"][k] for k in ("ok", "error", "bit", "path")}
    print(f"hostile SNode packet: {seconds:.2f} s")
    if got != want or seconds > 20:
        failures += 1
        print(f"HOSTILE {hostile['schema']}: the decoder says {json.dumps(got)[:300]}\n"
              f"  want {json.dumps(want)[:300]}")
    # netser counts bytes (32 a slot): it refuses the packet before the tools do, never after.
    netser = hostile["netser"]
    if netser.get("error") != "too_large" or netser["bit"] > want["bit"]:
        failures += 1
        print(f"HOSTILE {hostile['schema']}: netser says {json.dumps(netser)[:300]}, after the tools")
    # A set of 60000 keys: each compared with the earlier ones in constant time, not 1.8 * 10^9
    # comparisons (the payload: the count, then the keys, 16 bits each).
    schema = {"format": "netser-schema", "version": 1, "schema_hash": 0, "schema_hash_hex": "0x00000000",
              "root_name": None, "types": {},
              "root": {"kind": "set", "max_size": 65535, "count_bits": 16, "element_min_bits": 16,
                       "element": {"kind": "int", "type": "uint16", "encoding": "raw", "bits": 16, "min": 0,
                                   "max": 65535}},
              "packet": {"protocol_id": {"value": 0}, "payload_bit_offset": 32,
                         "end_check": {"bits": 32, "magic": 0, "value": "magic"}}}
    keys = 60000
    payload = b"".join(k.to_bytes(2, "little") for k in [keys] + list(range(keys)))
    started = time.monotonic()
    value, r = dec.Decoder(schema).decode_payload(payload)
    seconds = time.monotonic() - started
    print(f"a set of {keys} keys: {seconds:.2f} s")
    if value != list(range(keys)) or seconds > 5:
        failures += 1
        print(f"SET of {keys} keys: {seconds:.2f} s")
    return failures


def run_tool(tool, argv):
    """A tool's main(argv) in this process: (exit status, stdout, stderr)."""
    out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = importlib.import_module(tool).main(argv)
        except SystemExit as e:  # argparse's usage errors
            status = e.code
        except Exception as e:  # noqa: BLE001  (what the tool must never let out)
            status = f"{type(e).__name__}: {e}"
    out.flush()
    return status, out.buffer.getvalue().decode("utf-8"), err.getvalue()


def check_bad_inputs(out_dir):
    """Every tool on bad input files and arguments: exit status 2 and one line on stderr
    (argparse's usage errors: exit status 2); hostile packets: exit status 1."""
    failures = 0
    tools = {name: [f"netser_{name}"] for name in ("schema_decode", "schema_diff", "dissector")}
    ping = os.path.join(out_dir, "Ping_id.schema.json")
    golden = ["--hex", "ED E9 7C 62 A5 06 FF C6 24 47", "--protocol-id", "0x12345678"]
    delta = ["--delta", "--hex", "AB F2 50 1A 05 00 04 00 F9 BC 16 E1 07 B1 C6 24 47", "--protocol-id", "0x12345678"]
    with open(ping, encoding="utf-8") as f:
        ping_schema = json.load(f)
    with open(os.path.join(out_dir, "Tree.schema.json"), encoding="utf-8") as f:
        tree = json.load(f)
    with open(os.path.join(out_dir, "Dash.schema.json"), encoding="utf-8") as f:
        dash = json.load(f)

    def edit(doc, change):
        doc = copy.deepcopy(doc)
        change(doc)
        return doc

    with tempfile.TemporaryDirectory() as tmp:
        def write(name, content):
            path = os.path.join(tmp, name)
            with open(path, "wb") as f:
                f.write(content if isinstance(content, bytes) else json.dumps(content).encode("utf-8"))
            return path

        bad_schemas = {
            "a missing file": os.path.join(tmp, "none.json"),
            "not JSON": write("text.json", b"{nope"),
            "not UTF-8": write("latin.json", b'{"format": "\xff"}'),
            "nested too deep": write("deep.json", b"[" * 100000 + b"]" * 100000),
            "a list": write("list.json", [1, 2]),
            "another format": write("format.json", dict(ping_schema, format="other")),
            "a bits of text": write("bits.json", edit(ping_schema, lambda d: d["types"]["Ping"]["members"][0]
                                                      ["encoding"].update(bits="x"))),
            "an unknown kind": write("kind.json", edit(ping_schema, lambda d: d["types"]["Ping"]["members"][1]
                                                       ["encoding"].update(kind="blob"))),
            "no packet": write("packet.json", edit(ping_schema, lambda d: d.pop("packet"))),
            "a struct not in types": write("ref.json", edit(ping_schema, lambda d: d["root"].update(name="Pong"))),
            # Tree not recursive: a walk would never end (it nests a Tree in each Tree)
            "a cycle not recursive": write("cycle.json",
                                           edit(tree, lambda d: d["types"]["Tree"].update(recursive=False))),
            # a user codec's stated wire: a field wider than 32 bits, a code above its bits
            "a wire field of 33 bits": write("wire33.json", edit(dash, lambda d: d["types"]["Dash"]["members"][2]
                                                                 ["encoding"]["wire"][0].update(bits=33))),
            "a wire code above its bits": write("wirecode.json", edit(dash, lambda d: d["types"]["Dash"]["members"][2]
                                                                      ["encoding"]["wire"][0].update(max_code=32))),
        }
        bad_baselines = {
            "a missing file": os.path.join(tmp, "none.json"),
            "not JSON": write("text.json", b"{nope"),
            "a number": write("five.json", 5),
            "a member of another type": write("text_seq.json", {"sequence": "x", "reply": True}),
            "a member missing": write("no_seq.json", {"ok": True, "value": {"reply": True}}),
        }
        runs = []  # (what, command, exit status, one line on stderr)
        for what, path in bad_schemas.items():
            runs.append((f"decode a schema that is {what}", tools["schema_decode"] + [path] + golden, 2, True))
            runs.append((f"diff a schema that is {what}", tools["schema_diff"] + [ping, path], 2, True))
            runs.append((f"dissect a schema that is {what}", tools["dissector"] + ["--port", f"9={path}"], 2, True))
        for what, path in bad_baselines.items():
            runs.append((f"decode against a baseline that is {what}",
                         tools["schema_decode"] + [ping] + delta + ["--baseline", path], 2, True))
            runs.append((f"dissect with a baseline that is {what}",
                         tools["dissector"] + ["--delta-port", f"9={ping}", "--delta-baseline", f"9=0:{path}"],
                         2, True))
        runs += [
            ("decode bad hex", tools["schema_decode"] + [ping, "--hex", "zz"], 2, True),
            ("decode a missing packet file", tools["schema_decode"] + [ping, os.path.join(tmp, "none.bin")], 2, True),
            ("decode a protocol id past 32 bits", tools["schema_decode"] + [ping, "--hex", "00", "--protocol-id",
                                                                           "0x100000000"], 2, False),
            ("dissect a port past 65535", tools["dissector"] + ["--port", f"70000={ping}"], 2, True),
            ("dissect a bad protocol id", tools["dissector"] + ["--port", f"9={ping}", "--protocol-id", "9=x"],
             2, True),
            ("decode an empty packet", tools["schema_decode"] + [ping, "--hex", ""], 1, False),
            ("decode an empty delta packet", tools["schema_decode"] + [ping, "--delta", "--hex", ""], 1, False),
            ("decode garbage", tools["schema_decode"] + [ping, "--payload", "--hex", "ff" * 40], 1, False),
        ]
        for what, (tool, *argv), status, one_line in runs:
            got, stdout, stderr = run_tool(tool, argv)
            if got != status or (one_line and (len(stderr.splitlines()) != 1 or stdout)):
                failures += 1
                print(f"BAD INPUT: {what}: exit {got} (want {status})\n  stderr: {stderr[-400:]}")
    print(f"{len(runs)} runs on bad input")
    return failures


def main():
    out_dir = sys.argv[1]
    failures = 0
    total = 0
    kinds = set()
    for cases_file in sorted(glob.glob(os.path.join(out_dir, "*.cases.json"))):
        with open(cases_file, encoding="utf-8") as f:
            cases = json.load(f)
        with open(os.path.join(out_dir, cases["schema"]), encoding="utf-8") as f:
            schema = json.load(f)
        decoder = dec.Decoder(schema)
        for case in cases["cases"]:
            total += 1
            got = run(decoder, case)
            kinds.add(got["error"] if not got["ok"] else "ok")
            # netser's allocation budget counts bytes, the decoder's elements: where netser's
            # refused a packet, the decoder reads what netser reads without it (section 7).
            if not agrees(got, case["expect"].get("unbounded", case["expect"]), schema):
                failures += 1
                if failures <= 20:
                    print(f"MISMATCH {case['name']} ({case['mode']}): {case['hex'][:120]}")
                    print(f"  netser:  {json.dumps(case['expect'])[:600]}")
                    print(f"  decoder: {json.dumps(got)[:600]}")
    # Golden packets written by hand (docs/wire_format.md, docs/attributes.md).
    with open(os.path.join(HERE, "data", "golden_packets.json"), encoding="utf-8") as f:
        golden = json.load(f)
    for case in golden:
        total += 1
        with open(os.path.join(out_dir, case["schema"] + ".schema.json"), encoding="utf-8") as f:
            schema = json.load(f)
        got = run(dec.Decoder(schema), case)
        expect = expand(dict(case["expect"]))
        expect.setdefault("cpp_root", "")
        if not agrees(got, expect, schema):
            failures += 1
            print(f"GOLDEN MISMATCH {case['name']}:\n  expected {json.dumps(case['expect'])}\n  decoder  {json.dumps(got)}")
    # The command line: a packet file, --hex, exit statuses.
    tool = os.path.join(ROOT, "tools", "netser_schema_decode.py")
    ping = os.path.join(out_dir, "Ping_id.schema.json")
    cli = subprocess.run([sys.executable, tool, ping, "--hex", "ED E9 7C 62 A5 06 FF C6 24 47", "--protocol-id",
                          "0x12345678"], capture_output=True, text=True)
    if cli.returncode != 0 or json.loads(cli.stdout)["value"] != {"sequence": 677, "reply": True}:
        failures += 1
        print("CLI: the golden Ping did not decode:", cli.returncode, cli.stdout, cli.stderr)
    cli = subprocess.run([sys.executable, tool, ping, "--hex", "ED E9 7C 62 A5 06 FF C6 24 47"],
                         capture_output=True, text=True)
    if cli.returncode != 1 or json.loads(cli.stdout)["error"] != "bad_crc":
        failures += 1
        print("CLI: the golden Ping under the schema hash must fail with bad_crc:", cli.returncode, cli.stdout)
    # --delta: the golden delta packet, without a baseline (the changes) and with one (the
    # value, the fingerprint checked), and against another baseline (baseline_mismatch).
    golden_delta = "AB F2 50 1A 05 00 04 00 F9 BC 16 E1 07 B1 C6 24 47"
    header = {"sequence": 5, "baseline": 4, "baseline_fingerprint": 0xE116BCF9}
    cli = subprocess.run([sys.executable, tool, ping, "--delta", "--hex", golden_delta, "--protocol-id", "0x12345678"],
                         capture_output=True, text=True)
    got = json.loads(cli.stdout) if cli.returncode == 0 else {}
    if got.get("header") != header or "value" in got or "fingerprint" in got or \
            [c["field"] for c in got.get("changes", [])] != ["changed", "changed", "difference", "changed"]:
        failures += 1
        print("CLI: the golden delta packet without a baseline:", cli.returncode, cli.stdout, cli.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        base, stale = os.path.join(tmp, "base.json"), os.path.join(tmp, "stale.json")
        with open(base, "w", encoding="utf-8") as f:
            json.dump({"ok": True, "value": {"sequence": 677, "reply": True}, "bits": 11}, f)
        with open(stale, "w", encoding="utf-8") as f:
            json.dump({"sequence": 676, "reply": True}, f)
        cli = subprocess.run([sys.executable, tool, ping, "--delta", "--hex", golden_delta, "--protocol-id",
                              "0x12345678", "--baseline", base], capture_output=True, text=True)
        cli_stale = subprocess.run([sys.executable, tool, ping, "--delta", "--hex", golden_delta, "--protocol-id",
                                    "0x12345678", "--baseline", stale], capture_output=True, text=True)
    got = json.loads(cli.stdout) if cli.returncode == 0 else {}
    if got.get("value") != {"sequence": 678, "reply": True} or got.get("fingerprint") != "checked":
        failures += 1
        print("CLI: the golden delta packet with its baseline:", cli.returncode, cli.stdout, cli.stderr)
    got = json.loads(cli_stale.stdout) if cli_stale.returncode == 1 else {}
    if {k: got.get(k) for k in ("error", "bit", "path", "header", "changes")} != \
            {"error": "baseline_mismatch", "bit": 64, "path": "", "header": header, "changes": []}:
        failures += 1
        print("CLI: the golden delta packet against another baseline:", cli_stale.returncode, cli_stale.stdout,
              cli_stale.stderr)
    print(f"{total} cases, {failures} mismatches; outcomes seen: {', '.join(sorted(kinds))}")
    delta_total, delta_failures = check_deltas(out_dir)
    total += delta_total
    failures += delta_failures
    failures += check_hostile(out_dir)
    failures += check_bad_inputs(out_dir)
    for needed in ("ok", "bad_crc", "overflow", "out_of_range", "invalid_value", "too_large", "check_failed"):
        if needed not in kinds:
            failures += 1
            print(f"no case ended with {needed}: the hostile cases do not cover it")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
