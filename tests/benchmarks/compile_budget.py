#!/usr/bin/env python3
"""Compile-time budget: generates translation units of 50 annotated structs with 10
members each, in two shapes, compiles them and prints the CPU time.

  per-struct    one function per struct writes, reads and measures it (strings, vectors,
                integers, quantized floats...), as a game's code would have;
  one-function  one function writes, reads and measures all 50 structs, which have
                described enums, optionals, common values, strings and vectors.

    python3 tests/benchmarks/compile_budget.py [--cxx g++] [--shape per-struct] [--runs 3]
    python3 tests/benchmarks/compile_budget.py --compare [--cxx g++,clang++-14] [--against OLD_TREE] [--instructions]

--compare compiles, for each compiler and shape, the NETSER_STRUCT file and the same
structs with hand-written serialize functions in turn (and, with --against, the
NETSER_STRUCT file against another checkout's headers too), so that a busy machine slows
every variant alike, and prints each one's ratio to its hand-written file (the
NETSER_STRUCT file is also compiled on <netser/reflect.hpp> instead of the umbrella
header, the header for a file that only describes and serializes; --header reflect.hpp
makes it the judged one). It fails
(exit 1) when a ratio is above --budget (1.25). With --instructions it counts each
compile's instructions under callgrind once instead of timing --runs compiles: the
ratios then repeat to the last digit on a busy machine (the whole comparison takes
about 40 minutes with both compilers; --cxx clang++-14 or --shape per-struct halve it).

    python3 tests/benchmarks/compile_budget.py --stages [--structs 10] [--instructions]

--stages shows where the difference goes: the hand-written file; the same with
<netser/netser.hpp> included instead of <netser/core.hpp> (the headers); the structs
described by NETSER_STRUCT and never serialized (descriptions and their per-member
checks); the whole NETSER_STRUCT file (the walks). --instructions counts the compiler's
instructions under valgrind (callgrind, children included) instead of timing it: they
repeat exactly on a busy machine, but take about 20 times as long (use --structs 10).

    python3 tests/benchmarks/compile_budget.py --project [--files 20] [--per-file 3] [--runs 3]

--project builds a game's worth of files: --files sources that each include one header
of --structs message types (the one-function members) and serialize --per-file of them,
in four ways (hand-written; header-only; NETSER_EXTERN with the descriptions in the
header; NETSER_EXTERN with the descriptions in messages.cpp), compiled one by one, linked
and run, and prints the whole build's CPU time. It fails when the last way is above
--budget times the hand-written build (the others are reported). --shape and --header do
not apply: the header is <netser/reflect.hpp> and the members the one-function ones.
"""
import argparse, os, re, resource, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHAPES = ("per-struct", "one-function")

# ---- the shapes' structs: (type, name, NETSER_STRUCT entry, hand-written serialize) ----

PER_STRUCT = [
    ("int", "hp", "(hp, netser::range(0, 100 + {i}))", "netser::serialize_int(s, v.hp{i}, 0, 100 + {i})"),
    ("float", "x", "(x, netser::quantize(-1000.f - {i}, 1000.f, 0.01f))",
     "netser::serialize_quantized(s, v.x{i}, -1000.f - {i}, 1000.f, 0.01f)"),
    ("float", "y", "(y, netser::quantize(-1000.f, 1000.f + {i}, 0.01f))",
     "netser::serialize_quantized(s, v.y{i}, -1000.f, 1000.f + {i}, 0.01f)"),
    ("bool", "alive", "alive", "netser::serialize_bool(s, v.alive{i})"),
    ("std::uint32_t", "id", "id", "netser::serialize_bits(s, v.id{i}, 32)"),
    ("std::uint16_t", "ammo", "(ammo, netser::bits(10))", "netser::serialize_bits(s, v.ammo{i}, 10)"),
    ("std::int8_t", "team", "(team, netser::range(-1, 8))", "netser::serialize_int(s, v.team{i}, -1, 8)"),
    ("double", "t", "t", "netser::serialize_double(s, v.t{i})"),
    ("std::string", "name", "(name, netser::max_length(16 + {i}))",
     "netser::serialize_string(s, v.name{i}, 16 + {i})"),
    ("std::vector<std::uint8_t>", "items", "(items, netser::max_size(8), netser::range(0, 200 + {i} % 50))",
     "serialize_items<200 + {i} % 50>(s, v.items{i})"),
]

