#!/usr/bin/env python3
"""Compile-time budget: generates a translation unit of 50 annotated structs with 10
members each (every one written, read and measured), compiles it and prints the time.

    python3 tests/benchmarks/compile_budget.py [--cxx g++] [--runs 3]
    python3 tests/benchmarks/compile_budget.py --compare [--against OLD_TREE]

--compare compiles the NETSER_STRUCT file and the hand-written one in turn (and, with
--against, the NETSER_STRUCT file against another checkout's headers too), so that a
busy machine slows every variant alike: use it to compare.
"""
import argparse, os, resource, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MEMBERS = [
    ("int", "hp", "(hp, netser::range(0, 100 + {i}))"),
    ("float", "x", "(x, netser::quantize(-1000.f - {i}, 1000.f, 0.01f))"),
    ("float", "y", "(y, netser::quantize(-1000.f, 1000.f + {i}, 0.01f))"),
    ("bool", "alive", "alive"),
    ("std::uint32_t", "id", "id"),
    ("std::uint16_t", "ammo", "(ammo, netser::bits(10))"),
    ("std::int8_t", "team", "(team, netser::range(-1, 8))"),
    ("double", "t", "t"),
    ("std::string", "name", "(name, netser::max_length(16 + {i}))"),
    ("std::vector<std::uint8_t>", "items", "(items, netser::max_size(8), netser::range(0, 200 + {i} % 50))"),
]


def generate(n_structs):
    out = ["#include <netser/netser.hpp>", "#include <cstdint>", "#include <string>", "#include <vector>",
           "namespace gen {"]
    for i in range(n_structs):
        fields = " ".join(f"{t} {n}{i}{{}};" for t, n, _ in MEMBERS)
        attrs = ", ".join(a.replace("(" + n + ",", f"({n}{i},").format(i=i) if a.startswith("(") else f"{a}{i}"
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


HAND = {
    "hp": "netser::serialize_int(s, v.hp{i}, 0, 100 + {i})",
    "x": "netser::serialize_quantized(s, v.x{i}, -1000.f - {i}, 1000.f, 0.01f)",
    "y": "netser::serialize_quantized(s, v.y{i}, -1000.f, 1000.f + {i}, 0.01f)",
    "alive": "netser::serialize_bool(s, v.alive{i})",
    "id": "netser::serialize_bits(s, v.id{i}, 32)",
    "ammo": "netser::serialize_bits(s, v.ammo{i}, 10)",
    "team": "netser::serialize_int(s, v.team{i}, -1, 8)",
    "t": "netser::serialize_double(s, v.t{i})",
    "name": "netser::serialize_string(s, v.name{i}, 16 + {i})",
    "items": "serialize_items<200 + {i} % 50>(s, v.items{i})",
}


def generate_hand(n_structs):
    """The same structs with hand-written unified serialize functions, for comparison."""
    out = ["#include <netser/core.hpp>", "#include <cstdint>", "#include <string>", "#include <vector>",
           "namespace gen {",
           "template <int Max, netser::stream S> bool serialize_items(S& s, std::vector<std::uint8_t>& items) {",
           "    std::uint32_t n = static_cast<std::uint32_t>(items.size());",
           "    if (!netser::serialize_int(s, n, 0u, 8u)) return false;",
           "    if constexpr (S::is_reading) items.resize(n);",
           "    for (auto& e : items) if (!netser::serialize_int(s, e, 0, Max)) return false;",
           "    return true;", "}"]
    for i in range(n_structs):
        fields = " ".join(f"{t} {n}{i}{{}};" for t, n, _ in MEMBERS)
        out.append(f"struct S{i} {{ {fields} }};")
        body = " && ".join(HAND[n].format(i=i) for _, n, _ in MEMBERS)
        out.append(f"template <netser::stream S> bool serialize(S& s, S{i}& v) {{ return {body}; }}")
    out.append("}")
    for i in range(n_structs):
        out.append(f"bool run_{i}(gen::S{i}& v, std::byte* buf, std::size_t size) {{")
        out.append(f"    netser::write_stream w(buf, size); bool ok = serialize(w, v);"
                   f" netser::read_stream r(buf, size); ok &= serialize(r, v);"
                   f" netser::measure_stream m; ok &= serialize(m, v); return ok;")
        out.append("}")
    return "\n".join(out) + "\n"


def compile_seconds(cxx, src, out, root):
    """CPU (user) seconds of one compile: the figure to quote on a shared machine."""
    cmd = [cxx, "-std=c++20", "-O2", "-c", src, "-o", out,
           "-I", os.path.join(root, "include"), "-I", os.path.join(root, "reflect")]
    t0 = time.monotonic()
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    subprocess.run(cmd, check=True)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - c0, time.monotonic() - t0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cxx", default="g++")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--structs", type=int, default=50)
    p.add_argument("--hand", action="store_true", help="hand-written serialize functions instead (baseline)")
    p.add_argument("--compare", action="store_true", help="NETSER_STRUCT and hand-written, compiled in turn")
    p.add_argument("--against", metavar="TREE", help="with --compare: also another netser checkout's headers")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as d:
        reflected, hand = os.path.join(d, "budget.cpp"), os.path.join(d, "hand.cpp")
        with open(reflected, "w") as f:
            f.write(generate(args.structs))
        with open(hand, "w") as f:
            f.write(generate_hand(args.structs))
        out = os.path.join(d, "budget.o")
        if args.compare:
            variants = [("NETSER_STRUCT", reflected, ROOT), ("hand-written", hand, ROOT)]
            if args.against:
                variants.insert(1, (f"NETSER_STRUCT, {args.against}", reflected, os.path.abspath(args.against)))
            cpu = {name: [] for name, _, _ in variants}
            for _ in range(args.runs):
                for name, src, root in variants:
                    cpu[name].append(compile_seconds(args.cxx, src, out, root)[0])
            base = statistics.median(cpu["hand-written"])
            for name, _, _ in variants:
                m = statistics.median(cpu[name])
                print(f"{args.structs} structs x {len(MEMBERS)} members ({name}), {args.cxx} -O2: median {m:.2f} s CPU "
                      f"over {args.runs} runs in turn, {m / base:.2f}x hand-written")
            return
        times, cpu = [], []
        for _ in range(args.runs):
            c, t = compile_seconds(args.cxx, hand if args.hand else reflected, out, ROOT)
            cpu.append(c)
            times.append(t)
    kind = "hand-written" if args.hand else "NETSER_STRUCT"
    print(f"{args.structs} structs x {len(MEMBERS)} members ({kind}), {args.cxx} -O2: "
          f"median {statistics.median(cpu):.2f} s CPU, {statistics.median(times):.2f} s wall over {args.runs} runs")


if __name__ == "__main__":
    sys.exit(main())
