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
baseline). tests/schema/data/golden_deltas.json, written by hand from the golden
vectors of tests/delta/delta_golden_test.cpp and docs/wire_format.md ("Delta"), also
fixes the changes (changed bits, differences, element lists) the decoder reports.
Exit status 0 when everything agrees.
"""
import glob
import json
import math
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))
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
        got_value = ordered(schema["root"], got["value"], schema["types"])
        return same(got_value, expect["value"]) and ("bits" not in expect or got["bits"] == expect["bits"])
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
              "present": "present", "alternative": "alternative", "plain": "value"}.get(item["field"])
    return [item["path"], item["field"], item.get(detail) if detail else None]


def check_deltas(out_dir):
    failures, total, partial = 0, 0, 0
    kinds = set()
    for cases_file in sorted(glob.glob(os.path.join(out_dir, "*.delta.json"))):
        with open(cases_file, encoding="utf-8") as f:
            cases = json.load(f)
        with open(os.path.join(out_dir, cases["schema"]), encoding="utf-8") as f:
            schema = json.load(f)
        decoder = dec.Decoder(schema)
        for case in cases["cases"]:
            total += 1
            got, changes = run_delta(decoder, case, case["baseline"])
            expect = case["expect"]
            kinds.add(got["error"] if not got["ok"] else "ok")
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
    for needed in ("ok", "bad_crc", "overflow", "out_of_range", "invalid_value", "too_large", "check_failed"):
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
        if not ok or bare_shown != shown[:len(bare_shown)] or (bare["ok"] and bare_shown != shown):
            failures += 1
            print(f"GOLDEN DELTA WITHOUT BASELINE {case['name']}:\n  expected {json.dumps(want)}\n"
                  f"  decoder  {json.dumps(bare)}\n  changes {json.dumps(bare_shown)}")
    print(f"{len(golden)} golden deltas")
    return total, failures


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
            if not agrees(got, case["expect"], schema):
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
    # --delta: the golden delta packet, without a baseline (the changes) and with one (the value).
    golden_delta = "25 A2 5D 94 05 00 04 00 07 D1 C6 24 47"
    cli = subprocess.run([sys.executable, tool, ping, "--delta", "--hex", golden_delta, "--protocol-id", "0x12345678"],
                         capture_output=True, text=True)
    got = json.loads(cli.stdout) if cli.returncode == 0 else {}
    if got.get("header") != {"sequence": 5, "baseline": 4} or "value" in got or \
            [c["field"] for c in got.get("changes", [])] != ["changed", "changed", "difference", "changed"]:
        failures += 1
        print("CLI: the golden delta packet without a baseline:", cli.returncode, cli.stdout, cli.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.join(tmp, "base.json")
        with open(base, "w", encoding="utf-8") as f:
            json.dump({"ok": True, "value": {"sequence": 677, "reply": True}, "bits": 11}, f)
        cli = subprocess.run([sys.executable, tool, ping, "--delta", "--hex", golden_delta, "--protocol-id",
                              "0x12345678", "--baseline", base], capture_output=True, text=True)
    if cli.returncode != 0 or json.loads(cli.stdout).get("value") != {"sequence": 678, "reply": True}:
        failures += 1
        print("CLI: the golden delta packet with its baseline:", cli.returncode, cli.stdout, cli.stderr)
    print(f"{total} cases, {failures} mismatches; outcomes seen: {', '.join(sorted(kinds))}")
    delta_total, delta_failures = check_deltas(out_dir)
    total += delta_total
    failures += delta_failures
    for needed in ("ok", "bad_crc", "overflow", "out_of_range", "invalid_value", "too_large", "check_failed"):
        if needed not in kinds:
            failures += 1
            print(f"no case ended with {needed}: the hostile cases do not cover it")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
