#!/usr/bin/env python3
"""An independent model of the netser wire format, written from
docs/wire_format.md and docs/game_encodings.md (not from the C++ code), that derives
the golden vectors.

    python3 tools/golden.py            print the golden vectors as a Markdown table
    python3 tools/golden.py --game     print the game encodings' golden vectors
    python3 tools/golden.py --hostile  print the rows of tests/hostile/golden_test.cpp
                                       (tools/golden_types.py: whole messages, packets
                                       and schema hashes)
    python3 tools/golden.py --delta-packets  print the golden delta packets (their
                                       baseline fingerprints taken over the model's own
                                       plain encoding) of tests/packet/delta_packet_test.cpp
    python3 tools/golden.py --check    check that docs/wire_format.md lists exactly
                                       these vectors (docs/game_encodings.md the game
                                       vectors it quotes), and that each vector is
                                       checked by an assertion of its own in the test
                                       case TESTED_IN names (not in a comment, not
                                       elsewhere in the file); the same for the hostile
                                       golden rows and the schema_hash goldens
                                       (SCHEMA_TESTS). ctest runs it (netser_golden_model).

The model is deliberately naive: a list of bits, one bit at a time.
Float32 arithmetic is emulated by rounding every operation's exact double result
to float32, which is correctly rounded for + - * / (double has more than 2*24+2
significand bits), so there is no FMA and no excess precision.
"""

import math
import pathlib
import re
import struct
import sys

# --- the bit-packer -----------------------------------------------------------


