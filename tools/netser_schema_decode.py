#!/usr/bin/env python3
"""Reference decoder for netser packets, driven by a schema from netser::schema_json<T>().

Written from docs/schema.md and docs/wire_format.md only (not from the C++ code), so
that the tests that compare it with netser's own reader check the documents too.

    netser_schema_decode.py SCHEMA.json PACKET_FILE [--payload] [--protocol-id ID]
    netser_schema_decode.py SCHEMA.json --hex "A5 06" --payload

Prints {"ok": true, "value": ..., "bits": N} or
{"ok": false, "error": "out_of_range", "bit": 42, "path": "Player.inventory[3]"}.
Exit status: 0 decoded, 1 refused, 2 bad schema or usage. Standard library only.
"""
import argparse
import json
import math
import struct
import sys

SUPPORTED_VERSIONS = (1,)
MAX_NESTING = 64  # recursive structs, root included (schema.md section 7)


class DecodeError(Exception):
    """A packet netser refuses: the errc name, the bit and the member path."""

    def __init__(self, code, bit, path=""):
        super().__init__(f"{code} at bit {bit} in {path}")
        self.code, self.bit, self.path = code, bit, path


class SchemaError(Exception):
    pass


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


def crc32(data, init=0xFFFFFFFF):
    """Standard CRC-32 (reflected 0xEDB88320), bit by bit: wire_format.md "CRC"."""
    crc = init
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0xEDB88320 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF


# ---- the decoder -----------------------------------------------------------------------

class Decoder:
    def __init__(self, schema):
        if schema.get("format") != "netser-schema":
            raise SchemaError("not a netser schema (format)")
        if schema.get("version") not in SUPPORTED_VERSIONS:
            raise SchemaError(f"schema version {schema.get('version')} is not supported")
        self.schema = schema
        self.types = schema["types"]
        self.root_name = schema.get("root_name")

    # Errors carry the path from the root; it is built while the failure unwinds.
    def _at(self, name, fn, *args):
        try:
            return fn(*args)
        except DecodeError as e:
            e.path = name + e.path if e.path.startswith("[") or not e.path else name + "." + e.path
            raise

    def decode_payload(self, data, start=0):
        r = BitReader(data, start)
        self.nesting = 0
        self.inline_stack = []
        try:
            value = self.node(r, self.schema["root"])
        except DecodeError as e:
            if self.root_name:
                e.path = self.root_name + ("" if not e.path else e.path if e.path.startswith("[") else "." + e.path)
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
        end = layout["end_check"]
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
        if r.pos != 8 * len(data):
            raise DecodeError("invalid_value", r.pos)
        return value, payload_bits

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

    def _elements(self, r, count, element):
        out = []
        for i in range(count):
            out.append(self._at(f"[{i}]", self.node, r, element))
        return out

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
        return count

    def node_vector(self, r, n):
        return self._elements(r, self._count(r, n), n["element"])

    def node_set(self, r, n):
        count = self._count(r, n)
        out = []
        for i in range(count):
            at = r.pos
            key = self._at(f"[{i}]", self.node, r, n["element"])
            if key in out:
                raise DecodeError("invalid_value", at, f"[{i}]")
            out.append(key)
        return out

    def node_map(self, r, n):
        count = self._count(r, n)
        out = []
        for i in range(count):
            at = r.pos
            key = self._at(f"[{i}]", self.node, r, n["key"])
            value = self._at(f"[{i}]", self.node, r, n["value"])
            if any(k == key for k, _ in out):
                raise DecodeError("invalid_value", at, f"[{i}]")
            out.append([key, value])
        return out

    def node_optional(self, r, n):
        return self.node(r, n["value"]) if r.read(1) == 1 else None

    def node_variant(self, r, n):
        at = r.pos
        index = r.read(integer(n["index_bits"]))
        alternatives = n["alternatives"]
        if index >= len(alternatives):
            raise DecodeError("invalid_value", at)
        alt = alternatives[index]
        return {"index": index, "alternative": alt["name"], "value": self.node(r, alt["encoding"])}

    def _relative_index(self, r, previous, size):
        """wire_format.md 3.2: the distance from previous, as a ladder."""
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
        except DecodeError as e:
            e.bit = at
            raise
        if previous + d > size:
            raise DecodeError("out_of_range", at)
        return previous + d

    def node_sparse(self, r, n):
        if n["container"] == "vector":
            at = r.pos
            size = r.read(integer(n["count_bits"]))
            if size > integer(n["max_size"]):
                raise DecodeError("too_large", at)
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
        check = m.get("check")
        if check is not None:
            at = r.pos
            try:
                r.align()
                got = r.read(32)
            except DecodeError as e:
                e.bit = at
                raise
            if got != integer(check["magic"]):
                raise DecodeError("check_failed", at)
        return self.node(r, m["encoding"])

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

    def _unit_components(self, r, n, count):
        q = n["quantization"]
        bits, max_int = integer(q["bits"]), integer(q["max_int"])
        out = []
        for _ in range(count):
            code = r.read(bits)
            if code > max_int:
                raise DecodeError("out_of_range", r.pos - bits)
            out.append(self._quantized(code, q))
        return out

    @staticmethod
    def _rebuild(c, largest, total):
        if total <= 1.0:
            c[largest] = f32(math.sqrt(f32(1.0 - total)))
        else:
            s = f32(1.0 / f32(math.sqrt(total)))
            for i in range(4):
                c[i] = f32(c[i] * s)
            c[largest] = 0.0

    def node_user_attribute(self, r, n):
        tag = n.get("tag")
        at = r.pos
        try:
            if tag in ("smallest_three", "unit_quaternion"):
                c = [0.0] * 4
                if tag == "smallest_three":
                    largest = r.read(2)
                    others = [i for i in range(4) if i != largest]
                else:
                    largest, others = 3, [0, 1, 2]
                values = self._unit_components(r, n, 3)
                negative_w = r.read(1) == 1 if tag == "unit_quaternion" else False
                total = 0.0
                for i, v in zip(others, values):
                    c[i] = v
                    total = f32(total + f32(v * v))
                self._rebuild(c, largest, total)
                if negative_w:
                    c[3] = -c[3]
                return self._components(n, c)
            if tag == "unit_vector":
                u, v = self._unit_components(r, n, 2)
                z = f32(f32(1.0 - abs(u)) - abs(v))
                if z < 0:
                    su = -1.0 if u < 0 else 1.0
                    sv = -1.0 if v < 0 else 1.0
                    u, v = f32(f32(1.0 - abs(v)) * su), f32(f32(1.0 - abs(u)) * sv)
                length = f32(math.sqrt(f32(f32(f32(u * u) + f32(v * v)) + f32(z * z))))
                return self._components(n, [f32(u / length), f32(v / length), f32(z / length)])
            if tag in ("linked", "linked_strict"):
                ident = r.read(integer(n["max_bits"]))
                return None if ident == 0 else ident
        except DecodeError as e:
            e.bit = min(e.bit, at)
            raise
        return self._opaque(r, n)

    def _components(self, n, c):
        values = [float_value(v, "0x%08x" % int.from_bytes(struct.pack("<f", v), "little")) for v in c]
        fields = n.get("value_fields")
        return dict(zip(fields, values)) if fields else values

    def _opaque(self, r, n):
        max_bits = n.get("max_bits")
        if max_bits is None or integer(n.get("min_bits", -1)) != integer(max_bits):
            raise DecodeError("unsupported", r.pos)
        bits = integer(max_bits)
        return {"code": r.read(bits), "bits": bits}

    def node_user_type(self, r, n):
        return self._opaque(r, n)

    def node_unknown(self, r, n):
        raise DecodeError("unsupported", r.pos)


