#!/usr/bin/env python3
"""tools/netser_schema_diff.py on pairs of schemas that differ in one thing each.

    test_diff.py EXPORT_DIR

schema_export wrote EXPORT_DIR/diff/<case>.a.json and <case>.b.json from the structs of
tests/schema/diff_types.hpp; the lines each case must print are written here by hand.
Recursive structs and names outside ASCII: the exported schemas of Tree, SNode and Maß
against themselves and against copies changed here; a struct met on 2^40 paths, compared
once.
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree: not here,
os.environ["PYTHONDONTWRITEBYTECODE"] = "1"  # nor from the tools this test runs
HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools", "netser_schema_diff.py")

CASES = {
    "same": (0, []),
    "range_changed": (1, ["Pos.x: range [-100, 100] -> [-100, 200] (8 -> 9 bits)"]),
    "range_to_bits": (1, ["Pos.x: attribute range [-100, 100] removed", "Pos.x: attribute bits 8 added"]),
    "quantize_resolution": (1, ["Pos.heading: quantize resolution 0.5 -> 0.25 (10 -> 11 bits)"]),
    "max_size_changed": (1, ["Pos.items: max_size 8 -> 16 (4 -> 5 bits)"]),
    "max_length_changed": (1, ["Pos.name: max_length 16 -> 40 (5 -> 6 bits)"]),
    "type_changed": (1, ["Pos.hp: type uint8 -> uint16"]),
    # common sends a changed hp whole in deltas: its delta body changes too.
    "attribute_added": (1, ["Pos.hp: attribute common(100) added",
                            "Pos.hp: delta body difference -> plain (deltas only)"]),
    # hp is range(0, 100) (codes [0, 100], 7 bits). The default ladder keeps rungs [1, 1]
    # (2 bits) and [2, 16] (7 bits): [17, 100] would take 1 + 2 + 7 = 11 bits, not fewer
    # than 3 flags and the 7-bit code. Limits 2, 8 give [1, 2] (3 bits) and [3, 8] (6
    # bits); 4, 64 give [1, 4] (4 bits) and [5, 64] (9 bits, not fewer than 2 + 7): one rung.
    "delta_ladder_added": (1, ["Pos.hp: attribute delta_ladder(2, 8) added "
                               "(deltas only; ladder 1, 16, 256, 4096 -> 2, 8, rungs 1-1, 2-16 -> 1-2, 3-8)"]),
    "delta_ladder_changed": (1, ["Pos.hp: delta_ladder 2, 8 -> 4, 64 (deltas only; rungs 1-2, 3-8 -> 1-4)"]),
    "delta_whole_added": (1, ["Pos.hp: attribute delta_whole added (deltas only)"]),
    "smallest_three_ladder": (1, ["Spin.q: smallest_three delta ladder 1, 16, 256, 4096 -> 2, 4, 8, 32 (deltas only)"]),
    "enum_changed": (1, ["Pos.weapon: enumerator rocket added"]),
    "members_changed": (1, [
        "Pos.name: removed",
        "Pos: member order changed: x, hp, heading, items, alive, weapon, rotation -> "
        "hp, x, alive, heading, items, weapon, rotation (alive, x moved)",
        "Pos.heading: attribute only_if alive added",
        "Pos.items: attribute check 0x3a79338f added",
        "Pos.rotation: smallest_three 29 -> 32 bits",
        "Pos.score: added (uint16 range [0, 1000], 10 bits)",
    ]),
    "nested": (1, [
        "Cube.position.x: quantize resolution 0.002 -> 0.001 (20 -> 21 bits)",
        "Cube.extra: type variant<Vec2, uint8> -> variant<Vec2, uint8, bool>",
    ]),
}


def edited(schema, edit):
    """A copy of schema changed by edit(copy), under another schema hash."""
    out = copy.deepcopy(schema)
    edit(out)
    out["schema_hash_hex"] = "0x00000001"
    return out


def set_max_size(n):
    def edit(doc):
        kids = doc["types"]["Tree"]["members"][1]
        kids["attributes"][0]["n"] = n
        kids["encoding"].update(max_size=n, count_bits=n.bit_length())
    return edit


def change_maß(doc):
    members = doc["types"]["Maß"]["members"]
    members[0]["attributes"][0]["max"] = 250
    del members[1]


# Schemas of schema_export against themselves or an edited copy: (name, edit, exit status, lines).
EDITED = [
    ("Tree", None, 0, []),  # a recursive struct: compared once, where it is first met
    ("SNode", None, 0, []),
    ("Tree", set_max_size(4), 1, ["Tree.kids: max_size 3 -> 4 (2 -> 3 bits)"]),
    ("Mass", None, 0, []),
    ("Mass", change_maß, 1, ["Maß.ñ: removed", "Maß.größe: range [0, 200] -> [0, 250]"]),
]


def shared(depth):
    """A schema whose struct L<i> holds two L<i-1>: L0 is met on 2^depth paths."""
    leaf = {"kind": "int", "type": "uint8", "encoding": "raw", "bits": 8, "min": 0, "max": 255}
    types = {}
    for i in range(depth + 1):
        encoding = leaf if i == 0 else {"kind": "struct", "name": f"L{i - 1}"}
        members = [{"name": name, "type": "uint8" if i == 0 else f"L{i - 1}", "encoding": encoding}
                   for name in ("a", "b")]
        types[f"L{i}"] = {"kind": "struct", "name": f"L{i}", "recursive": False, "bases": [], "members": members}
    end = {"bits": 32, "magic": 0, "value": "magic"}
    return {"format": "netser-schema", "version": 1, "schema_hash": 1, "schema_hash_hex": "0x00000001",
            "root_name": f"L{depth}", "root": {"kind": "struct", "name": f"L{depth}"}, "types": types,
            "packet": {"protocol_id": {"value": 1}, "payload_bit_offset": 32, "end_check": end}}


def edited_pairs(export_dir):
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        dag = os.path.join(tmp, "shared.json")
        with open(dag, "w", encoding="utf-8") as f:
            json.dump(shared(40), f)
        try:
            run = subprocess.run([sys.executable, TOOL, dag, dag], capture_output=True, text=True, timeout=30)
            if run.returncode != 0:
                failures += 1
                print(f"FAIL a struct met on 2^40 paths: exit {run.returncode}\n  {run.stderr[-300:]}")
        except subprocess.TimeoutExpired:
            failures += 1
            print("FAIL a struct met on 2^40 paths: compared on each of them (still running after 30 s)")
        for name, edit, status, lines in EDITED:
            a = os.path.join(export_dir, name + ".schema.json")
            b = a
            if edit is not None:
                with open(a, encoding="utf-8") as f:
                    schema = json.load(f)
                b = os.path.join(tmp, name + ".edited.json")
                with open(b, "w", encoding="utf-8") as f:
                    json.dump(edited(schema, edit), f)
            run = subprocess.run([sys.executable, TOOL, a, b], capture_output=True, encoding="utf-8",
                                 env=dict(os.environ, PYTHONIOENCODING="utf-8"))
            body = [line for line in run.stdout.splitlines() if not line.startswith("protocol id")]
            if run.returncode != status or body != lines or run.stderr:
                failures += 1
                print(f"FAIL {name} against {'an edited copy' if edit else 'itself'}: exit {run.returncode} "
                      f"(want {status})\n  got {body}\n  want {lines}\n  {run.stderr[-300:]}")
    return failures


def main():
    out_dir = os.path.join(sys.argv[1], "diff")
    failures = 0
    for name, (status, lines) in CASES.items():
        a, b = (os.path.join(out_dir, f"{name}.{side}.json") for side in "ab")
        run = subprocess.run([sys.executable, TOOL, a, b], capture_output=True, text=True)
        got = run.stdout.splitlines()
        body = [line for line in got if not line.startswith("protocol id")]
        if run.returncode != status or body != lines or not got or not got[-1].startswith("protocol id"):
            failures += 1
            print(f"FAIL {name}: exit {run.returncode} (want {status})")
            print("  got:\n    " + "\n    ".join(got))
            print("  want:\n    " + "\n    ".join(lines))
        # The other way round: the same changes, reversed, and the same exit status.
        back = subprocess.run([sys.executable, TOOL, b, a], capture_output=True, text=True)
        if back.returncode != status:
            failures += 1
            print(f"FAIL {name} reversed: exit {back.returncode}")
    bad = subprocess.run([sys.executable, TOOL, os.path.join(out_dir, "same.a.json")], capture_output=True)
    if bad.returncode != 2:
        failures += 1
        print("FAIL: one argument must exit 2")
    failures += edited_pairs(sys.argv[1])
    print(f"{len(CASES)} pairs, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
