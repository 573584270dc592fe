#!/usr/bin/env python3
"""An independent model of netser's adaptive binary range coder, written from its
wire text (the "range coder" section of docs/wire_format.md), not from the C++ code.

The encoder keeps the interval [low, low + range) as exact Python integers (no carry,
no held bytes: low simply grows), and derives the packet from the final interval at
the end. The decoder keeps the wire's 32-bit code register and, beside it, the exact
interval, so that its end check is the definition itself: the packet must be the
encoder's output for the bits decoded.

API (the names of include/netser/range_coder.hpp):

    BitProbability(raw=0x4000)           .p0, .count, .raw, .update(bit)
                                         (raw = p0 | count << 16, as a prior's entry)
    RangeEncoder()                       .encode(model, bit), .encode_equiprobable(value, bits),
                                         .encode_tree(models, value, bits), .finished_size(),
                                         .finish() -> the packet (bytes)
    RangeDecoder(data, exact=True)       .decode(model) -> 0/1, .decode_equiprobable(bits),
                                         .decode_tree(models, bits), .ended_cleanly(),
                                         .bytes_consumed; exact=False is faster on long
                                         packets (the end check by the wire text's short rule)
    tree_models(bits)                    a fresh list of 1 << bits models
    bit_probability, range_encoder, range_decoder: the same classes under the C++ names

Command line:

    python3 tools/range_coder_reference.py --vectors   the golden vectors of
                                         tests/core/range_coder_test.cpp (C++ text)
    python3 tools/range_coder_reference.py --example   the worked example of the wire
                                         text, step by step
    python3 tools/range_coder_reference.py --check FILE  the self test; the golden
                                         vectors of tests/core/range_coder_test.cpp are
                                         these; the cases the C++ wrote to FILE (its
                                         hidden test case [.range_coder_export]) decode
                                         and encode the same here. ctest runs it
                                         (netser_range_coder_reference).
    python3 tools/range_coder_reference.py --self-test   round trips and end checks
"""

import random
import sys

PRECISION = 15
ONE = 1 << PRECISION          # probability 1 in units of p0
MAX_COUNT = 31
TOP = 1 << 24                 # the range is renormalized below this
INITIAL_RANGE = (1 << 32) - 1
INITIAL_BYTES = 4             # the decoder's code register starts with 4 bytes


class BitProbability:
    """p0 / 2^15 = the probability of a 0 (1..32767); count = bits adapted to (0..31).
    raw = p0 | count << 16; out-of-range fields are clamped."""

    __slots__ = ("p0", "count")

    def __init__(self, raw=0x4000):
        assert 0 <= raw < 1 << 32
        self.p0 = min(max(raw & 0xFFFF, 1), ONE - 1)
        self.count = min(raw >> 16, MAX_COUNT)

    @property
    def raw(self):
        return self.p0 | self.count << 16

    def rate_shift(self):
        # 1, 2, 2, 3, 3, 3, 3, 4 ... 5 from count 15, 6 from count 31
        return (self.count + 1).bit_length()

    def update(self, bit):
        s = self.rate_shift()
        if bit:
            self.p0 -= self.p0 >> s
        else:
            self.p0 += (ONE - self.p0) >> s
        self.count = min(self.count + 1, MAX_COUNT)

    def copy(self):
        return BitProbability(self.raw)


def tree_models(bits, raw=0x4000):
    return [BitProbability(raw) for _ in range(1 << bits)]


def bound_of(rng, p0):
    """The size of the 0 part of the interval."""
    return (rng >> PRECISION) * p0


def packet_of(low, rng, k):
    """The packet for the final interval [low, low + rng) at scale 256^k: the smallest
    multiple of 256^3 in the interval, written in k bytes, less its 3 zero low bytes
    (the decoder reads exactly those 3 past the end)."""
    assert TOP <= rng < 1 << 32 and low + rng <= 256 ** k
    unit = 1 << 24
    value = (low + unit - 1) // unit * unit
    assert value < low + rng
    return value.to_bytes(k, "big")[:k - 3]


