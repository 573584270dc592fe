#!/usr/bin/env python3
"""What changed between two netser schemas (netser::schema_json<T>(), docs/schema.md).

    netser_schema_diff.py OLD.json NEW.json

Prints member by member what changed ("Cube.position.x: quantize resolution 0.002 ->
0.001 (20 -> 21 bits)", "Player.name: removed", "Player.hp: delta_ladder 2, 8 -> 4, 64
(deltas only; rungs 1-2, 3-8 -> 1-4)"), then the protocol ids. A struct is compared
once (its lines are said again where it is used again), and not inside itself. Exit
status: 0 when the schema hashes are equal, 1 when they differ (each side's packets fail
the other's CRC: bad_crc), 2 on a bad file or usage (one line on stderr). Standard
library only (and tools/netser_schema_decode.py beside it, which checks the files).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import netser_schema_decode as dec  # noqa: E402  (reads and checks the schemas)


def value(v):
    """A schema number or float object, for display."""
    if isinstance(v, dict) and ("f32" in v or "f64" in v):
        return str(v["value"])
    return str(v)


def bits_of(encoding):
    """The fixed width of an encoding node, when it has one."""
    if encoding is None:
        return None
    if encoding.get("kind") in ("vector", "set", "map"):
        return encoding.get("count_bits")
    if encoding.get("kind") == "string":
        return encoding.get("length_bits")
    return encoding.get("bits") if encoding.get("kind") != "user_attribute" else encoding.get("max_bits")


def width_note(a, b):
    wa, wb = bits_of(a), bits_of(b)
    return f" ({wa} -> {wb} bits)" if wa is not None and wb is not None and wa != wb else ""


def describe_attr(attr):
    kind = attr["attr"]
    if kind == "range":
        return f"range [{value(attr['min'])}, {value(attr['max'])}]"
    if kind == "quantize":
        return f"quantize [{value(attr['min'])}, {value(attr['max'])}] at {value(attr['resolution'])}"
    if kind == "common":
        return "common(" + ", ".join(value(v) for v in attr["values"]) + ")"
    if kind in ("max_size", "max_length", "bits"):
        return f"{kind} {attr['n']}"
    if kind == "only_if":
        return f"only_if {attr['member']}"
    if kind == "check":
        return f"check {attr['magic_hex']}"
    if kind == "user":
        return f"{attr.get('tag') or 'user attribute'} ({attr['max_bits']} bits)"
    if kind == "delta_ladder":
        return "delta_ladder(" + ", ".join(value(v) for v in attr.get("limits", [])) + ")"
    return kind


DELTA_ATTRIBUTES = ("delta_ladder", "delta_whole")
DELTA_ONLY = " (deltas only)"


def difference_node(encoding):
    """The code node whose differences a member's delta_ladder sets (the member's own, or
    its elements' or value's), when there is one."""
    while encoding is not None and encoding.get("kind") in ("array", "vector", "optional"):
        encoding = encoding.get("value" if encoding["kind"] == "optional" else "element")
    if encoding is not None and encoding.get("delta_body", {}).get("form") == "difference":
        return encoding
    return None


def rungs_text(encoding):
    node = difference_node(encoding)
    if node is None:
        return None
    rungs = node["delta_body"]["rungs"]
    return ", ".join(f"{value(r['lo'])}-{value(r['hi'])}" for r in rungs) or "none"


def ladder_text(encoding):
    node = difference_node(encoding)
    return None if node is None else ", ".join(value(v) for v in node["delta_body"]["ladder"])


def attr_key(attr):
    return attr.get("tag") if attr["attr"] == "user" else attr["attr"]


def attr_changes(a, b, ea, eb):
    """What changed between two attributes of the same kind."""
    kind = a["attr"]
    note = width_note(ea, eb)
    if kind == "quantize":
        parts = [f"{k} {value(a[k])} -> {value(b[k])}" for k in ("min", "max", "resolution") if a[k] != b[k]]
        return ["quantize " + ", ".join(parts) + note]
    if kind == "range":
        return [f"range [{value(a['min'])}, {value(a['max'])}] -> [{value(b['min'])}, {value(b['max'])}]{note}"]
    if kind in ("max_size", "max_length", "bits"):
        return [f"{kind} {a['n']} -> {b['n']}{note}"]
    if kind == "user":
        out = []
        if a["max_bits"] != b["max_bits"]:
            out.append(f"{a.get('tag')} {a['max_bits']} -> {b['max_bits']} bits")
        if a.get("delta_ladder") != b.get("delta_ladder"):  # the codec's own delta (smallest_three)
            la, lb = (", ".join(value(v) for v in x.get("delta_ladder") or []) or "none" for x in (a, b))
            out.append(f"{a.get('tag')} delta ladder {la} -> {lb}{DELTA_ONLY}")
        return out or [f"{describe_attr(a)} -> {describe_attr(b)}"]
    if kind == "delta_ladder":
        old, new = (", ".join(value(v) for v in x.get("limits", [])) for x in (a, b))
        ra, rb = rungs_text(ea), rungs_text(eb)
        rungs = f"; rungs {ra} -> {rb}" if ra is not None and rb is not None and ra != rb else ""
        return [f"delta_ladder {old} -> {new} (deltas only{rungs})"]
    return [f"{describe_attr(a)} -> {describe_attr(b)}"]


class Differ:
    def __init__(self, a, b):
        self.a, self.b = a, b
        self.lines = []
        self.open = set()  # the definitions being compared: met again inside themselves, not again
        self.done = {}  # the definitions compared: their lines, after the path, to say again elsewhere
        self.delta_said = False  # a member's delta attributes changed: its ladders are said

    def delta(self, path, ea, eb):
        """A node's delta body that changed without its attributes saying so (another
        form, another ladder: a default of another netser)."""
        da, db = ea.get("delta_body"), eb.get("delta_body")
        if self.delta_said or da is None or db is None:
            return
        if da.get("form") != db.get("form"):
            self.say(path, f"delta body {da.get('form')} -> {db.get('form')}{DELTA_ONLY}")
        elif da.get("form") in ("difference", "own") and da.get("ladder") != db.get("ladder"):
            old, new = (", ".join(value(v) for v in d.get("ladder") or []) or "none" for d in (da, db))
            self.say(path, f"delta ladder {old} -> {new}{DELTA_ONLY}")

    def say(self, path, text):
        self.lines.append(f"{path}: {text}")

    def struct_def(self, doc, node):
        return node if "members" in node else doc["types"].get(node["name"])

    def encoding(self, path, ea, eb):
        """Differences of two encoding nodes that the attributes do not already say."""
        if ea == eb and ea.get("kind") != "struct" and "struct" not in json.dumps(ea):
            return  # a reference to a struct is equal in both, its definitions may not be
        ka, kb = ea.get("kind"), eb.get("kind")
        if ka != kb:
            self.say(path, f"encoding {ka} -> {kb}")
            return
        self.delta(path, ea, eb)
        if ka == "struct":
            if ea.get("name") != eb.get("name"):
                self.say(path, f"struct {ea.get('name')} -> {eb.get('name')}")
                return
            self.struct(path, self.struct_def(self.a, ea), self.struct_def(self.b, eb))
        elif ka == "enum":
            old = {e["name"]: e["value"] for e in ea["enumerators"]}
            new = {e["name"]: e["value"] for e in eb["enumerators"]}
            note = width_note(ea, eb)
            for name in old:
                if name not in new:
                    self.say(path, f"enumerator {name} removed{note}")
                elif old[name] != new[name]:
                    self.say(path, f"enumerator {name} = {old[name]} -> {new[name]}{note}")
            for name in new:
                if name not in old:
                    self.say(path, f"enumerator {name} added{note}")
        elif ka == "variant":
            old = [x["name"] for x in ea["alternatives"]]
            new = [x["name"] for x in eb["alternatives"]]
            if old != new:
                self.say(path, f"alternatives {', '.join(old)} -> {', '.join(new)}{width_note_index(ea, eb)}")
            for x, y in zip(ea["alternatives"], eb["alternatives"]):
                if x["name"] == y["name"]:
                    self.encoding(f"{path}<{x['name']}>", x["encoding"], y["encoding"])
        elif ka in ("array", "vector", "set", "sparse", "optional"):
            # Lengths are in the declared type, limits in the attributes: both said already.
            inner = "value" if ka == "optional" else "element"
            self.encoding(path + ("" if ka == "optional" else "[]"), ea[inner], eb[inner])
        elif ka == "map":
            self.encoding(path + "[key]", ea["key"], eb["key"])
            self.encoding(path + "[]", ea["value"], eb["value"])
        elif ka == "aggregate":
            for fa, fb in zip(ea["fields"], eb["fields"]):
                self.encoding(f"{path}.{fa['name']}", fa["encoding"], fb["encoding"])
            if len(ea["fields"]) != len(eb["fields"]):
                self.say(path, f"fields {len(ea['fields'])} -> {len(eb['fields'])}")

    def struct(self, path, da, db):
        if da is None or db is None:
            return
        key = (id(da), id(db), self.delta_said)
        if key in self.open:
            return  # a struct inside itself: compared where it was first met
        if key in self.done:  # compared at another path (a struct used twice): the same lines
            self.lines += [path + line for line in self.done[key]]
            return
        self.open.add(key)
        first = len(self.lines)
        try:
            self.struct_body(path, da, db)
        finally:
            self.open.discard(key)
        self.done[key] = [line[len(path):] for line in self.lines[first:]]

    def struct_body(self, path, da, db):
        bases_a = [x.get("name") for x in da["bases"]]
        bases_b = [x.get("name") for x in db["bases"]]
        if bases_a != bases_b:
            self.say(path, f"bases {', '.join(bases_a) or 'none'} -> {', '.join(bases_b) or 'none'}")
        for x, y in zip(da["bases"], db["bases"]):
            if x.get("name") == y.get("name"):
                self.encoding(path, x, y)
        ma = {m["name"]: m for m in da["members"]}
        mb = {m["name"]: m for m in db["members"]}
        for m in da["members"]:
            if m["name"] not in mb:
                self.say(f"{path}.{m['name']}", "removed")
        order_a = [m["name"] for m in da["members"] if m["name"] in mb]
        order_b = [m["name"] for m in db["members"] if m["name"] in ma]
        if order_a != order_b:
            moved = moved_members(order_a, order_b)
            self.say(path, f"member order changed: {', '.join(order_a)} -> {', '.join(order_b)}"
                     f" ({', '.join(sorted(set(moved)))} moved)")
        for m in db["members"]:
            if m["name"] not in ma:
                self.say(f"{path}.{m['name']}", f"added ({summary(m)})")
            else:
                self.member(f"{path}.{m['name']}", ma[m["name"]], m)

    def member(self, path, a, b):
        if a.get("type") != b.get("type"):
            self.say(path, f"type {a.get('type')} -> {b.get('type')}{width_note(a.get('encoding'), b.get('encoding'))}")
        aa = {attr_key(x): x for x in a.get("attributes", [])}
        ab = {attr_key(x): x for x in b.get("attributes", [])}
        ea, eb = a.get("encoding"), b.get("encoding")
        for k, x in aa.items():
            if k not in ab:
                self.say(path, f"attribute {describe_attr(x)} removed{removed_note(x, ea, eb)}")
            elif x != ab[k]:
                for text in attr_changes(x, ab[k], ea, eb):
                    self.say(path, text)
        for k, x in ab.items():
            if k not in aa:
                self.say(path, f"attribute {describe_attr(x)} added{added_note(x, ea, eb)}")
        said = self.delta_said
        self.delta_said = said or any(
            (k in DELTA_ATTRIBUTES or x.get("attr") == "user") and aa.get(k) != ab.get(k)
            for k, x in list(aa.items()) + list(ab.items()))
        if a.get("type") == b.get("type") and ea and eb:
            self.encoding(path, ea, eb)
        self.delta_said = said

    def run(self):
        root = self.b.get("root_name") or self.a.get("root_name") or "root"
        ra, rb = self.a["root"], self.b["root"]
        if ra.get("kind") == "struct" and rb.get("kind") == "struct" and ra.get("name") != rb.get("name"):
            self.say(root, f"root {ra.get('name')} -> {rb.get('name')}")
        else:
            self.encoding(root, ra, rb)
        return self.lines


def added_note(attr, before, after):
    """What adding an attribute (or removing it: before and after swapped) does to the wire."""
    if attr["attr"] not in DELTA_ATTRIBUTES:
        return width_note(before, after)
    if attr["attr"] == "delta_ladder":
        la, lb, ra, rb = ladder_text(before), ladder_text(after), rungs_text(before), rungs_text(after)
        if None not in (la, lb) and ra != rb:
            return f" (deltas only; ladder {la} -> {lb}, rungs {ra} -> {rb})"
    return DELTA_ONLY


def moved_members(order_a, order_b):
    """The fewest members whose moves turn order_a into order_b: those outside a longest
    common subsequence of the two orders (on a tie, the later members of order_a stay)."""
    n, m = len(order_a), len(order_b)
    lcs = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            lcs[i][j] = (lcs[i + 1][j + 1] + 1 if order_a[i] == order_b[j]
                         else max(lcs[i + 1][j], lcs[i][j + 1]))
    stay, i, j = set(), 0, 0
    while i < n and j < m:
        if order_a[i] == order_b[j]:
            stay.add(order_a[i])
            i, j = i + 1, j + 1
        elif lcs[i + 1][j] >= lcs[i][j + 1]:
            i += 1
        else:
            j += 1
    return [x for x in order_a if x not in stay]


def removed_note(attr, before, after):
    return added_note(attr, before, after) if attr["attr"] in DELTA_ATTRIBUTES else ""


def width_note_index(a, b):
    return f" (index {a['index_bits']} -> {b['index_bits']} bits)" if a["index_bits"] != b["index_bits"] else ""


def summary(m):
    e = m.get("encoding")
    if m.get("skip"):
        return f"{m.get('type')}, skipped"
    attrs = ", ".join(describe_attr(x) for x in m.get("attributes", []))
    width = bits_of(e)
    return m.get("type", "?") + (f" {attrs}" if attrs else "") + (f", {width} bits" if width is not None else "")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    sys.setrecursionlimit(max(sys.getrecursionlimit(), dec.RECURSION_LIMIT))
    sys.stdout.reconfigure(errors="backslashreplace")  # names are UTF-8, the terminal may not be
    try:
        a, b = (dec.read_schema(path) for path in argv)
        lines = Differ(a, b).run()
    except dec.InputError as e:
        print(f"netser_schema_diff: {e}", file=sys.stderr)
        return 2
    except RecursionError:
        print("netser_schema_diff: a schema nested too deep", file=sys.stderr)
        return 2
    for line in lines:
        print(line)
    ha, hb = a["schema_hash_hex"], b["schema_hash_hex"]
    if ha == hb:
        print(f"protocol id {ha} in both: the peers read each other's packets")
        return 0
    if not lines:
        print("no member differs (the schema hashes differ in something this tool does not show)")
    print(f"protocol id {ha} -> {hb}: each side's packets fail the other's CRC (bad_crc)")
    return 1


if __name__ == "__main__":
    sys.exit(main())