ONE_FUNCTION = [
    ("Kind{i}", "kind", "kind", "serialize_enum<4>(s, v.kind{i})"),
    ("int", "hp", "(hp, netser::range(0, 100 + {i}), netser::common(100))",
     "serialize_common_int<100, 100 + {i}>(s, v.hp{i})"),
    ("float", "x", "(x, netser::quantize(-1000.f - {i}, 1000.f, 0.01f))",
     "netser::serialize_quantized(s, v.x{i}, -1000.f - {i}, 1000.f, 0.01f)"),
    ("float", "speed", "(speed, netser::quantize(0.f, 20.f + {i}, 0.01f), netser::common(0.f))",
     "serialize_common_quantized(s, v.speed{i}, 0.f, 20.f + {i}, 0.01f)"),
    ("bool", "alive", "alive", "netser::serialize_bool(s, v.alive{i})"),
    ("std::uint32_t", "id", "id", "netser::serialize_bits(s, v.id{i}, 32)"),
    ("std::optional<int>", "target", "(target, netser::range(0, 63 + {i}))",
     "serialize_optional_int<63 + {i}>(s, v.target{i})"),
    ("std::uint16_t", "ammo", "(ammo, netser::bits(10))", "netser::serialize_bits(s, v.ammo{i}, 10)"),
    ("std::string", "name", "(name, netser::max_length(16 + {i}))",
     "netser::serialize_string(s, v.name{i}, 16 + {i})"),
    ("std::vector<std::uint8_t>", "items", "(items, netser::max_size(8), netser::range(0, 200 + {i} % 50))",
     "serialize_items<200 + {i} % 50>(s, v.items{i})"),
]

MEMBERS = {"per-struct": PER_STRUCT, "one-function": ONE_FUNCTION}
ENUMERATORS = "idle, walk, run, jump, fall"  # one described enum per struct (one-function)

def headers(shape):
    return ["#include <cstdint>"] + (["#include <optional>"] if shape == "one-function" else []) + [
        "#include <string>", "#include <vector>"]

# What a hand-written file has once, shared by its structs (per shape).
ITEMS_HELPER = [
    "template <int Max, netser::stream S> bool serialize_items(S& s, std::vector<std::uint8_t>& items) {",
    "    std::uint32_t n = static_cast<std::uint32_t>(items.size());",
    "    if (!netser::serialize_int(s, n, 0u, 8u)) return false;",
    "    if constexpr (S::is_reading) items.resize(n);",
    "    for (auto& e : items) if (!netser::serialize_int(s, e, 0, Max)) return false;",
    "    return true;",
    "}",
]
ONE_FUNCTION_HELPERS = [
    "template <int Max, class E, netser::stream S> bool serialize_enum(S& s, E& e) {",
    "    int v = static_cast<int>(e);",
    "    if (!netser::serialize_int(s, v, 0, Max)) return false;",
    "    e = static_cast<E>(v);",
    "    return true;",
    "}",
    "template <int Common, int Max, netser::stream S> bool serialize_common_int(S& s, int& v) {",
    "    bool common = v == Common;",
    "    if (!netser::serialize_bool(s, common)) return false;",
    "    if (common) { v = Common; return true; }",
    "    return netser::serialize_int(s, v, 0, Max);",
    "}",
    "template <netser::stream S> bool serialize_common_quantized(S& s, float& v, float min, float max, float res) {",
    "    bool common = v == 0.f;",
    "    if (!netser::serialize_bool(s, common)) return false;",
    "    if (common) { v = 0.f; return true; }",
    "    return netser::serialize_quantized(s, v, min, max, res);",
    "}",
    "template <int Max, netser::stream S> bool serialize_optional_int(S& s, std::optional<int>& v) {",
    "    bool has = v.has_value();",
    "    if (!netser::serialize_bool(s, has)) return false;",
    "    if (!has) { v.reset(); return true; }",
    "    if constexpr (S::is_reading) v.emplace();",
    "    return netser::serialize_int(s, *v, 0, Max);",
    "}",
]


def struct_fields(members, i):
    return " ".join(f"{t.format(i=i)} {n}{i}{{}};" for t, n, _, _ in members)


def netser_entry(name, attr, i):
    if attr.startswith("("):
        return attr.replace("(" + name + ",", f"({name}{i},").format(i=i)
    return f"{attr}{i}"


