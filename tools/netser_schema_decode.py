#!/usr/bin/env python3
"""Reference decoder for netser packets, driven by a schema from netser::schema_json<T>().

Written from docs/schema.md and docs/wire_format.md only (not from the C++ code), so
that the tests that compare it with netser's own reader check the documents too.

    netser_schema_decode.py SCHEMA.json PACKET_FILE [--payload] [--protocol-id ID]
    netser_schema_decode.py SCHEMA.json --hex "A5 06" --payload
    netser_schema_decode.py SCHEMA.json --delta --hex "..." [--payload] [--baseline BASE.json]
    netser_schema_decode.py SCHEMA.json --predicted --hex "..." [--range | --prior PRIOR.hpp]
                            [--baseline B0.json [--baseline B1.json [--baseline B2.json]]]

Prints {"ok": true, "value": ..., "bits": N} or
{"ok": false, "error": "out_of_range", "bit": 42, "path": "Player.inventory[3]"}.
--delta reads a delta packet (or with --payload a bare serialize_delta body): it adds
"header" (a packet's sequence numbers and baseline fingerprint) and "changes" (every
field of the delta in wire order: changed bits, differences, element lists), and with
--baseline (a decoded value, as this tool prints it) the applied "value", after checking
the packet's baseline fingerprint against the baseline's (written back in its plain
encoding: "fingerprint": "checked", or baseline_mismatch at bit 64 as netser's reader). Without a baseline it stops with
missing_baseline where the wire depends on the baseline's value (docs/schema.md 9).
--predicted reads a predicted delta packet (docs/wire_format.md "Prediction", "Predicted
delta packets"), bit-packed, or range-coded with --range (the library default prior) or
--prior (a trained prior, the header delta_recording --write-prior writes): given the
baselines the header names (newest first) it checks their combined fingerprint, builds
the prediction (the predict_linear attributes of the schema) and applies the delta to it
("prediction", "value"); without them it stops with missing_baseline where the wire
depends on their values. A range-coded body is decoded with tools/range_coder_reference.py
and the contexts of "Range-coded packets"; its end check is the coder's.
A read makes at most 2^20 elements plus 1024 per byte of the packet (docs/schema.md
section 7, "Element budget"): past that, too_large, as past netser's allocation budget
(a range-coded body charges every element, as netser's range reader does: its bits pay
for none).
Exit status: 0 decoded, 1 refused, 2 a bad schema, baseline, input file or usage (one
line on stderr). Standard library only.
"""
import argparse
import itertools
import json
import math
import os
import re
import struct
import sys
import zlib

SUPPORTED_VERSIONS = (1,)
MAX_NESTING = 64  # recursive structs, root included (schema.md section 7)
# The element budget of a read (schema.md section 7): netser's default allocation budget,
# 1 MiB + 1 KiB per byte of the packet, counted in elements rather than bytes.
BUDGET_FLOOR, BUDGET_PER_BYTE = 1 << 20, 1024
# Python's recursion limit for the tools: 64 nested recursive structs take a few hundred
# frames; a schema or baseline that needs more is refused ("nested too deep").
RECURSION_LIMIT = 4000


class _Missing:
    """A baseline value the decoder was not given."""

    def __repr__(self):
        return "MISSING"


MISSING = _Missing()


class DecodeError(Exception):
    """A packet netser refuses: the errc name, the bit and the member path."""

    def __init__(self, code, bit, path=""):
        super().__init__(f"{code} at bit {bit} in {path}")
        self.code, self.bit, self.path = code, bit, path


class InputError(Exception):
    """A bad input file or argument: the tools say so in one line and exit with status 2."""


class SchemaError(InputError):
    """A schema this tool cannot read."""


def element_budget(size):
    """The elements a read of `size` bytes may materialise (schema.md section 7)."""
    return BUDGET_FLOOR + BUDGET_PER_BYTE * size


# ---- numbers (schema.md section 2) ---------------------------------------------------

def integer(v):
    """A schema integer: a JSON number, or a string of decimal digits past 2^53."""
    return int(v)


def f32(x):
    """x rounded to float32 (round to nearest even), as a Python float."""
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def real(obj):
    """A schema float object {"f32": "0x..."} or {"f64": "0x..."}: its exact value."""
    if "f32" in obj:
        return struct.unpack("<f", int(obj["f32"], 16).to_bytes(4, "little"))[0]
    return struct.unpack("<d", int(obj["f64"], 16).to_bytes(8, "little"))[0]


def bits_required(lo, hi):
    """wire_format.md section 2."""
    return 0 if lo == hi else (hi - lo).bit_length()


def join(path, part):
    """path + ".name", or path + "[i]" / path + "<Alternative>" (part starts with "[" or
    "<"), for either part empty."""
    if not path or not part:
        return path + part
    return path + part if part.startswith(("[", "<")) else path + "." + part


def float_value(x, bits_hex=None):
    """A decoded float as JSON: a number, or "inf", "-inf", "nan(0x...)"."""
    if math.isnan(x):
        return f"nan({bits_hex})"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


# ---- bits (wire_format.md section 1) ------------------------------------------------

class BitReader:
    def __init__(self, data, start=0):
        self.data = bytes(data)
        self.pos = start
        self.end = 8 * len(self.data)

    def remaining(self):
        return self.end - self.pos

    def read(self, n):
        """n bits, least significant first; overflow (nothing consumed) when short."""
        if n > self.remaining():
            raise DecodeError("overflow", self.pos)
        v = 0
        for k in range(n):
            i = self.pos + k
            v |= ((self.data[i >> 3] >> (i & 7)) & 1) << k
        self.pos += n
        return v

    def align(self):
        """Zero bits to the next byte; invalid_value when one is set."""
        pad = (-self.pos) % 8
        if pad > self.remaining():
            raise DecodeError("overflow", self.pos)
        if self.read(pad) != 0:
            raise DecodeError("invalid_value", self.pos - pad)

    def read_bytes(self, n):
        start = self.pos // 8
        self.pos += 8 * n
        return self.data[start:start + n]

    # Where the walk is: a range-coded body's contexts come from it (RangeReader); the
    # bits of a bit-packed one do not.
    range_coded = False

    def enter_member(self, name):
        pass

    def enter_element(self):
        pass

    def enter_index(self):
        pass

    def enter_alternative(self, name):
        pass

    def leave(self):
        pass

    def element_flags(self, flags):
        pass


# ---- range-coded bodies (wire_format.md "Range-coded packets", "Contexts") ----------------
# The coder is tools/range_coder_reference.py's (its own model of "Range coder"); the
# contexts are here. A RangeReader reads the calls the bit-packed walk reads, one
# process_bits call per read(n), each call's bits through the models of its context slot.

RANGE_ROOT_KEY = 0x811C9DC5
RANGE_MAX_DEPTH = 64  # frames 0 (the root) to 63 are kept; deeper calls use frame 63
RANGE_SLOT_BITS = 12
RANGE_MODELS = 32


def fnv1a32(data):
    h = 0x811C9DC5
    for b in data:
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


def range_mix(a, b):
    x = ((a ^ b) * 0x9E3779B1) & 0xFFFFFFFF
    return x ^ (x >> 15)


RANGE_ELEMENT_HASH = fnv1a32(b"[]")
RANGE_INDEX_HASH = fnv1a32(b"index()")
RANGE_ALTERNATIVE_HASH = fnv1a32(b"<>")
RANGE_FLAGS_FACTOR = 0x01000193  # an element's flags enter its frame's key times this


def range_coder():
    """tools/range_coder_reference.py, imported beside this file (no __pycache__ left)."""
    here = os.path.dirname(os.path.abspath(__file__))
    if here not in sys.path:
        sys.path.insert(0, here)
    saved = sys.dont_write_bytecode
    sys.dont_write_bytecode = True
    try:
        import range_coder_reference
    finally:
        sys.dont_write_bytecode = saved
    return range_coder_reference


class RangeContexts:
    """The frames of the walk and the models of each context slot (wire_format.md
    "Contexts"). prior: a RangePrior (None: the library default); a slot without an
    entry starts at p0 = 1/2, count 0, the first time the packet uses it."""

    def __init__(self, prior, rc):
        self.rc = rc
        self.prior = prior or RangePrior()
        self.slots = {}
        self.frames = [[RANGE_ROOT_KEY, 0, 16, 0, 0, 0]] + [None] * (RANGE_MAX_DEPTH - 1)
        self.depth = 0  # frame: key, place, history, calls, last, last_bit

    flags_next = 0  # an element's flags: the next call's context (element_flags)
    flags_enter = 0  # and the key of the frame entered next

    def enter(self, h):
        if self.depth + 1 < RANGE_MAX_DEPTH:
            parent = self.frames[self.depth]
            key = range_mix(parent[0], h ^ ((self.flags_enter * RANGE_FLAGS_FACTOR) & 0xFFFFFFFF))
            self.frames[self.depth + 1] = [key, 0, 16 | parent[4], 0, 0, 0]
        self.depth += 1
        self.flags_enter = 0

    def element_flags(self, flags):
        self.flags_next = self.flags_enter = flags & 0x1F

    def leave(self):
        if self.depth == 0:
            return
        self.depth -= 1
        if self.depth + 1 < RANGE_MAX_DEPTH:
            child, f = self.frames[self.depth + 1], self.frames[self.depth]
            f[1] = 16
            f[4] = min(child[3], 7) * 2 + child[5]
            f[2] = 16 | f[4]
            f[3] += child[3]

    def models_for(self, n):
        """The models of the next call of n bits; its place moves on."""
        f = self.frames[min(self.depth, RANGE_MAX_DEPTH - 1)]
        shape = min(n, 63) << 16 | (f[2] & 0xFF) << 5 | f[1] | self.flags_next << 22
        self.flags_next = 0
        slot = range_mix(f[0], shape) >> (32 - RANGE_SLOT_BITS)
        f[1] = min(f[1] + 1, 31)
        models = self.slots.get(slot)
        if models is None:
            raws = self.prior.get(slot)
            models = [self.rc.BitProbability(raw) for raw in raws] if raws else \
                [self.rc.BitProbability() for _ in range(RANGE_MODELS)]
            self.slots[slot] = models
        return models

    def coded(self, n, v):
        f = self.frames[min(self.depth, RANGE_MAX_DEPTH - 1)]
        bit = v & 1 if n == 1 else 0
        f[2] = (f[2] << 1 | bit) & 0xFFFFFFFF
        f[5] = bit if n == 1 else 1
        f[3] += 1


class RangeReader:
    """A range-coded body from byte `start` of data to the end, read as BitReader reads a
    bit-packed one: pos counts logical bits (those of the calls; align moves it to a
    multiple of 8 and codes nothing), from 8 * start. A read past what the body can hold
    fails with overflow at the call's first bit: more bits than (bytes + 8) * 8 * 32768
    in all, or a call after which the decoder has read more than 4 bytes past the end
    (netser's range_read_stream)."""

    range_coded = True

    def __init__(self, data, start, prior=None):
        rc = range_coder()
        self.body = bytes(data[start:])
        self.start = 8 * start
        self.pos = self.start
        self.decoder = rc.RangeDecoder(self.body, exact=False)
        self.contexts = RangeContexts(prior, rc)
        self.limit = (len(self.body) + 8) * 8 * 32768

    def remaining(self):
        return self.limit - (self.pos - self.start)

    def read(self, n):
        if n == 0:
            return 0
        if n > self.remaining():
            raise DecodeError("overflow", self.pos)
        models = self.contexts.models_for(n)
        v, node = 0, 1
        for i in range(n):
            bit = self.decoder.decode(models[node if i < 4 else 16 + min(i - 4, 15)])
            node = node << 1 | bit
            v = v << 1 | bit
        self.contexts.coded(n, v)
        if self.decoder.bytes_consumed - len(self.body) > 4:
            raise DecodeError("overflow", self.pos)
        self.pos += n
        return v

    def align(self):
        self.pos += (-self.pos) % 8

    def read_bytes(self, n):
        return bytes(self.read(8) for _ in range(n))

    def ended_cleanly(self):
        return self.decoder.ended_cleanly()

    def enter_member(self, name):
        self.contexts.enter(fnv1a32(name.encode("utf-8")))

    def enter_element(self):
        self.contexts.enter(RANGE_ELEMENT_HASH)

    def enter_index(self):
        self.contexts.enter(RANGE_INDEX_HASH)

    def enter_alternative(self, name):
        self.contexts.enter(fnv1a32(name.encode("utf-8")) ^ RANGE_ALTERNATIVE_HASH)

    def leave(self):
        self.contexts.leave()

    def element_flags(self, flags):
        self.contexts.element_flags(flags)


class RangePrior:
    """Where a range-coded packet's models start (wire_format.md "Priors"): entries
    [(slot, [32 raw models])] in their order (none: the library default). A slot's models
    are those of its last entry; a slot of 4096 or more is never used. The fingerprint,
    folded into the packet's protocol id: 0 for the default, else FNV-1a 32 over each
    entry in order, its slot then its models, each as 4 little-endian bytes."""

    def __init__(self, entries=()):
        self.entries = list(entries)
        self.slots = {slot: models for slot, models in self.entries}
        data = b"".join(v.to_bytes(4, "little") for slot, models in self.entries for v in [slot] + list(models))
        self.fingerprint = fnv1a32(data) if self.entries else 0

    def get(self, slot):
        return self.slots.get(slot)