class RangeEncoder:
    def __init__(self):
        self.low = 0
        self.range = INITIAL_RANGE
        self.k = INITIAL_BYTES           # scale of the interval: 256^k
        self.trace = None                # a list to append the steps to, if wanted

    def _normalize(self):
        while self.range < TOP:
            self.range <<= 8
            self.low <<= 8
            self.k += 1

    def encode(self, model, bit):
        bit = 1 if bit else 0
        p0 = model.p0
        bound = bound_of(self.range, p0)
        if bit:
            self.low += bound
            self.range -= bound
        else:
            self.range = bound
        model.update(bit)
        self._normalize()
        if self.trace is not None:
            self.trace.append(("adaptive", bit, p0, bound, model.raw, self.low, self.range, self.k))

    def encode_equiprobable(self, value, bits):
        assert 0 <= bits <= 64
        for i in range(bits - 1, -1, -1):
            bit = (value >> i) & 1
            self.range >>= 1
            if bit:
                self.low += self.range
            self._normalize()
            if self.trace is not None:
                self.trace.append(("direct", bit, None, None, None, self.low, self.range, self.k))

    def encode_tree(self, models, value, bits):
        assert 0 <= bits <= 31 and len(models) >= 1 << bits
        node = 1
        for i in range(bits - 1, -1, -1):
            bit = (value >> i) & 1
            self.encode(models[node], bit)
            node = node << 1 | bit

    def finished_size(self):
        """The size of the packet finish() would give now."""
        return self.k - 3

    def finish(self):
        return packet_of(self.low, self.range, self.k)


class RangeDecoder:
    """Bytes past the end read as zero. Any input decodes to some bits.

    With exact=True (the default) the decoder also keeps the encoder's exact interval
    and ended_cleanly() re-derives the packet from it (the definition; its cost grows
    with the packet). With exact=False it keeps only the wire's registers and
    ended_cleanly() is the wire text's short rule (k = size + 3 and code < 2^24)."""

    def __init__(self, data, exact=True):
        self.data = bytes(data)
        self.pos = 0
        self.range = INITIAL_RANGE
        self.code = 0
        for _ in range(INITIAL_BYTES):
            self.code = self.code << 8 | self._next()
        self.bad_start = self.code == 0xFFFFFFFF   # not encoder output: decoded as ...FE
        if self.bad_start:
            self.code = 0xFFFFFFFE
        # The exact interval the encoder had, for the end check.
        self.exact = exact
        self.low = 0
        self.k = INITIAL_BYTES

    def _next(self):
        b = self.data[self.pos] if self.pos < len(self.data) else 0
        self.pos += 1
        return b

    @property
    def bytes_consumed(self):
        return self.pos

    def _normalize(self):
        while self.range < TOP:
            self.range <<= 8
            self.code = (self.code << 8 | self._next()) & 0xFFFFFFFF
            if self.exact:
                self.low <<= 8
            self.k += 1

    def decode(self, model):
        bound = bound_of(self.range, model.p0)
        if self.code >= bound:
            bit = 1
            self.code -= bound
            if self.exact:
                self.low += bound
            self.range -= bound
        else:
            bit = 0
            self.range = bound
        model.update(bit)
        self._normalize()
        return bit

    def decode_equiprobable(self, bits):
        assert 0 <= bits <= 64
        value = 0
        for _ in range(bits):
            self.range >>= 1
            bit = 1 if self.code >= self.range else 0
            if bit:
                self.code -= self.range
                if self.exact:
                    self.low += self.range
            value = value << 1 | bit
            self._normalize()
        return value

    def decode_tree(self, models, bits):
        assert 0 <= bits <= 31 and len(models) >= 1 << bits
        node = 1
        for _ in range(bits):
            node = node << 1 | self.decode(models[node])
        return node - (1 << bits)

    def ended_cleanly(self):
        """The packet is exactly the encoder's output for the bits decoded so far."""
        if self.bad_start:
            return False
        if self.exact:
            return packet_of(self.low, self.range, self.k) == self.data
        return self.k == len(self.data) + 3 and self.code < TOP

    def ended_cleanly_short_rule(self):
        """The wire text's short rule, whatever `exact` (for the self test)."""
        return not self.bad_start and self.k == len(self.data) + 3 and self.code < TOP


bit_probability = BitProbability
range_encoder = RangeEncoder
range_decoder = RangeDecoder


# --- golden vectors --------------------------------------------------------------

def hex_of(data):
    return " ".join(f"{b:02X}" for b in data)


def lcg(seed):
    """The tests' fixed source (the same constants in C++): 64-bit LCG, top 32 bits."""
    state = seed
    while True:
        state = (state * 6364136223846793005 + 1442695040888963407) & (2**64 - 1)
        yield state >> 32


def skewed_bits(seed, count, per_mille_ones):
    gen = lcg(seed)
    return [1 if next(gen) % 1000 < per_mille_ones else 0 for _ in range(count)]


def run_script(script):
    """Encodes a list of steps: ("bit", model_name, bit), ("direct", value, bits),
    ("tree", models_name, value, bits). Models start at their raw value and are shared
    by name. Returns the packet."""
    enc = RangeEncoder()
    models, trees = {}, {}
    for step in script:
        if step[0] == "bit":
            _, name, bit, raw = step
            enc.encode(models.setdefault(name, BitProbability(raw)), bit)
        elif step[0] == "direct":
            enc.encode_equiprobable(step[1], step[2])
        else:
            _, name, value, bits = step
            enc.encode_tree(trees.setdefault(name, tree_models(bits)), value, bits)
    return enc.finish()


