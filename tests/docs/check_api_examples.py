#!/usr/bin/env python3
"""Fails unless every ```cpp block of docs/api.md appears verbatim in api_examples.cpp.

Usage: check_api_examples.py DOC SOURCE

A block matches the source as it is, or with every line's first four spaces removed
(the examples inside a TEST_CASE are indented one level; the documentation quotes them
without that level). Blank lines and relative indentation must match exactly.
"""
import re
import sys


def blocks(doc):
    """(line number, text) of every ```cpp block."""
    out, block, start = [], None, 0
    for number, line in enumerate(doc.splitlines(), 1):
        if block is None:
            if line.strip() == "```cpp":
                block, start = [], number
        elif line.strip() == "```":
            out.append((start, "\n".join(block) + "\n"))
            block = None
        else:
            block.append(line)
    if block is not None:
        sys.exit(f"unterminated ```cpp block at line {start}")
    return out


def main():
    doc_path, source_path = sys.argv[1], sys.argv[2]
    with open(doc_path, encoding="utf-8") as f:
        doc = f.read()
    with open(source_path, encoding="utf-8") as f:
        source = f.read()
    dedented = re.sub(r"(?m)^    ", "", source)
    found = blocks(doc)
    if not found:
        sys.exit(f"{doc_path}: no ```cpp block")
    missing = [(n, b) for n, b in found if b not in source and b not in dedented]
    for n, b in missing:
        print(f"{doc_path}:{n}: this cpp block is not in {source_path}:\n{b}", file=sys.stderr)
    if missing:
        sys.exit(f"{len(missing)} of {len(found)} cpp blocks are not in {source_path}")
    print(f"{len(found)} cpp blocks of {doc_path} found verbatim in {source_path}")


if __name__ == "__main__":
    main()
