#!/usr/bin/env python3
"""Generates a C program of the shape of issue 16 point 1: many small functions, each calling one
or two of the previous ones (a deep call graph), a struct, globals, a mutex and a few threads.

usage: gen_calltree.py FUNCTIONS [THREADS] > prog.c

The cost of an engine that inlines every call grows with the call tree (exponential in the
depth); an engine whose cost follows the code grows linearly with FUNCTIONS.
"""
import sys

n = int(sys.argv[1])
threads = int(sys.argv[2]) if len(sys.argv) > 2 else 4
out = ["#include <assert.h>", "#include <pthread.h>", "",
       "struct dev { int count; int state; int buf[4]; };",
       "static struct dev dev;", "static int total, flags;",
       "static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;", ""]
for i in range(n):
    out.append("static int f%d(int x) {" % i)
    out.append("  int y = x + %d;" % (i % 7))
    out.append("  if (y > 100) y = y - 100;")
    if i >= 1:
        out.append("  y = f%d(y);" % (i - 1))
    if i >= 2 and i % 2 == 0:
        out.append("  if (x & 1) y = f%d(y + 1);" % (i // 2))
    out.append("  dev.buf[%d] = y;" % (i % 4))
    out.append("  return y;")
    out.append("}")
for t in range(threads):
    out.append("static void *worker%d(void *a) {" % t)
    out.append("  (void)a;")
    out.append("  pthread_mutex_lock(&m);")
    out.append("  int r = f%d(dev.count);" % (n - 1 - (t % max(n // 4, 1))))
    out.append("  dev.count = dev.count + 1;")
    out.append("  total = total + r;")
    out.append("  pthread_mutex_unlock(&m);")
    out.append("  flags = %d;" % (t + 1))
    out.append("  return 0;")
    out.append("}")
out.append("int main(void) {")
out.append("  pthread_t t[%d];" % threads)
for t in range(threads):
    out.append("  pthread_create(&t[%d], 0, worker%d, 0);" % (t, t))
for t in range(threads):
    out.append("  pthread_join(t[%d], 0);" % t)
out.append("  assert(dev.count == %d);" % threads)
out.append("  return 0;")
out.append("}")
print("\n".join(out))
