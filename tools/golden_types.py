#!/usr/bin/env python3
"""An independent model of whole messages: the schema fingerprint (docs/wire_format.md,
"Schema fingerprint"), the packet (docs/wire_format.md, "Packets": the CRC-32 as the
standard defines it, the end-of-packet check) and the reflected encodings of the
hostile suite's packet types (docs/wire_format.md "Reflection", docs/attributes.md,
docs/game_encodings.md), written from those documents and from the type declarations
in the tests, not from netser's output. tools/golden.py --check compares the golden
rows of tests/hostile/golden_test.cpp and the schema_hash goldens with it.

    python3 tools/golden_types.py          print the rows of tests/hostile/golden_test.cpp
    python3 tools/golden_types.py --hash   print the schema_hash goldens the model knows

The values are those of the hostile suite's generator (tests/fuzz/fuzz_types.hpp:
splitmix64 and the randomize functions, redone here draw for draw; its floats are made
by exact operations, so Python's doubles give the same bits).
"""

import math
import sys
from collections import namedtuple

from golden import (INT64_MAX, INT64_MIN, UINT64_MAX, Quantization, Writer,
                    bits_required, f32, f32_bits, f64_bits, st_plain, st_read, uq_plain, uq_read,
                    w_relative_index, w_unit_vector)

M64 = UINT64_MAX


def signed64(v):
    v &= M64
    return v - (1 << 64) if v >> 63 else v


# --- checks of the definitions (CRC-32, FNV-1a) ----------------------------------


def crc32(data, crc=0):
    """The standard CRC-32: reflected polynomial 0xEDB88320, register starts at all
    ones, final complement; one bit at a time. crc continues an earlier call."""
    reg = crc ^ 0xFFFFFFFF
    for b in data:
        reg ^= b
        for _ in range(8):
            reg = (reg >> 1) ^ 0xEDB88320 if reg & 1 else reg >> 1
    return reg ^ 0xFFFFFFFF


def fnv1a32(data):
    h = 2166136261
    for b in data:
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return h


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & M64
    return h


def check_magic(name):
    return fnv1a32(name.encode())


END_OF_PACKET_MAGIC = check_magic("netser end of packet")


def packet(payload_writer, protocol_id):
    """CRC field, payload, zero bits to a byte, end_of_packet_magic ^ P (P = payload bits)."""
    p = len(payload_writer.bits)
    body = payload_writer.data() + ((END_OF_PACKET_MAGIC ^ p) & 0xFFFFFFFF).to_bytes(4, "little")
    crc = crc32(body, crc32(protocol_id.to_bytes(4, "little")))
    return crc.to_bytes(4, "little") + body


DELTA_PACKET_SALT = check_magic("netser delta packet")


def baseline_fingerprint(plain_writer):
    """docs/wire_format.md, "Baseline fingerprint": the CRC-32 of the baseline's plain
    encoding's bit count (4 little-endian bytes), then its bytes (the last one padded with
    zero bits)."""
    return crc32(len(plain_writer.bits).to_bytes(4, "little") + plain_writer.data())


def delta_packet(sequence, baseline, fingerprint, delta_writer, protocol_id):
    """docs/wire_format.md, "Delta packets": a packet over protocol_id ^ the delta salt
    whose payload is the header (sequence, baseline: 16 bits each; the baseline's
    fingerprint: 32 bits), then the delta body."""
    w = Writer()
    w.put(sequence, 16)
    w.put(baseline, 16)
    w.put(fingerprint, 32)
    w.bits += delta_writer.bits
    return packet(w, protocol_id ^ DELTA_PACKET_SALT)


PREDICTED_DELTA_PACKET_SALT = check_magic("netser predicted delta packet")


def predicted_code(c0, c1, c2, ahead, span, span2, numerator=1, denominator=1, max_code=None):
    """docs/wire_format.md, "Prediction": c0 + step * ahead / span * gain rounded half away
    from zero (step = c0 - c1), clamped to [0, max_code]; with a third code, c0 when the
    same extrapolation one interval earlier (from c2 and c1) missed c0 by |step| or more."""
    def rounded(n, d):  # n / d to the nearest, halves away from zero (d > 0)
        q, r = divmod(abs(n), d)
        if 2 * r >= d:
            q += 1
        return q if n >= 0 else -q
    step = c0 - c1
    if step == 0 or span == 0:
        return c0
    if c2 is not None and span2 != 0:
        earlier = c1 + rounded((c1 - c2) * span, span2)
        if abs(c0 - earlier) >= abs(step):
            return c0
    p = c0 + rounded(step * numerator * ahead, span * denominator)
    return max(0, min(max_code, p))


def predicted_delta_packet(sequence, baselines, fingerprints, delta_writer, protocol_id):
    """docs/wire_format.md, "Predicted delta packets": a packet over protocol_id ^ the
    predicted salt whose payload is the sequence (16 bits), the count of baselines less one
    (2 bits), their sequence numbers (16 bits each, newest first), the CRC-32 of their
    fingerprints (4 little-endian bytes each, in that order), then the delta body."""
    w = Writer()
    w.put(sequence, 16)
    w.put(len(baselines) - 1, 2)
    for b in baselines:
        w.put(b, 16)
    w.put(crc32(b"".join(f.to_bytes(4, "little") for f in fingerprints)), 32)
    w.bits += delta_writer.bits
    return packet(w, protocol_id ^ PREDICTED_DELTA_PACKET_SALT)


# --- range-coded bodies (docs/wire_format.md "Range-coded packets", "Contexts", "Range
# coder"): the coder itself is tools/range_coder_reference.py's, the contexts are here.

RANGE_CODED_PACKET_SALT = check_magic("netser range-coded packet")
RANGE_ROOT_KEY = 0x811C9DC5