def golden_cases():
    """(name, description, packet). The same cases are spelled in C++ in
    tests/core/range_coder_test.cpp."""
    cases = []

    def add(name, description, script):
        cases.append((name, description, run_script(script)))

    add("nothing", "no bits at all", [])
    add("one_zero", "a 0 with a fresh model", [("bit", "m", 0, 0x4000)])
    add("one_one", "a 1 with a fresh model", [("bit", "m", 1, 0x4000)])
    add("example", "the worked example: 0 1 0 0 with one fresh model, 5 in 3 direct bits, "
        "2 in a 2-bit tree of fresh models",
        [("bit", "m", b, 0x4000) for b in (0, 1, 0, 0)] + [("direct", 5, 3), ("tree", "t", 2, 2)])
    add("direct_bytes", "0xDEADBEEF in 32 direct bits, then 1 in 1", [("direct", 0xDEADBEEF, 32), ("direct", 1, 1)])
    add("direct_64", "0x0123456789ABCDEF in 64 direct bits", [("direct", 0x0123456789ABCDEF, 64)])
    add("trained_prior", "1 1 0 1 with a trained prior raw 0x1F7800 (p0 30720/32768, count 31)",
        [("bit", "m", b, 0x1F7800) for b in (1, 1, 0, 1)])
    add("all_ones_run", "40 ones with a fresh model", [("bit", "m", 1, 0x4000)] * 40)
    add("all_zeros_run", "1000 zeros with a fresh model", [("bit", "m", 0, 0x4000)] * 1000)
    add("top_ones", "32 ones, each with a fresh model of its own (the interval's top: FF FF FF FF "
        "decodes to the same, but no encoder writes it)",
        [("bit", f"m{i}", 1, 0x4000) for i in range(32)])
    add("skewed_200", "200 bits from lcg(7), 5% ones, one fresh model",
        [("bit", "m", b, 0x4000) for b in skewed_bits(7, 200, 50)])
    add("tree_values", "the values 0..15 and back in a 4-bit tree",
        [("tree", "t", v, 4) for v in list(range(16)) + list(range(15, -1, -1))])
    return cases


TEST_FILE = __import__("pathlib").Path(__file__).resolve().parent.parent / "tests" / "core" / "range_coder_test.cpp"


def check_test_vectors():
    """The golden lines of the C++ test are this model's vectors, each used there."""
    import re
    text = TEST_FILE.read_text()
    found = dict(re.findall(r'constexpr std::string_view golden_(\w+) = "([^"]*)";', text))
    ok = True
    for name, _, packet in golden_cases():
        if found.get(name) != hex_of(packet):
            print(f"{TEST_FILE}: golden_{name} is {found.get(name)!r}, the reference gives {hex_of(packet)!r}")
            ok = False
        elif text.count(f"golden_{name}") < 2:
            print(f"{TEST_FILE}: golden_{name} is not used")
            ok = False
    extra = set(found) - {name for name, _, _ in golden_cases()}
    if extra:
        print(f"{TEST_FILE}: vectors the reference does not know: {sorted(extra)}")
        ok = False
    print(f"{TEST_FILE.name}: {len(found)} golden vectors {'match' if ok else 'DIFFER'}")
    return ok


def print_vectors():
    print("// python3 tools/range_coder_reference.py --vectors")
    for name, description, packet in golden_cases():
        print(f"// {description}")
        print(f'constexpr std::string_view golden_{name} = "{hex_of(packet)}";')


def print_example():
    script = [("bit", "m", b, 0x4000) for b in (0, 1, 0, 0)] + [("direct", 5, 3), ("tree", "t", 2, 2)]
    enc = RangeEncoder()
    enc.trace = []
    m = BitProbability()
    trees = tree_models(2)
    for b in (0, 1, 0, 0):
        enc.encode(m, b)
    enc.encode_equiprobable(5, 3)
    enc.encode_tree(trees, 2, 2)
    print("| step | bit | p0 | bound | model after | low | range | k |")
    print("|---|---|---|---|---|---|---|---|")
    for i, (kind, bit, p0, bound, raw, low, rng, k) in enumerate(enc.trace, 1):
        print(f"| {i} {kind} | {bit} | {'' if p0 is None else p0} | "
              f"{'' if bound is None else f'0x{bound:08X}'} | {'' if raw is None else f'0x{raw:06X}'} | "
              f"0x{low:X} | 0x{rng:08X} | {k} |")
    packet = enc.finish()
    print(f"\npacket: {hex_of(packet)}")
    assert packet == run_script(script)


# --- the differential check against the C++ ------------------------------------