def parse_hex(text):
    return bytes.fromhex("".join(text.split()))


def main(argv=None):
    p = argparse.ArgumentParser(description="Decode a netser packet with its schema (docs/schema.md).")
    p.add_argument("schema", help="a schema from netser::schema_json<T>()")
    p.add_argument("packet", nargs="?", help="a file holding the packet (or use --hex)")
    p.add_argument("--hex", help="the packet as hex text")
    p.add_argument("--payload", action="store_true", help="a bare payload (no CRC, no end check)")
    p.add_argument("--protocol-id", type=lambda s: int(s, 0), help="the protocol id (default: the schema hash)")
    args = p.parse_args(argv)
    try:
        with open(args.schema, encoding="utf-8") as f:
            decoder = Decoder(json.load(f))
        if args.hex is not None:
            data = parse_hex(args.hex)
        elif args.packet is not None:
            with open(args.packet, "rb") as f:
                data = f.read()
        else:
            p.error("give a packet file or --hex")
    except (OSError, ValueError, KeyError, SchemaError) as e:
        print(f"netser_schema_decode: {e}", file=sys.stderr)
        return 2
    try:
        if args.payload:
            value, r = decoder.decode_payload(data)
            out = {"ok": True, "value": value, "bits": r.pos}
        else:
            value, bits = decoder.decode_packet(data, args.protocol_id)
            out = {"ok": True, "value": value, "bits": bits}
        status = 0
    except DecodeError as e:
        out = {"ok": False, "error": e.code, "bit": e.bit, "path": e.path}
        status = 1
    except (KeyError, SchemaError) as e:
        print(f"netser_schema_decode: bad schema: {e}", file=sys.stderr)
        return 2
    print(json.dumps(out, indent=2))
    return status


if __name__ == "__main__":
    sys.exit(main())