def range_mix(a, b):
    x = ((a ^ b) * 0x9E3779B1) & 0xFFFFFFFF
    return x ^ (x >> 15)


RANGE_FLAGS_FACTOR = 0x01000193  # an element's flags enter its frame's key times this


class RangeWriter:
    """A body's calls coded through the models of their contexts. put(v, n) is one call
    (n = 0: nothing); enter(name) / element() / leave() are the walk's frames; align() only
    moves the logical position; element_flags(flags) sets a baseline element's flags
    (docs/wire_format.md "Contexts", "Element flags"): the next call's shape gets flags <<
    22 and the next frame entered (the element's) mixes name_hash ^ flags * the FNV prime;
    each is used once. prior: {slot: [32 raw models]} (missing slots: p0 = 1/2)."""

    # "Naming changed elements": a range writer names a container's changed elements by
    # bits unless fewer than 1 in this many changed (w_changed_elements).
    listed_below_one_in = 256

    def __init__(self, prior=None):
        import range_coder_reference as rc
        self.rc = rc
        self.coder = rc.RangeEncoder()
        self.prior = prior or {}
        self.slots = {}  # slot -> its 32 models, this packet's
        self.frames = [[RANGE_ROOT_KEY, 0, 16, 0, 0, 0]]  # key, place, history, calls, last, last_bit
        self.bits = 0
        self.trace = []  # (depth, n, v, slot)
        self.flags_next = 0  # the next call's element flags
        self.flags_enter = 0  # the next frame's element flags

    def enter(self, name):
        self._enter(fnv1a32(name.encode()))

    def element(self):
        self._enter(fnv1a32(b"[]"))

    def element_flags(self, flags):
        assert 0 <= flags < 32
        self.flags_next = self.flags_enter = flags

    def _enter(self, h):
        parent = self.frames[-1]
        assert len(self.frames) < 64
        key = range_mix(parent[0], h ^ ((self.flags_enter * RANGE_FLAGS_FACTOR) & 0xFFFFFFFF))
        self.flags_enter = 0
        self.frames.append([key, 0, 16 | parent[4], 0, 0, 0])

    def leave(self):
        child = self.frames.pop()
        f = self.frames[-1]
        f[1] = 16
        f[4] = min(child[3], 7) * 2 + child[5]
        f[2] = 16 | f[4]
        f[3] += child[3]

    def put(self, v, n):
        assert 0 <= n <= 64 and 0 <= v < (1 << n) if n else v == 0
        if n == 0:
            return
        f = self.frames[-1]
        shape = min(n, 63) << 16 | (f[2] & 0xFF) << 5 | f[1] | self.flags_next << 22
        self.flags_next = 0
        slot = range_mix(f[0], shape) >> 20
        f[1] = min(f[1] + 1, 31)
        if slot not in self.slots:
            raws = self.prior.get(slot, [0x4000] * 32)
            self.slots[slot] = [self.rc.BitProbability(raw) for raw in raws]
        models = self.slots[slot]
        node = 1
        for i in range(n):
            bit = (v >> (n - 1 - i)) & 1
            self.coder.encode(models[node if i < 4 else 16 + min(i - 4, 15)], bit)
            node = node * 2 + bit
        f[2] = (f[2] * 2 + (v if n == 1 else 0)) & 0xFFFFFFFF
        f[5] = v if n == 1 else 1
        f[3] += 1
        self.bits += n
        self.trace.append((len(self.frames) - 1, n, v, slot))

    def align(self):
        self.bits += -self.bits % 8

    def data(self):
        return self.coder.finish()


def range_prior_fingerprint(prior):
    """0 for the library default (no entries); else FNV-1a 32 over each entry in order, its
    slot then its 32 models, each as 4 little-endian bytes."""
    if not prior:
        return 0
    return fnv1a32(b"".join(v.to_bytes(4, "little") for slot, models in prior.items() for v in [slot] + list(models)))


def range_coded_predicted_packet(sequence, baselines, fingerprints, body, protocol_id):
    """A predicted delta packet with a range-coded body: the CRC over protocol_id ^ the
    predicted salt ^ the range salt ^ the prior's fingerprint, the header bit-packed as
    predicted_delta_packet's, zero bits to the byte, then the coder's bytes for body (a
    RangeWriter, which holds the prior), to the end."""
    w = Writer()
    w.put(sequence, 16)
    w.put(len(baselines) - 1, 2)
    for b in baselines:
        w.put(b, 16)
    w.put(crc32(b"".join(f.to_bytes(4, "little") for f in fingerprints)), 32)
    w.align()
    rest = w.data() + body.data()
    ident = protocol_id ^ PREDICTED_DELTA_PACKET_SALT ^ RANGE_CODED_PACKET_SALT ^ range_prior_fingerprint(body.prior)
    crc = crc32(rest, crc32(ident.to_bytes(4, "little")))
    return crc.to_bytes(4, "little") + rest


# --- types, as the tests declare them ---------------------------------------------


# The kinds of type the fingerprint and the encodings tell apart. Optional stands for
# std::optional and std::unique_ptr (the same wire, the same hash), Map for std::map and
# std::unordered_map (rule 11: one hash); Aggregate is a plain
# aggregate (Boost.PFR: fields only, default encodings); Enum a described enum, its
# enumerators (name, value) in the order of its description.
Int = namedtuple("Int", "signed width")
Float = namedtuple("Float", "width")
Enum = namedtuple("Enum", "underlying enumerators")
Array = namedtuple("Array", "n elem")
Vector = namedtuple("Vector", "elem")
Optional = namedtuple("Optional", "elem")
Map = namedtuple("Map", "key value")
Set = namedtuple("Set", "key")
Bool = namedtuple("Bool", "")
String = namedtuple("String", "")