def run_functions(shape, n_structs, call, indices=None):
    """The functions that write, read and measure the structs; call is the serialize call
    (per-struct: those of the structs in indices, by default all)."""
    out = []
    if shape == "per-struct":
        # One function per struct, as a game's code would have: write, read and measure each.
        for i in indices if indices is not None else range(n_structs):
            out.append(f"bool run_{i}(gen::S{i}& v, std::byte* buf, std::size_t size) {{")
            out.append(f"    netser::write_stream w(buf, size); bool ok = {call}(w, v);"
                       f" netser::read_stream r(buf, size); ok &= {call}(r, v);"
                       f" netser::measure_stream m; ok &= {call}(m, v); return ok;")
            out.append("}")
    else:
        # One function for all of them: a snapshot of every kind of entity.
        out.append("struct world {")
        out.extend(f"    gen::S{i} s{i};" for i in range(n_structs))
        out.append("};")
        out.append("bool run_all(world& v, std::byte* buf, std::size_t size) {")
        out.append("    bool ok = true;")
        for stream, decl in (("w", "netser::write_stream w(buf, size);"), ("r", "netser::read_stream r(buf, size);"),
                             ("m", "netser::measure_stream m;")):
            out.append(f"    {{ {decl}")
            out.extend(f"      ok &= {call}({stream}, v.s{i});" for i in range(n_structs))
            out.append("    }")
        out.append("    return ok;")
        out.append("}")
    return out


def described_structs(n_structs, shape, include="<netser/netser.hpp>", extern=False, describe=True):
    """The structs described by NETSER_STRUCT (enums by BOOST_DEFINE_ENUM_CLASS), each
    followed by NETSER_EXTERN with extern (without describe: the structs, enums and
    NETSER_EXTERN only)."""
    members = MEMBERS[shape]
    out = [f"#include {include}"] + headers(shape) + ["namespace gen {"]
    for i in range(n_structs):
        if shape == "one-function" and describe:
            out.append(f"BOOST_DEFINE_ENUM_CLASS(Kind{i}, {ENUMERATORS})")
        elif shape == "one-function":
            out.append(f"enum class Kind{i} {{ {ENUMERATORS} }};")  # described with its struct
        out.append(f"struct S{i} {{ {struct_fields(members, i)} }};")
        if describe:
            out.append(netser_struct(members, i))
        if extern:
            out.append(f"NETSER_EXTERN(S{i});")
    out.append("}")
    return out


def netser_struct(members, i):
    return f"NETSER_STRUCT(S{i}, {', '.join(netser_entry(n, a, i) for _, n, a, _ in members)})"


def hand_structs(n_structs, shape):
    """The same structs with hand-written unified serialize functions."""
    members = MEMBERS[shape]
    out = ["#include <netser/core.hpp>"] + headers(shape) + ["namespace gen {"] + ITEMS_HELPER
    if shape == "one-function":
        out += ONE_FUNCTION_HELPERS
    for i in range(n_structs):
        if shape == "one-function":
            out.append(f"enum class Kind{i} {{ {ENUMERATORS} }};")
        out.append(f"struct S{i} {{ {struct_fields(members, i)} }};")
        body = " && ".join(h.format(i=i) for _, _, _, h in members)
        out.append(f"template <netser::stream S> bool serialize(S& s, S{i}& v) {{ return {body}; }}")
    out.append("}")
    return out


def generate(n_structs, shape="per-struct", header="<netser/netser.hpp>"):
    """One file: the described structs (including header) and the functions that serialize them."""
    return "\n".join(described_structs(n_structs, shape, header) +
                     run_functions(shape, n_structs, "netser::serialize")) + "\n"


def generate_hand(n_structs, shape="per-struct"):
    """The same structs with hand-written unified serialize functions, for comparison."""
    return "\n".join(hand_structs(n_structs, shape) + run_functions(shape, n_structs, "serialize")) + "\n"


# ---- --project: a game's build, many source files including the same message header ----

PROJECT_VARIANTS = ("hand-written", "header-only", "instantiated", "described in .cpp")