def check_file(path):
    """Each line of the file the C++ test wrote is `kind;packet;ops;end`:
    packet in hex, ops a space-separated list of
        a<model>:<raw>=<bit>     an adaptive bit, model <model> (starting at raw, hex)
        d<bits>=<value>          direct bits
        t<tree>:<bits>=<value>   a bit tree, tree <tree> (fresh models)
    and end the C++ ended_cleanly() (0 or 1) after decoding them. kind `enc`: the C++
    encoder wrote the packet for these ops; the reference encoder must write the same
    bytes. kind `dec`: any bytes (garbage, cut, flipped); the ops hold what the C++
    decoder read from them. Either way the reference decoder must read the same values
    and give the same end check."""
    failures = 0
    lines = 0
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            lines += 1
            kind, packet_hex, ops, end = line.split(";")
            packet = bytes.fromhex(packet_hex)
            dec = RangeDecoder(packet)
            enc = RangeEncoder()
            models, trees = {}, {}
            ok = True
            for op in ops.split():
                head, value = op.split("=")
                value = int(value)
                if head[0] == "a":
                    index, raw = head[1:].split(":")
                    dm = models.setdefault(("dec", index), BitProbability(int(raw, 16)))
                    em = models.setdefault(("enc", index), BitProbability(int(raw, 16)))
                    ok &= dec.decode(dm) == value
                    enc.encode(em, value)
                elif head[0] == "d":
                    bits = int(head[1:])
                    ok &= dec.decode_equiprobable(bits) == value
                    enc.encode_equiprobable(value, bits)
                elif head[0] == "t":
                    index, bits = head[1:].split(":")
                    bits = int(bits)
                    dt = trees.setdefault(("dec", index), tree_models(bits))
                    et = trees.setdefault(("enc", index), tree_models(bits))
                    ok &= dec.decode_tree(dt, bits) == value
                    enc.encode_tree(et, value, bits)
                else:
                    raise ValueError(f"{path}:{number}: bad op {op}")
            ok &= dec.ended_cleanly() == (end == "1")
            ok &= dec.ended_cleanly_short_rule() == (end == "1")
            if kind == "enc":
                ok &= enc.finish() == packet and end == "1"
            if not ok:
                failures += 1
                if failures <= 10:
                    print(f"{path}:{number}: mismatch: {line[:300]}")
    print(f"{path}: {lines} cases, {failures} mismatches")
    return failures == 0 and lines > 0


# --- self test -------------------------------------------------------------------

def self_test():
    rng = random.Random(30)
    for trial in range(300):
        ops = []
        for _ in range(rng.randrange(0, 60)):
            kind = rng.random()
            if kind < 0.6:
                ops.append(("a", rng.randrange(4), 1 if rng.random() < 0.1 else 0))
            elif kind < 0.8:
                bits = rng.randrange(0, 65)
                ops.append(("d", bits, rng.getrandbits(bits) if bits else 0))
            else:
                ops.append(("t", 3, rng.randrange(8)))
        enc = RangeEncoder()
        em = [BitProbability() for _ in range(4)]
        et = tree_models(3)
        for op in ops:
            if op[0] == "a":
                enc.encode(em[op[1]], op[2])
            elif op[0] == "d":
                enc.encode_equiprobable(op[2], op[1])
            else:
                enc.encode_tree(et, op[2], op[1])
        packet = enc.finish()
        assert len(packet) == enc.finished_size(), trial

        def decode(data, exact=True):
            dec = RangeDecoder(data, exact)
            dm = [BitProbability() for _ in range(4)]
            dt = tree_models(3)
            out = []
            for op in ops:
                if op[0] == "a":
                    out.append(dec.decode(dm[op[1]]))
                elif op[0] == "d":
                    out.append(dec.decode_equiprobable(op[1]))
                else:
                    out.append(dec.decode_tree(dt, op[1]))
            return out, dec.ended_cleanly()

        values, clean = decode(packet)
        assert values == [op[2] for op in ops], trial
        assert clean, trial
        # Other bytes: never clean with the same values; both end rules agree.
        others = [packet + b"\x00", packet + b"\x5a", packet[:-1], packet[:rng.randrange(len(packet) + 1)],
                  bytes(rng.getrandbits(8) for _ in range(rng.randrange(12))), b"\xff\xff\xff\xff" + packet[4:]]
        for other in [packet] + others:
            other_values, other_clean = decode(other)
            assert decode(other, exact=False) == (other_values, other_clean), trial
            assert not (other_clean and other_values == values and other != packet), trial
    print("self test passed")
    return True


def main(argv):
    if argv[1:] == ["--vectors"]:
        print_vectors()
    elif argv[1:] == ["--example"]:
        print_example()
    elif len(argv) == 3 and argv[1] == "--check":
        ok = self_test()
        ok = check_test_vectors() and ok
        ok = check_file(argv[2]) and ok
        return 0 if ok else 1
    elif argv[1:] == ["--self-test"]:
        return 0 if self_test() else 1
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