class Variant(namedtuple("Variant", "alternatives")):
    def __new__(cls, *alternatives):
        return super().__new__(cls, alternatives)


class Aggregate(namedtuple("Aggregate", "fields")):
    def __new__(cls, *fields):
        return super().__new__(cls, fields)


I8, I16, I32, I64 = (Int(True, w) for w in (8, 16, 32, 64))
U8, U16, U32, U64 = (Int(False, w) for w in (8, 16, 32, 64))
BOOL, STRING, FLOAT, DOUBLE = Bool(), String(), Float(32), Float(64)


def define_enum(*names):
    """BOOST_DEFINE_ENUM_CLASS: an enum class (underlying int) numbered from 0."""
    return Enum(I32, [(n, i) for i, n in enumerate(names)])


class Struct:
    """A described struct: members (name, type, [attributes]) in the macro's order.
    members can be set after construction, for a type that contains itself."""

    def __init__(self, name, members=()):
        self.name, self.members = name, list(members)


# Attributes: (kind, parameters...), in the order written.
def rng(lo, hi, signed=True):
    return ("range", lo, hi, signed)


def bits(n):
    return ("bits", n)


def quantize(lo, hi, res):
    return ("quantize", lo, hi, res)


def common(*values, kind="int"):
    return ("common", kind, values)


def max_size(n):
    return ("max_size", n)


def max_length(n):
    return ("max_length", n)


def only_if(flag):
    return ("only_if", flag)


def check(name):
    return ("check", name)


def keyed(member):
    """netser::keyed(&T::member) on a vector of described structs."""
    return ("keyed", member)


SKIP, FINITE, RAW_BYTES, SPARSE = ("skip",), ("finite",), ("raw_bytes",), ("sparse",)


def user(tag, max_bits, max_int=None, delta_form=None):
    """A user attribute (a codec object): its schema_tag, max_bits, params().max_int and
    delta_form()."""
    return ("user", tag, max_bits, max_int, delta_form)


def smallest_three(b):
    return user("smallest_three", 2 + 3 * b, (1 << b) - 2, "reexpressed") + (b,)


def unit_quaternion(b):
    return user("unit_quaternion", 3 * b + 1, (1 << b) - 2) + (b,)


def unit_vector(b):
    return user("unit_vector", 2 * b, (1 << b) - 2) + (b,)


HEADING8 = user("heading8", 8)  # tests/fuzz/fuzz_types.hpp: a turn in 256 steps


# --- the schema fingerprint (docs/wire_format.md, "Schema fingerprint") ------------


def text(s):
    return s.encode() + b"\0"


def number(v):
    return (v & M64).to_bytes(8, "little")


def integer(v, signed):
    return (b"s" if signed else b"u") + number(v)


def real32(x):
    return number(f32_bits(x))


def hash_type(t, stack):
    """type(T): the rules in their order."""
    if isinstance(t, Struct) and t in stack:
        return text("recursive") + number(len(stack) - 1 - stack.index(t))
    if isinstance(t, Bool):
        return text("bool")
    if isinstance(t, Enum):
        out = text("enum") + hash_type(t.underlying, stack)
        for name, value in t.enumerators:
            out += text(name) + integer(value, t.underlying.signed)
        return out
    if isinstance(t, Int):
        return text("int" if t.signed else "uint") + number(t.width)
    if isinstance(t, Float):
        return text("float") + number(t.width)
    if isinstance(t, Array):
        return text("array") + number(t.n) + hash_type(t.elem, stack)
    if isinstance(t, String):
        return text("string")
    if isinstance(t, Vector):
        return text("vector") + hash_type(t.elem, stack)
    if isinstance(t, Optional):
        return text("optional") + hash_type(t.elem, stack)
    if isinstance(t, Variant):
        return text("variant") + number(len(t.alternatives)) + b"".join(hash_type(a, stack) for a in t.alternatives)
    if isinstance(t, Map):
        return text("map") + hash_type(t.key, stack) + hash_type(t.value, stack)
    if isinstance(t, Set):
        return text("set") + hash_type(t.key, stack)
    if isinstance(t, Struct):
        inner = stack + [t]
        out = text("struct") + text(t.name) + number(len(t.members))
        for name, mt, attrs in t.members:
            out += text(name) + hash_type(mt, inner) + hash_attributes(attrs)
        return out
    if isinstance(t, Aggregate):
        return text("aggregate") + number(len(t.fields)) + b"".join(hash_type(f, stack) for f in t.fields)
    raise TypeError(t)


def hash_attributes(attrs):
    out = number(len(attrs))
    for a in attrs:
        kind = a[0]
        if kind == "check":
            out += text("check") + number(check_magic(a[1]))
        elif kind == "range":
            out += text("attr") + text("range") + integer(a[1], a[3]) + integer(a[2], a[3])
        elif kind == "bits":
            out += text("attr") + text("bits") + integer(a[1], True)
        elif kind == "quantize":
            out += text("attr") + text("quantize") + real32(a[1]) + real32(a[2]) + real32(a[3])
        elif kind == "common":
            out += text("attr") + text("common") + number(len(a[2]))
            for v in a[2]:
                out += real32(v) if a[1] == "float" else integer(v, True)
        elif kind in ("max_size", "max_length"):
            out += text("attr") + text(kind) + number(a[1])
        elif kind in ("only_if", "keyed"):  # the member the attribute names
            out += text("attr") + text(kind) + text(a[1])
        elif kind in ("skip", "finite", "raw_bytes", "sparse"):
            out += text("attr") + text(kind)
        elif kind == "user":
            out += text("user") + text(a[1]) + number(a[2])
            if a[3] is not None:
                out += number(a[3])
            if a[4] is not None:  # the form of its own delta (wire_format.md, schema fingerprint)
                out += text(a[4])
        else:
            raise ValueError(kind)
    return out