def read_prior(path):
    """A trained prior: a header written by delta_recording --write-prior, entries
    `{slot, {raw, ... 32 raws}}` in order; InputError when it holds none."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise InputError(f"prior {path}: {e.strerror or e}") from None
    entries = []
    for m in re.finditer(r"\{\s*(\w+)\s*,\s*\{([^{}]*)\}\s*\}", text):
        try:
            slot = int(m.group(1), 0)
            raws = [int(x, 0) for x in m.group(2).split(",") if x.strip()]
        except ValueError:
            raws = []
        if len(raws) != RANGE_MODELS or not 0 <= slot < 1 << 16 or any(not 0 <= x < 1 << 32 for x in raws):
            raise InputError(f"prior {path}: entry {m.group(0)[:40]}... is not a slot and {RANGE_MODELS} models")
        entries.append((slot, raws))
    if not entries:
        raise InputError(f"prior {path}: no entries {{slot, {{32 models}}}}")
    return RangePrior(entries)


def crc32(data, init=0xFFFFFFFF):
    """Standard CRC-32 (reflected 0xEDB88320), bit by bit: wire_format.md "CRC"."""
    crc = init
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0xEDB88320 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF


class BitWriter:
    """The plain write's bits (wire_format.md section 1): least significant first."""

    def __init__(self):
        self.value, self.pos = 0, 0

    def put(self, v, n):
        self.value |= v << self.pos
        self.pos += n

    def align(self):
        self.pos += (-self.pos) % 8

    def put_bytes(self, data):
        self.put(int.from_bytes(data, "little"), 8 * len(data))

    def data(self):
        return self.value.to_bytes((self.pos + 7) // 8, "little")


class NotEncodable(Exception):
    """A value this tool cannot write back (an opaque codec of variable width): its
    baseline fingerprint is not checked."""


class _NoPlain(Exception):
    """A value netser's plain write refuses (out of its range, no enumerator): it has no
    baseline fingerprint."""


def _quantize_code(x, q):
    """The code of float x (not NaN) in quantization q: the write of wire_format.md 3.1."""
    lo, delta, max_int = real(q["min"]), real(q["delta"]), integer(q["max_int"])
    v = f32(f32(f32(x) - lo) / delta) if math.isfinite(x) else (1.0 if x > 0 else 0.0)
    v = min(max(v, 0.0), 1.0)
    return min(math.floor(f32(f32(v * f32(max_int)) + 0.5)), max_int)


# ---- the schema's shape (docs/schema.md sections 1-4) ----------------------------------
# Checked once, before any packet: a document of another shape is refused in one line
# that says where, never met halfway through a packet as a Python error.

_INTEGER = re.compile(r"-?[0-9]{1,20}\Z")  # schemas' integers are 64-bit
_FLOAT_BITS = {"f32": re.compile(r"0x[0-9a-fA-F]{8}\Z"), "f64": re.compile(r"0x[0-9a-fA-F]{16}\Z")}


def _is_integer(v):
    return (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, str) and _INTEGER.match(v) is not None)


def _is_float(v):
    key = "f32" if isinstance(v, dict) and "f32" in v else "f64"
    return isinstance(v, dict) and isinstance(v.get(key), str) and _FLOAT_BITS[key].match(v[key]) is not None


# What a key may hold: its description and its test ("?" after the name: or null).
_WANT = {
    "nat": ("a non-negative integer", lambda v: _is_integer(v) and int(v) >= 0),
    "bits": ("a bit count (0 to 64)", lambda v: _is_integer(v) and 0 <= int(v) <= 64),
    "int": ("an integer", _is_integer),
    "str": ("a string", lambda v: isinstance(v, str)),
    "bool": ("true or false", lambda v: isinstance(v, bool)),
    "list": ("a list", lambda v: isinstance(v, list)),
    "dict": ("an object", lambda v: isinstance(v, dict)),
    "float": ("a float object", _is_float),
    "number": ("an integer or a float object", lambda v: _is_integer(v) or _is_float(v)),
    "any": ("a value", lambda v: True),
}
_WANT["node"] = ("an encoding node", _WANT["dict"][1])

# Each node kind's keys (section 4); a tuple lists the strings allowed. "node" is walked.
_NODE_KEYS = {
    "bool": {},
    "int": {"type": "str", "encoding": ("raw", "range", "bits"), "bits": "bits", "min": "int", "max": "int"},
    "float": {"type": ("float32", "float64"), "encoding": ("raw", "quantize"), "bits": "bits"},
    "enum": {"bits": "bits", "min": "int", "enumerators": "list"},
    "string": {"max_length": "nat", "length_bits": "bits", "content": ("utf8_without_nul", "bytes")},
    "array": {"length": "nat", "element": "node"},
    "vector": {"max_size": "nat", "count_bits": "bits", "element": "node"},
    "set": {"max_size": "nat", "count_bits": "bits", "element": "node"},
    "map": {"max_size": "nat", "count_bits": "bits", "key": "node", "value": "node"},
    "optional": {"value": "node"},
    "variant": {"index_bits": "bits", "alternatives": "list"},
    "sparse": {"container": ("array", "vector"), "element": "node"},
    "struct": {"name": "str"},
    "aggregate": {"fields": "list"},
    "recursive": {"depth": "nat"},
    "user_attribute": {},
    "user_type": {},
    "unknown": {},
}
# Keys a node or a member may have.
_OPTIONAL_KEYS = {"element_min_bits": "nat", "finite": "bool", "holder": "str", "recursive": "bool", "tag": "str?",
                  "max_bits": "nat?", "min_bits": "nat?", "value_fields": "list", "common": "dict",
                  "delta_body": "dict", "skip": "bool", "only_if": "dict", "check": "dict", "attributes": "list"}
_QUANTIZED_TAGS = ("smallest_three", "unit_quaternion", "unit_vector")
SMALLEST_THREE_FIELDS = ("largest", "a", "b", "c")  # smallest_three's wire and smallest_three_codes' members
# The keys of each attribute (section 3, "Attributes, as written") that the diff shows.
_ATTRIBUTE_KEYS = {"range": ("min", "max"), "quantize": ("min", "max", "resolution"), "common": ("values",),
                   "max_size": ("n",), "max_length": ("n",), "bits": ("n",), "only_if": ("member",),
                   "check": ("magic_hex",), "user": ("max_bits",)}


def _keys(obj, spec, where, optional=False):
    """Checks obj's keys of spec ({key: what it holds}): each present (unless optional)."""
    if not isinstance(obj, dict):
        raise SchemaError(f"{where}: expected an object, got {json.dumps(obj)[:40]}")
    for key, want in spec.items():
        if key not in obj:
            if optional:
                continue
            raise SchemaError(f"{where}: no {key!r}")
        v = obj[key]
        if isinstance(want, tuple):
            if v not in want:
                raise SchemaError(f"{where}.{key}: {json.dumps(v)[:40]} is not one of {', '.join(want)}")
        elif not (want.endswith("?") and v is None) and not _WANT[want.rstrip("?")][1](v):
            raise SchemaError(f"{where}.{key}: expected {_WANT[want.rstrip('?')][0]}, got {json.dumps(v)[:40]}")
    return obj


def _each(obj, key, spec, where):
    """obj[key] (a list), each item an object with the keys of spec."""
    return [_keys(item, spec, f"{where}.{key}[{i}]") for i, item in enumerate(obj[key])]


class _Shape:
    """Walks a schema document once: every node's keys, the structs each type refers to,
    each `recursive` node's target; then no cycle of structs that a decoder would not
    count (through references, a struct that contains itself must be `recursive`)."""

    def __init__(self, doc):
        _keys(doc, {"format": "str", "version": "int", "schema_hash": "nat", "schema_hash_hex": "str",
                    "root": "dict", "types": "dict", "packet": "dict"}, "schema")
        if doc["format"] != "netser-schema":
            raise SchemaError("not a netser schema (format)")
        if int(doc["version"]) not in SUPPORTED_VERSIONS:
            raise SchemaError(f"schema version {doc['version']} is not supported")
        _keys(doc, {"root_name": "str?", "delta_packet": "dict"}, "schema", optional=True)
        self.types = doc["types"]
        self.refs = {}  # a type's name -> the names its definition refers to
        for name, definition in self.types.items():
            self.refs[name] = set()
            _keys(definition, {"kind": ("struct",), "name": "str"}, f"types.{name}")
            self.definition(definition, f"types.{name}", [], self.refs[name])
        self.node(doc["root"], "root", [], set())
        self.layout(doc["packet"], "packet")
        if "delta_packet" in doc:
            self.layout(doc["delta_packet"], "delta_packet")
            _keys(doc["delta_packet"]["protocol_id"], {"salt": "nat"}, "delta_packet.protocol_id")
            _keys(doc["delta_packet"], {"header": "list"}, "delta_packet")
            _each(doc["delta_packet"], "header", {"name": "str", "bits": "bits"}, "delta_packet")
        self.cycles()

    def layout(self, layout, where):
        _keys(layout, {"protocol_id": "dict", "payload_bit_offset": "nat", "end_check": "dict"}, where)
        _keys(layout["protocol_id"], {"value": "nat"}, f"{where}.protocol_id")
        _keys(layout["end_check"], {"bits": "bits", "magic": "nat", "value": ("magic", "magic_xor_payload_bits")},
              f"{where}.end_check")

    def definition(self, d, where, inline, refs):
        """A struct's bases and members (a type's definition, or an inline struct)."""
        _keys(d, {"bases": "list", "members": "list"}, where)
        _keys(d, _OPTIONAL_KEYS, where, optional=True)
        for i, base in enumerate(d["bases"]):
            self.node(base, f"{where}.bases[{i}]", inline, refs)
        for i, m in enumerate(_each(d, "members", {"name": "str"}, where)):
            mwhere = f"{where}.members[{i}]"
            _keys(m, _OPTIONAL_KEYS, mwhere, optional=True)
            for j, attr in enumerate(m.get("attributes", ())):
                awhere = f"{mwhere}.attributes[{j}]"
                _keys(attr, {"attr": "str"}, awhere)
                shown = _ATTRIBUTE_KEYS.get(attr["attr"], ())
                _keys(attr, {k: "list" if k == "values" else "any" for k in shown}, awhere)
                _keys(attr, {"limits": "list", "delta_ladder": "list"}, awhere, optional=True)
            if "only_if" in m:
                _keys(m["only_if"], {"member": "str"}, f"{mwhere}.only_if")
                reset = m["only_if"].get("reset")
                if reset is not None:
                    spec = {"error": "str"} if isinstance(reset, dict) and "error" in reset else {"hex": "str"}
                    _keys(reset, spec, f"{mwhere}.only_if.reset")
                    if "hex" in spec and not re.fullmatch(r"([0-9a-fA-F]{2})*", reset["hex"]):
                        raise SchemaError(f"{mwhere}.only_if.reset.hex: not hex")
            if "check" in m:
                _keys(m["check"], {"magic": "nat"}, f"{mwhere}.check")
            if not m.get("skip"):
                _keys(m, {"encoding": "dict"}, mwhere)
                self.node(m["encoding"], f"{mwhere}.encoding", inline, refs)

    def node(self, n, where, inline, refs):
        _keys(n, {"kind": tuple(_NODE_KEYS)}, where)
        kind = n["kind"]
        _keys(n, _NODE_KEYS[kind], where)
        _keys(n, _OPTIONAL_KEYS, where, optional=True)
        for key, want in _NODE_KEYS[kind].items():
            if want == "node":
                self.node(n[key], f"{where}.{key}", inline, refs)
        if "common" in n:
            _keys(n["common"], {"values": "list", "index_bits": "bits"}, f"{where}.common")
            if not all(_WANT["number"][1](v) for v in n["common"]["values"]):
                raise SchemaError(f"{where}.common.values: expected integers or float objects")
        if "delta_body" in n:
            self.delta_body(n["delta_body"], f"{where}.delta_body")
            self.delta_form(n, where)
        if kind == "float":
            if n["encoding"] == "quantize":
                _keys(n, {"max_int": "nat", "min": "float", "delta": "float"}, where)
            elif int(n["bits"]) != (32 if n["type"] == "float32" else 64):
                raise SchemaError(f"{where}.bits: a raw {n['type']} has {32 if n['type'] == 'float32' else 64}")
        elif kind == "enum":
            _each(n, "enumerators", {"name": "str", "value": "int"}, where)
        elif kind == "variant":
            for i, alt in enumerate(_each(n, "alternatives", {"name": "str", "encoding": "dict"}, where)):
                self.node(alt["encoding"], f"{where}.alternatives[{i}].encoding", inline, refs)
        elif kind == "sparse":
            array = n["container"] == "array"
            _keys(n, {"length": "nat"} if array else {"max_size": "nat", "count_bits": "bits"}, where)
        elif kind == "struct" and "members" in n:
            self.definition(n, where, inline + [n], refs)
        elif kind == "struct":
            if n["name"] not in self.types:
                raise SchemaError(f"{where}: no struct {n['name']!r} in types")
            refs.add(n["name"])
        elif kind == "aggregate":
            for i, f in enumerate(_each(n, "fields", {"name": "str", "encoding": "dict"}, where)):
                self.node(f["encoding"], f"{where}.fields[{i}].encoding", inline + [n], refs)
        elif kind == "recursive":
            depth = int(n["depth"])
            if depth >= len(inline):
                raise SchemaError(f"{where}.depth: {depth}, inside {len(inline)} inline struct(s)")
            if not inline[-1 - depth].get("recursive"):
                raise SchemaError(f"{where}: its target is not \"recursive\": true")
        elif kind == "user_attribute" and n.get("tag") in _QUANTIZED_TAGS:
            _keys(n, {"quantization": "dict"}, where)
            _keys(n["quantization"], {"bits": "bits", "max_int": "nat", "min": "float", "delta": "float"},
                  f"{where}.quantization")
        elif kind == "user_attribute" and n.get("tag") in ("linked", "linked_strict"):
            _keys(n, {"max_bits": "bits"}, where)
        if kind in ("user_attribute", "user_type") and "wire" in n:
            self.wire(n, where)

    @staticmethod
    def wire(n, where):
        """A codec's stated wire (docs/schema.md, "wire"): fields of 1 to 32 bits."""
        _keys(n, {"wire": "list"}, where)
        for i, f in enumerate(_each(n, "wire", {"name": "str", "as": ("code", "flag", "integer", "quantized"),
                                                "bits": "bits", "max_code": "nat"}, where)):
            at = f"{where}.wire[{i}]"
            if not 1 <= integer(f["bits"]) <= 32 or integer(f["max_code"]) >> integer(f["bits"]):
                raise SchemaError(f"{at}: {f['bits']} bits with max_code {f['max_code']}")
            if f["as"] == "integer":
                _keys(f, {"min": "int"}, at)
            if f["as"] == "quantized":
                _keys(f, {"quantization": "dict"}, at)
                _keys(f["quantization"], {"max_int": "nat", "min": "float", "delta": "float"}, f"{at}.quantization")

    def delta_body(self, d, where):
        _keys(d, {"form": "str"}, where)
        _keys(d, {"whole": "bool", "ladder": "list", "rungs": "list"}, where, optional=True)
        if d["form"] == "difference":
            _keys(d, {"ladder": "list"}, where)
        if d["form"] == "difference" or "rungs" in d:
            _keys(d, {"max_code": "nat", "code_bits": "bits", "rungs": "list"}, where)
            _each(d, "rungs", {"lo": "nat", "hi": "nat", "bits": "bits"}, where)

    def delta_form(self, n, where):
        """The forms by key and by slot, on the nodes they apply to (a keyed vector: with
        the `key` member of its element struct)."""
        form, kind = n["delta_body"]["form"], n["kind"]
        wanted = {"keyed": ("map", "set", "vector"), "slots": ("sparse",), "vector_slots": ("sparse",)}.get(form)
        if wanted is None:
            return
        container = n.get("container")
        if kind not in wanted or (form == "slots" and container != "array") or \
                (form == "vector_slots" and container != "vector"):
            raise SchemaError(f"{where}.delta_body: form {form} on a {kind} node")
        if form == "keyed" and kind == "vector":
            _keys(n, {"key": "str"}, where)
            element = n["element"]
            if element["kind"] != "recursive" and _key_node(element, n["key"], self.types) is None:
                raise SchemaError(f"{where}.key: {n['key']!r} is no member of the elements")

    def cycles(self):
        """Structs not `recursive` must not reach themselves: their nesting is not counted."""
        state = {}  # name -> 1 while on the path, 2 when done

        def visit(name, path):
            state[name] = 1
            for ref in self.refs[name]:
                if self.types[ref].get("recursive"):
                    continue
                if state.get(ref) == 1:
                    cycle = path[path.index(ref):] + [ref]
                    raise SchemaError(f"types.{ref}: contains itself ({' -> '.join(cycle)}) but is not "
                                      f"\"recursive\": true")
                if ref not in state:
                    visit(ref, path + [ref])
            state[name] = 2

        for name in self.types:
            if name not in state and not self.types[name].get("recursive"):
                visit(name, [name])


