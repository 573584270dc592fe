#!/usr/bin/env python3
"""tools/netser_schema_diff.py on pairs of schemas that differ in one thing each.

    test_diff.py EXPORT_DIR

schema_export wrote EXPORT_DIR/diff/<case>.a.json and <case>.b.json from the structs of
tests/schema/diff_types.hpp; the lines each case must print are written here by hand.
"""
import os
import subprocess
import sys

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
    print(f"{len(CASES)} pairs, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