def schema_hash(t):
    return fnv1a32(text("netser-schema-1") + hash_type(t, []))


# --- the packet types of tests/fuzz/fuzz_types.hpp ---------------------------------

WEAPON = define_enum("none", "pistol", "rifle", "rocket")
TEAM = define_enum("red", "blue", "green")
MODE = Enum(I8, [("off", -3), ("low", 0), ("high", 7)])
VEC2 = Struct("Vec2", [("x", FLOAT, []), ("y", FLOAT, [])])
SLOT = Aggregate(U8, U8)
QUAT = Aggregate(FLOAT, FLOAT, FLOAT, FLOAT)

PLAYER = Struct("Player", [
    ("health", I32, [rng(0, 100), common(100)]),
    ("x", FLOAT, [quantize(-2000.0, 2000.0, 0.1)]),
    ("y", FLOAT, [quantize(-2000.0, 2000.0, 0.1)]),
    ("moving", BOOL, []),
    ("vx", FLOAT, [quantize(-50.0, 50.0, 0.01), only_if("moving")]),
    ("weapon", WEAPON, []),
    ("mode", MODE, []),
    ("name", STRING, [max_length(16)]),
    ("tag", STRING, [max_length(8), RAW_BYTES]),
    ("inventory", Vector(U16), [max_size(8), rng(0, 1023)]),
    ("target", Optional(I32), [rng(0, 63)]),
    ("flags", U8, [bits(5)]),
    ("delta", I16, [bits(9)]),
    ("big", I64, [rng(INT64_MIN, INT64_MAX)]),
    ("serial", U64, []),
    ("raw", FLOAT, []),
    ("precise", DOUBLE, [FINITE]),
    ("speed", FLOAT, [common(0.0, 1.0, kind="float"), quantize(0.0, 10.0, 0.05)]),
    ("heading", FLOAT, [HEADING8]),
    ("aim", VEC2, [quantize(-1.0, 1.0, 0.001)]),
    ("score", U32, [check("player score"), rng(0, 1000000, signed=False)]),
    ("cached", I32, [SKIP]),
])

INVENTORY = Struct("Inventory", [
    ("names", Vector(STRING), [max_size(4), max_length(12)]),
    ("stock", Map(U8, I32), [max_size(6), rng(-1000, 1000)]),
    ("ids", Set(U16), [max_size(5), rng(0, 4095)]),
    ("note", STRING, [max_length(40)]),
    ("motd", Optional(STRING), [max_length(20)]),
    ("pick", Variant(U8, VEC2, SLOT), []),
    ("rgb", Array(3, U8), []),
    ("slots", Array(2, SLOT), []),
    ("maybe", Vector(Optional(U8)), [max_size(3)]),
    ("bits", Vector(BOOL), [max_size(10)]),
])

ENTITY_SLOTS, MARK_SLOTS = 200, 20
UNIT = Struct("Unit", [("id", U16, [rng(0, 1000)]), ("pos", VEC2, [quantize(-100.0, 100.0, 0.5)])])
ENTITIES = Struct("Entities", [
    ("units", Array(ENTITY_SLOTS, Optional(UNIT)), [SPARSE]),
    ("marks", Vector(Optional(U8)), [SPARSE, max_size(MARK_SLOTS)]),
    ("tail", U8, [bits(3)]),
])

BODY = Struct("Body", [
    ("rotation", QUAT, [smallest_three(9)]),
    ("spin", Array(4, FLOAT), [smallest_three(15)]),
    ("book", QUAT, [unit_quaternion(10)]),
    ("normal", Array(3, FLOAT), [unit_vector(11)]),
    ("velocity", VEC2, []),
    ("history", Vector(QUAT), [max_size(3), smallest_three(7)]),
])

NODE = Struct("Node")
NODE.members = [("v", I32, [rng(-1000, 1000)]), ("kids", Vector(NODE), [max_size(4)])]
CHAIN = Struct("Chain")
CHAIN.members = [("v", U8, []), ("next", Optional(CHAIN), [])]

PING = Struct("Ping", [("sequence", U16, [rng(0, 1000)]), ("reply", BOOL, [])])
CHAT = Struct("Chat", [("text", STRING, [max_length(64)]), ("channel", U8, [rng(0, 7)])])
MOVE = Struct("Move", [("to", VEC2, [quantize(-500.0, 500.0, 0.05)]), ("facing", QUAT, [smallest_three(10)])])
LEAVE = Struct("Leave", [("player", U16, [rng(0, 1023)]), ("team", TEAM, [])])
SHOOT = Struct("Shoot", [("weapon", WEAPON, []), ("victim", Optional(U16), [rng(0, 1023)])])
ENVELOPE = Struct("Envelope", [("sequence", U32, []), ("body", Variant(PING, CHAT, MOVE, LEAVE, SHOOT), [])])

EXTREMES = Struct("Extremes", [
    ("full", I64, [rng(INT64_MIN, INT64_MAX)]),
    ("ufull", U64, [rng(0, UINT64_MAX, signed=False)]),
    ("almost", I64, [rng(INT64_MIN, INT64_MAX - 1)]),
    ("upper", I64, [rng(-1, INT64_MAX)]),
    ("tiny", I8, []),
    ("raw_f", FLOAT, []),
    ("raw_d", DOUBLE, []),
    ("fin_f", FLOAT, [FINITE]),
    ("fin_d", DOUBLE, [FINITE]),
])

PACKET_TYPES = [("Player", PLAYER), ("Inventory", INVENTORY), ("Entities", ENTITIES), ("Body", BODY),
                ("Node", NODE), ("Chain", CHAIN), ("Envelope", ENVELOPE), ("Extremes", EXTREMES)]

# --- the types of the schema_hash goldens ------------------------------------------


