#!/usr/bin/env python3
"""Structural figures of the watts source tree (issue 34): the largest files, the `_ =>`
arms of matches over `InstKind`, the string literals naming C library functions outside
`ir::lib` and `frontend`, and `"main"` looked up by name.

Usage: python3 benches/structure.py [--list]   (from the repository root)
The C library's names are those `nm -D` lists for this machine's libc and libm, and the
verifier functions (`__VERIFIER_*`, `reach_error`, ...)."""
import os, re, subprocess, sys

LIBS = ["/lib/x86_64-linux-gnu/libc.so.6", "/lib/x86_64-linux-gnu/libm.so.6"]
EXTRA = {"reach_error", "assume_abort_if_not"}

def library_names():
    names = set(EXTRA)
    for lib in LIBS:
        out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3:
                names.add(parts[2].split("@")[0])
    return names

def sources(root="src"):
    for d, _, fs in os.walk(root):
        for f in fs:
            if f.endswith(".rs"):
                yield os.path.join(d, f)

def code_of(path, text):
    """The text without its trailing unit-test module, and empty for tests.rs/testing.rs."""
    if path.endswith("/tests.rs") or path.endswith("/testing.rs"):
        return ""
    lines = text.split("\n")
    for i, l in enumerate(lines):
        if l.strip() == "#[cfg(test)]" and i + 1 < len(lines) and lines[i + 1].lstrip().startswith("mod ") and lines[i + 1].rstrip().endswith("{"):
            return "\n".join(lines[:i])
    return text

def strip_comments(line):
    # Good enough for this code base: `//` outside a string literal.
    out, in_str, i = [], False, 0
    while i < len(line):
        c = line[i]
        if in_str:
            if c == "\\":
                out.append(line[i:i + 2]); i += 2; continue
            if c == '"':
                in_str = False
        else:
            if line.startswith("//", i):
                break
            if c == '"':
                in_str = True
        out.append(c); i += 1
    return "".join(out)

def matches(text):
    """(start line, body) of every `match ... {` block, by brace counting."""
    out = []
    for m in re.finditer(r"\bmatch\b[^{;]*\{", text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            if text[i] == "{": depth += 1
            elif text[i] == "}": depth -= 1
            i += 1
        out.append((text.count("\n", 0, m.start()) + 1, text[m.end():i - 1]))
    return out

def top_level_arms(body):
    """Arm patterns at depth 0 of a match body (lines that start an arm)."""
    arms, depth, start = [], 0, 0
    for i, c in enumerate(body):
        if c in "({[": depth += 1
        elif c in ")}]": depth -= 1
        elif c == "=" and depth == 0 and body[i:i + 2] == "=>":
            arms.append(body[start:i].strip().split("\n")[-1].strip())
        elif c in ",}" and depth == 0:
            start = i + 1
    return arms

def main():
    names = library_names()
    listing = "--list" in sys.argv
    files = sorted(sources())
    sizes = sorted(((sum(1 for _ in open(f)), f) for f in files), reverse=True)
    print("largest files:", ", ".join(f"{f} {n}" for n, f in sizes[:5]))
    wild, inst_matches, lits, mains = [], 0, [], []
    for f in files:
        text = open(f).read()
        code = code_of(f, text)
        clean = "\n".join(strip_comments(l) for l in code.split("\n"))
        for line, body in matches(clean):
            arms = top_level_arms(body)
            if any(re.search(r"\b(InstKind::|Inst::)?(Load|Store|Call|Bin|Cmp|Gep|Alloca|HeapAlloc|AtomicRmw|CmpXchg|MemSet|MemCopy|ThreadCreate|ThreadJoin|Lock|Unlock|Havoc|Assume|Nondet)\s*\{", a) for a in arms) and ("InstKind" in body or "InstKind" in clean[max(0, clean.rfind("\n", 0, 0)):]):
                inst_matches += 1
                for a in arms:
                    if re.fullmatch(r"_( if .*)?", a) or re.fullmatch(r"[a-z_][a-z0-9_]*", a):
                        wild.append(f"{f}:{line}: `{a} =>`")
        in_lib = f.startswith("src/frontend/") or f in ("src/ir/lib.rs",) or f.startswith("src/ir/lib/")
        for i, l in enumerate(code.split("\n"), 1):
            l = strip_comments(l)
            for lit in re.findall(r'"((?:[^"\\]|\\.)*)"', l):
                if lit == "main":
                    mains.append(f"{f}:{i}")
                elif not in_lib and (lit in names or lit.startswith("__VERIFIER_")):
                    lits.append(f"{f}:{i}: \"{lit}\"")
    print(f"matches over InstKind: {inst_matches}; their `_ =>` arms: {len(wild)}")
    print(f"library function names as literals outside ir::lib and frontend: {len(lits)} "
          f"in {len(set(x.split(':')[0] for x in lits))} files")
    print(f"\"main\" as a literal: {len(mains)} in {len(set(x.split(':')[0] for x in mains))} files")
    if listing:
        for x in wild + lits + mains:
            print("  " + x)

main()