def _key_node(element, key, types):
    """The encoding node of member `key` of a struct node (inline, or in types), or None."""
    if element.get("kind") != "struct":
        return None
    definition = element if "members" in element else types.get(element.get("name"))
    for m in (definition or {}).get("members", ()):
        if m.get("name") == key and "encoding" in m and not m.get("skip") and "only_if" not in m:
            return m["encoding"]
    return None


def check_schema(doc):
    """Raises SchemaError (one line, saying where) unless doc is a schema this tool reads."""
    try:
        _Shape(doc)
    except RecursionError:
        raise SchemaError("nested too deep") from None


# ---- prediction (wire_format.md "Prediction") ------------------------------------------

PREDICTED_DELTA_PACKET_SALT = fnv1a32(b"netser predicted delta packet")
RANGE_CODED_PACKET_SALT = fnv1a32(b"netser range-coded packet")


def rounded_ratio(n, d):
    """n / d (d > 0) to the nearest integer, halves away from zero."""
    q, rest = divmod(abs(n), d)
    if 2 * rest >= d:
        q += 1
    return q if n >= 0 else -q


def predicted_code(codes, spacing, gain, max_code):
    """P's code from the codes [c0, c1(, c2)] of the baselines, newest first; spacing
    (ahead, span, span2), gain (numerator, denominator)."""
    ahead, span, span2 = spacing
    c0, c1 = codes[0], codes[1]
    step = c0 - c1
    if step == 0 or span == 0:
        return c0
    if len(codes) > 2 and span2 != 0:
        earlier = c1 + rounded_ratio((c1 - codes[2]) * span, span2)
        if abs(c0 - earlier) >= abs(step):
            return c0
    p = c0 + rounded_ratio(step * gain[0] * ahead, span * gain[1])
    return max(0, min(max_code, p))


def smallest_three_reexpress(largest, codes, to, max_code):
    """Smallest-three codes [a, b, c] of [0, max_code] (the components other than
    `largest`, x y z w order) re-expressed with component `to` as the largest, in
    integers (docs/game_encodings.md, smallest_three_codes): (largest, codes)."""
    if to == largest:
        return largest, list(codes)
    g = 2 if max_code % 2 == 0 else 1
    r = max_code // g
    d = [0] * 4
    others = [i for i in range(4) if i != largest]
    for i, c in zip(others, codes):
        x = 2 * c - max_code
        d[i] = x // g if x >= 0 else -((-x) // g)  # truncated, as integer division in C++
    rest = 2 * r * r - sum(d[i] * d[i] for i in others)
    d[largest] = math.isqrt(rest) if rest > 0 else 0
    sign = -1 if d[to] < 0 else 1
    out = [max(0, min(max_code, (g * sign * d[i] + max_code + 1) >> 1)) for i in range(4) if i != to]
    return to, out


def predicted_smallest_three(fields, spacing, gain, max_code):
    """The predicted fields (largest, codes) of a rotation from its baselines' fields,
    newest first: the older ones re-expressed with the newest's largest, then each code
    extrapolated (wire_format.md, "Prediction")."""
    largest = fields[0][0]
    older = [smallest_three_reexpress(f[0], f[1], largest, max_code)[1] for f in fields[1:]]
    return largest, [predicted_code([fields[0][1][k]] + [o[k] for o in older], spacing, gain, max_code)
                     for k in range(3)]


# ---- the decoder -----------------------------------------------------------------------