def pos(x_range=rng(-100, 100)):  # tests/packet/schema_hash_test.cpp, SCHEMA_TEST_POS
    return Struct("Pos", [
        ("x", I32, [x_range]),
        ("hp", U8, [rng(0, 100)]),
        ("heading", FLOAT, [quantize(0.0, 360.0, 0.5)]),
        ("items", Vector(U16), [max_size(8)]),
        ("name", STRING, [max_length(16)]),
        ("alive", BOOL, []),
    ])


SCHEMA_NODE = Struct("Node")
SCHEMA_NODE.members = [("value", U8, []), ("children", Vector(SCHEMA_NODE), [max_size(4)])]
PT_TEAM, PT_REASON = define_enum("red", "blue", "green"), define_enum("quit", "timeout", "kicked")
PT_PING = Struct("Ping", [("sequence", U16, [rng(0, 1000)]), ("reply", BOOL, [])])  # tests/packet/packet_types.hpp
PT_JOIN = Struct("Join", [("name", STRING, [max_length(16)]), ("team", PT_TEAM, []), ("level", U8, [rng(1, 100)])])
PT_CHAT = Struct("Chat", [("from", U16, [rng(0, 1023)]), ("text", STRING, [max_length(120)]),
                          ("mentions", Vector(U16), [max_size(4), rng(0, 1023)])])
PT_MOVE = Struct("Move", [("player", U16, [rng(0, 1023)]), ("x", FLOAT, [quantize(-512.0, 512.0, 0.0625)]),
                          ("y", FLOAT, [quantize(-512.0, 512.0, 0.0625)]), ("running", BOOL, []),
                          ("target", Optional(U16), [rng(0, 1023)])])
PT_LEAVE = Struct("Leave", [("player", U16, [rng(0, 1023)]), ("reason", PT_REASON, [])])

# (the type as the tests name it, model type): the goldens of tests/packet/schema_hash_test.cpp,
# tests/packet/check_test.cpp and tests/schema/schema_json_test.cpp.
SCHEMA_HASHES = dict([
    ("std::uint8_t", U8),
    ("base::Pos", pos()),
    ("base::Outer", Struct("Outer", [("pos", pos(), []), ("kind", U8, [])])),
    ("gated_by_a::Gated", Struct("Gated", [("a", BOOL, []), ("b", BOOL, []), ("v", U8, [only_if("a")])])),
    ("enum_base::Color", define_enum("red", "green", "blue")),
    ("Node", SCHEMA_NODE),
    ("packet_test::Ping", PT_PING),
    ("packet_test::Join", PT_JOIN),
    ("packet_test::Chat", PT_CHAT),
    ("packet_test::Move", PT_MOVE),
    ("packet_test::Leave", PT_LEAVE),
    ("packet_test::Message", Variant(PT_JOIN, PT_CHAT, PT_MOVE, PT_LEAVE)),
    ("Sectioned", Struct("Sectioned", [("header", U8, [rng(0, 7)]),
                                                    ("body", U16, [check("section"), rng(0, 1000)])])),
    # tests/delta/keyed_types.hpp: the keyed delta goldens
    ("keyed_golden::Scores", Struct("Scores", [("m", Map(U16, U8), [max_size(8), rng(0, 100)])])),
    ("keyed_golden::HashScores", Struct("HashScores", [("m", Map(U16, U8), [max_size(8), rng(0, 100)])])),
    ("keyed_golden::Tags", Struct("Tags", [("s", Set(I16), [max_size(8)])])),
    ("keyed_golden::Units", Struct("Units", [("units", Vector(Struct("Unit", [("id", U16, []), ("hp", U8, [rng(0, 100)])])),
                                               [max_size(8), keyed("id")])])),
    ("keyed_golden::Slots8", Struct("Slots8", [("slots", Array(8, Optional(U8)), [SPARSE, rng(0, 100)])])),
    ("Shot", Struct("Shot", [
        ("team", define_enum("red", "blue"), []),
        ("hit", BOOL, []),
        ("damage", FLOAT, [quantize(0.0, 100.0, 0.5), only_if("hit")]),
        ("target", Optional(U8), [rng(0, 15)]),
        ("stamp", U64, [check("stamp"), rng(0, UINT64_MAX, signed=False)]),
    ])),
])

# --- the generator of tests/fuzz/fuzz_types.hpp, draw for draw ----------------------


class Rng:
    """splitmix64."""

    def __init__(self, state):
        self.state = state & M64

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & M64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def below(self, n):
        return self.next() % n

    def between(self, lo, hi):
        span = (hi - lo) & M64
        offset = self.next() if span == M64 else self.next() % (span + 1)
        return signed64(lo + offset)

    def coin(self):
        return self.next() & 1 == 1

    def fixed(self, lo, hi, shift):
        return math.ldexp(float(self.between(lo, hi)), -shift)  # exact in float32 for the ranges used

    def float_bits(self):
        return self.next() & 0xFFFFFFFF  # the bits of bit_cast<float>(uint32(next()))


SMALL, FULL = "small", "full"
PIECES = ["a", "Z", "0", " ", "-", "\u00e9", "\u20ac", "\U0001f600", "\ud7ff", "\U0010ffff", "\x7f"]


def pick_count(r, top, mode):
    if mode == SMALL:
        top = min(top, 3)
    k = r.below(4)
    return 0 if k == 0 else top if k == 1 else r.below(top + 1)


def utf8_text(r, top, mode):
    target = pick_count(r, top, mode)
    s, tries = b"", 0
    while len(s) < target and tries < 64:
        p = PIECES[r.below(len(PIECES))].encode()
        if len(s) + len(p) <= target:
            s += p
        tries += 1
    return s


def any_bytes(r, top, mode):
    return bytes(r.below(256) for _ in range(pick_count(r, top, mode)))