class Writer:
    """Bit i of the packet is bit i % 8 of byte i // 8; values go LSB first."""

    def __init__(self):
        self.bits = []

    def put(self, value, n):
        assert 0 <= n <= 64 and 0 <= value < (1 << n) if n else value == 0
        for i in range(n):
            self.bits.append((value >> i) & 1)

    def align(self):
        while len(self.bits) % 8:
            self.bits.append(0)

    # The walk's frames: they matter to a range-coded body's contexts only (golden_types
    # RangeWriter), not to the bits.
    def enter(self, name):
        pass

    def element(self):
        pass

    def leave(self):
        pass

    def element_flags(self, flags):
        pass

    def data(self):
        out = bytearray((len(self.bits) + 7) // 8)  # unused high bits stay zero
        for i, b in enumerate(self.bits):
            out[i // 8] |= b << (i % 8)
        return bytes(out)


def bits_required(lo, hi):
    """0 when lo == hi, else floor(log2(hi - lo)) + 1."""
    assert lo <= hi
    return (hi - lo).bit_length()


# --- float32 ------------------------------------------------------------------


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


class Quantization:
    """docs/wire_format.md 3.1: delta = max - min; max_int = ceil(delta / res); bits = bits_required(0, max_int)."""

    def __init__(self, lo, hi, res):
        self.lo, self.hi = f32(lo), f32(hi)
        self.delta = f32(self.hi - self.lo)
        self.max_int = math.ceil(f32(self.delta / f32(res)))
        assert 1 <= self.max_int <= 4294967040
        self.bits = bits_required(0, self.max_int)

    def encode(self, v):
        assert not math.isnan(v)
        n = f32(f32(f32(v) - self.lo) / self.delta) if math.isfinite(v) else (1.0 if v > 0 else 0.0)
        n = min(max(n, 0.0), 1.0)
        scaled = f32(n * f32(self.max_int))
        code = math.floor(f32(scaled + 0.5))
        return min(code, self.max_int)  # max_int is exact in float32, so this only matters for ties

    def decode(self, code):
        assert 0 <= code <= self.max_int
        n = f32(f32(code) / f32(self.max_int))
        return f32(f32(n * self.delta) + self.lo)


# --- the primitives (write side) -----------------------------------------------


def w_bits(w, v, n):
    w.put(v, n)


def w_int(w, v, lo, hi):
    assert lo <= v <= hi
    w.put(v - lo, bits_required(lo, hi))


def w_bool(w, v):
    w.put(1 if v else 0, 1)


def w_float_bits(w, pattern):
    w.put(pattern, 32)


def w_double_bits(w, pattern):
    w.put(pattern, 64)


def w_quantized(w, v, lo, hi, res):
    q = Quantization(lo, hi, res)
    w.put(q.encode(v), q.bits)


def w_align(w):
    w.align()


def w_bytes(w, data):
    w.align()
    for b in data:
        w.put(b, 8)


def w_raw_string(w, data, max_length):
    """The string wire for any bytes (serialize_raw_string, the raw_bytes attribute)."""
    assert len(data) <= max_length
    w.put(len(data), bits_required(0, max_length))
    w_bytes(w, data)


def w_string(w, s, max_length):
    """A checked string: Python's UTF-8 encoder refuses lone surrogates; NUL is refused here."""
    assert "\0" not in s
    w_raw_string(w, s.encode("utf-8"), max_length)


def w_check(w, magic):
    w.align()
    w.put(magic, 32)


RUNGS = [(2, 5), (6, 13), (14, 29), (30, 61), (62, 125)]


def w_relative_index(w, previous, current, max_index):
    """The article's ladder; returns the new previous (= current)."""
    assert -1 <= previous < max_index and previous < current <= max_index
    d = current - previous
    if d == 1:
        w.put(1, 1)
        return current
    w.put(0, 1)
    for lo, hi in RUNGS:
        if lo <= d <= hi:
            w.put(1, 1)
            w_int(w, d, lo, hi)
            return current
        w.put(0, 1)
    w_int(w, d, 126, max_index + 1)
    return current


# --- delta: differences of codes and changed elements ----------------------------

DEFAULT_LADDER = [1, 16, 256, 4096]


def ladder_rungs(limits, max_code):
    """The rungs [lo, hi] of a ladder for codes of [0, max_code]: cut at max_code, then
    only as many as are each cheaper than the fallback (that many flags + the code)."""
    code_bits = bits_required(0, max_code)
    rungs, lo = [], 1
    for limit in limits:
        if lo > max_code:
            break
        hi = min(limit, max_code)
        rungs.append((lo, hi))
        if hi == max_code:
            break
        lo = hi + 1
    for k in range(len(rungs), -1, -1):
        if all(j + 2 + bits_required(lo, hi) < k + code_bits for j, (lo, hi) in enumerate(rungs[:k])):
            return rungs[:k]
    return []


def w_difference(w, code, base, max_code, limits=DEFAULT_LADDER):
    """A code that differs from base: nothing for two codes, else a flag per rung (set in
    the rung of |code - base|), the sign (set when below) and the magnitude's offset in
    the rung; past every rung, the code."""
    assert code != base and 0 <= code <= max_code and 0 <= base <= max_code
    if max_code == 1:
        return
    m = abs(code - base)
    for lo, hi in ladder_rungs(limits, max_code):
        if lo <= m <= hi:
            w.put(1, 1)
            w.put(1 if code < base else 0, 1)
            w_int(w, m, lo, hi)
            return
        w.put(0, 1)
    w_int(w, code, 0, max_code)


def w_changed_elements(w, changed, body, flags=None):
    """The elements of a container against the baseline's: bit 0 and a changed bit per
    element, or bit 1 and the relative indices of the changed ones ending with n; body(i)
    writes element i's delta body after its bit or index. Which: a bit-packed writer the
    shorter (a tie: the bits); a range writer (listed_below_one_in) the bits unless fewer
    than 1 in listed_below_one_in elements changed (docs/wire_format.md "Naming changed
    elements"). flags(i), when given, is the baseline element i's flags (element_flags):
    each changed bit is coded under them and a changed element's frame entered with them
    (a bit-packed writer ignores them); a clear bit drops them."""
    n = len(changed)
    below = getattr(w, "listed_below_one_in", None)
    if below is not None:
        is_listed = sum(1 for c in changed if c) * below < n
    else:
        listed = Writer()
        previous = -1
        for i, c in enumerate(changed):
            if c:
                previous = w_relative_index(listed, previous, i, n)
        w_relative_index(listed, previous, n, n)
        is_listed = len(listed.bits) < n
    if is_listed:
        w.put(1, 1)
        previous = -1
        for i, c in enumerate(changed):
            if c:
                previous = w_relative_index(w, previous, i, n)
                body(i)
        w_relative_index(w, previous, n, n)
    else:
        w.put(0, 1)
        for i, c in enumerate(changed):
            if flags is not None:
                w.element_flags(flags(i))
            w.put(1 if c else 0, 1)
            if c:
                body(i)
            elif flags is not None:
                w.element_flags(0)


def element_flags(bools):
    """docs/wire_format.md "Element flags": the values of a struct element's first four own
    bool members (not skipped, no codec of their own), as bits after a leading 1; 0 for an
    element without (or any element that is not a struct)."""
    flags = 1
    for b in bools[:4]:
        flags = flags << 1 | (1 if b else 0)
    return flags if bools else 0


def delta_array_example(w):
    # A struct whose one member is a std::array<std::uint16_t, 8> (range 0..1000) with
    # elements 1 and 6 changed, against 10, 20, ..., 80: the struct's changed bit, the
    # member's, then the element list.
    base = [10, 20, 30, 40, 50, 60, 70, 80]
    new = [10, 21, 30, 40, 50, 60, 300, 80]
    w.put(1, 1)
    w.put(1, 1)
    w_changed_elements(w, [a != b for a, b in zip(new, base)],
                       lambda i: w_difference(w, new[i], base[i], 1000))


def delta_sparse_example(w):
    # The same with 40 elements (all 100) of which 3 and 30 changed to 99 and 1000: the
    # indices are shorter than 40 changed bits.
    base = [100] * 40
    new = list(base)
    new[3], new[30] = 99, 1000
    w.put(1, 1)
    w.put(1, 1)
    w_changed_elements(w, [a != b for a, b in zip(new, base)],
                       lambda i: w_difference(w, new[i], base[i], 1000))


def w_smallest_three_delta(w, old, new, max_code, limits=DEFAULT_LADDER):
    """A changed rotation's delta, both smallest-three codecs (fields (largest, [a, b, c])):
    its changed bit, same largest; on a switch the step (new - old - 1) mod 4 in 2 bits and
    the baseline re-expressed with the new largest; then per code a changed bit and its
    difference from the baseline's (re-expressed) code."""
    w.put(1, 1)
    same = old[0] == new[0]
    w.put(1 if same else 0, 1)
    base = old[1]
    if not same:
        w.put((new[0] - old[0] - 1) % 4, 2)
        base = st_reexpress(old[0], old[1], new[0], max_code)
    for a, b in zip(new[1], base):
        w.put(1 if a != b else 0, 1)
        if a != b:
            w_difference(w, a, b, max_code, limits)


def delta_smallest_three_example(w):
    # A struct whose one member is a smallest_three(9) rotation with the ladder 2, 4, 8, 32,
    # largest component w (3) in both, codes 201, 300, 380 against 200, 300, 400: the
    # struct's changed bit, the member's, same largest, then per code a changed bit and
    # its difference (codes [0, 2^9 - 2], the rest-state range; [0, 511] gives the same rungs).
    w.put(1, 1)
    w_smallest_three_delta(w, (3, [200, 300, 400]), (3, [201, 300, 380]), 510, [2, 4, 8, 32])


def delta_smallest_three_to_rest(w):
    # A smallest_three(9) rotation with the default ladder coming to rest: the identity
    # (largest 3, three middle codes 255, which read as exactly 0) against codes 256, 255,
    # 250: x down by 1 (rung [1, 1]), y unchanged, z up by 5 (rung [2, 16]; the default
    # ladder fitted to [0, 510] keeps these two rungs, then the code in 9 bits).
    w.put(1, 1)
    w_smallest_three_delta(w, (3, [256, 255, 250]), (3, [255, 255, 255]), 510)


def delta_smallest_three_switch(w):
    # The same rotation (largest w, codes 201, 300, 380) against a baseline whose largest
    # component is z (2) with codes 201, 300, 380: the struct's changed bit, the member's,
    # same largest 0, the step (3 - 2 - 1) mod 4 in 2 bits, then per code a changed bit
    # and its difference (ladder 2, 4, 8, 32) from the baseline re-expressed with w (its
    # z, above 1/sqrt(2), clamps to code 510).
    w.put(1, 1)
    w_smallest_three_delta(w, (2, [201, 300, 380]), (3, [201, 300, 380]), 510, [2, 4, 8, 32])


def st_reexpress(largest, codes, to, max_code):
    """smallest_three_codes' re-expression (docs/game_encodings.md), in integers."""
    g = 2 if max_code % 2 == 0 else 1
    r = max_code // g
    d = [0] * 4
    others = [i for i in range(4) if i != largest]
    for i, c in zip(others, codes):
        d[i] = (2 * c - max_code) // g
    total = sum(d[i] * d[i] for i in others)
    d[largest] = math.isqrt(2 * r * r - total) if total < 2 * r * r else 0
    if d[to] < 0:
        d = [-x for x in d]
    return [min(max((g * d[i] + max_code + 1) >> 1, 0), max_code) for i in range(4) if i != to]


def delta_smallest_three_codes_switch(w):
    # A struct whose one member is smallest_three_codes(511, ladder 2, 4, 8, 32): largest
    # w (3), codes 255, 256, 511 against largest z (2), codes 255, 256, 509. The struct's
    # changed bit, the member's, same largest 0, the step (2 - 3 - 1) mod 4 in 2 bits, then
    # per code a changed bit and its difference from the baseline re-expressed with z.
    w.put(1, 1)
    w_smallest_three_delta(w, (3, [255, 256, 511]), (2, [255, 256, 509]), 511, [2, 4, 8, 32])


def smallest_three_codes_plain(w):
    # The same member plain: the index in 2 bits, then the codes in 9 bits each.
    w.put(3, 2)
    for c in (255, 256, 511):
        w.put(c, 9)


# --- keyed deltas (docs/wire_format.md, "Keyed deltas") --------------------------------
# Containers matched by key or slot. The baseline's entries are named by their place in
# the reference order (a map's or set's: ascending key code; a keyed vector's: its own).


def w_keyed_touched(w, base_count, touched, body):
    """The touched entries of the baseline's base_count, in reference order: the changed
    elements of that many (nothing when the baseline is empty); body(j) after each."""
    if base_count:
        w_changed_elements(w, touched, body)


def w_keyed_map(w, new, base, code, key_plain, value_body, value_plain, max_size):
    """A map's delta body (dicts key -> value): the touched entries by key code, each with
    its removed bit and, when kept, the value's delta body; the added count in
    bits_required(0, max_size) bits; the added entries, key then value, by key code."""
    ref = sorted(base, key=code)

    def body(j):
        removed = ref[j] not in new
        w.put(1 if removed else 0, 1)
        if not removed:
            value_body(new[ref[j]], base[ref[j]])

    w_keyed_touched(w, len(ref), [k not in new or new[k] != base[k] for k in ref], body)
    added = sorted((k for k in new if k not in base), key=code)
    w_int(w, len(added), 0, max_size)
    for k in added:
        key_plain(k)
        value_plain(new[k])


def w_keyed_set(w, new, base, code, key_plain, max_size):
    """A set's delta body: the removed keys by key code (a touched key has no body), the
    added count, the added keys by key code."""
    ref = sorted(base, key=code)
    w_keyed_touched(w, len(ref), [k not in new for k in ref], lambda j: None)
    added = sorted((k for k in new if k not in base), key=code)
    w_int(w, len(added), 0, max_size)
    for k in added:
        key_plain(k)


def patience_stays(q):
    """Which elements keep their place: the longest increasing subsequence of the
    kept-order places q that patience sorting finds. Each q[i] goes on the leftmost pile
    whose top is not below it (a new pile when none is) and links to the top of the pile
    to its left; the elements that stay are the chain of links from the last pile's top."""
    piles, link = [], [None] * len(q)
    for i, x in enumerate(q):
        p = 0
        while p < len(piles) and q[piles[p][-1]] < x:
            p += 1
        if p > 0:
            link[i] = piles[p - 1][-1]
        if p == len(piles):
            piles.append([])
        piles[p].append(i)
    stays = [False] * len(q)
    i = piles[-1][-1] if piles else None
    while i is not None:
        stays[i] = True
        i = link[i]
    return stays


def w_keyed_vector(w, new, base, key, code, element_body, element_plain, max_size):
    """A keyed vector's delta body (lists of elements, key(e) their key): the touched
    baseline elements in the baseline's order (removed bit, then the element's delta
    body); the added count and the added elements in their order in the vector; then for
    n >= 2 elements the order: 0 (the kept order: survivors in the baseline's order, then
    the added), or 1 and 0 (sorted by key code), or 1, 1 and the moves."""
    new_at = {key(e): i for i, e in enumerate(new)}
    base_keys = {key(b) for b in base}

    def body(j):
        i = new_at.get(key(base[j]))
        w.put(1 if i is None else 0, 1)
        if i is not None:
            element_body(new[i], base[j])

    w_keyed_touched(w, len(base), [key(b) not in new_at or new[new_at[key(b)]] != b for b in base], body)
    added = [e for e in new if key(e) not in base_keys]
    w_int(w, len(added), 0, max_size)
    for e in added:
        element_plain(e)
    n = len(new)
    if n < 2:
        return
    kept = [key(b) for b in base if key(b) in new_at] + [key(e) for e in added]
    q = [kept.index(key(e)) for e in new]
    if q == list(range(n)):
        w.put(0, 1)
        return
    w.put(1, 1)
    codes = [code(key(e)) for e in new]
    if codes == sorted(codes):
        w.put(0, 1)
        return
    w.put(1, 1)
    stays = patience_stays(q)
    w_int(w, stays.count(False), 0, n)
    previous = -1
    for i in range(n):
        if not stays[i]:
            previous = w_relative_index(w, previous, i, n)
            w_int(w, n - 1 - q[i], 0, n - 1)


def w_sparse_slots(w, new, base, value_body, value_plain):
    """A sparse array's delta body: its slots as an array's changed elements, a slot
    changed when it appeared, disappeared or its value changed; a changed slot's body is
    its presence bit, then the value's delta body when the baseline's slot held one,
    else its plain encoding."""
    def body(i):
        w.put(0 if new[i] is None else 1, 1)
        if new[i] is not None:
            if base[i] is not None:
                value_body(new[i], base[i])
            else:
                value_plain(new[i])

    w_changed_elements(w, [a != b for a, b in zip(new, base)], body)


# The keyed golden types (tests/delta/keyed_golden_test.cpp): maps of uint16 keys (raw,
# 16 bits) to values in range(0, 100); sets of int16 keys (raw: their code is their two's
# complement bits); Unit {uint16 id; hp in range(0, 100)} keyed by id; a sparse array of 8
# slots of range(0, 100); every container max_size(8) (a count of 4 bits).
KEYED_MAX = 8


def hp_body(w):
    return lambda v, b: w_difference(w, v, b, 100)


def keyed_map_example(w):
    # {10: 51, 30: 70, 25: 5} against {10: 50, 20: 60, 30: 70}: 10 changed, 20 removed,
    # 25 added, 30 unchanged.
    w.put(1, 1)
    w.put(1, 1)
    w_keyed_map(w, {10: 51, 30: 70, 25: 5}, {10: 50, 20: 60, 30: 70}, lambda k: k, lambda k: w.put(k, 16),
                hp_body(w), lambda v: w_int(w, v, 0, 100), KEYED_MAX)


def keyed_set_example(w):
    # {-2, -1, 5} against {-1, 5, 7}: the reference order is by code, 5, 7, -1 (0xFFFF);
    # 7 removed, -2 (0xFFFE) added.
    code = lambda k: k & 0xFFFF  # noqa: E731
    w.put(1, 1)
    w.put(1, 1)
    w_keyed_set(w, {-2, -1, 5}, {-1, 5, 7}, code, lambda k: w.put(code(k), 16), KEYED_MAX)


def unit_body(w):
    # A Unit's delta body: id's changed bit (a key never changes), hp's changed bit and difference.
    def body(v, b):
        w.put(0, 1)
        w.put(1 if v[1] != b[1] else 0, 1)
        if v[1] != b[1]:
            w_difference(w, v[1], b[1], 100)
    return body


def unit_plain(w):
    return lambda e: (w.put(e[0], 16), w_int(w, e[1], 0, 100))


def keyed_units(w, new, base):
    w.put(1, 1)
    w.put(1, 1)
    w_keyed_vector(w, new, base, lambda e: e[0], lambda k: k, unit_body(w), unit_plain(w), KEYED_MAX)


def sparse_slots_example(w):
    # 8 slots: slot 3 disappears, slot 5 changes 50 -> 55, slot 6 appears (60); slot 1 stays.
    base = [None, 10, None, 30, None, 50, None, None]
    new = [None, 10, None, None, None, 55, 60, None]
    w.put(1, 1)
    w.put(1, 1)
    w_sparse_slots(w, new, base, lambda v, b: w_difference(w, v, b, 100), lambda v: w_int(w, v, 0, 100))


# --- the golden vectors -------------------------------------------------------
# (name, what is written, function that writes it). Names are stable: the tests
# and docs/wire_format.md refer to them.

INT64_MIN, INT64_MAX, UINT64_MAX = -(1 << 63), (1 << 63) - 1, (1 << 64) - 1


def packet_mixed(w):
    # The multi-primitive packet of the truncation tests (tests/core/primitives_test.cpp).
    w_int(w, -37, -100, 100)
    w_bool(w, True)
    w_quantized(w, 123.45, -1000.0, 1000.0, 0.01)
    w_bits(w, 0x2A, 7)
    w_string(w, "netser", 31)
    w_float_bits(w, f32_bits(-2.5))
    w_int(w, -1, INT64_MIN, INT64_MAX)
    w_check(w, 0x6E657473)
    w_bool(w, True)


def relative_sequence(w):
    previous = -1
    for index in [0, 2, 7, 20, 50, 200, 1000]:  # 1000 = the end sentinel
        previous = w_relative_index(w, previous, index, 1000)


VECTORS = [
    # bits
    ("bits_book_example", "bits 13 in 5, then 52 in 6", lambda w: (w_bits(w, 13, 5), w_bits(w, 52, 6))),
    ("bits_zero_width", "bits 0 in 0", lambda w: w_bits(w, 0, 0)),
    ("bits_1", "bits 1 in 1", lambda w: w_bits(w, 1, 1)),
    ("bits_16", "bits 0x1234 in 16", lambda w: w_bits(w, 0x1234, 16)),
    ("bits_32", "bits 0xDEADBEEF in 32", lambda w: w_bits(w, 0xDEADBEEF, 32)),
    ("bits_33", "bits 2^32 in 33", lambda w: w_bits(w, 1 << 32, 33)),
    ("bits_64", "bits 0x123456789ABCDEF0 in 64", lambda w: w_bits(w, 0x123456789ABCDEF0, 64)),
    ("bits_unaligned_64", "bits 1 in 3, then 0xFEDCBA9876543210 in 64",
     lambda w: (w_bits(w, 1, 3), w_bits(w, 0xFEDCBA9876543210, 64))),
    ("bits_mixed", "bits 5 in 3, 0x1FF in 9, 0 in 1, 0x3FFFF in 18, 1 in 1",
     lambda w: (w_bits(w, 5, 3), w_bits(w, 0x1FF, 9), w_bits(w, 0, 1), w_bits(w, 0x3FFFF, 18), w_bits(w, 1, 1))),
    # int
    ("int_neg100_100", "int -37 in [-100, 100]", lambda w: w_int(w, -37, -100, 100)),
    ("int_0_7", "int 5 in [0, 7]", lambda w: w_int(w, 5, 0, 7)),
    ("int_0_8", "int 8 in [0, 8]", lambda w: w_int(w, 8, 0, 8)),
    ("int_0_1000", "int 1000 in [0, 1000]", lambda w: w_int(w, 1000, 0, 1000)),
    ("int_degenerate", "int 7 in [7, 7]", lambda w: w_int(w, 7, 7, 7)),
    ("int_negative_range", "int -3 in [-5, -1]", lambda w: w_int(w, -3, -5, -1)),
    ("int_int8", "int -128 then 127 in [-128, 127]", lambda w: (w_int(w, -128, -128, 127), w_int(w, 127, -128, 127))),
    ("int_int32_full", "int -123456789 in [INT32_MIN, INT32_MAX]",
     lambda w: w_int(w, -123456789, -(1 << 31), (1 << 31) - 1)),
    ("int_int64_min", "int INT64_MIN in [INT64_MIN, INT64_MAX]", lambda w: w_int(w, INT64_MIN, INT64_MIN, INT64_MAX)),
    ("int_int64_minus_one", "int -1 in [INT64_MIN, INT64_MAX]", lambda w: w_int(w, -1, INT64_MIN, INT64_MAX)),
    ("int_int64_zero", "int 0 in [INT64_MIN, INT64_MAX]", lambda w: w_int(w, 0, INT64_MIN, INT64_MAX)),
    ("int_int64_max", "int INT64_MAX in [INT64_MIN, INT64_MAX]", lambda w: w_int(w, INT64_MAX, INT64_MIN, INT64_MAX)),
    ("int_uint64_max", "int UINT64_MAX in [0, UINT64_MAX]", lambda w: w_int(w, UINT64_MAX, 0, UINT64_MAX)),
    ("int_uint64_high", "int 2^63 + 5 in [2^63, UINT64_MAX]", lambda w: w_int(w, (1 << 63) + 5, 1 << 63, UINT64_MAX)),
    ("int_unaligned", "bool true, then int 300 in [-1000, 1000]",
     lambda w: (w_bool(w, True), w_int(w, 300, -1000, 1000))),
    # bool
    ("bool_101", "bool true, false, true", lambda w: (w_bool(w, True), w_bool(w, False), w_bool(w, True))),
    # float, double
    ("float_one", "float 1.0f", lambda w: w_float_bits(w, f32_bits(1.0))),
    ("float_negative_zero", "float -0.0f", lambda w: w_float_bits(w, 0x80000000)),
    ("float_infinity", "float +inf", lambda w: w_float_bits(w, 0x7F800000)),
    ("float_nan_payload", "float NaN 0x7FC00001", lambda w: w_float_bits(w, 0x7FC00001)),
    ("float_signaling_nan", "float signaling NaN 0x7F800001", lambda w: w_float_bits(w, 0x7F800001)),
    ("float_unaligned", "bool true, then float 1.0f", lambda w: (w_bool(w, True), w_float_bits(w, f32_bits(1.0)))),
    ("double_one_third", "double 1/3", lambda w: w_double_bits(w, f64_bits(1 / 3))),
    ("double_negative_zero", "double -0.0", lambda w: w_double_bits(w, 0x8000000000000000)),
    ("double_nan_payload", "double NaN 0x7FF8000000000001", lambda w: w_double_bits(w, 0x7FF8000000000001)),
    ("double_low_half", "double with bits 0x0000000089ABCDEF", lambda w: w_double_bits(w, 0x0000000089ABCDEF)),
    ("double_unaligned", "bits 0 in 1, then double -2.0", lambda w: (w_bits(w, 0, 1), w_double_bits(w, f64_bits(-2.0)))),
    # quantized
    ("quantized_zero", "quantized 0 in [-1000, 1000] at 0.01 (code 100000)",
     lambda w: w_quantized(w, 0.0, -1000.0, 1000.0, 0.01)),
    ("quantized_min", "quantized -1000 in [-1000, 1000] at 0.01", lambda w: w_quantized(w, -1000.0, -1000.0, 1000.0, 0.01)),
    ("quantized_max", "quantized 1000 in [-1000, 1000] at 0.01", lambda w: w_quantized(w, 1000.0, -1000.0, 1000.0, 0.01)),
    ("quantized_value", "quantized 123.45 in [-1000, 1000] at 0.01",
     lambda w: w_quantized(w, 123.45, -1000.0, 1000.0, 0.01)),
    ("quantized_negative", "quantized -0.015 in [-1000, 1000] at 0.01",
     lambda w: w_quantized(w, -0.015, -1000.0, 1000.0, 0.01)),
    ("quantized_clamp_high", "quantized 5000 in [-1000, 1000] at 0.01 (clamps)",
     lambda w: w_quantized(w, 5000.0, -1000.0, 1000.0, 0.01)),
    ("quantized_clamp_low", "quantized -inf in [-1000, 1000] at 0.01 (clamps)",
     lambda w: w_quantized(w, -math.inf, -1000.0, 1000.0, 0.01)),
    ("quantized_0_10", "quantized 5 in [0, 10] at 0.01 (code 500, 10 bits)", lambda w: w_quantized(w, 5.0, 0.0, 10.0, 0.01)),
    ("quantized_three", "quantized 1.5, -2.25, 0.1 in [-50, 50] at 0.01",
     lambda w: [w_quantized(w, v, -50.0, 50.0, 0.01) for v in (1.5, -2.25, 0.1)]),
    # align
    ("align_after_1", "bits 1 in 1, align, bits 1 in 1", lambda w: (w_bits(w, 1, 1), w_align(w), w_bits(w, 1, 1))),
    ("align_after_3", "bits 5 in 3, align", lambda w: (w_bits(w, 5, 3), w_align(w))),
    ("align_at_0", "align at bit 0", lambda w: w_align(w)),
    ("align_at_8", "bits 0xAB in 8, align", lambda w: (w_bits(w, 0xAB, 8), w_align(w))),
    # bytes
    ("bytes_aligned", "bytes DE AD BE EF", lambda w: w_bytes(w, b"\xde\xad\xbe\xef")),
    ("bytes_unaligned", "bits 1 in 1, then bytes DE AD", lambda w: (w_bits(w, 1, 1), w_bytes(w, b"\xde\xad"))),
    ("bytes_empty_unaligned", "bits 5 in 3, then 0 bytes (still aligns)", lambda w: (w_bits(w, 5, 3), w_bytes(w, b""))),
    # string
    ("string_golden", 'string "golden", max length 15', lambda w: w_string(w, "golden", 15)),
    ("string_empty", 'string "", max length 15', lambda w: w_string(w, "", 15)),
    ("string_test", 'string "test", max length 7', lambda w: w_string(w, "test", 7)),
    ("string_max_0", 'string "", max length 0', lambda w: w_string(w, "", 0)),
    ("string_unaligned", 'bool true, then string "hi", max length 16',
     lambda w: (w_bool(w, True), w_string(w, "hi", 16))),
    ("string_utf8_2_bytes", 'string "\u00e9" (U+00E9: C3 A9), max length 15', lambda w: w_string(w, "\u00e9", 15)),
    ("string_utf8_mixed", 'string "a\u00e9\u20ac\U0001d11e" (1, 2, 3 and 4 bytes), max length 15',
     lambda w: w_string(w, "a\u00e9\u20ac\U0001d11e", 15)),
    ("string_utf8_largest", 'string U+10FFFF (F4 8F BF BF), max length 7', lambda w: w_string(w, "\U0010ffff", 7)),
    ("raw_string_any_bytes", "raw string 00 FF C0 80 ED A0 80 (NUL, invalid UTF-8), max length 7",
     lambda w: w_raw_string(w, b"\x00\xff\xc0\x80\xed\xa0\x80", 7)),
    # check
    ("check_aligned", "check 0x12345678", lambda w: w_check(w, 0x12345678)),
    ("check_unaligned", "bits 5 in 3, then check 0x12345678", lambda w: (w_bits(w, 5, 3), w_check(w, 0x12345678))),
    # relative index, max = 1000, from previous = -1 (so current = d - 1)
    *[
        (f"relative_d{d}", f"relative index: previous -1, current {d - 1}, max 1000 (d = {d})",
         (lambda d: lambda w: w_relative_index(w, -1, d - 1, 1000))(d))
        for d in (1, 2, 5, 6, 13, 14, 29, 30, 61, 62, 125, 126, 500, 1001)
    ],
    ("relative_small_max", "relative index: previous 3, current 5, max 5 (d = 2)",
     lambda w: w_relative_index(w, 3, 5, 5)),
    ("relative_last_rung_max_125", "relative index: previous -1, current 125, max 125 (d = 126, int in [126, 126])",
     lambda w: w_relative_index(w, -1, 125, 125)),
    ("relative_sequence", "relative indices 0, 2, 7, 20, 50, 200, then the sentinel 1000 (max 1000)",
     relative_sequence),
    # code differences (delta), the default ladder 1, 16, 256, 4096
    ("difference_one", "difference: code 101 against 100, codes [0, 65535]",
     lambda w: w_difference(w, 101, 100, 65535)),
    ("difference_minus_ten", "difference: code 90 against 100, codes [0, 65535]",
     lambda w: w_difference(w, 90, 100, 65535)),
    ("difference_290", "difference: code 300 against 10, codes [0, 65535]",
     lambda w: w_difference(w, 300, 10, 65535)),
    ("difference_fallback", "difference: code 5000 against 100, codes [0, 65535] (past the rungs)",
     lambda w: w_difference(w, 5000, 100, 65535)),
    ("difference_two_codes", "difference: code 1 against 0, codes [0, 1] (implied)",
     lambda w: w_difference(w, 1, 0, 1)),
    ("difference_narrow_step", "difference: code 3 against 2, codes [0, 3] (one rung kept)",
     lambda w: w_difference(w, 3, 2, 3)),
    ("difference_narrow_jump", "difference: code 0 against 2, codes [0, 3] (the code)",
     lambda w: w_difference(w, 0, 2, 3)),
    ("difference_custom_ladder", "difference: code 50 against 40, codes [0, 255], ladder 4, 64",
     lambda w: w_difference(w, 50, 40, 255, [4, 64])),
    ("delta_array_bits", "delta of a struct of 8 codes [0, 1000], elements 1 and 6 changed (21, 300 against 20, 70)",
     delta_array_example),
    ("delta_array_indices", "delta of a struct of 40 codes [0, 1000], elements 3 and 30 changed (99, 1000 against 100)",
     delta_sparse_example),
    ("delta_smallest_three", "delta of a struct of a smallest_three(9) rotation, ladder 2, 4, 8, 32: "
     "codes 201, 300, 380 against 200, 300, 400, same largest",
     delta_smallest_three_example),
    ("delta_smallest_three_switch", "the same rotation against one whose largest component is z (codes 201, 300, "
     "380): the baseline re-expressed with w", delta_smallest_three_switch),
    ("delta_smallest_three_codes_plain", "a struct of a smallest_three_codes(511) rotation, plain: largest 3, "
     "codes 255, 256, 511", smallest_three_codes_plain),
    ("delta_smallest_three_codes_switch", "its delta, ladder 2, 4, 8, 32, to largest 2 and codes 255, 256, 509: "
     "the baseline re-expressed with z", delta_smallest_three_codes_switch),
    ("delta_smallest_three_to_rest", "delta of a struct of a smallest_three(9) rotation, default ladder: "
     "the identity (codes 255, 255, 255) against codes 256, 255, 250, same largest",
     delta_smallest_three_to_rest),
    # keyed deltas: maps, sets and keyed vectors by key, sparse arrays by slot
    ("delta_keyed_map", "delta of a struct of a map from uint16 to [0, 100], max_size 8: {10: 51, 25: 5, 30: 70} "
     "against {10: 50, 20: 60, 30: 70} (one changed, one removed, one added)", keyed_map_example),
    ("delta_keyed_unordered_map", "the same with an unordered_map (the same bytes: entries go by key code)",
     keyed_map_example),
    ("delta_keyed_map_unchanged", "delta of the map against itself", lambda w: w.put(0, 1)),
    ("delta_keyed_set", "delta of a struct of a set of int16, max_size 8: {-2, -1, 5} against {-1, 5, 7} "
     "(reference order by code: 5, 7, -1)", keyed_set_example),
    ("delta_keyed_vector_spawn_order", "delta of a struct of a vector of Unit {id, hp in [0, 100]} keyed by id, max_size 8: "
     "{1,10} {3,30} {4,40} against {1,10} {2,20} {3,30} (erase, append: order 0)",
     lambda w: keyed_units(w, [(1, 10), (3, 30), (4, 40)], [(1, 10), (2, 20), (3, 30)])),
    ("delta_keyed_vector_sorted", "the same type: {1,10} {2,20} {3,30} {5,50} against {1,10} {3,30} {5,50} "
     "(kept sorted by id, an insertion in the middle: order 10)",
     lambda w: keyed_units(w, [(1, 10), (2, 20), (3, 30), (5, 50)], [(1, 10), (3, 30), (5, 50)])),
    ("delta_keyed_vector_swap_remove", "the same type: {1,10} {4,40} {3,30} against {1,10} {2,20} {3,30} {4,40} "
     "(a swap-remove: order 11, one move)",
     lambda w: keyed_units(w, [(1, 10), (4, 40), (3, 30)], [(1, 10), (2, 20), (3, 30), (4, 40)])),
    ("delta_sparse_slots", "delta of a struct of a sparse array of 8 optional [0, 100]: slots 1 = 10, 5 = 55, "
     "6 = 60 against 1 = 10, 3 = 30, 5 = 50 (one appears, one disappears, one changes)", sparse_slots_example),
    # a packet of many primitives (the truncation tests read every prefix of it)
    ("packet_mixed", "int -37 [-100,100]; bool true; quantized 123.45 [-1000,1000] at 0.01; "
     'bits 0x2A in 7; string "netser" max 31; float -2.5f; int -1 in the int64 range; '
     "check 0x6E657473; bool true", packet_mixed),
]


# --- delta packets (docs/wire_format.md, "Delta packets") ----------------------------
# Ping (tests/packet/delta_packet_test.cpp): sequence in [0, 1000], reply a bool.


def ping_plain(sequence, reply):
    w = Writer()
    w_int(w, sequence, 0, 1000)
    w_bool(w, reply)
    return w


def ping_delta(new, base):
    """serialize_delta of a Ping: the struct's changed bit, then each member's changed bit
    and, when changed, the code's difference (a bool's change is a flip: no more bits)."""
    w = Writer()
    w.put(1 if new != base else 0, 1)
    if new != base:
        w.put(1 if new[0] != base[0] else 0, 1)
        if new[0] != base[0]:
            w_difference(w, new[0], base[0], 1000)
        w.put(1 if new[1] != base[1] else 0, 1)
    return w


def ping_delta_packet(new, base, sequence, baseline, protocol_id=0x12345678):
    """The delta packet of Ping new against Ping base, with base's fingerprint taken over
    this model's own plain encoding of it."""
    m = model()
    fingerprint = m.baseline_fingerprint(ping_plain(*base))
    return " ".join(f"{b:02X}" for b in m.delta_packet(sequence, baseline, fingerprint, ping_delta(new, base),
                                                        protocol_id))


# --- predicted delta packets of described structs (docs/wire_format.md "Prediction",
# "Predicted delta packets", "Range-coded packets") ------------------------------------
# A type is ("struct", [(name, type), ...]) (a described struct), ("int", lo, hi, linear)
# (an integer with range(lo, hi); linear: predict_linear), ("bool",) or ("array", n,
# type) (a std::array); a struct's or an array's value is a tuple.


def w_plain(w, t, v):
    """serialize(v): a struct's members and an array's elements in order, each plain."""
    kind = t[0]
    if kind == "struct":
        for (_, mt), mv in zip(t[1], v):
            w_plain(w, mt, mv)
    elif kind == "array":
        for e in v:
            w_plain(w, t[2], e)
    elif kind == "int":
        w_int(w, v, t[1], t[2])
    else:
        w_bool(w, v)
    return w


def predicted_value(t, values, gaps):
    """The prediction P of a value of type t from the baselines' values (newest first):
    gaps = [ahead, span, span2] (0 when missing). An integer with predict_linear is
    extrapolated (its code, v - lo); everything else is the newest baseline's."""
    kind = t[0]
    if kind == "struct":
        return tuple(predicted_value(mt, [v[k] for v in values], gaps) for k, (_, mt) in enumerate(t[1]))
    if kind == "array":
        return tuple(predicted_value(t[2], [v[i] for v in values], gaps) for i in range(t[1]))
    if kind == "int" and t[3] and len(values) > 1:
        codes = [v - t[1] for v in values] + [None]
        return t[1] + model().predicted_code(codes[0], codes[1], codes[2], gaps[0], gaps[1], gaps[2],
                                             max_code=t[2] - t[1])
    return values[0]


def prediction(t, baselines, sequence):
    """P from baselines [(sequence, value), ...], newest first, for a packet numbered sequence."""
    seqs = [s for s, _ in baselines]
    gaps = [sequence - seqs[0]] + [seqs[i] - seqs[i + 1] for i in range(len(seqs) - 1)] + [0, 0]
    return predicted_value(t, [v for _, v in baselines], gaps[:3])


def type_flags(t, v):
    """element_flags of a value of type t: a struct's own bool members, in order."""
    if t[0] != "struct":
        return 0
    return element_flags([mv for (_, mt), mv in zip(t[1], v) if mt[0] == "bool"])


def w_delta_body(w, t, new, base):
    """The delta body of a value that differs from base: a struct's members, each in its
    member frame: its changed bit and, when changed, its body; an array's changed elements
    (w_changed_elements: each changed bit under the baseline element's flags), each changed
    one's body in an element frame; an integer's difference of codes; a bool's change is a
    flip: nothing more."""
    kind = t[0]
    if kind == "struct":
        for (name, mt), v, b in zip(t[1], new, base):
            w.enter(name)
            w.put(1 if v != b else 0, 1)
            if v != b:
                w_delta_body(w, mt, v, b)
            w.leave()
    elif kind == "array":
        def body(i):
            w.element()
            w_delta_body(w, t[2], new[i], base[i])
            w.leave()
        w_changed_elements(w, [a != b for a, b in zip(new, base)], body, lambda i: type_flags(t[2], base[i]))
    elif kind == "int":
        w_difference(w, new - t[1], base - t[1], t[2] - t[1])


def w_delta(w, t, new, base):
    """serialize_delta(new, base): the changed bit (in the root frame), then the body."""
    w.put(1 if new != base else 0, 1)
    if new != base:
        w_delta_body(w, t, new, base)
    return w


def predicted_packet(t, new, baselines, sequence, range_coded=False, prior=None, protocol_id=0x12345678):
    """The predicted delta packet of new against the prediction from baselines
    [(sequence, value), ...], newest first, each baseline's fingerprint taken over this
    model's own plain encoding; range_coded: its body range-coded with the library default
    prior, or prior {slot: [32 raw models]}."""
    m = model()
    p = prediction(t, baselines, sequence)
    seqs = [s for s, _ in baselines]
    fingerprints = [m.baseline_fingerprint(w_plain(Writer(), t, v)) for _, v in baselines]
    if range_coded:
        w = w_delta(m.RangeWriter(prior), t, new, p)
        data = m.range_coded_predicted_packet(sequence, seqs, fingerprints, w, protocol_id)
    else:
        data = m.predicted_delta_packet(sequence, seqs, fingerprints, w_delta(Writer(), t, new, p), protocol_id)
    return " ".join(f"{b:02X}" for b in data)


def range_slots(t, new, baselines, sequence):
    """The context slots of the calls of a range-coded predicted packet's body, in order."""
    w = w_delta(model().RangeWriter(), t, new, prediction(t, baselines, sequence))
    return [slot for _, _, _, slot in w.trace]


# Track (tests/session/predicted_packet_test.cpp): x in [0, 1000] with predict_linear,
# y in [0, 1000].
TRACK = ("struct", [("x", ("int", 0, 1000, True)), ("y", ("int", 0, 1000, False))])


def track_predicted_packet(new, baselines, sequence, protocol_id=0x12345678):
    """new against the prediction from baselines [(sequence, (x, y)), ...], newest first."""
    return predicted_packet(TRACK, new, baselines, sequence, protocol_id=protocol_id)


def track_range_packet(new, baselines, sequence, prior=None, protocol_id=0x12345678):
    """The same, range-coded (docs/wire_format.md "Range-coded packets"): the library
    default prior (every model at p0 = 1/2, count 0), or prior {slot: [32 raw models]}."""
    return predicted_packet(TRACK, new, baselines, sequence, True, prior, protocol_id)


def track_range_slots(new, baselines, sequence):
    """The context slots of the calls of track_range_packet's body, in order."""
    return range_slots(TRACK, new, baselines, sequence)


# Squad (tests/session/predicted_packet_test.cpp): units, a std::array<Unit, 16>; Unit is
# x in [0, 1000] with predict_linear, then the bools moving and alive (its flags: 4 +
# moving * 2 + alive). Baselines 10 and 8; unit i at 8 is x = 100 + 50 i, moving when i %
# 4 = 0, alive when i % 3 != 2; at 10 a moving unit is 10 further. At 12 the moving ones
# are predicted 10 further than at 10; the packet sends that, but for units 4 (x 318, predicted
# 320), 5 (x 347, alive) and 9 (x 556, moving). A bit-packed writer lists these 3 of 16
# (15 bits of indices), a range writer sends 16 changed bits, each under its unit's
# flags in the newest baseline.
UNIT = ("struct", [("x", ("int", 0, 1000, True)), ("moving", ("bool",)), ("alive", ("bool",))])
SQUAD = ("struct", [("units", ("array", 16, UNIT))])


def squad_at(sequence):
    """The units at sequence 8, 10 or 12 (the moving ones 5 further per step)."""
    moving = lambda i: i % 4 == 0  # noqa: E731
    return (tuple((100 + 50 * i + (5 * (sequence - 8) if moving(i) else 0), moving(i), i % 3 != 2)
                  for i in range(16)),)


SQUAD_BASELINES = [(10, squad_at(10)), (8, squad_at(8))]


def squad_sent():
    units = list(squad_at(12)[0])
    units[4] = (318, True, True)
    units[5] = (347, False, True)
    units[9] = (556, True, True)
    return (tuple(units),)


# A trained prior for the golden vector: models that expect what the Track packet sends
# (the slots of its calls, from track_range_slots, are spelled in the C++ test, so a slot
# computed otherwise there finds no entry and codes other bytes).
TRACK_THREE = [(10, (500, 7)), (9, (490, 7)), (8, (480, 7))]


def track_trained_prior():
    slots = track_range_slots((530, 7), TRACK_THREE, 16)
    prior = {}
    for k, slot in enumerate(dict.fromkeys(slots)):
        # Entry k: model m starts at p0 = 1000 + 1000 k + 100 m (in 1/32768), count k + m
        # clamped to 31: distinct for every slot and model, so a model taken from the
        # wrong place changes the bytes.
        prior[slot] = [(1000 + 1000 * k + 100 * j) | min(k + j, 31) << 16 for j in range(32)]
    return prior


# (name, what is written, the packet's hex, quoted in docs/wire_format.md)
DELTA_PACKET_VECTORS = [
    ("delta_packet_ping", "Ping{678, true} against Ping{677, true}, sequence 5, baseline 4, protocol id 0x12345678",
     lambda: ping_delta_packet((678, True), (677, True), 5, 4), True),
    ("delta_packet_initial", "Ping{1, false} against Ping{} (the initial baseline), sequence 1, baseline 0, "
     "protocol id 0x12345678", lambda: ping_delta_packet((1, False), (0, False), 1, 0), False),
    ("predicted_packet_track", "Track{530, 7}, sequence 16, against baselines 10 {500, 7}, 9 {490, 7}, 8 {480, 7}: "
     "x predicted 560, protocol id 0x12345678",
     lambda: track_predicted_packet((530, 7), [(10, (500, 7)), (9, (490, 7)), (8, (480, 7))], 16), True),
    ("predicted_packet_two", "Track{561, 8}, sequence 16, against baselines 10 {500, 7}, 8 {480, 7}: "
     "x predicted 560, protocol id 0x12345678",
     lambda: track_predicted_packet((561, 8), [(10, (500, 7)), (8, (480, 7))], 16), False),
    ("range_packet_track", "predicted_packet_track range-coded, library default prior (protocol id 0x12345678 ^ "
     "the predicted salt ^ the range salt)", lambda: track_range_packet((530, 7), TRACK_THREE, 16), False),
    ("range_packet_two", "predicted_packet_two range-coded, library default prior",
     lambda: track_range_packet((561, 8), [(10, (500, 7)), (8, (480, 7))], 16), False),
    ("range_packet_trained", "predicted_packet_track range-coded with track_trained_prior()",
     lambda: track_range_packet((530, 7), TRACK_THREE, 16, track_trained_prior()), False),
    ("predicted_packet_squad", "Squad squad_sent(), sequence 12, against baselines 10 and 8 (see SQUAD), protocol "
     "id 0x12345678: the 3 changed units of 16 listed by index",
     lambda: predicted_packet(SQUAD, squad_sent(), SQUAD_BASELINES, 12), True),
    ("range_packet_squad", "predicted_packet_squad range-coded, library default prior: 16 changed bits, each coded "
     "(and a changed unit's frame keyed) under its unit's flags in the prediction",
     lambda: predicted_packet(SQUAD, squad_sent(), SQUAD_BASELINES, 12, True), True),
]


def check_delta_packets():
    problems = check_vectors([(name, fn(), None) for name, _, fn, _ in DELTA_PACKET_VECTORS])
    doc = (ROOT / "docs" / "wire_format.md").read_text()
    for name, _, fn, in_doc in DELTA_PACKET_VECTORS:
        if in_doc and fn() not in doc:
            problems.append(f"{name}: `{fn()}` is not in docs/wire_format.md")
    return problems


# Quantized decodes: (name, min, max, resolution, code). The reader's value is
# pinned bit for bit (float32 bits), since a tolerance cannot see a one-ulp FMA slip.
DECODE_VECTORS = [
    ("qdecode_0_10_code_1", 0.0, 10.0, 0.01, 1),
    ("qdecode_0_10_code_500", 0.0, 10.0, 0.01, 500),
    ("qdecode_0_10_code_1000", 0.0, 10.0, 0.01, 1000),
    ("qdecode_100_code_384", -100.0, 100.0, 0.01, 384),
    ("qdecode_100_code_5743", -100.0, 100.0, 0.01, 5743),
    ("qdecode_100_code_10000", -100.0, 100.0, 0.01, 10000),
    ("qdecode_100_code_20000", -100.0, 100.0, 0.01, 20000),
    ("qdecode_8388609_code_max", 0.0, 8388609.0, 1.0, 8388609),
    ("qdecode_16777215_code_max", 0.0, 16777215.0, 1.0, 16777215),
    ("qdecode_1000_code_112345", -1000.0, 1000.0, 0.01, 112345),
]


def decode_row(lo, hi, res, code):
    q = Quantization(lo, hi, res)
    w = Writer()
    w.put(code, q.bits)
    return " ".join(f"{b:02X}" for b in w.data()), q.bits, f"0x{f32_bits(q.decode(code)):08X}"


def vector_hex(fn):
    w = Writer()
    fn(w)
    return " ".join(f"{b:02X}" for b in w.data()), len(w.bits)


# --- the game encodings (docs/game_encodings.md) --------------------------------
# Unit components are quantized in [-bound, bound] with max_int = 2^bits - 2 (even),
# so the middle code max_int / 2 reads as exactly 0; 0 (and -0) is always sent as it.


class CenteredQuantization(Quantization):
    """[-bound, bound] in `bits` bits, max_int = 2^bits - 2 (quantization::centered_bits)."""

    def __init__(self, bound, bits):
        assert 2 <= bits <= 32
        self.lo, self.hi = f32(-bound), f32(bound)
        self.delta = f32(self.hi - self.lo)
        self.max_int = (1 << bits) - 2
        self.bits = bits

    def code(self, v):
        return self.max_int // 2 if v == 0 else self.encode(v)


def negative(x):
    return math.copysign(1.0, x) < 0  # -0 too


def f32_sum_of_squares(values):
    s = 0.0
    for v in values:
        s = f32(s + f32(v * v))
    return s


SMALLEST_THREE_BOUND = f32(0.70710678)


def st_plain(c, bits):
    """smallest_three's plain fields: index of the largest |c| (first on a tie), the whole
    negated when that one is negative, the other three's codes in x, y, z, w order."""
    q = CenteredQuantization(SMALLEST_THREE_BOUND, bits)
    c = [f32(x) for x in c]
    largest = 0
    for i in range(1, 4):
        if abs(c[i]) > abs(c[largest]):
            largest = i
    if negative(c[largest]):
        c = [-x for x in c]
    return largest, tuple(q.code(c[i]) for i in range(4) if i != largest)


def st_read(largest, codes, bits):
    """What the reader makes of the fields: the three, then sqrt(1 - their squares)."""
    q = CenteredQuantization(SMALLEST_THREE_BOUND, bits)
    others = [i for i in range(4) if i != largest]
    d = [0.0] * 4
    for i, code in zip(others, codes):
        d[i] = q.decode(code)
    s = f32_sum_of_squares(d[i] for i in others)
    if s <= 1:
        d[largest] = f32(math.sqrt(f32(1 - s)))
    else:
        scale = f32(1 / f32(math.sqrt(s)))
        d = [f32(x * scale) for x in d]
        d[largest] = 0.0
    return d


def uq_plain(c, bits):
    q = CenteredQuantization(1.0, bits)
    return tuple(q.code(f32(x)) for x in c[:3]), negative(c[3])


def uq_read(codes, negative_w, bits):
    q = CenteredQuantization(1.0, bits)
    d = [q.decode(code) for code in codes] + [0.0]
    s = f32_sum_of_squares(d[:3])
    if s <= 1:
        d[3] = f32(math.sqrt(f32(1 - s)))
    else:
        scale = f32(1 / f32(math.sqrt(s)))
        d = [f32(x * scale) for x in d[:3]] + [0.0]
    if negative_w:
        d[3] = -d[3]
    return d


def w_smallest_three(w, c, bits):
    """The writer sends the plain fields when they are a fixed point (they read as a
    rotation whose plain fields they are). The vectors here are chosen so that they are;
    the others are derived by hand in the tests."""
    largest, codes = st_plain(c, bits)
    assert st_plain(st_read(largest, codes, bits), bits) == (largest, codes), "no fixed point"
    w.put(largest, 2)
    for code in codes:
        w.put(code, bits)


def w_smallest_three_near_tie(w, c, largest, codes, bits):
    """A rotation whose plain fields are no fixed point: they read as a tie that a second
    write would send with another index. The fields given read as the same rotation and
    are a fixed point: the writer sends them (docs/game_encodings.md)."""
    plain = st_plain(c, bits)
    assert st_plain(st_read(*plain, bits), bits) != plain, "the plain fields are a fixed point"
    assert st_read(largest, codes, bits) == st_read(*plain, bits)
    assert st_plain(st_read(largest, codes, bits), bits) == (largest, codes), "no fixed point"
    w.put(largest, 2)
    for code in codes:
        w.put(code, bits)


def w_unit_quaternion(w, c, bits):
    codes, neg = uq_plain(c, bits)
    assert uq_plain(uq_read(codes, neg, bits), bits) == (codes, neg), "no fixed point"
    for code in codes:
        w.put(code, bits)
    w.put(1 if neg else 0, 1)


def w_unit_vector(w, v, bits):
    """Octahedral: u = x / l, v = y / l, l = |x| + |y| + |z|; folded when z < 0."""
    q = CenteredQuantization(1.0, bits)
    x, y, z = (f32(a) for a in v)
    l1 = f32(f32(abs(x) + abs(y)) + abs(z))
    u, t = f32(x / l1), f32(y / l1)
    if z < 0:
        u, t = f32(f32(1 - abs(t)) * (-1 if u < 0 else 1)), f32(f32(1 - abs(u)) * (-1 if t < 0 else 1))
    w.put(q.code(u), bits)
    w.put(q.code(t), bits)


R = 0.70710678
# (name, what is written, function, also quoted in docs/game_encodings.md)
GAME_VECTORS = [
    ("st9_identity", "smallest_three{9} (0, 0, 0, 1)", lambda w: w_smallest_three(w, (0, 0, 0, 1), 9), True),
    ("st10_identity", "smallest_three{10} (0, 0, 0, 1)", lambda w: w_smallest_three(w, (0, 0, 0, 1), 10), False),
    ("st12_identity", "smallest_three{12} (0, 0, 0, 1)", lambda w: w_smallest_three(w, (0, 0, 0, 1), 12), False),
    ("st9_halves", "smallest_three{9} (-0.5, 0.5, -0.5, -0.5)",
     lambda w: w_smallest_three(w, (-0.5, 0.5, -0.5, -0.5), 9), False),
    ("st10_halves", "smallest_three{10} (-0.5, 0.5, -0.5, -0.5)",
     lambda w: w_smallest_three(w, (-0.5, 0.5, -0.5, -0.5), 10), False),
    ("st12_halves", "smallest_three{12} (-0.5, 0.5, -0.5, -0.5)",
     lambda w: w_smallest_three(w, (-0.5, 0.5, -0.5, -0.5), 12), False),
    ("st9_quarter_turn", "smallest_three{9} (r, 0, 0, r), r = 0.70710678",
     lambda w: w_smallest_three(w, (R, 0, 0, R), 9), True),
    ("st9_near_tie", "smallest_three{9} (0.70700675, 0, 0, 0.70720679): index 0, w at 510",
     lambda w: w_smallest_three_near_tie(w, (0.70700675, 0, 0, 0.70720679), 0, (255, 255, 510), 9), False),
    ("st9_half_turn_y", "smallest_three{9} (0, -1, 0, 0)", lambda w: w_smallest_three(w, (0, -1, 0, 0), 9), False),
    ("st10_half_turn_y", "smallest_three{10} (0, -1, 0, 0)", lambda w: w_smallest_three(w, (0, -1, 0, 0), 10), False),
    ("st12_half_turn_y", "smallest_three{12} (0, -1, 0, 0)", lambda w: w_smallest_three(w, (0, -1, 0, 0), 12), False),
    ("uq10_identity", "unit_quaternion{10} (0, 0, 0, 1)", lambda w: w_unit_quaternion(w, (0, 0, 0, 1), 10), True),
    ("uq10_halves_w_negative", "unit_quaternion{10} (0.5, 0.5, 0.5, -0.5)",
     lambda w: w_unit_quaternion(w, (0.5, 0.5, 0.5, -0.5), 10), False),
    ("uq10_minus_halves", "unit_quaternion{10} (-0.5, -0.5, -0.5, 0.5)",
     lambda w: w_unit_quaternion(w, (-0.5, -0.5, -0.5, 0.5), 10), False),
] + [
    (f"uv{bits}_{name}", f"unit_vector{{{bits}}} {v}", (lambda v, bits: lambda w: w_unit_vector(w, v, bits))(v, bits),
     bits == 8)
    for bits in (8, 12, 16)
    for name, v in (("north", (0, 0, 1)), ("south", (0, 0, -1)), ("x", (1, 0, 0)), ("minus_y", (0, -1, 0)))
]


def game_table():
    lines = ["| name | written | bits | bytes (hex) |", "|---|---|---|---|"]
    for name, what, fn, _ in GAME_VECTORS:
        hx, nbits = vector_hex(fn)
        lines.append(f"| `{name}` | {what} | {nbits} | `{hx}` |")
    return "\n".join(lines)


def game_self_test():
    """Facts of docs/game_encodings.md that do not depend on a golden vector."""
    for bits in range(2, 33):
        for bound in (SMALLEST_THREE_BOUND, 1.0):
            q = CenteredQuantization(bound, bits)
            middle = q.max_int // 2
            assert q.decode(middle) == 0 and q.decode(0) == -q.hi and q.decode(q.max_int) == q.hi
            # The quantization's own code of 0: the middle one up to 24 bits only.
            assert q.encode(0.0) == (middle if bits <= 24 else middle + 1)
        # At rest: the identity and the axes read back exactly.
        assert st_read(*st_plain((0, 0, 0, 1), bits), bits) == [0, 0, 0, 1]
        assert uq_read(*uq_plain((0, 0, 0, 1), bits), bits) == [0, 0, 0, 1]


# --- self-test against facts of the reference `serialize` library --------------
# These come from the reference library's published conformance vectors, not
# from netser, so they check this model.


def self_test():
    def hexof(fn):
        return vector_hex(fn)[0]

    assert hexof(lambda w: (w_bits(w, 13, 5), w_bits(w, 52, 6))) == "8D 06"  # the book
    assert hexof(lambda w: w_int(w, -37, -100, 100)) == "3F"
    assert hexof(lambda w: w_int(w, -123456789, -(1 << 31), (1 << 31) - 1)) == "EB 32 A4 78"
    assert hexof(lambda w: w_bits(w, 1 << 32, 33)) == "00 00 00 00 01"
    assert hexof(lambda w: w_double_bits(w, f64_bits(1 / 3))) == "55 55 55 55 55 55 D5 3F"
    assert hexof(lambda w: w_string(w, "golden", 15)) == "06 67 6F 6C 64 65 6E"
    assert hexof(lambda w: w_string(w, "test", 7)) == "04 74 65 73 74"
    assert hexof(lambda w: (w_bits(w, 4, 4), w_bytes(w, b"\xab\xcd"))) == "04 AB CD"
    assert hexof(lambda w: w_quantized(w, 5.0, 0.0, 10.0, 0.01)) == "F4 01"
    q = Quantization(0.0, 10.0, 0.01)
    assert q.bits == 10 and f32_bits(q.decode(1)) == 0x3C23D70B
    q = Quantization(-100.0, 100.0, 0.01)
    assert q.bits == 15 and f32_bits(q.decode(384)) == 0xC2C051EC and f32_bits(q.decode(5743)) == 0xC22A47AE
    q = Quantization(0.0, 8388609.0, 1.0)
    assert q.bits == 24 and q.max_int == 8388609
    assert Quantization(-1000.0, 1000.0, 0.01).bits == 18


# --- output and --check ---------------------------------------------------------

ROOT = pathlib.Path(__file__).resolve().parent.parent
ROW = re.compile(r"^\|\s*`([a-z0-9_]+)`\s*\|[^|]*\|\s*(\d+)\s*\|\s*(?:`([0-9A-F ]+)`|\(empty\))\s*\|\s*$")


DECODE_ROW = re.compile(r"^\|\s*`(qdecode_[a-z0-9_]+)`\s*\|[^|]*\|\s*(\d+)\s*\|\s*`([0-9A-F ]*)`\s*\|\s*`(0x[0-9A-F]{8})`\s*\|\s*$")


def fmt(x):
    return str(int(x)) if x == int(x) else f"{x:g}"


def table():
    lines = ["| name | written | bits | bytes (hex) |", "|---|---|---|---|"]
    for name, what, fn in VECTORS:
        hx, nbits = vector_hex(fn)
        lines.append(f"| `{name}` | {what} | {nbits} | {f'`{hx}`' if hx else '(empty)'} |")
    lines += ["", "| name | [min, max] at resolution | bits | packet (hex) | decoded float32 bits |", "|---|---|---|---|---|"]
    for name, lo, hi, res, code in DECODE_VECTORS:
        hx, nbits, fbits = decode_row(lo, hi, res, code)
        lines.append(f"| `{name}` | [{fmt(lo)}, {fmt(hi)}] at {fmt(res)}, code {code} | {nbits} | `{hx}` | `{fbits}` |")
    return "\n".join(lines)


# Where each vector is tested: (vector name pattern, file under tests/, test case). --check
# looks for the vector in an assertion of that test case only.
PRIMITIVES, QUANTIZATION, QUATERNION = "core/primitives_test.cpp", "core/quantization_test.cpp", "game/quaternion_test.cpp"
TESTED_IN = [
    (r"bits_", PRIMITIVES, "serialize_bits writes the golden vectors"),
    (r"int_", PRIMITIVES, "serialize_int writes the golden vectors"),
    (r"bool_", PRIMITIVES, "serialize_bool is one bit"),
    (r"(float|double)_", PRIMITIVES, "serialize_float and serialize_double write their IEEE bits"),
    (r"quantized_", QUANTIZATION, "serialize_quantized writes the golden vectors"),
    (r"qdecode_", QUANTIZATION, "serialize_quantized decodes codes bit-exactly as the reference library does"),
    (r"align_", PRIMITIVES, "serialize_align pads with zero bits to the next byte boundary"),
    (r"bytes_", PRIMITIVES, "serialize_bytes aligns, then copies the bytes verbatim"),
    (r"string_utf8_", "core/string_test.cpp", "serialize_string writes UTF-8 text as the golden vectors"),
    (r"string_", PRIMITIVES, "serialize_string writes the golden vectors"),
    (r"raw_string_", "core/string_test.cpp", "serialize_raw_string writes any bytes as the golden vector"),
    (r"check_", PRIMITIVES, "serialize_check aligns and writes its 32-bit magic"),
    (r"relative_sequence$", "core/relative_index_test.cpp",
     "serialize_relative_index writes a sparse index set ending with the sentinel as its golden vector"),
    (r"relative_", "core/relative_index_test.cpp", "serialize_relative_index writes the golden vectors of every rung boundary"),
    # The write test checks the empty one with .empty(); the read test has its hex.
    (r"difference_two_codes$", "core/difference_ladder_test.cpp", "serialize_code_difference reads the golden vectors back"),
    (r"difference_", "core/difference_ladder_test.cpp", "serialize_code_difference writes the golden vectors"),
    (r"delta_packet_ping$", "packet/delta_packet_test.cpp", "a delta packet's golden bytes"),
    (r"delta_packet_initial$", "packet/delta_packet_test.cpp",
     "a delta packet against the initial baseline: golden bytes"),

    (r"(predicted|range)_packet_squad$", "session/predicted_packet_test.cpp",
     "a range-coded predicted packet names a container's changed elements by bits under their flags: golden bytes"),
    (r"predicted_packet_", "session/predicted_packet_test.cpp", "a predicted delta packet's golden bytes"),
    (r"range_packet_", "session/predicted_packet_test.cpp", "a range-coded predicted delta packet's golden bytes"),
    (r"delta_array_", "delta/delta_golden_test.cpp",
     "an array sends a changed bit per element or the indices of the changed ones, whichever is smaller"),
    (r"delta_smallest_three_codes_", "delta/smallest_three_codes_test.cpp",
     "smallest_three_codes: the plain and delta wires, bit by bit"),
    (r"delta_smallest_three_to_rest$", "delta/quaternion_delta_test.cpp",
     "smallest_three delta: a rotation coming to rest reads as exactly the identity"),
    (r"delta_smallest_three", "delta/quaternion_delta_test.cpp", "smallest_three delta: golden vectors"),
    (r"delta_keyed_map", "delta/keyed_golden_test.cpp",
     "maps and unordered maps send their changed, removed and added entries by key code"),
    (r"delta_keyed_unordered_map$", "delta/keyed_golden_test.cpp",
     "maps and unordered maps send their changed, removed and added entries by key code"),
    (r"delta_keyed_set$", "delta/keyed_golden_test.cpp", "a set sends its removed and added keys by key code"),
    (r"delta_keyed_vector_", "delta/keyed_golden_test.cpp",
     "a keyed vector sends its entries by key, then its order: kept, sorted or moves"),
    (r"delta_sparse_slots$", "delta/keyed_golden_test.cpp",
     "a sparse array sends the slots that appeared, disappeared or changed"),
    (r"packet_mixed$", PRIMITIVES, "a packet of many primitives writes its golden vector and reads back"),
    (r"st\d+_identity$", QUATERNION, "smallest_three sends the identity as index 3 and three middle codes"),
    (r"st\d+_halves$", QUATERNION, "smallest_three negates a quaternion whose largest component is negative"),
    (r"st9_quarter_turn$", QUATERNION, "smallest_three sends a quarter turn as its plain fields and reads it back exactly"),
    (r"st9_near_tie$", QUATERNION, "smallest_three sends a near tie as fields that write back to themselves"),
    (r"st\d+_half_turn_y$", QUATERNION, "smallest_three sends a half-turn about y as index 1"),
    (r"uq\d+_", QUATERNION, "unit_quaternion sends x, y, z quantized in [-1, 1] and the sign of w"),
    (r"uv\d+_", "game/unit_vector_test.cpp", "unit_vector sends the poles and the axes as their octahedral codes"),
]


def tested_in(name):
    for pattern, path, title in TESTED_IN:
        if re.match(pattern, name):
            return path, title
    raise KeyError(f"{name}: no test case in TESTED_IN")


# --- C++ test sources, cut into assertions -----------------------------------------
# Comments are blanked (so a vector in a comment counts for nothing), string literals
# kept; a test case's body is cut into statements at its top level.

ASSERTION = re.compile(r"\b(?:CHECK|REQUIRE|STATIC_REQUIRE|CHECK_FALSE|REQUIRE_FALSE|CHECK_THAT|REQUIRE_THAT"
                       r"|check_[a-z_]+|require_[a-z_]+)\s*\(")
TEST_CASE = re.compile(r"\b(?:TEMPLATE_)?TEST_CASE(?:_METHOD)?\s*\(")
STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def blank_comments(src):
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if literal_at(src, i):
            j = skip_literal(src, i)
            out.append(src[i:j])
            i = j
        elif src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2) + 2
            out.append(re.sub(r"[^\n]", " ", src[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def literal_at(src, i):
    """Whether a string or character literal starts at i (a ' after a digit or a name is
    a digit separator or a suffix, not a literal)."""
    return src[i] == '"' or (src[i] == "'" and not (i and (src[i - 1].isalnum() or src[i - 1] == "_")))


def skip_literal(src, i):
    """The index after the string or character literal that starts at i."""
    q, j = src[i], i + 1
    while src[j] != q:
        j += 2 if src[j] == "\\" else 1
    return j + 1


def matching(src, i):
    """The index of the bracket that closes the one at i."""
    depth = 0
    while True:
        c = src[i]
        if literal_at(src, i):
            i = skip_literal(src, i)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return i
        i += 1


def statements(body):
    """The top-level statements of a block's inside: each ends at a ';' at depth 0, or at
    the '}' of a block (after ')', else, do, try, or a bare block) that no ';' follows."""
    out, start, i, n = [], 0, 0, len(body)
    while i < n:
        c = body[i]
        if literal_at(body, i):
            i = skip_literal(body, i)
            continue
        if c in "([{":
            end = matching(body, i)
            before = body[start:i].rstrip()
            block = c == "{" and (not before or before.endswith(")") or re.search(r"\b(else|do|try)$", before))
            i = end + 1
            if block and not re.match(r"\s*[;,)]", body[i:]):
                out.append(body[start:i])
                start = i
            continue
        if c == ";":
            out.append(body[start:i + 1])
            start = i + 1
        i += 1
    out.append(body[start:])
    return [s for s in (s.strip() for s in out) if s]


def declarations(text, inside):
    """File-scope tables and constants: name = "literal" or name[] = {...}; not those
    inside string literals or inside the spans given (the test cases' bodies)."""
    skip = [m.span() for m in STRING.finditer(text)] + inside
    out = []
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*(?:\[\s*\d*\s*\]\s*)?=\s*([{\"])", text):
        if any(a <= m.start() < b for a, b in skip):
            continue
        end = matching(text, m.end() - 1) if m.group(2) == "{" else skip_literal(text, m.end() - 1) - 1
        out.append((m.group(1), text[m.start():end + 1]))
    return out


class Source:
    def __init__(self, rel):
        self.rel = rel
        self.text = blank_comments((ROOT / "tests" / rel).read_text())
        self.cases, spans = {}, []
        for m in TEST_CASE.finditer(self.text):
            close = matching(self.text, m.end() - 1)
            title = STRING.match(self.text, m.end() + len(re.match(r"\s*", self.text[m.end():]).group()))
            brace = self.text.index("{", close)
            end = matching(self.text, brace)
            self.cases[title.group(1) if title else ""] = self.text[brace + 1:end]
            spans.append((brace, end))
        self.file_scope = declarations(self.text, spans)

    def units(self, title):
        """The assertions of a test case: statements that call an assertion (looking into
        blocks: a loop's or a section's header counts when its body asserts), and tables or
        constants (of the test case, or of the file) that such a statement uses."""
        if title not in self.cases:
            return None
        asserting, named = assertions(statements(self.cases[title]))
        return asserting + [s for name, s in named + self.file_scope
                            if any(re.search(rf"\b{name}\b", a) for a in asserting)]


def block(statement):
    """(header, inside) of a statement that ends with a block (a loop, a condition, a
    section), else None."""
    if not statement.endswith("}"):
        return None
    i = 0
    while i < len(statement):
        if literal_at(statement, i):
            i = skip_literal(statement, i)
        elif statement[i] in "([{":
            end = matching(statement, i)
            if statement[i] == "{" and end == len(statement) - 1:
                return statement[:i], statement[i + 1:end]
            i = end + 1
        else:
            i += 1
    return None


def assertions(stmts):
    """(statements that assert, (name, statement) of those that declare a name)."""
    asserting, named = [], []
    for s in stmts:
        parts = block(s)
        if parts:
            inner, inner_named = assertions(statements(parts[1]))
            asserting += [parts[0]] if inner else []
            asserting += inner
            named += inner_named
        elif ASSERTION.search(s):
            asserting.append(s)
        else:
            m = re.match(r"[^={(;]*?\b([A-Za-z_]\w*)\s*(?:\[\s*\d*\s*\]\s*)?[={]", s)
            if m:
                named.append((m.group(1), s))
    return asserting, named


SOURCES = {}


def source(rel):
    if rel not in SOURCES:
        SOURCES[rel] = Source(rel)
    return SOURCES[rel]


def innermost_group(unit, at):
    """The text of the innermost bracket group of unit around position at."""
    best = unit
    for m in re.finditer(r"[({]", unit):
        if m.start() < at:
            end = matching(unit, m.start())
            if end > at:
                best = unit[m.start():end + 1]
    return best


def check_vectors(expected):
    """expected: (name, hex, extra) with extra None or a token (a decoded float's bits) that
    must stand in the same bracket group as the hex. Each vector needs an assertion of its
    own in its test case; vectors with one hex in one test case need as many."""
    problems, wanted = [], {}
    for name, hx, extra in expected:
        path, title = tested_in(name)
        wanted.setdefault((path, title, hx, extra), []).append(name)
    for (path, title, hx, extra), names in wanted.items():
        units = source(path).units(title)
        if units is None:
            problems.append(f'{", ".join(names)}: no test case "{title}" in tests/{path}')
            continue
        found = 0
        for unit in units:
            for m in STRING.finditer(unit):
                if m.group(1) == hx and (extra is None or extra.upper() in innermost_group(unit, m.start()).upper()):
                    found += 1
                    break
        if found < len(names):
            what = f'"{hx}"' + (f" with {extra}" if extra else "")
            problems.append(f'{", ".join(names)}: {found} of {len(names)} assertions of "{title}" '
                            f"(tests/{path}) check {what}")
    return problems


def check_game():
    doc = (ROOT / "docs" / "game_encodings.md").read_text()
    problems = check_vectors([(name, vector_hex(fn)[0], None) for name, _, fn, _ in GAME_VECTORS])
    for name, _, fn, in_doc in GAME_VECTORS:
        hx, _ = vector_hex(fn)
        if in_doc and f"`{hx}`" not in doc:
            problems.append(f"{name}: `{hx}` is not in docs/game_encodings.md")
    return problems


HOSTILE_GOLDEN = ("hostile/golden_test.cpp", "every packet type writes the same bytes on every host")
HOSTILE_ROW = re.compile(r'\{\s*"(\w+)",\s*(\d+),\s*(\d+),\s*0x([0-9a-fA-F]+)ull,\s*(\d+),\s*0x([0-9a-fA-F]+)ull,'
                         r'\s*0x([0-9a-fA-F]+)u\s*\}')
# (file under tests/, test case, the expression each golden is compared with, model type)
# Where the schema_hash goldens are checked: (file under tests/, test case, the expression
# each assertion compares, with {} for the type, and the types as golden_types.SCHEMA_HASHES
# names them).
PACKET_TYPE_NAMES = ["packet_test::" + n for n in ("Ping", "Join", "Chat", "Move", "Leave", "Message")]
SCHEMA_TESTS = [
    ("packet/schema_hash_test.cpp", "schema_hash gives the golden values on every compiler and platform", "h<{}>",
     ["std::uint8_t", "base::Pos", "base::Outer", "gated_by_a::Gated", "enum_base::Color", "Node"] + PACKET_TYPE_NAMES),
    ("packet/schema_hash_test.cpp", "schema_hash is a compile-time constant", "netser::schema_hash<{}>()",
     ["base::Pos", "packet_test::Message"]),
    ("packet/check_test.cpp", "the check name is part of the schema hash, so default protocol ids reject first",
     "golden", ["Sectioned"]),
    ("schema/schema_json_test.cpp", "schema_json writes enums, quantization, only_if, optionals, checks and 64-bit ranges",
     "netser::schema_hash<{}>()", ["Shot"]),
    ("delta/keyed_golden_test.cpp", "the keyed golden types hash their containers and the keyed attribute",
     "netser::schema_hash<{}>()", ["keyed_golden::" + n for n in ("Scores", "HashScores", "Tags", "Units", "Slots8")]),
]


def model():
    """tools/golden_types.py (imported here: it imports this file's primitives)."""
    import golden_types
    return golden_types


def schema_goldens():
    """(file under tests/, test case, the expression compared in the assertion, model type)."""
    return [(path, title, expression.format(name), model().SCHEMA_HASHES[name])
            for path, title, expression, names in SCHEMA_TESTS for name in names]


def check_hostile():
    """tests/hostile/golden_test.cpp holds exactly the model's rows, in the table its
    test case checks; each schema_hash golden is the model's, in its own assertion."""
    path, title = HOSTILE_GOLDEN
    units = source(path).units(title)
    if units is None:
        return [f'no test case "{title}" in tests/{path}']
    rows, problems = set(), []
    for unit in units:
        for m in HOSTILE_ROW.finditer(unit):
            t, seed, raw_bits, raw_fnv, size, fnv, schema = m.groups()
            rows.add((t, int(seed), int(raw_bits), int(raw_fnv, 16), int(size), int(fnv, 16), int(schema, 16)))
    # Every column of the rows is compared by an assertion of the test case.
    for column in ("raw_bits", "raw_fnv", "packet_bytes", "packet_fnv", "schema"):
        if not any(ASSERTION.search(u) and re.search(rf"(->|\.){column}\b", u) for u in units):
            problems.append(f'tests/{path}: no assertion of "{title}" compares the rows\' {column}')
    expected = set(model().hostile_rows())
    problems += [f"tests/{path}: row {model().format_row(r).strip()} is not the model's" for r in sorted(rows - expected)]
    problems += [f"tests/{path}: no assertion checks the model's row {model().format_row(r).strip()}"
                 for r in sorted(expected - rows)]
    for path, title, spelling, t in schema_goldens():
        units = source(path).units(title) or []
        want = model().schema_hash(t)
        pattern = re.compile(rf"\b(?:CHECK|REQUIRE|STATIC_REQUIRE)\s*\(\s*{re.escape(spelling)}\s*==\s*0x([0-9a-fA-F]+)u?\s*\)")
        got = [int(m.group(1), 16) for u in units for m in pattern.finditer(u)]
        if got != [want]:
            problems.append(f'tests/{path}, "{title}": {spelling} is checked against '
                            f"{[f'0x{g:08X}' for g in got]}, the model says 0x{want:08X}")
    return problems


def check():
    doc = (ROOT / "docs" / "wire_format.md").read_text()
    found = {}
    for line in doc.splitlines():
        m = ROW.match(line)
        if m:
            found[m.group(1)] = (int(m.group(2)), m.group(3) or "")
    problems = []
    for name, _, fn in VECTORS:
        hx, nbits = vector_hex(fn)
        if name not in found:
            problems.append(f"{name}: missing from docs/wire_format.md")
        elif found[name] != (nbits, hx):
            problems.append(f"{name}: doc says {found[name]}, model says {(nbits, hx)}")
    extra = set(found) - {name for name, _, _ in VECTORS}
    problems += [f"{name}: in docs/wire_format.md but not in the model" for name in sorted(extra)]
    problems += check_vectors([(name, vector_hex(fn)[0], None) for name, _, fn in VECTORS])
    decoded = {}
    for line in doc.splitlines():
        m = DECODE_ROW.match(line)
        if m:
            decoded[m.group(1)] = (int(m.group(2)), m.group(3), m.group(4))
    rows = []
    for name, lo, hi, res, code in DECODE_VECTORS:
        hx, nbits, fbits = decode_row(lo, hi, res, code)
        if decoded.get(name) != (nbits, hx, fbits):
            problems.append(f"{name}: doc says {decoded.get(name)}, model says {(nbits, hx, fbits)}")
        rows.append((name, hx, fbits))
    problems += check_vectors(rows)
    problems += check_game()
    problems += check_hostile()
    problems += check_delta_packets()
    for p in problems:
        print(p)
    count = len(VECTORS) + len(DECODE_VECTORS) + len(GAME_VECTORS) + len(DELTA_PACKET_VECTORS)
    print(f"{count} vectors, {len(model().hostile_rows())} hostile rows, {len(schema_goldens())} schema hashes: "
          f"{len(problems)} problems")
    return not problems


if __name__ == "__main__":
    self_test()
    game_self_test()
    model().self_test()
    if sys.argv[1:] == ["--check"]:
        sys.exit(0 if check() else 1)
    if sys.argv[1:] == ["--hostile"]:
        print("\n".join(model().format_row(r) for r in model().hostile_rows()))
    elif sys.argv[1:] == ["--delta-packets"]:
        print("\n".join(f"{name}: {what}: {fn()}" for name, what, fn, _ in DELTA_PACKET_VECTORS))
    else:
        print(game_table() if sys.argv[1:] == ["--game"] else table())