class Decoder:
    def __init__(self, schema):
        check_schema(schema)
        self.schema = schema
        self.types = schema["types"]
        self.root_name = schema.get("root_name")
        self.fingerprint = None  # a delta packet's baseline fingerprint: checked, or why not
        self._start(0)

    def _start(self, size):
        """A new read of `size` bytes: its nesting and its element budget."""
        self.nesting = 0
        self.inline_stack = []
        self.budget = element_budget(size)

    def _charge(self, count, at, path=""):
        """Charges `count` elements against the read's budget before they are made
        (schema.md section 7): too_large at bit `at` past it."""
        self.budget -= count
        if self.budget < 0:
            raise DecodeError("too_large", at, path)

    # Errors carry the path from the root; it is built while the failure unwinds.
    def _at(self, name, fn, *args):
        try:
            return fn(*args)
        except DecodeError as e:
            e.path = join(name, e.path)
            raise

    def decode_payload(self, data, start=0):
        r = BitReader(data, start)
        self._start(len(data))
        try:
            value = self.node(r, self.schema["root"])
        except DecodeError as e:
            if self.root_name:
                e.path = join(self.root_name, e.path)
            raise
        return value, r

    def decode_packet(self, data, protocol_id=None):
        """A whole packet (schema.md section 6): CRC, payload, end check."""
        layout = self.schema["packet"]
        if protocol_id is None:
            protocol_id = integer(layout["protocol_id"]["value"])
        if len(data) < 4:
            raise DecodeError("overflow", 0)
        sent = int.from_bytes(data[0:4], "little")
        if sent != crc32(protocol_id.to_bytes(4, "little") + bytes(data[4:])):
            raise DecodeError("bad_crc", 0)
        start = integer(layout["payload_bit_offset"])
        value, r = self.decode_payload(data, start)
        payload_bits = r.pos - start
        self._end_check(r, layout["end_check"], payload_bits, len(data))
        return value, payload_bits

    def _end_check(self, r, end, payload_bits, size):
        """Align, the end value (magic XOR the payload's bits), no trailing byte."""
        at = r.pos
        try:
            r.align()
            got = r.read(integer(end["bits"]))
        except DecodeError as e:
            e.bit, e.path = at, ""
            raise
        expected = integer(end["magic"])
        if end["value"] == "magic_xor_payload_bits":
            expected ^= payload_bits & 0xFFFFFFFF
        elif end["value"] != "magic":
            raise SchemaError(f"unknown end check value {end['value']!r}")
        if got != expected:
            raise DecodeError("check_failed", at)
        if r.pos != 8 * size:
            raise DecodeError("invalid_value", r.pos)

    # ---- nodes (schema.md section 4) --------------------------------------------------

    def node(self, r, n):
        kind = n["kind"]
        fn = getattr(self, "node_" + kind, None)
        if fn is None:
            raise SchemaError(f"unknown node kind {kind!r}")
        return fn(r, n)

    def node_bool(self, r, n):
        return r.read(1) == 1

    def _with_common(self, r, n, plain):
        common = n.get("common")
        if common is None:
            return plain()
        at = r.pos
        try:
            if r.read(1) == 1:
                index = r.read(integer(common["index_bits"]))
                values = common["values"]
                if index >= len(values):
                    raise DecodeError("out_of_range", at)
                v = values[index]
                return real(v) if isinstance(v, dict) else integer(v)
            return plain()
        except DecodeError as e:
            e.bit = min(e.bit, at)
            raise

    def _int_plain(self, r, n):
        at = r.pos
        bits = integer(n["bits"])
        code = r.read(bits)
        if n["encoding"] == "raw":
            if n["type"].startswith("int") and bits > 0 and code >> (bits - 1):
                return code - (1 << bits)
            return code
        lo, hi = integer(n["min"]), integer(n["max"])
        if code > hi - lo:
            raise DecodeError("out_of_range", at)
        return lo + code

    def node_int(self, r, n):
        return self._with_common(r, n, lambda: self._int_plain(r, n))

    def _quantized(self, code, q):
        max_int = integer(q["max_int"])
        v = f32(f32(code) / f32(max_int))
        v = f32(v * real(q["delta"]))
        return f32(v + real(q["min"]))

    def _float_plain(self, r, n):
        at = r.pos
        if n["encoding"] == "quantize":
            code = r.read(integer(n["bits"]))
            if code > integer(n["max_int"]):
                raise DecodeError("out_of_range", at)
            return self._quantized(code, n)
        bits = integer(n["bits"])
        code = r.read(bits)
        fmt = "<f" if bits == 32 else "<d"
        return struct.unpack(fmt, code.to_bytes(bits // 8, "little"))[0], code

    def node_float(self, r, n):
        at = r.pos
        raw = {}

        def plain():
            v = self._float_plain(r, n)
            if isinstance(v, tuple):
                raw["bits"] = v[1]
                return v[0]
            return v

        v = self._with_common(r, n, plain)
        if n.get("finite") and not math.isfinite(v):
            raise DecodeError("invalid_value", at)
        width = 8 if n["type"] == "float32" else 16
        code = raw.get("bits")
        if code is None:
            fmt = "<f" if width == 8 else "<d"
            code = int.from_bytes(struct.pack(fmt, v), "little")
        return float_value(v, "0x%0*x" % (width, code))

    def node_enum(self, r, n):
        at = r.pos
        value = integer(n["min"]) + r.read(integer(n["bits"]))
        for e in n["enumerators"]:
            if integer(e["value"]) == value:
                return e["name"]
        raise DecodeError("invalid_value", at)

    def node_string(self, r, n):
        at = r.pos
        try:
            length = r.read(integer(n["length_bits"]))
            if length > integer(n["max_length"]):
                raise DecodeError("too_large", at)
            r.align()
            if length > r.remaining() // 8:
                raise DecodeError("overflow", at)
            data = r.read_bytes(length)
        except DecodeError as e:
            e.bit = at
            raise
        try:
            text = data.decode("utf-8", "strict")
        except UnicodeDecodeError:
            if n["content"] == "bytes":
                return {"bytes": data.hex()}
            raise DecodeError("invalid_value", at)
        if n["content"] == "utf8_without_nul" and "\0" in text:
            raise DecodeError("invalid_value", at)
        return text

    def _elements(self, r, count, element, framed=True):
        out = []
        for i in range(count):
            if framed:
                r.enter_element()
            try:
                out.append(self._at(f"[{i}]", self.node, r, element))
            finally:
                if framed:
                    r.leave()
        return out

    def _value_node(self, n):
        """Whether netser sends n with a value encoding (a fixed-width code, a string, or
        a vector of those): a vector of them is a sequence, whose elements are no frames
        of a range-coded walk."""
        n = self._target(n)
        kind = n["kind"]
        if kind in ("bool", "int", "float", "enum"):
            return "common" not in n and not n.get("finite")
        if kind == "string":
            return True
        return kind == "vector" and self._sequence(n)

    def _sequence(self, n):
        element = self._target(n["element"])
        return element["kind"] != "bool" and self._value_node(element)

    def _framed(self, n):
        """Whether a vector's elements are frames of a range-coded walk: not a vector of
        bools nor a sequence of value encodings (netser's vector_encoding)."""
        return self._target(n["element"])["kind"] != "bool" and not self._sequence(n)

    def node_array(self, r, n):
        return self._elements(r, integer(n["length"]), n["element"])

    def _count(self, r, n):
        at = r.pos
        count = r.read(integer(n["count_bits"]))
        if count > integer(n["max_size"]):
            raise DecodeError("too_large", at)
        min_bits = integer(n.get("element_min_bits", 0))
        if min_bits and count > r.remaining() // min_bits:
            raise DecodeError("overflow", at)
        if not min_bits or r.range_coded:  # elements of no bits, or likely bits: not bounded
            self._charge(count, at)
        return count

    def node_vector(self, r, n):
        return self._elements(r, self._count(r, n), n["element"], self._framed(n))

    def node_set(self, r, n):
        return self._keyed(r, n, lambda: self.node(r, n["element"]))

    def node_map(self, r, n):
        return self._keyed(r, n, lambda: [self.node(r, n["key"]), self.node(r, n["value"])])

    def _keyed(self, r, n, entry):
        """A set's keys or a map's [key, value] entries: a key equal to an earlier one
        fails with invalid_value at its first bit."""
        count = self._count(r, n)
        out, seen = [], set()
        for i in range(count):
            at = r.pos
            item = self._at(f"[{i}]", entry)
            key = hashable(item[0] if n["kind"] == "map" else item)
            if key in seen:
                raise DecodeError("invalid_value", at, f"[{i}]")
            seen.add(key)
            out.append(item)
        return out

    def node_optional(self, r, n):
        at = r.pos
        if r.read(1) == 0:
            return None
        return self.node(r, n["value"])

    def _variant_index(self, r, n):
        r.enter_index()
        try:
            return r.read(integer(n["index_bits"]))
        finally:
            r.leave()

    def _alternative(self, r, alt, fn, *args):
        """fn(*args) in the alternative's frame (named as netser names it: the schema's
        "Cargo#2", a second struct described as Cargo, is "Cargo")."""
        r.enter_alternative(alt["name"].split("#")[0])
        try:
            return fn(*args)
        finally:
            r.leave()

    def node_variant(self, r, n):
        at = r.pos
        index = self._variant_index(r, n)
        alternatives = n["alternatives"]
        if index >= len(alternatives):
            raise DecodeError("invalid_value", at)
        alt = alternatives[index]
        # An error inside names the alternative as netser does: "body<Join>.name".
        value = self._at(f"<{alt['name'].split('#')[0]}>", self._alternative, r, alt, self.node, r, alt["encoding"])
        return {"index": index, "alternative": alt["name"], "value": value}

    def _relative_index(self, r, previous, size, path=None):
        """wire_format.md 3.2: the distance from previous, as a ladder. An error is at the
        index's first bit (and at `path`, when given)."""
        at = r.pos
        try:
            d = None
            if r.read(1) == 1:
                d = 1
            else:
                for lo, hi in ((2, 5), (6, 13), (14, 29), (30, 61), (62, 125)):
                    if r.read(1) == 1:
                        code = r.read(bits_required(lo, hi))
                        if code > hi - lo:
                            raise DecodeError("out_of_range", at)
                        d = lo + code
                        break
            if d is None:
                if size + 1 < 126:
                    raise DecodeError("out_of_range", at)
                code = r.read(bits_required(126, size + 1))
                if code > size + 1 - 126:
                    raise DecodeError("out_of_range", at)
                d = 126 + code
            if previous + d > size:
                raise DecodeError("out_of_range", at)
        except DecodeError as e:
            e.bit = at
            if path is not None:
                e.path = path
            raise
        return previous + d

    def node_sparse(self, r, n):
        at = r.pos
        if n["container"] == "vector":
            size = r.read(integer(n["count_bits"]))
            if size > integer(n["max_size"]):
                raise DecodeError("too_large", at)
            self._charge(size, at)  # every slot, present or not: absent ones take no bits
        else:
            size = integer(n["length"])
        slots = [None] * size
        previous = -1
        while True:
            current = self._relative_index(r, previous, size)
            if current == size:
                return slots
            slots[current] = self._at(f"[{current}]", self.node, r, n["element"])
            previous = current

    def _enter(self, r, recursive):
        if recursive:
            self.nesting += 1
            if self.nesting > MAX_NESTING:
                raise DecodeError("too_large", r.pos)

    def _leave(self, recursive):
        if recursive:
            self.nesting -= 1

    def node_struct(self, r, n):
        definition = n if "members" in n else self.types[n["name"]]
        inline = "members" in n
        recursive = bool(definition.get("recursive"))
        self._enter(r, recursive)
        if inline:
            self.inline_stack.append(n)
        try:
            obj = {}
            for base in definition["bases"]:
                value = self.node(r, base)
                obj.update(value)
            for m in definition["members"]:
                if m.get("skip"):
                    continue
                cond = m.get("only_if")
                if cond is not None and obj.get(cond["member"]) is not True:
                    obj.pop(m["name"], None)
                    continue
                obj[m["name"]] = self._at(m["name"], self._member, r, m)
            return obj
        finally:
            if inline:
                self.inline_stack.pop()
            self._leave(recursive)

    def _member(self, r, m):
        if m.get("check") is not None:
            self._member_check(r, m)
        r.enter_member(m["name"])
        try:
            return self.node(r, m["encoding"])
        finally:
            r.leave()

    def _member_check(self, r, m):
        at = r.pos
        try:
            r.align()
            got = r.read(32)
        except DecodeError as e:
            e.bit = at
            raise
        if got != integer(m["check"]["magic"]):
            raise DecodeError("check_failed", at)

    def node_aggregate(self, r, n):
        recursive = bool(n.get("recursive"))
        self._enter(r, recursive)
        self.inline_stack.append(n)
        try:
            return {f["name"]: self._at(f["name"], self.node, r, f["encoding"]) for f in n["fields"]}
        finally:
            self.inline_stack.pop()
            self._leave(recursive)

    def node_recursive(self, r, n):
        target = self.inline_stack[len(self.inline_stack) - 1 - integer(n["depth"])]
        return self.node(r, target)

    # ---- delta bodies (schema.md section 4, delta_body) --------------------------------

    def decode_delta(self, data, start=0, baseline=MISSING):
        """A serialize_delta body from bit `start`: (applied value or MISSING, reader).
        self.changes lists what was read, also when a DecodeError ends the walk."""
        r = BitReader(data, start)
        self._start(len(data))
        self.changes = []
        value = self._delta_value(r, self.schema["root"], baseline, self.root_name or "")
        return (MISSING if baseline is MISSING else value), r

    def decode_delta_packet(self, data, protocol_id=None, baseline=MISSING):
        """A delta packet (schema.md section 6): CRC over the protocol id XOR the salt, the
        header, the delta body, the end check. Returns (header, applied value, payload bits);
        self.header and self.changes hold what was read, also after a DecodeError."""
        layout = self.schema.get("delta_packet")
        if layout is None:
            raise SchemaError("the schema has no delta_packet (written before netser described delta packets)")
        ident = layout["protocol_id"]
        salt = integer(ident["salt"])
        protocol_id = integer(ident["value"]) if protocol_id is None else (protocol_id ^ salt)
        self.header, self.changes, self.fingerprint = None, [], None
        if len(data) < 4:
            raise DecodeError("overflow", 0)
        sent = int.from_bytes(data[0:4], "little")
        if sent != crc32(protocol_id.to_bytes(4, "little") + bytes(data[4:])):
            raise DecodeError("bad_crc", 0)
        start = integer(layout["payload_bit_offset"])
        r = BitReader(data, start)
        header, fingerprint_at = {}, None
        for field in layout["header"]:
            if field["name"] == "baseline_fingerprint":
                fingerprint_at = r.pos
            header[field["name"]] = r.read(integer(field["bits"]))
        self.header = header
        if baseline is not MISSING and fingerprint_at is not None:
            self._check_fingerprint(baseline, header["baseline_fingerprint"], fingerprint_at)
        value, r2 = self.decode_delta(data, r.pos, baseline)
        payload_bits = r2.pos - start
        self._end_check(r2, layout["end_check"], payload_bits, len(data))
        return header, value, payload_bits

    def _check_fingerprint(self, baseline, sent, at):
        """The baseline's fingerprint against the packet's: baseline_mismatch at the field's
        first bit when it differs (or when the baseline has no plain encoding), as netser's
        reader refuses the packet before it decodes a member. self.fingerprint says
        "checked", "mismatch", or why it was not checked."""
        try:
            fingerprints = self.baseline_fingerprints(baseline)
        except NotEncodable as e:
            self.fingerprint = f"not checked: {e}"
            return
        if sent not in fingerprints:
            self.fingerprint = "mismatch"
            raise DecodeError("baseline_mismatch", at)
        self.fingerprint = "checked"

    # ---- predicted delta packets (wire_format.md "Prediction", "Predicted delta packets",
    # "Range-coded packets") ------------------------------------------------------------

    def decode_predicted_packet(self, data, protocol_id=None, baselines=None, prior=None):
        """A predicted delta packet: CRC over the protocol id XOR the predicted salt (XOR
        the range salt and the prior's fingerprint when prior, a RangePrior, is given: a
        range-coded body, models from prior; RangePrior() the library default), the header, the delta body against the prediction from
        `baselines` (the values the header names, newest first; None: not given, the walk
        stops with missing_baseline where the wire depends on them), the end check.
        Returns (header, applied value or MISSING, payload bits: the logical bits after
        the CRC). self.header, self.prediction and self.changes hold what was read, also
        after a DecodeError."""
        range_coded = prior is not None
        if protocol_id is None:
            protocol_id = integer(self.schema["packet"]["protocol_id"]["value"])
        ident = protocol_id ^ PREDICTED_DELTA_PACKET_SALT ^ \
            (RANGE_CODED_PACKET_SALT ^ prior.fingerprint if range_coded else 0)
        self.header, self.changes, self.fingerprint, self.prediction = None, [], None, MISSING
        if len(data) < 4:
            raise DecodeError("overflow", 0)
        if int.from_bytes(data[0:4], "little") != crc32(ident.to_bytes(4, "little") + bytes(data[4:])):
            raise DecodeError("bad_crc", 0)
        r = BitReader(data, 32)
        header = {"sequence": r.read(16)}
        at = r.pos
        count = r.read(2) + 1
        if count > 3:
            raise DecodeError("out_of_range", at)
        header["baselines"] = [r.read(16) for _ in range(count)]
        fingerprint_at = r.pos
        header["baseline_fingerprint"] = r.read(32)
        self.header = header
        if range_coded:
            r.align()  # the coder's bytes start at a byte
        if header["sequence"] == 0:  # the initial baseline's number, never a snapshot's
            raise DecodeError("invalid_value", 32)
        newer, gaps = header["sequence"], []
        for i, b in enumerate(header["baselines"]):
            # Each older than the one before, the first than the packet (less than 32768
            # steps back); the initial baseline (0) is older than all, and nothing follows it.
            gap = (newer - b) & 0xFFFF
            if (i > 0 and newer == 0) or (b != 0 and not 1 <= gap <= 32767):
                raise DecodeError("invalid_value", 32 + 18 + 16 * i)
            gaps.append(gap)
            newer = b
        spacing = (gaps + [0, 0])[:3]
        if baselines is not None:
            if len(baselines) != count:
                raise InputError(f"the packet names {count} baseline(s) ({', '.join(map(str, header['baselines']))}); "
                                 f"{len(baselines)} given")
            self._check_fingerprints(baselines, header["baseline_fingerprint"], fingerprint_at)
            self.inline_stack = []
            self.prediction = self.predicted(self.schema["root"], baselines, spacing)
        self._start(len(data))
        if range_coded:
            r = RangeReader(data, r.pos // 8, prior)
        value = self._delta_value(r, self.schema["root"], self.prediction, self.root_name or "")
        if range_coded:
            if not r.ended_cleanly():
                raise DecodeError("check_failed", r.pos)
            payload_bits = r.pos - 32
        else:
            payload_bits = r.pos - 32
            self._end_check(r, self.schema["packet"]["end_check"], payload_bits, len(data))
        return header, (MISSING if baselines is None else value), payload_bits

    def _check_fingerprints(self, baselines, sent, at):
        """The packet's fingerprint: the CRC-32 of the baselines' fingerprints (4 little-endian
        bytes each, in the packet's order). Each baseline may have up to three (its hash
        tables in one order or another): any combination that gives `sent` passes."""
        try:
            each = [self.baseline_fingerprints(b) for b in baselines]
        except NotEncodable as e:
            self.fingerprint = f"not checked: {e}"
            return
        for combination in itertools.product(*each):
            if crc32(b"".join(f.to_bytes(4, "little") for f in combination)) == sent:
                self.fingerprint = "checked"
                return
        self.fingerprint = "mismatch"
        raise DecodeError("baseline_mismatch", at)

    def predicted(self, n, b, spacing, gain=(1, 1), active=False):
        """The prediction P of a value of node n from its values b = [b0, b1(, b2)] in the
        baselines, newest first (wire_format.md "Prediction"): b0, but the codes a
        predict_linear reaches (active), extrapolated with `gain`."""
        n = self._target(n)
        kind = n["kind"]
        b0 = b[0]
        if len(b) < 2 or spacing[1] == 0:
            return b0
        if kind in ("int", "float"):
            if not active or not self._predictable(n):
                return b0
            try:
                codes = [self._code_of(n, v, 0, "") for v in b]
            except DecodeError:
                return b0  # a baseline value without a code predicts nothing
            code = predicted_code(codes, spacing, gain, self._max_code(n))
            return self._value_of(n, code, 0, "")
        if kind == "user_attribute" and n.get("tag") == "smallest_three":
            if not active:
                return b0
            try:
                fields = [self._smallest_three_fields(n, v, 0, "") for v in b]
            except DecodeError:
                return b0
            largest, codes = predicted_smallest_three(fields, spacing, gain, integer(n["quantization"]["max_int"]))
            value = self._smallest_three_decode(n, largest, codes)
            if self._smallest_three_fields(n, value, 0, "") != (largest, codes):
                return b0  # not a fixed point: P keeps b0's rotation
            return value
        if kind == "user_attribute" and n.get("tag") == "smallest_three_codes" and "delta_body" in n:
            if not active:
                return b0
            max_code = integer(n["delta_body"]["max_code"])
            fields = [self._smallest_three_codes_of(v, max_code) for v in b]
            if any(f is None for f in fields):
                return b0  # a baseline outside the codes' ranges predicts nothing
            return self._smallest_three_codes_value(*predicted_smallest_three(fields, spacing, gain, max_code))
        if kind == "struct":
            definition = n if "members" in n else self.types[n["name"]]
            inline = "members" in n
            if inline:
                self.inline_stack.append(n)
            try:
                out = dict(b0)
                for base in definition["bases"]:
                    out.update(self.predicted(base, b, spacing, gain, active))
                for m in definition["members"]:
                    if m.get("skip") or "encoding" not in m:
                        continue
                    cond = m.get("only_if")
                    if cond is not None and not all(v.get(cond["member"]) is True for v in b):
                        continue  # some baseline did not send it
                    if not all(m["name"] in v for v in b):
                        continue
                    mgain, mactive = gain, active
                    for attr in m.get("attributes", ()):
                        if attr.get("attr") == "predict_linear":
                            mgain, mactive = (integer(attr["numerator"]), integer(attr["denominator"])), True
                    out[m["name"]] = self.predicted(m["encoding"], [v[m["name"]] for v in b], spacing, mgain, mactive)
                return out
            finally:
                if inline:
                    self.inline_stack.pop()
        if kind == "vector" and n.get("delta_body", {}).get("form") == "keyed":
            return b0  # a keyed vector (by key, not by position)
        if kind == "vector" and self._sequence(n) and self._target(n["element"])["kind"] not in ("int", "float"):
            return b0  # a sequence of other value encodings (strings, vectors of codes): none
        if kind in ("array", "vector"):
            common = min(len(v) for v in b)  # by position, as far as every baseline has elements
            return [self.predicted(n["element"], [v[i] for v in b], spacing, gain, active) for i in range(common)] + \
                list(b0[common:])
        return b0  # bools, enums, strings, optionals, variants, maps, keyed and sparse containers...

    @staticmethod
    def _predictable(n):
        """Codes a prediction extrapolates: integers with range or bits and quantized floats
        (no common values), of at most 32 bits."""
        if "common" in n or integer(n["bits"]) > 32:
            return False
        return n["encoding"] in ("range", "bits") if n["kind"] == "int" else n["encoding"] == "quantize"

    @staticmethod
    def _max_code(n):
        if n["kind"] == "float":
            return integer(n["max_int"])
        if n["encoding"] == "range":
            return integer(n["max"]) - integer(n["min"])
        return (1 << integer(n["bits"])) - 1

    def _change(self, field, path, at, end, **more):
        item = {"path": path, "bit": at, "bits": end - at, "field": field}
        item.update(more)
        self.changes.append(item)
        return item

    def _target(self, n):
        """A `recursive` node's inline node (its delta is the one of that node)."""
        while n["kind"] == "recursive":
            n = self.inline_stack[len(self.inline_stack) - 1 - integer(n["depth"])]
        return n

    def _read_at(self, r, bits, path):
        try:
            return r.read(bits)
        except DecodeError as e:
            e.path = path
            raise

    def _plain_at(self, r, n, path):
        """The plain encoding of n, errors with their path from `path`."""
        try:
            return self.node(r, n)
        except DecodeError as e:
            e.path = join(path, e.path) if e.path else path
            raise

    def _delta_value(self, r, n, base, path):
        """A value's delta: its changed bit, then its delta body (or a codec's own delta)."""
        n = self._target(n)
        delta = n.get("delta_body")
        if delta is None:
            raise SchemaError(f"{path or 'root'}: no delta_body (kind {n['kind']!r})")
        if delta["form"] == "own":
            if n["kind"] == "user_attribute" and n.get("tag") == "smallest_three" and "rungs" in delta:
                return self._delta_smallest_three(r, n, base, path)
            if n["kind"] == "user_attribute" and n.get("tag") == "smallest_three_codes" and "rungs" in delta:
                return self._delta_smallest_three_codes(r, n, base, path)
            raise DecodeError("unsupported", r.pos, path)
        at = r.pos
        changed = self._read_at(r, 1, path) == 1
        item = self._change("changed", path, at, r.pos, changed=changed)
        if not changed:
            if base is not MISSING and not isinstance(base, (dict, list)):
                item["value"] = base
            return base
        return self._delta_body(r, n, base, path)

    def _delta_body(self, r, n, base, path):
        n = self._target(n)
        body = n["delta_body"]["form"]
        if body == "own":
            body = "plain"  # a codec's own delta is a value's whole delta: an element's body is its value
        if body == "plain":
            at = r.pos
            value = self._plain_at(r, n, path)
            whole = {"whole": True} if n["delta_body"].get("whole") else {}
            self._change("plain", path, at, r.pos, value=value, **whole)
            return value
        fn = getattr(self, "_delta_" + body, None)
        if fn is None:
            raise SchemaError(f"{path or 'root'}: unknown delta_body form {body!r}")
        return fn(r, n, base, path)

    def _need(self, base, r, path):
        if base is MISSING:
            raise DecodeError("missing_baseline", r.pos, path)

    # -- codes: a difference through the ladder, or the code (wire_format.md "Delta") --

    def _code_of(self, n, v, at, path):
        """The code of a baseline value (its plain write's code, or the error that write gives)."""
        kind = n["kind"]
        if kind == "bool":
            return 1 if v else 0
        if kind == "enum":
            for e in n["enumerators"]:
                if e["name"] == v:
                    return integer(e["value"]) - integer(n["min"])
            raise DecodeError("invalid_value", at, path)
        if kind == "int":
            bits = integer(n["bits"])
            if n["encoding"] == "raw":
                return v & ((1 << bits) - 1)
            code = integer(v) - integer(n["min"])
            if code < 0 or code > integer(n["max"]) - integer(n["min"]):
                raise DecodeError("out_of_range", at, path)
            return code
        # a quantized float (wire_format.md 3.1, the write)
        x = parse_float(v)
        if math.isnan(x):
            raise DecodeError("invalid_value", at, path)
        return _quantize_code(x, n)

    def _value_of(self, n, code, at, path):
        """The value of a code (the plain read's arithmetic)."""
        kind = n["kind"]
        if kind == "bool":
            return code == 1
        if kind == "enum":
            value = integer(n["min"]) + code
            for e in n["enumerators"]:
                if integer(e["value"]) == value:
                    return e["name"]
            raise DecodeError("invalid_value", at, path)
        if kind == "int":
            bits = integer(n["bits"])
            if n["encoding"] == "raw":
                return code - (1 << bits) if n["type"].startswith("int") and bits and code >> (bits - 1) else code
            return integer(n["min"]) + code
        v = self._quantized(code, n)
        return float_value(v, "0x%08x" % int.from_bytes(struct.pack("<f", v), "little"))

    def _delta_flip(self, r, n, base, path):
        item = self._change("flip", path, r.pos, r.pos)
        if base is MISSING:
            return MISSING
        item["value"] = not base
        return item["value"]

    def _delta_difference(self, r, n, base, path):
        d = n["delta_body"]
        max_code = integer(d["max_code"])
        at = r.pos
        if max_code == 1:  # a one-bit code: the other one, no bits
            item = self._change("flip", path, at, at)
            if base is MISSING:
                return MISSING
            value = self._value_of(n, 1 - self._code_of(n, base, at, path), at, path)
            item["value"] = value
            return value
        try:
            found = None
            for j, rung in enumerate(d["rungs"]):
                if r.read(1) == 1:
                    negative = r.read(1) == 1
                    lo, hi = integer(rung["lo"]), integer(rung["hi"])
                    offset = r.read(integer(rung["bits"]))
                    if offset > hi - lo:
                        raise DecodeError("out_of_range", at)
                    found = (j, -(lo + offset) if negative else lo + offset)
                    break
            if found is None:
                code = r.read(integer(d["code_bits"]))
                if code > max_code:
                    raise DecodeError("out_of_range", at)
        except DecodeError as e:
            e.bit, e.path = min(e.bit, at), path
            raise
        if found is not None:
            item = self._change("difference", path, at, r.pos, difference=found[1], rung=found[0])
        else:
            item = self._change("code", path, at, r.pos, code=code)
            if base is MISSING:  # the code alone gives the value
                item["value"] = self._value_of(n, code, at, path)
                return MISSING
        if base is MISSING:
            return MISSING
        base_code = self._code_of(n, base, at, path)
        if base_code > max_code:
            raise DecodeError("invalid_value", at, path)
        if found is not None:
            code = base_code + found[1]
            if code < 0 or code > max_code:
                raise DecodeError("out_of_range", at, path)
        item["value"] = self._value_of(n, code, at, path)
        return item["value"]

    def _ladder(self, r, d, at, path):
        """A difference through the rungs of d (a delta_body with rungs): ("difference", d,
        rung) or ("code", code); errors at `at`."""
        try:
            for j, rung in enumerate(d["rungs"]):
                if r.read(1) == 1:
                    negative = r.read(1) == 1
                    lo, hi = integer(rung["lo"]), integer(rung["hi"])
                    offset = r.read(integer(rung["bits"]))
                    if offset > hi - lo:
                        raise DecodeError("out_of_range", at)
                    return "difference", -(lo + offset) if negative else lo + offset, j
            code = r.read(integer(d["code_bits"]))
            if code > integer(d["max_code"]):
                raise DecodeError("out_of_range", at)
            return "code", code, None
        except DecodeError as e:
            e.bit, e.path = min(e.bit, at), path
            raise

    def _smallest_three_fields(self, n, v, at, path):
        """The fields a decoded rotation writes back to (docs/game_encodings.md: a decoded
        rotation re-encodes to the fields it came from): the largest |component| (the first
        on a tie), the whole negated when it is negative, the other three's codes."""
        fields = n.get("value_fields")
        c = [parse_float(v[f]) for f in fields] if fields else [parse_float(x) for x in v]
        if not all(math.isfinite(x) for x in c):
            raise DecodeError("invalid_value", at, path)
        largest = 0
        for i in range(1, 4):
            if abs(c[i]) > abs(c[largest]):
                largest = i
        if math.copysign(1.0, c[largest]) < 0:
            c = [-x for x in c]
        q = n["quantization"]
        lo, delta, max_int = real(q["min"]), real(q["delta"]), integer(q["max_int"])
        codes = []
        for i in range(4):
            if i == largest:
                continue
            if c[i] == 0:  # 0 (and -0) is the middle code, which reads as exactly 0
                codes.append(max_int // 2)
                continue
            x = min(max(f32(f32(f32(c[i]) - lo) / delta), 0.0), 1.0)
            codes.append(min(math.floor(f32(f32(x * f32(max_int)) + 0.5)), max_int))
        return largest, codes

    @staticmethod
    def _smallest_three_codes_of(v, max_code):
        """A smallest_three_codes value's (largest, [a, b, c]), or None when one is outside
        its range (largest in [0, 3], codes in [0, max_code])."""
        try:
            f = [v[k] for k in SMALLEST_THREE_FIELDS]
        except (KeyError, TypeError):
            return None
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in f):
            return None
        if not 0 <= f[0] <= 3 or not all(0 <= x <= max_code for x in f[1:]):
            return None
        return f[0], f[1:]

    @staticmethod
    def _smallest_three_codes_value(largest, codes):
        return dict(zip(SMALLEST_THREE_FIELDS, [largest] + list(codes)))

    def _delta_smallest_three(self, r, n, base, path):
        """smallest_three's own delta (schema.md, user_attribute): that of
        smallest_three_codes, on the codes the baseline rotation writes to; a baseline
        component that is not finite fails with invalid_value before anything is read."""
        at = r.pos
        if base is not MISSING:
            fields = n.get("value_fields")
            c = [base.get(f) for f in fields] if fields and isinstance(base, dict) else base
            if not all(math.isfinite(parse_float(x)) for x in c):
                raise DecodeError("invalid_value", at, path)
        return self._smallest_three_delta(
            r, n, base, path, integer(n["quantization"]["max_int"]),
            lambda: self._smallest_three_written(n, base, at, path),
            lambda largest, codes: self._smallest_three_decode(n, largest, codes))

    def _delta_smallest_three_codes(self, r, n, base, path):
        """smallest_three_codes' own delta (schema.md, user_attribute); a baseline code
        outside its range fails with invalid_value before anything is read."""
        max_code = integer(n["delta_body"]["max_code"])
        fields = None
        if base is not MISSING:
            fields = self._smallest_three_codes_of(base, max_code)
            if fields is None:
                raise DecodeError("invalid_value", r.pos, path)
        return self._smallest_three_delta(r, n, base, path, max_code, lambda: fields,
                                          self._smallest_three_codes_value)

    def _smallest_three_delta(self, r, n, base, path, max_code, base_fields, value_of):
        """The delta both smallest-three codecs send: changed; same largest; on a switch a
        2-bit step (3: out_of_range) and the baseline's codes re-expressed with the new
        largest; then per code a changed bit and its difference. In a range-coded packet
        the step and each code are coded in frames named after the wire's fields. Every
        error at the first bit. base_fields() gives the baseline's (largest, codes),
        value_of(largest, codes) the value read."""
        d = n["delta_body"]
        at = r.pos
        changed = self._read_at(r, 1, path) == 1
        self._change("changed", path, at, r.pos, changed=changed)
        if not changed:
            return base
        step_item = None
        try:
            bit = r.pos
            same = r.read(1) == 1
            self._change("same_largest", path, bit, r.pos, same_largest=same)
            step = None
            if not same:
                bit = r.pos
                r.enter_member(SMALLEST_THREE_FIELDS[0])
                step = r.read(2)
                r.leave()
                if step == 3:
                    raise DecodeError("out_of_range", at)
                step_item = self._change("largest_step", path, bit, r.pos, step=step)
            found = []
            for k in range(3):
                p = f"{path}#code{k}"
                r.enter_member(SMALLEST_THREE_FIELDS[k + 1])
                bit = r.pos
                code_changed = r.read(1) == 1
                self._change("changed", p, bit, r.pos, changed=code_changed)
                if code_changed:
                    bit = r.pos
                    kind, amount, rung = self._ladder(r, d, at, path)
                    if kind == "difference":
                        self._change("difference", p, bit, r.pos, difference=amount, rung=rung)
                    else:
                        self._change("code", p, bit, r.pos, code=amount)
                    found.append((k, kind, amount))
                r.leave()
        except DecodeError as e:
            e.bit, e.path = at, path
            raise
        if base is MISSING:
            return MISSING
        largest, codes = base_fields()
        codes = list(codes)
        if step is not None:
            largest, codes = smallest_three_reexpress(largest, codes, (largest + 1 + step) & 3, max_code)
            if step_item is not None:
                step_item["largest"] = largest
        for k, kind, amount in found:
            codes[k] = amount if kind == "code" else codes[k] + amount
            if not 0 <= codes[k] <= max_code:
                raise DecodeError("out_of_range", at, path)
        return value_of(largest, codes)

    def _smallest_three_decode(self, n, largest, codes):
        """The rotation fields read as: the three, then the largest rebuilt."""
        c = [0.0] * 4
        others = [i for i in range(4) if i != largest]
        total = 0.0
        for i, code in zip(others, codes):
            c[i] = self._quantized(code, n["quantization"])
            total = f32(total + f32(c[i] * c[i]))
        self._rebuild(c, largest, total)
        return self._components(n, c)

    def _smallest_three_written(self, n, v, at, path):
        """The fields netser's writer gives a rotation (its delta's baseline fields): the
        plain fields when they are a fixed point, as those of every rotation a reader
        decoded are. Near a tie the writer searches for other fields (docs/game_encodings.md),
        which this tool does not model: unsupported (a baseline given by hand can be such
        a rotation; neither a decoded value nor a prediction is)."""
        largest, codes = self._smallest_three_fields(n, v, at, path)
        again = self._smallest_three_fields(n, self._smallest_three_decode(n, largest, codes), at, path)
        if again != (largest, codes):
            raise DecodeError("unsupported", at, path)
        return largest, codes

    # -- element lists: changed bits or relative indices ------------------------------

    def _changed_elements(self, r, count, path, body, unchanged=None, flags=None):
        """The changed ones of `count` elements: a mode bit, then a changed bit per element
        or the relative index of each changed one and the end index `count`. body(i, p)
        reads element i's body (p its path) after its bit or index; unchanged(i, item)
        may add to the change of an element's clear bit; flags(i), the baseline element's
        flags a range-coded body codes its changed bit and body under."""
        at = r.pos
        listed = self._read_at(r, 1, path) == 1
        self._change("elements", path, at, r.pos, mode="indices" if listed else "changed_bits", count=count)
        if not listed:
            for i in range(count):
                p = join(path, f"[{i}]")
                bit = r.pos
                if flags is not None:
                    r.element_flags(flags(i))
                changed = self._read_at(r, 1, p) == 1
                item = self._change("changed", p, bit, r.pos, changed=changed)
                if changed:
                    body(i, p)
                else:
                    if flags is not None:
                        r.element_flags(0)
                    if unchanged is not None:
                        unchanged(i, item)
            return
        previous = -1
        while True:
            bit = r.pos
            current = self._relative_index(r, previous, count, path)
            if current == count:
                self._change("end", join(path, "[end]"), bit, r.pos, index=current)
                return
            p = join(path, f"[{current}]")
            self._change("index", p, bit, r.pos, index=current)
            body(current, p)
            previous = current

    def _element_list(self, r, count, element, base, path, body=None, framed=True):
        """The `count` elements both sides have, as changed elements; each changed one's
        delta body (or body(value node, baseline element, path), a slot's), in an
        element's frame when `framed`."""
        flagged = body is None  # a plain element list (not a sparse vector's slots)
        body = body or self._delta_body
        out = [MISSING] * count
        if base is not MISSING:
            out = list(base[:count])

        def changed(i, p):
            out[i] = self._framed_call(r, framed, body, r, element, MISSING if base is MISSING else base[i], p)

        def unchanged(i, item):
            if base is not MISSING and not isinstance(base[i], (dict, list)):
                item["value"] = base[i]

        flags = None
        if flagged and r.range_coded and base is not MISSING:
            flags = lambda i: self._element_flags(element, base[i])  # noqa: E731
        self._changed_elements(r, count, path, changed, unchanged, flags)
        return out

    def _element_flags(self, n, v):
        """An element's flags (wire_format.md "Contexts"): the values of the first four
        bool members of a struct element (its own, skipped ones left out) as bits after a
        leading 1; 0 for an element without."""
        if n["kind"] != "struct" or not isinstance(v, dict):
            return 0
        definition = n if "members" in n else self.types[n["name"]]
        flags, taken = 1, 0
        for m in definition["members"]:
            if m.get("skip") or "encoding" not in m or m["encoding"].get("kind") != "bool":
                continue
            if taken < 4:
                flags = flags << 1 | (1 if v.get(m["name"]) is True else 0)
            taken += 1
        return flags if taken else 0

    @staticmethod
    def _framed_call(r, framed, fn, *args):
        """fn(*args), in an element's frame when `framed` (a range-coded walk's contexts)."""
        if not framed:
            return fn(*args)
        r.enter_element()
        try:
            return fn(*args)
        finally:
            r.leave()

    def _delta_elements(self, r, n, base, path):
        return self._element_list(r, integer(n["length"]), n["element"], base, path)

    def _delta_vector(self, r, n, base, path, slots=False):
        """A vector's delta body; with `slots`, a sparse vector's (docs/schema.md,
        "vector_slots"): its slots' bodies are `_present_body`s, a new slot is its presence
        bit and value, and new slots take at least one bit each."""
        at = r.pos
        same = self._read_at(r, 1, path) == 1
        self._change("same_count", path, at, r.pos, same_count=same)
        max_size = integer(n["max_size"])
        if same:
            self._need(base, r, path)
            count = len(base)
        else:
            cat = r.pos
            count = self._read_at(r, integer(n["count_bits"]), path)
            self._change("count", path, cat, r.pos, count=count)
            if count > max_size:
                raise DecodeError("too_large", cat, path)
        if count > max_size:
            raise DecodeError("too_large", at, path)
        if count == 0:
            return []
        self._need(base, r, path)
        min_bits = 1 if slots else integer(n.get("element_min_bits", 0))
        if count > len(base):  # the new elements (the baseline's are the reader's own)
            if min_bits and count - len(base) > r.remaining() // min_bits:
                raise DecodeError("overflow", at, path)
            if not min_bits or r.range_coded:
                self._charge(count - len(base), at, path)
        both = min(count, len(base))
        body = self._present_body if slots else None
        framed = not slots and self._framed(n)
        out = self._element_list(r, both, n["element"], base, path, body, framed) if both else []
        for i in range(both, count):
            p = join(path, f"[{i}]")
            if slots:
                out.append(self._present_body(r, n["element"], None, p))
                continue
            bit = r.pos
            value = self._framed_call(r, framed, self._plain_at, r, n["element"], p)
            self._change("plain", p, bit, r.pos, value=value)
            out.append(value)
        return out

    def _present_body(self, r, value, base, path):
        """An optional's delta body (or a sparse slot's): the presence bit; when set, the
        value's delta body if the baseline has one, else its plain encoding."""
        at = r.pos
        present = self._read_at(r, 1, path) == 1
        self._change("present", path, at, r.pos, present=present)
        if not present:
            return None
        self._need(base, r, path)
        if base is None:
            bit = r.pos
            v = self._plain_at(r, value, path)
            self._change("plain", path, bit, r.pos, value=v)
            return v
        return self._delta_body(r, value, base, path)

    def _delta_optional(self, r, n, base, path):
        return self._present_body(r, n["value"], base, path)

    # -- keyed deltas: maps, sets and keyed vectors by key, sparse arrays by slot --------

    def _delta_slots(self, r, n, base, path):
        """A sparse array by slot: its slots as changed elements, each a `_present_body`
        (no element frames)."""
        return self._element_list(r, integer(n["length"]), n["element"], base, path, self._present_body, False)

    def _delta_vector_slots(self, r, n, base, path):
        return self._delta_vector(r, n, base, path, slots=True)

    def _key_code(self, n, v, at, path):
        """A key's code, as the reference order sorts it: a raw float's IEEE bits, else the
        code of its plain encoding (the error its write gives when it has none)."""
        if n["kind"] == "float" and n["encoding"] == "raw":
            bits = integer(n["bits"])
            if isinstance(v, str) and v.startswith("nan("):
                return int(v[4:-1], 16)
            return int.from_bytes(struct.pack("<f" if bits == 32 else "<d", parse_float(v)), "little")
        return self._code_of(n, v, at, path)

    def _key_member(self, element, key, path):
        """A keyed vector's element struct and the node of its key member."""
        element = self._target(element)
        node = _key_node(element, key, self.types)
        if node is None:
            raise SchemaError(f"{path or 'root'}: keyed on {key!r}, which is no member of its elements")
        return element, node

    def _added_count(self, r, n, kept, path):
        """The count of added entries (after the plain count's checks): above max_size with
        the `kept` ones, too_large at its first bit."""
        at = r.pos
        try:
            count = self._count(r, n)
        except DecodeError as e:
            e.path = path
            raise
        self._change("added", path, at, r.pos, count=count)
        if count > integer(n["max_size"]) - kept:
            raise DecodeError("too_large", at, path)
        return count

    def _delta_keyed(self, r, n, base, path):
        """A map, a set or a keyed vector by key (docs/schema.md, "keyed"): the touched
        entries of the baseline in reference order, the added ones, a vector's order."""
        at = r.pos
        self._need(base, r, path)
        if len(base) > integer(n["max_size"]):  # a baseline above max_size
            raise DecodeError("too_large", at, path)
        if n["kind"] == "vector":
            return self._keyed_vector(r, n, base, path, at)
        is_map = n["kind"] == "map"
        key_node = n["key"] if is_map else n["element"]
        codes = [self._key_code(key_node, e[0] if is_map else e, at, path) for e in base]
        order = sorted(range(len(base)), key=lambda i: codes[i])
        ref = [base[i] for i in order]  # the reference order: by key code
        ref_codes = [codes[i] for i in order]
        result = {}  # code -> entry

        def key_of(e):
            return e[0] if is_map else e

        def body(j, p):
            key = key_of(ref[j])
            if not is_map:  # a set's touched key is removed, and has no body
                self._change("entry", p, r.pos, r.pos, key=key, removed=True)
                return
            bit = r.pos
            removed = self._read_at(r, 1, p) == 1
            self._change("entry", p, bit, r.pos, key=key, removed=removed)
            if not removed:
                result[ref_codes[j]] = [key, self._framed_call(r, True, self._delta_body, r, n["value"], ref[j][1], p)]

        def unchanged(j, item):
            item["key"] = key_of(ref[j])

        touched = set()
        if ref:
            def track(j, p):
                touched.add(j)
                body(j, p)
            self._changed_elements(r, len(ref), path, track, unchanged)
        for j, e in enumerate(ref):
            if j not in touched:
                result[ref_codes[j]] = e
        # Keys are told apart as the container does: by value (a float's -0 is its 0).
        zero = self._key_code(key_node, 0.0, at, path) if key_node["kind"] == "float" else None
        held = {zero if zero is not None and parse_float(key_of(e)) == 0 else c for c, e in result.items()}
        count = self._added_count(r, n, len(result), path)
        for k in range(count):
            p = join(path, f"[{k}]")
            bit = r.pos
            key = self._plain_at(r, key_node, p)
            entry = [key, self._plain_at(r, n["value"], p)] if is_map else key
            self._change("plain", p, bit, r.pos, value=entry, key=key)
            code = self._key_code(key_node, key, bit, p)
            same = zero if zero is not None and parse_float(key) == 0 else code
            if same in held:
                raise DecodeError("invalid_value", bit, p)  # a key kept, or added twice
            held.add(same)
            result[code] = entry
        return [result[c] for c in sorted(result)]

    def _keyed_vector(self, r, n, base, path, at):
        """A keyed vector: touched baseline elements in its order (removed bit, delta body,
        the key unchanged), the added elements, then the order field."""
        key = n["key"]
        element, key_node = self._key_member(n["element"], key, path)
        base_codes = [self._key_code(key_node, b[key], at, path) for b in base]
        changed = {}  # j -> the new element, or None when removed

        def body(j, p):
            bit = r.pos
            removed = self._read_at(r, 1, p) == 1
            self._change("entry", p, bit, r.pos, key=base[j][key], removed=removed)
            if removed:
                changed[j] = None
                return
            e = self._framed_call(r, True, self._delta_body, r, element, base[j], p)
            try:
                code = self._key_code(key_node, e[key], bit, p)
            except DecodeError:
                code = None
            if code != base_codes[j]:  # a delta body may not change the key
                raise DecodeError("invalid_value", bit, p)
            changed[j] = e

        def unchanged(j, item):
            item["key"] = base[j][key]

        if base:
            self._changed_elements(r, len(base), path, body, unchanged)
        values, codes = [], []
        for j, b in enumerate(base):
            e = changed.get(j, b)
            if e is not None:
                values.append(e)
                codes.append(base_codes[j])
        kept = len(values)
        count = self._added_count(r, n, kept, path)
        added_at = []
        for k in range(count):
            p = join(path, f"[{kept + k}]")
            bit = r.pos
            added_at.append(bit)
            e = self._framed_call(r, True, self._plain_at, r, element, p)
            self._change("plain", p, bit, r.pos, value=e, key=e[key])
            values.append(e)
            codes.append(self._key_code(key_node, e[key], bit, path))
        # A key kept from the baseline or added twice: the first repeated code, the later
        # of its two elements.
        by_code = sorted(range(len(values)), key=lambda i: (codes[i], i))
        for a, b in zip(by_code, by_code[1:]):
            if codes[a] == codes[b]:
                raise DecodeError("invalid_value", added_at[b - kept] if b >= kept else at, join(path, f"[{b}]"))
        if len(values) < 2:
            return values
        return self._keyed_order(r, values, codes, key, path)

    def _keyed_order(self, r, values, codes, key, path):
        """The order field of a keyed vector's n >= 2 elements (in the kept order)."""
        n = len(values)
        at = r.pos
        moved = self._read_at(r, 1, path) == 1
        if not moved:
            self._change("order", path, at, r.pos, order="kept")
            return values
        listed = self._read_at(r, 1, path) == 1
        if not listed:
            self._change("order", path, at, r.pos, order="sorted")
            return [values[i] for i in sorted(range(n), key=lambda i: codes[i])]
        m = self._read_at(r, bits_required(0, n), path)
        self._change("order", path, at, r.pos, order="moves", count=m)
        if m > n:
            raise DecodeError("out_of_range", at, path)
        source, taken = [None] * n, [False] * n
        previous = -1
        for _ in range(m):
            mat = r.pos
            target = self._relative_index(r, previous, n, path)
            from_end = self._read_at(r, bits_required(0, n - 1), path)
            if target >= n or from_end >= n:
                raise DecodeError("out_of_range", mat, path)
            place = n - 1 - from_end
            if taken[place]:
                raise DecodeError("invalid_value", mat, path)  # a place moved twice
            taken[place] = True
            source[target] = place
            self._change("move", join(path, f"[{target}]"), mat, r.pos, position=target, place=place,
                         key=values[place][key])
            previous = target
        out, nxt = [], 0
        for i in range(n):
            if source[i] is None:  # the elements not moved fill the rest, in the kept order
                while taken[nxt]:
                    nxt += 1
                source[i] = nxt
                nxt += 1
            out.append(values[source[i]])
        return out

    def _delta_variant(self, r, n, base, path):
        at = r.pos
        try:
            index = self._variant_index(r, n)
        except DecodeError as e:
            e.path = path
            raise
        alternatives = n["alternatives"]
        if index >= len(alternatives):
            raise DecodeError("invalid_value", at, path)
        alt = alternatives[index]
        self._change("alternative", path, at, r.pos, index=index, alternative=alt["name"])
        self._need(base, r, path)
        try:
            if base["index"] == index:
                value = self._alternative(r, alt, self._delta_body, r, alt["encoding"], base["value"], path)
            else:
                bit = r.pos
                value = self._alternative(r, alt, self._plain_at, r, alt["encoding"], path)
                self._change("plain", path, bit, r.pos, value=value)
        except DecodeError as e:
            # The error names the alternative as netser does (the changes keep `path`).
            named = f"<{alt['name'].split('#')[0]}>"
            rest = e.path[len(path):] if e.path.startswith(path) else None
            if not path:
                e.path = join(named, e.path)
            elif rest is not None and (rest == "" or rest[0] in ".["):
                e.path = path + named + rest
            raise
        return {"index": index, "alternative": alt["name"], "value": value}

    def _delta_members(self, r, n, base, path):
        if n["kind"] == "aggregate":
            recursive = bool(n.get("recursive"))
            try:
                self._enter(r, recursive)
            except DecodeError as e:
                e.path = path
                raise
            self.inline_stack.append(n)
            try:
                out = {}
                for f in n["fields"]:
                    fb = MISSING if base is MISSING else base[f["name"]]
                    out[f["name"]] = self._delta_value(r, f["encoding"], fb, join(path, f["name"]))
                return out
            finally:
                self.inline_stack.pop()
                self._leave(recursive)
        definition = n if "members" in n else self.types[n["name"]]
        inline = "members" in n
        recursive = bool(definition.get("recursive"))
        try:
            self._enter(r, recursive)
        except DecodeError as e:
            e.path = path
            raise
        if inline:
            self.inline_stack.append(n)
        try:
            obj = {}
            for b in definition["bases"]:
                value = self._delta_value(r, b, base, path)
                if value is not MISSING:
                    obj.update(value)
            for m in definition["members"]:
                if m.get("skip"):
                    continue  # not on the wire: a reader keeps the baseline's
                mpath = join(path, m["name"])
                cond = m.get("only_if")
                if cond is not None:
                    flag = obj.get(cond["member"], MISSING)
                    if flag is MISSING:
                        raise DecodeError("missing_baseline", r.pos, mpath)
                    if flag is not True:
                        self._change("not_sent", mpath, r.pos, r.pos)
                        continue
                if m.get("check") is not None:
                    try:
                        self._member_check(r, m)
                    except DecodeError as e:
                        e.path = mpath
                        raise
                if base is MISSING:
                    mbase = MISSING
                elif m["name"] in base:
                    mbase = base[m["name"]]
                elif cond is not None:
                    mbase = self._reset_value(m, cond, r, mpath)
                else:
                    raise DecodeError("missing_baseline", r.pos, mpath)  # the baseline lacks it
                r.enter_member(m["name"])
                try:
                    obj[m["name"]] = self._delta_value(r, m["encoding"], mbase, mpath)
                finally:
                    r.leave()
            return obj
        finally:
            if inline:
                self.inline_stack.pop()
            self._leave(recursive)

    def _reset_value(self, m, cond, r, path):
        """The value an only_if member is reset to when not sent: its baseline then."""
        reset = cond.get("reset")
        if reset is None:
            raise DecodeError("missing_baseline", r.pos, path)
        if "error" in reset:
            raise DecodeError(reset["error"], r.pos, path)
        data = bytes.fromhex(reset["hex"])
        saved = self.nesting, self.budget  # not read from the packet: nothing charged
        try:
            return self.node(BitReader(data), m["encoding"])
        finally:
            self.nesting, self.budget = saved

    @staticmethod
    def _rebuild(c, largest, total):
        if total <= 1.0:
            c[largest] = f32(math.sqrt(f32(1.0 - total)))
        else:
            s = f32(1.0 / f32(math.sqrt(total)))
            for i in range(4):
                c[i] = f32(c[i] * s)
            c[largest] = 0.0

    def _wire(self, r, n):
        """A codec's fields as its stated wire gives them, in order (docs/schema.md, "wire"):
        {name: value}. A code above its field's max_code fails with out_of_range; every
        error is at the codec's first bit."""
        at = r.pos
        out = {}
        try:
            fields = n["wire"]
            total = sum(integer(f["bits"]) for f in fields)
            packed = None
            if total <= 64 and r.remaining() >= total:  # one call (the same bits, bit-packed)
                packed = r.read(total)
            for f in fields:
                bits = integer(f["bits"])
                if packed is None:
                    code = r.read(bits)
                else:
                    code, packed = packed & ((1 << bits) - 1), packed >> bits
                if code > integer(f["max_code"]):
                    raise DecodeError("out_of_range", at)
                if f["as"] == "flag":
                    out[f["name"]] = code == 1
                elif f["as"] == "integer":
                    out[f["name"]] = integer(f["min"]) + code
                elif f["as"] == "quantized":
                    out[f["name"]] = self._quantized(code, f["quantization"])
                else:
                    out[f["name"]] = code
        except DecodeError as e:
            e.bit = min(e.bit, at)
            raise
        return out

    def node_user_attribute(self, r, n):
        tag = n.get("tag")
        # The shipped codecs state their wire; another without one is an opaque code,
        # which can be stepped over when its width is fixed.
        if "wire" not in n:
            if tag in _QUANTIZED_TAGS or tag in ("linked", "linked_strict"):
                raise DecodeError("unsupported", r.pos)
            return self._opaque(r, n)
        f = self._wire(r, n)
        if tag in ("smallest_three", "unit_quaternion"):
            # The rotation: `largest` rebuilt from the other three (or w from x, y, z).
            c = [0.0] * 4
            if tag == "smallest_three":
                largest = f["largest"]
                values = [f["a"], f["b"], f["c"]]
            else:
                largest, values = 3, [f["x"], f["y"], f["z"]]
            others = [i for i in range(4) if i != largest]
            total = 0.0
            for i, v in zip(others, values):
                c[i] = float(v)
                total = f32(total + f32(c[i] * c[i]))
            self._rebuild(c, largest, total)
            if tag == "unit_quaternion" and f["negative_w"]:
                c[3] = -c[3]
            return self._components(n, c)
        if tag == "unit_vector":
            u, v = float(f["u"]), float(f["v"])
            z = f32(f32(1.0 - abs(u)) - abs(v))
            if z < 0:
                su = -1.0 if u < 0 else 1.0
                sv = -1.0 if v < 0 else 1.0
                u, v = f32(f32(1.0 - abs(v)) * su), f32(f32(1.0 - abs(u)) * sv)
            length = f32(math.sqrt(f32(f32(f32(u * u) + f32(v * v)) + f32(z * z))))
            return self._components(n, [f32(u / length), f32(v / length), f32(z / length)])
        if tag in ("linked", "linked_strict"):
            return None if f["id"] == 0 else f["id"]
        return f

    def _components(self, n, c):
        values = [float_value(v, "0x%08x" % int.from_bytes(struct.pack("<f", v), "little")) for v in c]
        fields = n.get("value_fields")
        return dict(zip(fields, values)) if fields else values

    def _opaque(self, r, n):
        max_bits = n.get("max_bits")
        if max_bits is None or integer(n.get("min_bits", -1)) != integer(max_bits) or r.range_coded:
            raise DecodeError("unsupported", r.pos)  # (range-coded: its calls are its own)
        bits = integer(max_bits)
        return {"code": r.read(bits), "bits": bits}

    def node_user_type(self, r, n):
        return self._wire(r, n) if "wire" in n else self._opaque(r, n)

    def node_unknown(self, r, n):
        raise DecodeError("unsupported", r.pos)

    # ---- plain writes: the baseline fingerprint (docs/schema.md section 6) -------------
    # A delta packet carries the fingerprint of the baseline it was written against: the
    # standard CRC-32 over the bit count of the baseline's plain encoding (4 little-endian
    # bytes), then that encoding's bytes. To check it, the baseline (a decoded value) is
    # written back as netser's plain write does.

    def baseline_fingerprints(self, value):
        """The fingerprints value has as a baseline: one, or (its sets and maps in the order
        given, by key code, by key: a hash table writes its entries by key code, a std::map
        in key order) up to three; none when it has no plain encoding (a value out of its
        range: netser's reader then refuses every delta against it). NotEncodable when the
        schema has a node this tool cannot write (an opaque codec of variable width)."""
        out = []
        for order in ("given", "by_code", "by_key"):
            self._order, self._reorderable = order, False
            self.inline_stack = []
            w = BitWriter()
            try:
                self._write(w, self.schema["root"], value)
            except _NoPlain:
                return []
            finally:
                self.inline_stack = []
            fingerprint = zlib.crc32((w.pos & 0xFFFFFFFF).to_bytes(4, "little") + w.data())
            if fingerprint not in out:
                out.append(fingerprint)
            if not self._reorderable:
                break
        return out

    def _write(self, w, n, v):
        kind = n["kind"]
        if kind == "recursive":
            n = self.inline_stack[len(self.inline_stack) - 1 - integer(n["depth"])]
            kind = n["kind"]
        fn = getattr(self, "_write_" + kind, None)
        if fn is None:
            raise NotEncodable(f"no plain write for a {kind!r} node")
        fn(w, n, v)

    def _code(self, n, v):
        try:
            return self._code_of(n, v, 0, "")
        except DecodeError:
            raise _NoPlain() from None

    def _write_common(self, w, n, v, equal):
        """common: the flag, then the index of the first value equal to v, or the plain code."""
        common = n.get("common")
        if common is not None:
            for i, c in enumerate(common["values"]):
                if equal(c):
                    w.put(1, 1)
                    w.put(i, integer(common["index_bits"]))
                    return True
            w.put(0, 1)
        return False

    def _write_bool(self, w, n, v):
        w.put(1 if v else 0, 1)

    def _write_int(self, w, n, v):
        if not self._write_common(w, n, v, lambda c: integer(c) == v):
            w.put(self._code(n, v), integer(n["bits"]))

    def _write_enum(self, w, n, v):
        w.put(self._code(n, v), integer(n["bits"]))

    def _write_float(self, w, n, v):
        x = parse_float(v)
        if self._write_common(w, n, v, lambda c: real(c) == x):
            return
        if n.get("finite") and not math.isfinite(x):
            raise _NoPlain()
        bits = integer(n["bits"])
        if n["encoding"] == "quantize":
            w.put(self._code(n, v), bits)
        elif isinstance(v, str) and v.startswith("nan("):
            w.put(int(v[4:-1], 16), bits)
        else:
            w.put(int.from_bytes(struct.pack("<f" if bits == 32 else "<d", x), "little"), bits)

    def _write_string(self, w, n, v):
        if isinstance(v, dict):
            data = bytes.fromhex(v["bytes"])
            try:
                data.decode("utf-8", "strict")
                valid = True
            except UnicodeDecodeError:
                valid = False
        else:
            data, valid = v.encode("utf-8", "surrogatepass"), all(not 0xD800 <= ord(c) <= 0xDFFF for c in v)
        if len(data) > integer(n["max_length"]) or \
                (n["content"] == "utf8_without_nul" and (not valid or b"\0" in data)):
            raise _NoPlain()
        w.put(len(data), integer(n["length_bits"]))
        w.align()
        w.put_bytes(data)

    def _write_count(self, w, n, count):
        if count > integer(n["max_size"]):
            raise _NoPlain()
        w.put(count, integer(n["count_bits"]))

    def _write_array(self, w, n, v):
        if len(v) != integer(n["length"]):
            raise _NoPlain()
        for x in v:
            self._write(w, n["element"], x)

    def _write_vector(self, w, n, v):
        self._write_count(w, n, len(v))
        for x in v:
            self._write(w, n["element"], x)

    def _entries(self, n, entries, key):
        """A set's or a map's entries in the order of this write (baseline_fingerprints)."""
        if len(entries) < 2:
            return entries
        self._reorderable = True
        node = n["element"] if n["kind"] == "set" else n["key"]
        if self._order == "by_code":
            if node["kind"] not in ("bool", "int", "enum", "float"):
                return entries  # no key code: a hash table of such keys keeps its own order
            return sorted(entries, key=lambda e: self._key_code_or_fail(node, key(e)))
        if self._order == "by_key":
            def natural(e):
                k = key(e)
                if isinstance(k, str):
                    return (0, k.encode("utf-8", "surrogatepass"))
                if isinstance(k, dict) and "bytes" in k:
                    return (0, bytes.fromhex(k["bytes"]))
                if isinstance(k, (bool, int, float)) or (isinstance(k, str) and k in ("inf", "-inf")):
                    return (1, parse_float(k) if not isinstance(k, int) else k)
                return (2, json.dumps(k, sort_keys=True))
            try:
                return sorted(entries, key=natural)
            except TypeError:
                return entries
        return entries

    def _key_code_or_fail(self, node, k):
        try:
            return self._key_code(node, k, 0, "")
        except DecodeError:
            raise _NoPlain() from None

    def _write_set(self, w, n, v):
        self._write_count(w, n, len(v))
        for x in self._entries(n, v, lambda e: e):
            self._write(w, n["element"], x)

    def _write_map(self, w, n, v):
        self._write_count(w, n, len(v))
        for k, x in self._entries(n, v, lambda e: e[0]):
            self._write(w, n["key"], k)
            self._write(w, n["value"], x)

    def _write_optional(self, w, n, v):
        w.put(0 if v is None else 1, 1)
        if v is not None:
            self._write(w, n["value"], v)

    def _write_variant(self, w, n, v):
        w.put(v["index"], integer(n["index_bits"]))
        self._write(w, n["alternatives"][v["index"]]["encoding"], v["value"])

    @staticmethod
    def _write_relative_index(w, previous, current, size):
        """wire_format.md 3.2, the write of _relative_index's ladder."""
        d = current - previous
        if d == 1:
            w.put(1, 1)
            return
        w.put(0, 1)
        for lo, hi in ((2, 5), (6, 13), (14, 29), (30, 61), (62, 125)):
            if lo <= d <= hi:
                w.put(1, 1)
                w.put(d - lo, bits_required(lo, hi))
                return
            w.put(0, 1)
        w.put(d - 126, bits_required(126, size + 1))

    def _write_sparse(self, w, n, v):
        if n["container"] == "vector":
            self._write_count(w, n, len(v))
        elif len(v) != integer(n["length"]):
            raise _NoPlain()
        previous = -1
        for i, x in enumerate(v):
            if x is not None:
                self._write_relative_index(w, previous, i, len(v))
                self._write(w, n["element"], x)
                previous = i
        self._write_relative_index(w, previous, len(v), len(v))

    def _write_struct(self, w, n, v):
        definition = n if "members" in n else self.types[n["name"]]
        inline = "members" in n
        if inline:
            self.inline_stack.append(n)
        try:
            for base in definition["bases"]:
                self._write(w, base, v)
            for m in definition["members"]:
                if m.get("skip"):
                    continue
                cond = m.get("only_if")
                if cond is not None and v.get(cond["member"]) is not True:
                    continue
                if m["name"] not in v:
                    raise NotEncodable(f"member {m['name']!r} is sent but not in the value")
                if m.get("check") is not None:
                    w.align()
                    w.put(integer(m["check"]["magic"]), 32)
                self._write(w, m["encoding"], v[m["name"]])
        finally:
            if inline:
                self.inline_stack.pop()

    def _write_aggregate(self, w, n, v):
        self.inline_stack.append(n)
        try:
            for f in n["fields"]:
                self._write(w, f["encoding"], v[f["name"]])
        finally:
            self.inline_stack.pop()

    @staticmethod
    def _centered_code(x, q):
        """A unit component's code (docs/game_encodings.md): 0 (and -0) is the middle code."""
        max_int = integer(q["max_int"])
        if x == 0:
            return max_int // 2
        return _quantize_code(x, q)

    def _write_user_attribute(self, w, n, v):
        tag = n.get("tag")
        if "wire" not in n:
            self._write_opaque(w, n, v)
            return
        wire = n["wire"]
        if tag == "smallest_three":
            try:
                largest, codes = self._smallest_three_fields(n, v, 0, "")
            except DecodeError:
                raise _NoPlain() from None
            codes = [largest] + codes
        elif tag in ("unit_quaternion", "unit_vector"):
            fields = n.get("value_fields")
            c = [f32(parse_float(v[f])) for f in fields] if fields else [f32(parse_float(x)) for x in v]
            if not all(math.isfinite(x) for x in c):
                raise _NoPlain()
            if tag == "unit_quaternion":
                codes = [self._centered_code(c[i], wire[i]["quantization"]) for i in range(3)]
                codes.append(1 if math.copysign(1.0, c[3]) < 0 else 0)
            else:
                codes = self._octahedral(c, wire)
        elif tag in ("linked", "linked_strict"):
            codes = [0 if v is None else v]
        else:
            codes = []
            for f in wire:
                x = v[f["name"]]
                if f["as"] == "flag":
                    codes.append(1 if x else 0)
                elif f["as"] == "integer":
                    codes.append(x - integer(f["min"]))
                elif f["as"] == "quantized":
                    codes.append(_quantize_code(parse_float(x), f["quantization"]))
                else:
                    codes.append(x)
        for f, code in zip(wire, codes):
            if not 0 <= code <= integer(f["max_code"]):
                raise _NoPlain()
            w.put(code, integer(f["bits"]))

    def _octahedral(self, c, wire):
        """unit_vector's write (docs/game_encodings.md): u, v on the octahedron, folded when z < 0."""
        x, y, z = c
        l1 = f32(f32(abs(x) + abs(y)) + abs(z))
        if math.isinf(l1):
            x, y, z = f32(x * 0.25), f32(y * 0.25), f32(z * 0.25)
            l1 = f32(f32(abs(x) + abs(y)) + abs(z))
        if l1 == 0:
            raise _NoPlain()
        u, t = f32(x / l1), f32(y / l1)
        if z < 0:
            u, t = f32(f32(1 - abs(t)) * (-1 if u < 0 else 1)), f32(f32(1 - abs(u)) * (-1 if t < 0 else 1))
        return [self._centered_code(u, wire[0]["quantization"]), self._centered_code(t, wire[1]["quantization"])]

    def _write_opaque(self, w, n, v):
        max_bits = n.get("max_bits")
        if max_bits is None or integer(n.get("min_bits", -1)) != integer(max_bits) or not isinstance(v, dict):
            raise NotEncodable("an opaque codec of variable width")
        bits = integer(max_bits)
        if not 0 <= v["code"] < (1 << bits):
            raise _NoPlain()
        w.put(v["code"], bits)

    def _write_user_type(self, w, n, v):
        self._write_user_attribute(w, n, v)

    # ---- decoded values (section 8): what a baseline must look like ------------------

    def check_value(self, n, v, path):
        """InputError (one line, with the path) unless v has the shape of a value of node
        n as section 8 writes it. What the values are is netser's business: a baseline
        value that has no code (out of its range, no enumerator) fails the delta that
        needs it as netser's reader does."""
        kind = n["kind"]

        def expect(ok, what):
            if not ok:
                raise InputError(f"{path or 'the value'}: expected {what}, got {json.dumps(v)[:60]}")

        def number(x):
            return isinstance(x, (int, float)) and not isinstance(x, bool)

        if kind == "recursive":
            n = self.inline_stack[-1 - integer(n["depth"])]
            kind = n["kind"]
        if kind == "bool":
            expect(isinstance(v, bool), "true or false")
        elif kind == "int":
            expect(isinstance(v, int) and not isinstance(v, bool), "an integer")
        elif kind == "enum":
            expect(isinstance(v, str), "an enumerator's name")
        elif kind == "float":
            expect(number(v) or v in ("inf", "-inf") or (isinstance(v, str) and v.startswith("nan(")), "a float")
        elif kind == "string":
            expect(isinstance(v, str) or (isinstance(v, dict) and isinstance(v.get("bytes"), str)), "a string")
        elif kind in ("array", "vector", "set", "sparse", "map"):
            length = integer(n["length"]) if "length" in n else None
            expect(isinstance(v, list) and (length is None or len(v) == length),
                   "a list" + (f" of {length}" if length is not None else ""))
            for i, x in enumerate(v):
                p = f"{path}[{i}]"
                if kind == "map":
                    expect(isinstance(x, list) and len(x) == 2, "[key, value] pairs")
                    self.check_value(n["key"], x[0], p)
                    self.check_value(n["value"], x[1], p)
                elif not (kind == "sparse" and x is None):
                    self.check_value(n["element"], x, p)
        elif kind == "optional":
            if v is not None:
                self.check_value(n["value"], v, path)
        elif kind == "variant":
            alternatives = n["alternatives"]
            expect(isinstance(v, dict) and "value" in v and isinstance(v.get("index"), int)
                   and 0 <= v["index"] < len(alternatives), "{\"index\": ..., \"value\": ...}")
            self.check_value(alternatives[v["index"]]["encoding"], v["value"], path)
        elif kind in ("struct", "aggregate"):
            expect(isinstance(v, dict), "an object")
            inline = kind == "aggregate" or "members" in n
            definition = n if inline else self.types[n["name"]]
            if inline:
                self.inline_stack.append(n)
            try:
                for b in definition.get("bases", ()):
                    self.check_value(b, v, path)
                for m in definition.get("members", definition.get("fields")):
                    if m.get("skip") or (m["name"] not in v and m.get("only_if") is not None):
                        continue  # not on the wire, or not sent: a reader resets it
                    if m["name"] not in v:
                        raise InputError(f"{join(path, m['name'])}: missing")
                    self.check_value(m["encoding"], v[m["name"]], join(path, m["name"]))
            finally:
                if inline:
                    self.inline_stack.pop()
        elif kind in ("user_attribute", "user_type"):
            tag = n.get("tag")
            if tag in _QUANTIZED_TAGS:
                fields = n.get("value_fields")
                size = 3 if tag == "unit_vector" else 4
                parts = [v.get(f) for f in fields] if fields and isinstance(v, dict) else v
                expect(isinstance(parts, list) and len(parts) == (len(fields) if fields else size) and
                       all(number(x) or isinstance(x, str) for x in parts), "the components")
            elif tag in ("linked", "linked_strict"):
                expect(v is None or (isinstance(v, int) and not isinstance(v, bool)), "an id or null")
            elif "wire" in n:  # a codec that states its wire: its fields by name
                def fits(f, x):
                    if f["as"] == "flag":
                        return isinstance(x, bool)
                    if f["as"] == "quantized":
                        return number(x) or isinstance(x, str)
                    return isinstance(x, int) and not isinstance(x, bool)
                expect(isinstance(v, dict) and all(f["name"] in v and fits(f, v[f["name"]]) for f in n["wire"]),
                       "{" + ", ".join(f'"{f["name"]}": ...' for f in n["wire"]) + "}")
            else:
                expect(isinstance(v, dict) and isinstance(v.get("code"), int), "{\"code\": ..., \"bits\": ...}")



def parse_float(v):
    """A decoded float (schema.md section 8) as a Python float."""
    if isinstance(v, str):
        if v.startswith("nan"):
            return math.nan
        return math.inf if v == "inf" else -math.inf
    return float(v)


def parse_hex(text):
    return bytes.fromhex("".join(text.split()))


def hashable(v):
    """A decoded value as a set member: equal values (Python's ==) give equal members."""
    if isinstance(v, list):
        return tuple(hashable(x) for x in v)
    if isinstance(v, dict):
        return tuple((k, hashable(x)) for k, x in v.items())
    return v


def load_json(path, what):
    """The JSON document of file `path` (a `what`); InputError, one line, when it has none."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise InputError(f"{what} {path}: {e.strerror or e}") from None
    except ValueError as e:  # not JSON, not UTF-8
        raise InputError(f"{what} {path}: not JSON ({e})") from None
    except RecursionError:
        raise InputError(f"{what} {path}: nested too deep") from None


def read_schema(path):
    """A schema file, checked (check_schema): InputError naming the file when it is not one."""
    doc = load_json(path, "schema")
    try:
        check_schema(doc)
    except SchemaError as e:
        raise SchemaError(f"schema {path}: {e}") from None
    return doc


def load_baseline(path, decoder=None):
    """A baseline value: a decoded value as JSON, or this tool's output {"ok": true, "value": ...};
    with a decoder, checked against its schema's root (InputError when it does not fit)."""
    v = load_json(path, "baseline")
    if isinstance(v, dict) and v.get("ok") is True and "value" in v:
        v = v["value"]
    if decoder is not None:
        try:
            decoder.inline_stack = []
            decoder.check_value(decoder.schema["root"], v, decoder.root_name or "")
        except InputError as e:
            raise InputError(f"baseline {path}: {e}") from None
        except RecursionError:
            raise InputError(f"baseline {path}: nested too deep") from None
    return v


def protocol_id(text):
    """--protocol-id: a 32-bit number (0x... for hex)."""
    try:
        v = int(text, 0)
    except ValueError:
        v = -1
    if not 0 <= v < 1 << 32:
        raise argparse.ArgumentTypeError(f"{text!r} is not a 32-bit protocol id")
    return v


def decode(decoder, args, data, baseline):
    """What the command line asks: (the output, the exit status)."""
    out = {}
    try:
        if args.predicted:
            prior = None if not args.range else (args.prior_entries or RangePrior())
            header, value, bits = decoder.decode_predicted_packet(data, args.protocol_id, baseline, prior)
            out = {"ok": True, "header": header}
            if decoder.fingerprint is not None:
                out["fingerprint"] = decoder.fingerprint
            if decoder.prediction is not MISSING:
                out["prediction"] = decoder.prediction
            out["changes"] = decoder.changes
            if value is not MISSING:
                out["value"] = value
            out["bits"] = bits
        elif args.delta:
            if args.payload:
                value, r = decoder.decode_delta(data, 0, baseline)
                bits = r.pos
            else:
                header, value, bits = decoder.decode_delta_packet(data, args.protocol_id, baseline)
                out["header"] = header
                if decoder.fingerprint is not None:
                    out["fingerprint"] = decoder.fingerprint
            out = {"ok": True, **out, "changes": decoder.changes}
            if value is not MISSING:
                out["value"] = value
            out["bits"] = bits
        elif args.payload:
            value, r = decoder.decode_payload(data)
            out = {"ok": True, "value": value, "bits": r.pos}
        else:
            value, bits = decoder.decode_packet(data, args.protocol_id)
            out = {"ok": True, "value": value, "bits": bits}
        return out, 0
    except DecodeError as e:
        out = {"ok": False, "error": e.code, "bit": e.bit, "path": e.path}
        if args.predicted:
            if getattr(decoder, "header", None) is not None:
                out["header"] = decoder.header
                if decoder.fingerprint is not None:
                    out["fingerprint"] = decoder.fingerprint
            out["changes"] = getattr(decoder, "changes", [])
        elif args.delta:
            if getattr(decoder, "header", None) is not None and not args.payload:
                out["header"] = decoder.header
                if decoder.fingerprint is not None:
                    out["fingerprint"] = decoder.fingerprint
            out["changes"] = getattr(decoder, "changes", [])
        return out, 1


def main(argv=None):
    sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
    p = argparse.ArgumentParser(description="Decode a netser packet with its schema (docs/schema.md).")
    p.add_argument("schema", help="a schema from netser::schema_json<T>()")
    p.add_argument("packet", nargs="?", help="a file holding the packet (or use --hex)")
    p.add_argument("--hex", help="the packet as hex text")
    p.add_argument("--payload", action="store_true", help="a bare payload (no CRC, no end check)")
    p.add_argument("--protocol-id", type=protocol_id,
                   help="the protocol id of the peers' packets (default: the schema hash); "
                        "a delta packet's CRC uses it XOR the delta salt")
    p.add_argument("--delta", action="store_true",
                   help="a delta packet (with --payload: a bare serialize_delta body)")
    p.add_argument("--baseline", action="append",
                   help="with --delta: the baseline's decoded value (JSON), to apply the delta; with "
                        "--predicted: once per baseline the packet names, newest first")
    p.add_argument("--predicted", action="store_true",
                   help="a predicted delta packet (wire_format.md \"Predicted delta packets\"); its CRC uses "
                        "the protocol id XOR the predicted salt")
    p.add_argument("--range", action="store_true",
                   help="with --predicted: its body is range-coded, models from the library default prior "
                        "(the CRC's id XOR the range salt too)")
    p.add_argument("--prior", help="with --predicted: a range-coded body whose models start from this trained "
                                    "prior (a header written by delta_recording --write-prior); implies --range")
    args = p.parse_args(argv)
    if args.hex is None and args.packet is None:
        p.error("give a packet file or --hex")
    if args.baseline is not None and not (args.delta or args.predicted):
        p.error("--baseline goes with --delta or --predicted")
    if args.delta and args.predicted:
        p.error("--delta and --predicted are two kinds of packet")
    if args.delta and args.baseline is not None and len(args.baseline) > 1:
        p.error("a delta packet has one baseline")
    if (args.range or args.prior) and not args.predicted:
        p.error("--range and --prior go with --predicted")
    if args.predicted and args.payload:
        p.error("--predicted reads whole packets")
    args.range = args.range or args.prior is not None
    try:
        decoder = Decoder(read_schema(args.schema))
        if args.hex is not None:
            try:
                data = parse_hex(args.hex)
            except ValueError as e:
                raise InputError(f"--hex: {e}") from None
        else:
            try:
                with open(args.packet, "rb") as f:
                    data = f.read()
            except OSError as e:
                raise InputError(f"packet {args.packet}: {e.strerror or e}") from None
        if args.predicted:
            baseline = None if args.baseline is None else [load_baseline(b, decoder) for b in args.baseline]
            args.prior_entries = None if args.prior is None else read_prior(args.prior)
        else:
            baseline = MISSING if args.baseline is None else load_baseline(args.baseline[0], decoder)
        out, status = decode(decoder, args, data, baseline)
    except InputError as e:
        print(f"netser_schema_decode: {e}", file=sys.stderr)
        return 2
    except RecursionError:  # a schema whose nesting no packet reaches the end of
        print(f"netser_schema_decode: schema {args.schema}: nested too deep", file=sys.stderr)
        return 2
    json.dump(out, sys.stdout, indent=2)  # written as it goes: the text is never held whole
    sys.stdout.write("\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