def unit_components(r, n):
    while True:
        c = [r.between(-1000, 1000) for _ in range(n)]
        total = sum(v * v for v in c)
        if total:
            break
    norm = math.sqrt(float(total))
    return [f32(v / norm) for v in c]


def gen_player(r, m):
    p = {}
    p["health"] = 100 if r.coin() else r.between(0, 100)
    p["x"] = r.fixed(-16000, 16000, 3)
    p["y"] = r.fixed(-16000, 16000, 3)
    p["moving"] = r.coin()
    p["vx"] = r.fixed(-400, 400, 3) if p["moving"] else 0.0
    p["weapon"] = r.below(4)
    p["mode"] = [-3, 0, 7][r.below(3)]
    p["name"] = utf8_text(r, 16, m)
    p["tag"] = any_bytes(r, 8, m)
    p["inventory"] = [r.between(0, 1023) for _ in range(pick_count(r, 8, m))]
    p["target"] = r.between(0, 63) if r.coin() else None
    p["flags"] = r.below(32)
    p["delta"] = r.between(-256, 255)
    p["big"] = signed64(r.next())
    p["serial"] = r.next()
    p["raw"] = r.float_bits()
    mantissa = float(r.between(-(1 << 52), 1 << 52))
    p["precise"] = f64_bits(math.ldexp(mantissa, r.between(-60, 60)))
    k = r.below(3)
    p["speed"] = 0.0 if k == 0 else 1.0 if k == 1 else r.fixed(0, 40, 2)
    p["heading"] = r.fixed(0, 255, 8)
    p["aim"] = (r.fixed(-1024, 1024, 10), r.fixed(-1024, 1024, 10))
    p["score"] = r.between(0, 1000000)
    return p


def gen_inventory(r, m):
    v = {"names": [utf8_text(r, 12, m) for _ in range(pick_count(r, 4, m))]}
    stock = {}
    for _ in range(pick_count(r, 6, m)):
        value = r.between(-1000, 1000)  # E1 = E2: the right side is evaluated first (C++17)
        stock[r.below(256)] = value
    v["stock"] = stock
    v["ids"] = {r.below(4096) for _ in range(pick_count(r, 5, m))}
    v["note"] = utf8_text(r, 40, m)
    v["motd"] = utf8_text(r, 20, m) if r.coin() else None
    k = r.below(3)
    if k == 0:
        v["pick"] = (0, r.below(256))
    elif k == 1:
        v["pick"] = (1, (r.float_bits(), r.float_bits()))
    else:
        v["pick"] = (2, (r.below(256), r.below(256)))
    v["rgb"] = [r.below(256) for _ in range(3)]
    v["slots"] = [(r.below(256), r.below(256)) for _ in range(2)]
    v["maybe"] = [r.below(256) if r.coin() else None for _ in range(pick_count(r, 3, m))]
    v["bits"] = [r.coin() for _ in range(pick_count(r, 10, m))]
    return v


def gen_entities(r, m):
    per_256 = 6 if m == SMALL else r.below(257)
    units = []
    for _ in range(ENTITY_SLOTS):
        if r.below(256) < per_256:
            uid = r.between(0, 1000)
            units.append((uid, (r.fixed(-200, 200, 1), r.fixed(-200, 200, 1))))
        else:
            units.append(None)
    if m == SMALL and r.coin():
        units[-1] = (1000, (100.0, -100.0))
    marks = [r.below(256) if r.coin() else None for _ in range(pick_count(r, MARK_SLOTS, m))]
    return {"units": units, "marks": marks, "tail": r.below(8)}


def gen_body(r, m):
    b = {"rotation": unit_components(r, 4), "spin": unit_components(r, 4), "book": unit_components(r, 4),
         "normal": unit_components(r, 3), "velocity": (r.float_bits(), r.float_bits())}
    b["history"] = [unit_components(r, 4) for _ in range(pick_count(r, 3, m))]
    return b


def random_tree(r, depth, budget):
    node = {"v": r.between(-1000, 1000), "kids": []}
    if depth <= 1:
        return node
    want = r.below(5)
    i = 0
    while i < want and budget[0] > 0:
        budget[0] -= 1
        node["kids"].append(random_tree(r, depth - 1, budget))
        i += 1
    return node


def gen_node(r, m):
    if m == FULL and r.below(8) == 0:
        depth = r.between(1, 64)
        v = r.between(-1000, 1000)
        node = {"v": v, "kids": []}
        for _ in range(depth - 1):
            node = {"v": v, "kids": [node]}
        return node
    return random_tree(r, 3 if m == SMALL else 8, [6 if m == SMALL else 120])


def gen_chain(r, m):
    length = r.below(4) if m == SMALL else (63 if r.below(8) == 0 else r.below(12))
    return [r.below(256) for _ in range(length + 1)]


def gen_envelope(r, m):
    e = {"sequence": r.next() & 0xFFFFFFFF}
    k = r.below(5)
    if k == 0:
        seq = r.between(0, 1000)
        e["body"] = (0, (seq, r.coin()))
    elif k == 1:
        s = utf8_text(r, 64, m)
        e["body"] = (1, (s, r.below(8)))
    elif k == 2:
        to = (r.fixed(-4000, 4000, 3), r.fixed(-4000, 4000, 3))
        e["body"] = (2, (to, unit_components(r, 4)))
    elif k == 3:
        player = r.below(1024)
        e["body"] = (3, (player, r.below(3)))
    else:
        weapon = r.below(4)
        e["body"] = (4, (weapon, r.below(1024) if r.coin() else None))
    return e


def finite_bits(bits_, exponent_mask):
    return bits_ & exponent_mask != exponent_mask


