#!/usr/bin/env python3
"""Compile-time budget: generates a translation unit of 50 annotated structs with 10
members each (every one written, read and measured), compiles it and prints the time.

    python3 tests/benchmarks/compile_budget.py [--cxx g++] [--runs 3]
"""
import argparse, os, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MEMBERS = [
    ("int", "hp", "(hp, netser::range(0, 100))"),
    ("float", "x", "(x, netser::quantize(-1000.f, 1000.f, 0.01f))"),
    ("float", "y", "(y, netser::quantize(-1000.f, 1000.f, 0.01f))"),
    ("bool", "alive", "alive"),
    ("std::uint32_t", "id", "id"),
    ("std::uint16_t", "ammo", "(ammo, netser::bits(10))"),
    ("std::int8_t", "team", "(team, netser::range(-1, 8))"),
    ("double", "t", "t"),
    ("std::string", "name", "(name, netser::max_length(16))"),
    ("std::vector<std::uint8_t>", "items", "(items, netser::max_size(8), netser::range(0, 200))"),
]


def generate(n_structs):
    out = ["#include <netser/netser.hpp>", "#include <cstdint>", "#include <string>", "#include <vector>",
           "namespace gen {"]
    for i in range(n_structs):
        fields = " ".join(f"{t} {n}{i}{{}};" for t, n, _ in MEMBERS)
        attrs = ", ".join(a.replace("(" + n + ",", f"({n}{i},") if a.startswith("(") else f"{a}{i}"
                          for _, n, a in MEMBERS)
        out.append(f"struct S{i} {{ {fields} }};")
        out.append(f"NETSER_STRUCT(S{i}, {attrs})")
    out.append("}")
    # One function per struct, as a game's code would have: write, read and measure each.
    for i in range(n_structs):
        out.append(f"bool run_{i}(gen::S{i}& v, std::byte* buf, std::size_t size) {{")
        out.append(f"    netser::write_stream w(buf, size); bool ok = netser::serialize(w, v);"
                   f" netser::read_stream r(buf, size); ok &= netser::serialize(r, v);"
                   f" netser::measure_stream m; ok &= netser::serialize(m, v); return ok;")
        out.append("}")
    return "\n".join(out) + "\n"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cxx", default="g++")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--structs", type=int, default=50)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "budget.cpp")
        with open(src, "w") as f:
            f.write(generate(args.structs))
        cmd = [args.cxx, "-std=c++20", "-O2", "-c", src, "-o", os.path.join(d, "budget.o"),
               "-I", os.path.join(ROOT, "include"), "-I", os.path.join(ROOT, "reflect")]
        times = []
        for _ in range(args.runs):
            t0 = time.monotonic()
            subprocess.run(cmd, check=True)
            times.append(time.monotonic() - t0)
    print(f"{args.structs} structs x {len(MEMBERS)} members, {args.cxx} -O2: "
          f"median {statistics.median(times):.2f} s over {args.runs} runs ({', '.join(f'{t:.2f}' for t in times)})")


if __name__ == "__main__":
    sys.exit(main())