def project_sources(kind, n_structs, n_files, per_file, shape="one-function"):
    """{file name: text}: messages.hpp with the n_structs message types; n_files sources that
    each include it and write, read and measure per_file of them (every type used at least
    once when n_files * per_file >= n_structs); main.cpp calls them all, so that the link
    checks every function is defined. instantiated: messages.hpp declares each type's
    serialize code (NETSER_EXTERN) and messages.cpp compiles it once (NETSER_INSTANTIATE);
    described in .cpp: the same with the descriptions (NETSER_STRUCT, BOOST_DESCRIBE_ENUM)
    in messages.cpp, messages.hpp holding plain C++ and NETSER_EXTERN."""
    extern = kind in ("instantiated", "described in .cpp")
    if kind == "hand-written":
        header, call = hand_structs(n_structs, shape), "serialize"
    else:
        # A message header needs <netser/reflect.hpp> (NETSER_STRUCT, the attributes, serialize).
        header = described_structs(n_structs, shape, "<netser/reflect.hpp>", extern, kind != "described in .cpp")
        call = "netser::serialize"
    files = {"messages.hpp": "\n".join(["#pragma once"] + header) + "\n"}
    used = []
    for k in range(n_files):
        indices = list(dict.fromkeys((k * per_file + j) % n_structs for j in range(per_file)))
        used.append(indices)
        files[f"source{k}.cpp"] = "\n".join(['#include "messages.hpp"', f"namespace f{k} {{"] +
                                             run_functions("per-struct", n_structs, call, indices) + ["}"]) + "\n"
    if extern:
        described = kind == "described in .cpp"
        files["messages.cpp"] = "\n".join(
            ['#include "messages.hpp"', "namespace gen {"] +
            [line for i in range(n_structs)
             for line in ([f"BOOST_DESCRIBE_ENUM(Kind{i}, {ENUMERATORS})"] if described and shape == "one-function" else []) +
             ([netser_struct(MEMBERS[shape], i)] if described else []) + [f"NETSER_INSTANTIATE(S{i})"]] +
            ["}"]) + "\n"
    main = ['#include "messages.hpp"']
    main += [f"namespace f{k} {{ bool run_{i}(gen::S{i}& v, std::byte* buf, std::size_t size); }}"
             for k, u in enumerate(used) for i in u]
    main.append("int main() {")
    main.append("    static std::byte buf[4096]; bool ok = true;")
    main += [f"    {{ gen::S{i} v{{}}; ok &= f{k}::run_{i}(v, buf, sizeof buf); }}" for k, u in enumerate(used) for i in u]
    main.append("    return ok ? 0 : 1;")
    main.append("}")
    files["main.cpp"] = "\n".join(main) + "\n"
    return files


def compile_command(cxx, src, out, root):
    return [cxx, "-std=c++20", "-O2", "-c", src, "-o", out,
            "-I", os.path.join(root, "include"), "-I", os.path.join(root, "reflect")]


def compile_seconds(cxx, src, out, root):
    """CPU (user) seconds of one compile: the figure to quote on a shared machine."""
    t0 = time.monotonic()
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    subprocess.run(compile_command(cxx, src, out, root), check=True)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - c0, time.monotonic() - t0


def compile_instructions(cxx, src, out, root, tmp):
    """Instructions (millions) of one compile under callgrind, the compiler's children
    (g++'s cc1plus) included: the same count on every run."""
    # One log per process (%p): g++'s driver and its cc1plus would overwrite one file.
    log = os.path.join(tmp, "callgrind.log.%p")
    cmd = ["valgrind", "--tool=callgrind", "--trace-children=yes", f"--log-file={log}",
           "--callgrind-out-file=" + os.path.join(tmp, "callgrind.%p")] + compile_command(cxx, src, out, root)
    subprocess.run(cmd, check=True)
    total = 0
    for name in os.listdir(tmp):
        if name.startswith("callgrind.log."):
            with open(os.path.join(tmp, name)) as f:
                total += sum(int(n.replace(",", "")) for n in re.findall(r"Collected : ([\d,]+)", f.read()))
    for name in os.listdir(tmp):
        if name.startswith("callgrind."):
            os.remove(os.path.join(tmp, name))
    return total / 1e6


def stage_sources(n_structs, shape, header):
    """The stages of --stages: (name, source), each adding one part of the reflected file."""
    hand = generate_hand(n_structs, shape)
    full = generate(n_structs, shape, header)
    # The described structs with the hand-written functions doing the work.
    hand_run = "\n".join(run_functions(shape, n_structs, "serialize"))
    described = full[:full.index("}\n" + "\n".join(run_functions(shape, n_structs, "netser::serialize")))]
    functions = [line for line in hand[:hand.index("}\n" + hand_run)].split("\n")
                 if not line.startswith(("#include", "namespace", "struct ", "enum "))]
    both = "\n".join([described.rstrip("\n")] + functions + ["}", hand_run]) + "\n"
    return [
        ("hand-written", hand),
        (f"hand-written, {header[8:-1]}", hand.replace("#include <netser/core.hpp>", f"#include {header}", 1)),
        (f"hand-written, {header[8:-1]}, NETSER_STRUCT", both),
        ("NETSER_STRUCT file (netser::serialize)", full),
    ]