def gen_extremes(r, m):
    edges = [INT64_MIN, INT64_MIN + 1, -1, 0, 1, INT64_MAX - 1, INT64_MAX]

    def pick(top):
        v = edges[r.below(len(edges))] if r.coin() else signed64(r.next())
        return min(v, top)

    x = {"full": pick(INT64_MAX)}
    x["ufull"] = r.next() if r.coin() else (0 if r.coin() else UINT64_MAX)
    x["almost"] = pick(INT64_MAX - 1)
    x["upper"] = max(pick(INT64_MAX), -1)
    x["tiny"] = r.between(-128, 127)
    x["raw_f"] = r.float_bits()
    x["raw_d"] = r.next()
    while True:
        x["fin_f"] = r.float_bits()
        if finite_bits(x["fin_f"], 0x7F800000):
            break
    while True:
        x["fin_d"] = r.next()
        if finite_bits(x["fin_d"], 0x7FF0000000000000):
            break
    return x


GENERATORS = {"Player": gen_player, "Inventory": gen_inventory, "Entities": gen_entities, "Body": gen_body,
              "Node": gen_node, "Chain": gen_chain, "Envelope": gen_envelope, "Extremes": gen_extremes}


def make_value(name, seed, mode):
    return GENERATORS[name](Rng(seed * 0x100000001B3 + 0x5EED), mode)


# --- the encodings (write side) ------------------------------------------------------


def w_int(w, v, lo, hi):
    assert lo <= v <= hi, (v, lo, hi)
    w.put((v - lo) & M64, bits_required(lo, hi))


def w_quantized(w, v, lo, hi, res):
    q = Quantization(lo, hi, res)
    w.put(q.encode(v), q.bits)


def w_string(w, data, top):
    assert len(data) <= top
    w_int(w, len(data), 0, top)
    w.align()
    for b in data:
        w.put(b, 8)


def w_count(w, n, top):
    w_int(w, n, 0, top)


def w_check(w, name):
    w.align()
    w.put(check_magic(name), 32)


def w_smallest_three(w, c, b):
    largest, codes = st_plain(c, b)
    # The writer sends the plain fields when they are a fixed point (docs/game_encodings.md);
    # the model leaves the near-tie search out, so a generated value must not need it.
    assert st_plain(st_read(largest, codes, b), b) == (largest, codes), ("no fixed point", c, b)
    w.put(largest, 2)
    for code in codes:
        w.put(code, b)


def w_unit_quaternion(w, c, b):
    codes, neg = uq_plain(c, b)
    assert uq_plain(uq_read(codes, neg, b), b) == (codes, neg), ("no fixed point", c, b)
    for code in codes:
        w.put(code, b)
    w.put(1 if neg else 0, 1)


def w_sparse(w, slots, body):
    n, previous = len(slots), -1
    for i, v in enumerate(slots):
        if v is not None:
            previous = w_relative_index(w, previous, i, n)
            body(v)
    w_relative_index(w, previous, n, n)


def w_vec2_quantized(w, v, lo, hi, res):
    w_quantized(w, v[0], lo, hi, res)
    w_quantized(w, v[1], lo, hi, res)


def enc_player(w, p):
    if p["health"] == 100:  # common(100): flag 1, no index bits for one value
        w.put(1, 1)
    else:
        w.put(0, 1)
        w_int(w, p["health"], 0, 100)
    w_quantized(w, p["x"], -2000.0, 2000.0, 0.1)
    w_quantized(w, p["y"], -2000.0, 2000.0, 0.1)
    w.put(1 if p["moving"] else 0, 1)
    if p["moving"]:
        w_quantized(w, p["vx"], -50.0, 50.0, 0.01)
    w_int(w, p["weapon"], 0, 3)
    w_int(w, p["mode"], -3, 7)
    w_string(w, p["name"], 16)
    w_string(w, p["tag"], 8)
    w_count(w, len(p["inventory"]), 8)
    for i in p["inventory"]:
        w_int(w, i, 0, 1023)
    w.put(0 if p["target"] is None else 1, 1)
    if p["target"] is not None:
        w_int(w, p["target"], 0, 63)
    w.put(p["flags"], 5)
    w_int(w, p["delta"], -256, 255)  # bits(9) on a signed member: v + 2^8 in 9 bits
    w_int(w, p["big"], INT64_MIN, INT64_MAX)
    w.put(p["serial"], 64)
    w.put(p["raw"], 32)
    w.put(p["precise"], 64)
    if p["speed"] in (0.0, 1.0):
        w.put(1, 1)
        w.put(0 if p["speed"] == 0.0 else 1, 1)
    else:
        w.put(0, 1)
        w_quantized(w, p["speed"], 0.0, 10.0, 0.05)
    w.put(int(f32(p["heading"] * 256.0)), 8)
    w_vec2_quantized(w, p["aim"], -1.0, 1.0, 0.001)
    w_check(w, "player score")
    w_int(w, p["score"], 0, 1000000)


def enc_inventory(w, v):
    w_count(w, len(v["names"]), 4)
    for n in v["names"]:
        w_string(w, n, 12)
    w_count(w, len(v["stock"]), 6)
    for key in sorted(v["stock"]):
        w.put(key, 8)
        w_int(w, v["stock"][key], -1000, 1000)
    w_count(w, len(v["ids"]), 5)
    for key in sorted(v["ids"]):
        w_int(w, key, 0, 4095)
    w_string(w, v["note"], 40)
    w.put(0 if v["motd"] is None else 1, 1)
    if v["motd"] is not None:
        w_string(w, v["motd"], 20)
    index, alt = v["pick"]
    w.put(index, 2)
    if index == 0:
        w.put(alt, 8)
    elif index == 1:
        w.put(alt[0], 32)
        w.put(alt[1], 32)
    else:
        w.put(alt[0], 8)
        w.put(alt[1], 8)
    for c in v["rgb"]:
        w.put(c, 8)
    for item, count in v["slots"]:
        w.put(item, 8)
        w.put(count, 8)
    w_count(w, len(v["maybe"]), 3)
    for o in v["maybe"]:
        w.put(0 if o is None else 1, 1)
        if o is not None:
            w.put(o, 8)
    w_count(w, len(v["bits"]), 10)
    for b in v["bits"]:
        w.put(1 if b else 0, 1)


