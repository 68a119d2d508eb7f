#!/usr/bin/env python3
"""Generates a C program of the shape of issue 37: many small functions, each with a branch or a
short loop, writing a struct through a pointer and some globals, each calling one or two of the
40 functions defined just before it; 4 threads, each calling 6 of them and asserting the range
of the result; a mutex-protected counter. Every assertion holds.

usage: gen_calldag.py LINES [SEED] > prog.c      (LINES: about how many lines, at least 150)

An engine that inlines every call costs what the call tree costs (exponential in the depth of
the call DAG); one that analyses a function once per calling context costs what the code costs.
"""
import random
import sys

target = int(sys.argv[1])
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 37)
THREADS, CALLS, WINDOW, GLOBALS = 4, 6, 40, 8

head = ["#include <assert.h>", "#include <pthread.h>", "",
        "struct st { int a; int b; int c[4]; };",
        "static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;",
        "static int counter;",
        "static struct st devs[%d];" % THREADS]
head += ["static int g%d;" % k for k in range(GLOBALS)]
head.append("")


def function(i):
    """f_i(p, x) returns a value in [0, 100] whatever its arguments and the memory hold."""
    callees = []
    if i > 0:
        lo = max(0, i - WINDOW)
        # The first callee is one of the few just before (a deep chain), the second any of the
        # window: the call tree grows like a Fibonacci tree.
        callees = [max(lo, i - 1 - rng.randrange(3))]
        if rng.random() < 0.7:
            callees.append(rng.randrange(lo, i))
    out = ["static int f%d(struct st *p, int x) {" % i]
    out.append("  int y = %s;" % ("f%d(p, x + %d)" % (callees[0], i % 13) if callees else "x + %d" % (i % 13)))
    if i % 3 == 0:
        out += ["  for (int k = 0; k < %d; k++)" % (2 + i % 3), "    y = y + p->c[k & 3];"]
    else:
        out += ["  if (y > p->a)", "    p->b = y;"]
    if len(callees) > 1:
        out.append("  y = y + f%d(p, x - %d);" % (callees[1], 1 + i % 5))
    out += ["  if (y < 0 || y > 100)", "    y = %d;" % (i % 101),
            "  p->c[%d] = y;" % (i % 4)]
    if i % 4 == 0:
        out.append("  g%d = y;" % (i % GLOBALS))
    out += ["  return y;", "}"]
    return out


def workers(n):
    out = []
    for t in range(THREADS):
        out += ["static void *worker%d(void *arg) {" % t,
                "  struct st *s = &devs[%d];" % t,
                "  int x = (int)(long)arg;"]
        picks = sorted(rng.sample(range(max(0, n - 2 * CALLS), n), min(CALLS, n)))
        for k, f in enumerate(picks):
            out += ["  int r%d = f%d(s, x + %d);" % (k, f, k),
                    "  assert(r%d >= 0 && r%d <= 100);" % (k, k)]
        out += ["  pthread_mutex_lock(&m);", "  counter = counter + 1;",
                "  pthread_mutex_unlock(&m);", "  return 0;", "}"]
    return out


def main_fn():
    out = ["int main(void) {", "  pthread_t t[%d];" % THREADS]
    out += ["  pthread_create(&t[%d], 0, worker%d, (void *)%dL);" % (t, t, t) for t in range(THREADS)]
    out += ["  pthread_join(t[%d], 0);" % t for t in range(THREADS)]
    out += ["  return 0;", "}"]
    return out


fixed = len(head) + len(workers(WINDOW)) + len(main_fn())
funcs, body = 0, []
while funcs < 2 or len(body) + fixed < target:
    body += function(funcs)
    funcs += 1
print("\n".join(head + body + [""] + workers(funcs) + main_fn()))
