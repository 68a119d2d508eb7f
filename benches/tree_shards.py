#!/usr/bin/env python3
"""Shard balance of `--per-program --shard I/N` (issue 38): builds the tree `tests/tree.rs`
analyses (every corpus file, 12 two-unit [[program]]s, 4 libraries, a unit that does not
compile, the real programs under 100 KB), then times each shard cold (`--no-cache`) and prints
each shard's wall time, its program count and the ratio of the slowest to the fastest.

Usage: python3 benches/tree_shards.py [WATTS] [N]   (from the repository root; WATTS defaults
to target/release/watts, N to 4)"""
import json, os, resource, shutil, subprocess, sys, tempfile, time

def build_tree(root, out):
    units, toml = [], []
    for d, _, fs in sorted(os.walk(os.path.join(root, "tests/corpus"))):
        for f in sorted(fs):
            if f.endswith(".c"):
                rel = os.path.relpath(os.path.join(d, f), os.path.join(root, "tests"))
                os.makedirs(os.path.dirname(os.path.join(out, rel)), exist_ok=True)
                shutil.copy(os.path.join(d, f), os.path.join(out, rel))
                units.append(rel)
    def write(rel, text):
        os.makedirs(os.path.dirname(os.path.join(out, rel)), exist_ok=True)
        open(os.path.join(out, rel), "w").write(text)
    for i in range(12):
        write(f"multi/m{i:02}/main.c",
              "#include <assert.h>\n#include <pthread.h>\nint shared;\nint bump(int);\n"
              f"void *worker(void *a) {{ shared = bump({i}); return a; }}\n"
              "int main(void) { pthread_t t; pthread_create(&t, 0, worker, 0);\n"
              f"pthread_join(t, 0); assert(shared == {i + 1}); return 0; }}\n")
        write(f"multi/m{i:02}/bump.c", "int bump(int x) { return x + 1; }\n")
        units += [f"multi/m{i:02}/main.c", f"multi/m{i:02}/bump.c"]
        toml.append(f'[[program]]\nname = "multi-{i:02}"\nfiles = ["multi/m{i:02}/*.c"]\n')
    for i in range(4):
        write(f"libs/lib{i}.c", f"static int n;\nint lib{i}_inc(void) {{ return ++n; }}\n")
        units.append(f"libs/lib{i}.c")
    write("broken/bad.c", "int main(void) { return undeclared; }\n")
    units.append("broken/bad.c")
    real = os.path.join(root, "../shared/realprograms")
    for f in sorted(os.listdir(real)) if os.path.isdir(real) else []:
        p = os.path.join(real, f)
        if f.endswith(".c") and os.path.getsize(p) < 100_000:
            write(f"real/{f}", open(p, errors="replace").read())
            units.append(f"real/{f}")
    write("watts.toml", "\n".join(toml))
    write("build/compile_commands.json", json.dumps(
        [{"directory": out, "file": u, "arguments": ["cc", "-O2", "-c", u]} for u in units]))
    return len(units) - 12

def main():
    root = os.getcwd()
    watts = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/release/watts")
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    with tempfile.TemporaryDirectory() as out:
        programs = build_tree(root, out)
        print(f"{programs} programs")
        times, cpus = [], []
        for i in range(1, n + 1):
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.monotonic()
            r = subprocess.run([watts, "analyze", "-p", "build", "--per-program=all", "--jobs",
                                "2", "--no-cache", "--format", "json", "--shard", f"{i}/{n}"],
                               cwd=out, capture_output=True)
            s = time.monotonic() - t
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
            count = len(json.loads(r.stdout)["programs"])
            times.append(s)
            cpus.append(cpu)
            print(f"shard {i}/{n}: {s:.1f} s wall, {cpu:.1f} s CPU, {count} programs, "
                  f"exit {r.returncode}", flush=True)
        print(f"slowest/fastest: {max(times) / min(times):.2f} wall, "
              f"{max(cpus) / min(cpus):.2f} CPU")

main()