def run_stages(args, cxxs, shapes, d):
    out = os.path.join(d, "stage.o")
    measure = (lambda c, src: compile_instructions(c, src, out, ROOT, d)) if args.instructions else (
        lambda c, src: compile_seconds(c, src, out, ROOT)[0])
    unit = "M instructions" if args.instructions else "s CPU"
    for c in cxxs:
        for s in shapes:
            files = []
            for i, (name, text) in enumerate(stage_sources(args.structs, s, args.header)):
                path = os.path.join(d, f"stage{i}-{s}.cpp")
                with open(path, "w") as f:
                    f.write(text)
                files.append((name, path))
            results = {name: [] for name, _ in files}
            for _ in range(args.runs):
                for name, path in files:
                    results[name].append(measure(c, path))
            base = previous = statistics.median(results[files[0][0]])
            print(f"{s}, {args.structs} structs, {c} -O2 (median of {args.runs}, in turn):")
            for name, _ in files:
                m = statistics.median(results[name])
                print(f"  {name:40} {m:10.2f} {unit}  {m / base:5.2f}x hand-written  (+{m - previous:.2f})")
                previous = m


def build_project(cxx, files, d, root):
    """Compiles every source of a project one after the other, links them and runs the
    program: {file: CPU seconds} (the link under "link")."""
    for name, text in files.items():
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
    cpu, objects = {}, []
    for name in sorted(files):
        if name.endswith(".cpp"):
            obj = os.path.join(d, name[:-4] + ".o")
            cpu[name] = compile_seconds(cxx, os.path.join(d, name), obj, root)[0]
            objects.append(obj)
    exe = os.path.join(d, "game")
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    subprocess.run([cxx, "-o", exe] + objects, check=True)
    cpu["link"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - c0
    subprocess.run([exe], check=True)  # every type written, read back and measured
    return cpu


def run_project(args, cxxs, d):
    """--project: the whole build of each variant, in turn, for each compiler."""
    totals = {(c, v): [] for c in cxxs for v in PROJECT_VARIANTS}
    parts = {(c, v): [] for c in cxxs for v in PROJECT_VARIANTS}
    for _ in range(args.runs):
        for c in cxxs:
            for v in PROJECT_VARIANTS:
                sub = os.path.join(d, f"{os.path.basename(c)}-{v}")
                os.makedirs(sub, exist_ok=True)
                cpu = build_project(c, project_sources(v, args.structs, args.files, args.per_file), sub, ROOT)
                totals[c, v].append(sum(cpu.values()))
                parts[c, v].append(cpu)
    over = False
    print(f"{args.files} source files, each including {args.structs} message types x "
          f"{len(MEMBERS['one-function'])} members and serializing {args.per_file} of them; "
          f"whole build CPU seconds (-O2, compiled one by one), median of {args.runs} runs in turn:")
    for c in cxxs:
        base = statistics.median(totals[c, "hand-written"])
        for v in PROJECT_VARIANTS:
            m = statistics.median(totals[c, v])
            per_source = statistics.median(statistics.mean(p[f"source{k}.cpp"] for k in range(args.files))
                                           for p in parts[c, v])
            extra = ""
            if "messages.cpp" in parts[c, v][0]:
                extra = f", messages.cpp {statistics.median(p['messages.cpp'] for p in parts[c, v]):.2f} s"
            over |= v == "described in .cpp" and m / base > args.budget
            print(f"  {c:12} {v:18} {m:7.2f} s  {m / base:5.2f}x hand-written  "
                  f"(a source file {per_source:.3f} s{extra})")
    return 1 if over else 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cxx", default=None, help="compiler(s), comma-separated (--compare: g++,clang++-14)")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--structs", type=int, default=50)
    p.add_argument("--shape", choices=SHAPES + ("both",), default=None,
                   help="per-struct, one-function or both (--compare: both; else per-struct)")
    p.add_argument("--hand", action="store_true", help="hand-written serialize functions instead (baseline)")
    p.add_argument("--compare", action="store_true", help="NETSER_STRUCT and hand-written, compiled in turn")
    p.add_argument("--against", metavar="TREE", help="with --compare: also another netser checkout's headers")
    p.add_argument("--budget", type=float, default=1.25,
                   help="with --compare (the NETSER_STRUCT file) or --project (the descriptions in messages.cpp): "
                        "the largest ratio to hand-written that passes")
    p.add_argument("--stages", action="store_true", help="where the difference goes: headers, descriptions, walks")
    p.add_argument("--instructions", action="store_true",
                   help="with --stages or --compare: callgrind instruction counts (one run: they repeat)")
    p.add_argument("--header", default="netser.hpp",
                   help="the header the NETSER_STRUCT file includes: netser.hpp (everything) or reflect.hpp "
                        "(NETSER_STRUCT and serialize only)")
    p.add_argument("--project", action="store_true",
                   help="a game's build: --files sources including --structs types, hand-written / header-only "
                        "/ instantiated (NETSER_EXTERN)")
    p.add_argument("--files", type=int, default=20, help="with --project: source files")
    p.add_argument("--per-file", type=int, default=3, help="with --project: types each source serializes")
    args = p.parse_args()
    args.header = f"<netser/{args.header}>"
    several = args.compare or args.stages or args.project
    cxxs = (args.cxx or ("g++,clang++-14" if several else "g++")).split(",")
    shape = args.shape or ("both" if several else "per-struct")
    shapes = SHAPES if shape == "both" else (shape,)
    with tempfile.TemporaryDirectory() as d:
        if args.stages:
            run_stages(args, cxxs, shapes, d)
            return 0
        if args.project:
            return run_project(args, cxxs, d)
        out = os.path.join(d, "budget.o")
        sources = {}
        for s in shapes:
            sources[s, "NETSER_STRUCT"] = os.path.join(d, f"{s}-netser.cpp")
            sources[s, "hand-written"] = os.path.join(d, f"{s}-hand.cpp")
            with open(sources[s, "NETSER_STRUCT"], "w") as f:
                f.write(generate(args.structs, s, args.header))
            with open(sources[s, "hand-written"], "w") as f:
                f.write(generate_hand(args.structs, s))
            # The same NETSER_STRUCT file on <netser/reflect.hpp>, the header for a file
            # that only describes and serializes (netser.hpp adds packets, delta, schema...).
            sources[s, "reflect.hpp"] = os.path.join(d, f"{s}-netser-reflect.cpp")
            with open(sources[s, "reflect.hpp"], "w") as f:
                f.write(generate(args.structs, s, "<netser/reflect.hpp>"))
        if args.compare:
            variants = [("NETSER_STRUCT", "NETSER_STRUCT", ROOT), ("hand-written", "hand-written", ROOT)]
            if args.header != "<netser/reflect.hpp>":
                variants.insert(1, ("NETSER_STRUCT, reflect.hpp", "reflect.hpp", ROOT))
            if args.against:
                variants.insert(1, (f"NETSER_STRUCT, {args.against}", "NETSER_STRUCT", os.path.abspath(args.against)))
            # Instruction counts are the same on every run: one run each, and the ratios
            # hold on a noisy machine, where CPU seconds swing by a tenth or more.
            runs = 1 if args.instructions else args.runs
            cost = {(c, s, name): [] for c in cxxs for s in shapes for name, _, _ in variants}
            for _ in range(runs):
                for c in cxxs:
                    for s in shapes:
                        for name, kind, root in variants:
                            if args.instructions:
                                cost[c, s, name].append(compile_instructions(c, sources[s, kind], out, root, d))
                            else:
                                cost[c, s, name].append(compile_seconds(c, sources[s, kind], out, root)[0])
            over = False
            for c in cxxs:
                for s in shapes:
                    base = statistics.median(cost[c, s, "hand-written"])
                    for name, _, _ in variants:
                        m = statistics.median(cost[c, s, name])
                        ratio = m / base
                        over |= name == "NETSER_STRUCT" and ratio > args.budget
                        figure = (f"{m:,.0f} M instructions (callgrind)" if args.instructions else
                                  f"median {m:.2f} s CPU over {runs} runs in turn")
                        print(f"{s:12} {args.structs} structs x {len(MEMBERS[s])} members ({name}), {c} -O2: "
                              f"{figure}, {ratio:.2f}x hand-written")
            return 1 if over else 0
        kind = "hand-written" if args.hand else "NETSER_STRUCT"
        for c in cxxs:
            for s in shapes:
                times, cpu = [], []
                for _ in range(args.runs):
                    t_cpu, t_wall = compile_seconds(c, sources[s, kind], out, ROOT)
                    cpu.append(t_cpu)
                    times.append(t_wall)
                print(f"{s:12} {args.structs} structs x {len(MEMBERS[s])} members ({kind}), {c} -O2: "
                      f"median {statistics.median(cpu):.2f} s CPU, {statistics.median(times):.2f} s wall over "
                      f"{args.runs} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