def enc_entities(w, e):
    def unit(u):
        w_int(w, u[0], 0, 1000)
        w_vec2_quantized(w, u[1], -100.0, 100.0, 0.5)

    w_sparse(w, e["units"], unit)
    w_count(w, len(e["marks"]), MARK_SLOTS)
    w_sparse(w, e["marks"], lambda v: w.put(v, 8))
    w.put(e["tail"], 3)


def enc_body(w, b):
    w_smallest_three(w, b["rotation"], 9)
    w_smallest_three(w, b["spin"], 15)
    w_unit_quaternion(w, b["book"], 10)
    w_unit_vector(w, b["normal"], 11)
    w.put(b["velocity"][0], 32)
    w.put(b["velocity"][1], 32)
    w_count(w, len(b["history"]), 3)
    for q in b["history"]:
        w_smallest_three(w, q, 7)


def enc_node(w, n):
    w_int(w, n["v"], -1000, 1000)
    w_count(w, len(n["kids"]), 4)
    for k in n["kids"]:
        enc_node(w, k)


def enc_chain(w, values):
    for i, v in enumerate(values):
        w.put(v, 8)
        w.put(1 if i + 1 < len(values) else 0, 1)


def enc_envelope(w, e):
    w.put(e["sequence"], 32)
    index, alt = e["body"]
    w_int(w, index, 0, 4)
    if index == 0:
        w_int(w, alt[0], 0, 1000)
        w.put(1 if alt[1] else 0, 1)
    elif index == 1:
        w_string(w, alt[0], 64)
        w_int(w, alt[1], 0, 7)
    elif index == 2:
        w_vec2_quantized(w, alt[0], -500.0, 500.0, 0.05)
        w_smallest_three(w, alt[1], 10)
    elif index == 3:
        w_int(w, alt[0], 0, 1023)
        w_int(w, alt[1], 0, 2)
    else:
        w_int(w, alt[0], 0, 3)
        w.put(0 if alt[1] is None else 1, 1)
        if alt[1] is not None:
            w_int(w, alt[1], 0, 1023)


def enc_extremes(w, x):
    w_int(w, x["full"], INT64_MIN, INT64_MAX)
    w_int(w, x["ufull"], 0, UINT64_MAX)
    w_int(w, x["almost"], INT64_MIN, INT64_MAX - 1)
    w_int(w, x["upper"], -1, INT64_MAX)
    w.put(x["tiny"] & 0xFF, 8)  # default encoding: full width, two's complement
    w.put(x["raw_f"], 32)
    w.put(x["raw_d"], 64)
    w.put(x["fin_f"], 32)
    w.put(x["fin_d"], 64)


ENCODERS = {"Player": enc_player, "Inventory": enc_inventory, "Entities": enc_entities, "Body": enc_body,
            "Node": enc_node, "Chain": enc_chain, "Envelope": enc_envelope, "Extremes": enc_extremes}


# --- the rows of tests/hostile/golden_test.cpp ---------------------------------------


def hostile_rows():
    """(type, seed, raw bits, FNV-1a 64 of the raw bytes, packet bytes, FNV-1a 64 of the
    packet, schema hash) per type and seeds 0..3 (0, 1 small, 2, 3 full)."""
    rows = []
    for name, t in PACKET_TYPES:
        protocol_id = schema_hash(t)
        for seed in range(4):
            w = Writer()
            ENCODERS[name](w, make_value(name, seed, FULL if seed >= 2 else SMALL))
            whole = packet(w, protocol_id)
            rows.append((name, seed, len(w.bits), fnv1a64(w.data()), len(whole), fnv1a64(whole), protocol_id))
    return rows


def format_row(row):
    name, seed, raw_bits, raw_fnv, packet_bytes, packet_fnv, schema = row
    return f'    {{"{name}", {seed}, {raw_bits}, 0x{raw_fnv:016x}ull, {packet_bytes}, 0x{packet_fnv:016x}ull, 0x{schema:08x}u}},'


def self_test():
    """Facts from the definitions and from docs/wire_format.md, not from netser."""
    assert crc32(b"123456789") == 0xCBF43926  # the standard's check value
    assert DELTA_PACKET_SALT == 0xA5FE0D30  # docs/wire_format.md, "Delta packets"
    assert fnv1a64(b"") == 0xCBF29CE484222325 and fnv1a64(b"a") == 0xAF63DC4C8601EC8C  # FNV's published vector
    assert check_magic("section") == 0xFCDD0CCC and END_OF_PACKET_MAGIC == 0x4724C6F4
    # The worked examples of docs/wire_format.md: Ping's hash and its packets.
    assert schema_hash(PT_PING) == 0x4D1A36AC
    w = Writer()
    w_int(w, 677, 0, 1000)
    w.put(1, 1)
    assert packet(w, 0x12345678).hex(" ").upper() == "ED E9 7C 62 A5 06 FF C6 24 47"
    assert packet(w, schema_hash(PT_PING)).hex(" ").upper() == "40 AE 84 51 A5 06 FF C6 24 47"
    # The generator: splitmix64's first output from state 0.
    assert Rng(0).next() == 0xE220A8397B1DCDAF


if __name__ == "__main__":
    self_test()
    if sys.argv[1:] == ["--hash"]:
        for name, t in SCHEMA_HASHES.items():
            print(f"schema_hash<{name}>() == 0x{schema_hash(t):08X}u")
    else:
        for row in hostile_rows():
            print(format_row(row))
