#!/usr/bin/env python3
"""Generates a C program of about LINES lines with the shape of ordinary driver code (issue 16,
point 1): modules of small functions over a struct and globals, each function calling the
next one down a chain and a helper of its module (a deep call graph), one mutex, a few worker
threads that each drive a share of the modules, and assertions whose verdicts are known.

usage: gen_size.py LINES [THREADS] > prog.c

Every module is reached from one thread, so a program twice as long has twice the code per
thread or twice the threads' work: an engine whose cost follows the code doubles.
Assertions: `assert(m->count >= 0)` in every module's entry holds (proved when the analysis is
precise enough), and one assertion in `main` fails when some worker runs (may-fail).
"""
import sys

lines = int(sys.argv[1])
threads = int(sys.argv[2]) if len(sys.argv) > 2 else 4
CHAIN = 8
# About 127 lines per module.
modules = max(threads, lines // 127)

out = ["#include <assert.h>", "#include <pthread.h>", "",
       "static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;",
       "static int events, failures;", ""]
for m in range(modules):
    out += [f"struct mod{m} {{ int count; int state; int limit; int buf[8]; }};",
            f"static struct mod{m} mod{m};", "",
            f"static int mod{m}_clamp(int v) {{",
            "  if (v < 0)",
            "    v = 0;",
            f"  if (v > mod{m}.limit)",
            f"    v = mod{m}.limit;",
            "  return v;",
            "}", ""]
    for j in range(CHAIN):
        out.append(f"static int mod{m}_step{j}(struct mod{m} *d, int x) {{")
        out.append(f"  int y = mod{m}_clamp(x + {j + 1});")
        out.append(f"  d->buf[{j % 8}] = y;")
        out.append("  if (d->state == 1)")
        out.append("    d->count = d->count + 1;")
        out.append("  else")
        out.append("    d->state = 1;")
        if j > 0:
            out.append(f"  y = mod{m}_step{j - 1}(d, y);")
        out.append("  for (int i = 0; i < 4; i++)")
        out.append("    y = y + d->buf[i] % 3;")
        out.append("  return y;")
        out.append("}")
        out.append("")
    out += [f"static int mod{m}_run(int x) {{",
            "  pthread_mutex_lock(&lock);",
            f"  int r = mod{m}_step{CHAIN - 1}(&mod{m}, x);",
            f"  assert(mod{m}.count >= 0);",
            "  events = events + 1;",
            "  pthread_mutex_unlock(&lock);",
            "  return r;",
            "}", ""]
for t in range(threads):
    out.append(f"static void *worker{t}(void *arg) {{")
    out.append("  int x = (int)(long)arg;")
    for m in range(t, modules, threads):
        out.append(f"  x = mod{m}_run(x) % 100;")
    out.append("  if (x > 1000)")
    out.append("    failures = failures + 1;")
    out.append("  return 0;")
    out.append("}")
    out.append("")
out.append("int main(void) {")
out.append(f"  pthread_t t[{threads}];")
for m in range(modules):
    out.append(f"  mod{m}.limit = {100 + m % 50};")
for t in range(threads):
    out.append(f"  pthread_create(&t[{t}], 0, worker{t}, (void *){t});")
for t in range(threads):
    out.append(f"  pthread_join(t[{t}], 0);")
out.append("  assert(events == 0); /* fails: the workers ran */")
out.append("  assert(failures == 0);")
out.append("  return 0;")
out.append("}")
print("\n".join(out))
