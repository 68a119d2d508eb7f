//! A flow- and context-insensitive, inclusion-based points-to analysis over the whole program,
//! and its result, [`PointsTo`]: the set of every pointer value, what every object may contain,
//! and what is exposed to code the analysis cannot see.
//!
//! Invariant: for every pointer value of every execution, the object it points into is in the
//! value's points-to set, or the set is marked `unknown`, which stands for every *exposed* object
//! (one whose address reached code the analysis cannot see: unknown functions, integers, memory
//! written through unknown pointers, non-static globals).
//!
//! `unknown` is every exposed object; an exposed object may contain anything exposed only when
//! memory may be written untracked (a call of a declared function other than `writes_only_args`,
//! a call or creation through a pointer that may name one or be unknown, memory-clobbering
//! assembly, a write through an `unknown` pointer); otherwise its contents are what the program's
//! stores put there.
//!
//! Reach (`Reach`): `exposed` is every object code the analysis does not see may get;
//! `thread_exposed` (for the race check) leaves out globals exposed by their linkage alone and
//! arguments of declared functions that keep nothing, since such a function touches its arguments
//! only during the call; `called_back` are the functions that code the analysis does not see is
//! given (an argument, or held one level inside an argument's objects: a `struct sigaction`), which
//! may run at any time in any thread, not those only exposed by linkage, turned into data the
//! program uses, or given to the functions whose row says `synchronous_callbacks` (`qsort`,
//! `bsearch`, ...), which call them during the call. Those whose callbacks get pointers into
//! the call's arguments (`Props::callback_args`: `qsort`'s comparator, elements of `base`) bind
//! the callbacks' pointer parameters to those arguments' sets (`transfer`); any other parameter
//! of a function no call of the program reaches stays empty, which `MemoryModel::access` takes
//! as lost.
//!
//! The parts: `set` (points-to sets and their targets), `solver` (the fixpoint's state and
//! worklist, the basic moves of pointers through memory), `transfer` (what each instruction and
//! call adds to the sets), `exposure` (what escapes, and how far), `movers` (the integers that
//! move an address unchanged: clang's lowering of C11 atomic pointers). A declared function's effect
//! comes from its row of `ir::lib` (`Props::writes_only_args`, `copies_bytes`, ...), which
//! [`PointsTo::writes_only_args`] reads.

mod exposure;
mod movers;
mod set;
mod solver;
mod transfer;

pub use set::{PtsSet, Target};

use crate::ir::{FuncId, Function, ObjId, Operand, Program};
use std::collections::BTreeSet;
use std::sync::Arc;

/// The size of a pointer (the targets are 64-bit): the bytes a pointer store
/// writes.
const POINTER_SIZE: u64 = 8;

/// How far an exposure reaches: whether other threads may get the objects (`shared`) and
/// whether code the analysis does not see may call the functions, at any time (`called`). It
/// lives beside the result's exposure sets it chooses between, where the solver, the transfer
/// functions and the exposure all name it without naming each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Reach {
    shared: bool,
    called: bool,
}

impl Reach {
    /// A global's linkage, or an argument of a declared function that keeps nothing (whose
    /// callbacks `call_back` finds): neither.
    const LINKAGE: Reach = Reach {
        shared: false,
        called: false,
    };
    /// An address turned into data the program itself uses (an integer, the bytes of a copy, a
    /// thread's result, a variadic argument): it may reach another thread, but comes back to
    /// the program's own code (a call through it is a call of the program).
    const LEAKED: Reach = Reach {
        shared: true,
        called: false,
    };
    /// Code the analysis does not see gets it (an unknown call target or thread, memory written
    /// through an unknown pointer, a kept argument): both.
    const THREAD: Reach = Reach {
        shared: true,
        called: true,
    };
}

/// The points-to facts of a program (built by `PointsTo::compute`, in `solver`).
///
/// Invariant: it only grows while the solver runs, and is read-only after.
#[derive(Clone, Debug, Default)]
pub struct PointsTo {
    /// `vars[f][v]`: the points-to set of var `v` of function `f`.
    vars: Vec<Vec<PtsSet>>,
    /// What each object may contain (pointers stored into it), anywhere in it.
    contents: Vec<PtsSet>,
    /// What each object may contain at a known place: per canonical offset (`solver::field_key`:
    /// array indices taken to the first element), the pointers stored there. A pointer load at
    /// a known place reads its field, `anywhere`, and `contents`' `unknown`; one at an unknown
    /// place reads `contents`.
    fields: Vec<std::collections::BTreeMap<u64, PtsSet>>,
    /// What each object may contain at a place not known (a store through a pointer to anywhere
    /// in it, a byte copy into it).
    anywhere: Vec<PtsSet>,
    /// Objects whose address is exposed to code the analysis cannot see.
    pub exposed: BTreeSet<ObjId>,
    /// The exposed objects whose address may reach another thread: all of `exposed` but the
    /// globals exposed by their linkage alone, those exposed only as arguments of declared
    /// functions that keep no pointer (`call`), and what only such objects contain. The race
    /// check's sharing starts from these (a library function touches what its arguments point
    /// to during the call and keeps nothing, the assumption its report states).
    pub thread_exposed: BTreeSet<ObjId>,
    /// Defined functions whose address is exposed.
    pub exposed_funcs: BTreeSet<FuncId>,
    /// The exposed functions that code the analysis does not see may call at any time, in any
    /// thread (`Reach::called`): those given to it (an argument, or memory an argument reaches),
    /// not those exposed only as a global's linkage (no other code names the program's globals,
    /// README's "the program is all the code that calls it"), nor callbacks of the functions
    /// that call them during the call (`Props::synchronous_callbacks`), nor addresses turned into data
    /// the program itself uses (`Reach::LEAKED`: a call through them is the program's). The
    /// race check runs these in any thread.
    pub called_back: BTreeSet<FuncId>,
    /// The functions of `called_back` that code may call in threads of its own, as far as the
    /// analysis knows: those given to a declared function without a row of its exact name in
    /// the library table (an unknown library, which may start threads: Goblint's `unknown(f)`
    /// spawns) or whose row says it runs them elsewhere (`Props::callbacks_elsewhere`), to
    /// unknown code (`Reach::THREAD`: an unknown call target or thread, memory written through
    /// an unknown pointer, an argument a function keeps). The race check runs these in any
    /// thread; the others (a signal handler, `dlsym`'s functions, a row's callbacks) in the
    /// program's threads (`analysis::races::contexts::callback_contexts`).
    pub called_anywhere: BTreeSet<FuncId>,
    /// Whether the program may hand its own memory to stdio (`setvbuf`, `fmemopen`).
    stdio_buffers: bool,
    /// The declared functions assumed to write no memory (`--assume-no-write`), sorted.
    no_write: Vec<FuncId>,
}

impl PointsTo {
    /// The points-to set of an operand of function `f`.
    pub fn of(&self, program: &Program, f: FuncId, op: &Operand) -> PtsSet {
        match op {
            Operand::Var(v) => self.vars[f.index()][v.index()].clone(),
            Operand::GlobalAddr(g, off) => {
                let obj = program.globals[g.index()].obj;
                let t = Target::Obj(obj, u64::try_from(*off).ok());
                PtsSet {
                    targets: Arc::new([t].into_iter().collect()),
                    unknown: false,
                }
            }
            Operand::FuncAddr(func) => PtsSet {
                targets: Arc::new([Target::Func(*func)].into_iter().collect()),
                unknown: false,
            },
            Operand::Null | Operand::Int { .. } => PtsSet::default(),
            Operand::Unknown(_) => PtsSet::unknown(),
        }
    }

    /// The functions a call through `op` in `f` may reach (exposed functions when unknown).
    pub fn callees(&self, program: &Program, f: FuncId, op: &Operand) -> (Vec<FuncId>, bool) {
        let pts = self.of(program, f, op);
        let mut out: BTreeSet<FuncId> = pts.funcs().collect();
        if pts.unknown {
            out.extend(self.exposed_funcs.iter().copied());
        }
        (out.into_iter().collect(), pts.unknown)
    }

    /// Whether the declared function `g` (`func`) writes only what its pointer arguments
    /// reach, in this program (`Props::writes_only_args`), or is assumed to write nothing.
    ///
    /// Soundness: once the program may have handed a buffer of its own to stdio (a call of, or
    /// a pointer to, `setvbuf`, `fmemopen`...), an output function may write that buffer, which
    /// none of its arguments reaches: output functions are then unknown functions, which may
    /// write every exposed object (the buffer reached an unknown function, so it is exposed).
    pub fn writes_only_args(&self, g: FuncId, func: &Function) -> bool {
        (func.library_props())
            .is_some_and(|p| p.writes_only_args && !(self.stdio_buffers && p.stdio_output))
            || self.writes_nothing(g)
    }

    /// Whether the declared function `g` is assumed to write no memory of the program
    /// (`--assume-no-write`, `Program::assumed_no_write`): a user's assumption about code
    /// the analysis does not see, like the harness.
    pub fn writes_nothing(&self, g: FuncId) -> bool {
        self.no_write.binary_search(&g).is_ok()
    }

    /// What object `o` may contain.
    pub fn contents(&self, o: ObjId) -> &PtsSet {
        &self.contents[o.index()]
    }
}

#[cfg(test)]
mod tests {
    use crate::facts::testing::{func, with_facts};
    use crate::ir::{BlockId, InstKind, Operand};
    use crate::memory::CellId;

    /// An object read as integers exposes what it holds then (`a`) and what it gains later
    /// (`b`, stored after the read's function was visited), though the read is not visited again
    /// for it.
    #[test]
    fn what_an_integer_read_exposes_grows_with_the_contents() {
        let src = "static int a, b;\n\
                   static int *box[2] = {&a, 0};\n\
                   long peek(void) { return *(volatile long *)box; }\n\
                   void put(void) { box[1] = &b; }\n\
                   int main(void) { long v = peek(); put(); return (int)v; }\n";
        with_facts(src, |program, facts| {
            let obj = |n: &str| program.globals.iter().find(|g| g.name == n).unwrap().obj;
            assert!(facts.memory.pts.exposed.contains(&obj("a")));
            assert!(facts.memory.pts.exposed.contains(&obj("b")));
            assert!(!facts.memory.pts.exposed.contains(&obj("box")));
        });
    }

    /// Whether `a` is exposed in a program where `main` allocates a node in a loop (a block
    /// without a layout), stores `&a` in its pointer field at byte 8 and runs `BODY` on it.
    fn heap_node_exposes(body: &str) -> bool {
        let src = format!(
            "#include <stdlib.h>\n#include <string.h>\n\
             struct node {{ int value; int late; int *p; }};\n\
             static int a;\n\
             static struct node proto = {{0, 0, &a}};\n\
             long peek(struct node *n) {{ {body} }}\n\
             int main(void) {{ long s = 0;\n\
               for (int i = 0; i < 3; i++) {{\n\
                 struct node *n = malloc(sizeof *n);\n\
                 s += peek(n); n->p = &a; s += peek(n); }}\n\
               return (int)s + (proto.value); }}\n"
        );
        with_facts(&src, |program, facts| {
            let a = program.globals.iter().find(|g| g.name == "a").unwrap().obj;
            facts.memory.pts.exposed.contains(&a)
        })
    }

    #[test]
    fn an_integer_read_beside_an_untyped_blocks_pointers_exposes_nothing() {
        assert!(!heap_node_exposes("return n->value + n->late;"));
    }

    #[test]
    fn an_integer_read_of_an_untyped_blocks_pointer_bytes_exposes_them() {
        // Must not fire: a read across the pointer's first bytes (4..12), its last byte (15),
        // a read at a place not known, and a read after a byte copy (which moves pointers to
        // places not followed) all may read `&a`. Each reads before the store too (`peek` runs
        // first), so the read must be seen again when the block gains the pointer.
        assert!(heap_node_exposes("return *(long *)&n->late;"));
        assert!(heap_node_exposes("return ((char *)n)[15];"));
        assert!(heap_node_exposes(
            "extern int k; return ((char *)n)[k & 15];"
        ));
        assert!(heap_node_exposes(
            "struct node *m = malloc(sizeof *m); memcpy(m, n, sizeof *m); return m->value;"
        ));
    }

    /// Whether `a` is exposed, and what the store of 7 writes, when `main` moves `&a` through
    /// `long`s as `BODY` says and stores 7 through the pointer it gets back in `q`.
    fn moved_as_integer(body: &str) -> (bool, Vec<String>) {
        let src = format!(
            "static int a, b;\n\
             static int *p = &a;\n\
             static long cell;\n\
             int main(void) {{ int *q; {body} *q = 7; return b; }}\n"
        );
        let exposed = with_facts(&src, |program, facts| {
            let a = program.globals.iter().find(|g| g.name == "a").unwrap().obj;
            facts.memory.pts.exposed.contains(&a)
        });
        (exposed, written_by_the_store_of_seven(&src))
    }

    #[test]
    fn an_integer_that_only_moves_a_pointer_keeps_its_target() {
        // clang's lowering of `atomic_load` of an `_Atomic(int *)`: the pointer's bytes loaded
        // as a `long`, stored whole, loaded back as a pointer.
        let (exposed, w) =
            moved_as_integer("__atomic_load((long *)&p, (long *)&q, __ATOMIC_ACQUIRE);");
        assert!(!exposed);
        assert_eq!(w, ["a"]);
    }

    #[test]
    fn an_integer_computed_with_is_an_address_the_analysis_lost() {
        // Must not fire: an integer read of the pointer that is added to, compared or stored
        // where no pointer is looked for exposes `a`, and the pointer made from it may be any
        // exposed object.
        for body in [
            "long x = *(long *)&p; q = (int *)(x + 0);",
            "long x = *(long *)&p; if (x) cell = 1; q = (int *)x;",
            "cell = *(long *)&p; q = (int *)cell;",
        ] {
            let (exposed, w) = moved_as_integer(body);
            assert!(exposed, "{body}");
            assert!(w.iter().any(|n| n == "a"), "{body}: {w:?}");
        }
    }

    /// The cells that the stores of `size` bytes of a constant in `main` may write.
    fn stores_of_constants(src: &str, size: u32) -> Vec<Vec<String>> {
        with_facts(src, |program, facts| {
            let main = func(program, "main");
            let mut out = Vec::new();
            for (bi, b) in program.funcs[main.index()].blocks.iter().enumerate() {
                for (ii, inst) in b.insts.iter().enumerate() {
                    if let InstKind::Store {
                        val: Operand::Int { .. },
                        size: s,
                        ..
                    } = inst.kind
                    {
                        if s == size {
                            let a = facts.access(main, BlockId(bi as u32), ii as u32);
                            let name = |c: &CellId| facts.memory.cells.info(*c).name.clone();
                            out.push(a.exact.iter().chain(&a.clobber).map(name).collect());
                        }
                    }
                }
            }
            out
        })
    }

    /// The cells the one store of `7` in `main` may write, by name.
    fn written_by_the_store_of_seven(src: &str) -> Vec<String> {
        let stores = stores_of_constants(src, 4);
        assert_eq!(stores.len(), 1, "{stores:?}");
        stores.into_iter().next().unwrap_or_default()
    }

    #[test]
    fn a_field_load_gives_what_was_stored_in_that_field_only() {
        // The lock and the counter of a context struct: a load of `s.q` never gives `a`.
        let src = r#"
            static int a, b;
            struct pq { int *p; int *q; };
            static struct pq s = {&a, 0};
            int main(void) { s.q = &b; *s.q = 7; return 0; }
        "#;
        assert_eq!(written_by_the_store_of_seven(src), ["b"]);
    }

    #[test]
    fn a_byte_copy_of_a_struct_keeps_what_its_fields_hold() {
        // Must not fire: `memcpy` moves the fields' pointers to places not followed, so a
        // field load of the copy gets every pointer of the source (`b` among them).
        let src = r#"
            #include <string.h>
            static int a, b;
            struct pq { int *p; int *q; };
            static struct pq s = {&a, &b};
            int main(void) { struct pq t; memcpy(&t, &s, sizeof t); *t.q = 7; return 0; }
        "#;
        let w = written_by_the_store_of_seven(src);
        assert!(w.iter().any(|n| n == "b"), "{w:?}");
    }

    #[test]
    fn array_elements_share_the_places_of_their_fields() {
        // Must not fire: `arr[i].q` (an array step) and `arr[2].q` (a constant offset) are one
        // place, so the load through the constant index sees the store through the variable.
        let src = r#"
            extern int __VERIFIER_nondet_int(void);
            static int a, b;
            struct pq { int *p; int *q; };
            static struct pq arr[4];
            int main(void) {
                int i = __VERIFIER_nondet_int() & 3;
                arr[0].p = &a;
                arr[i].q = &b;
                *arr[2].q = 7;
                return 0;
            }
        "#;
        let w = written_by_the_store_of_seven(src);
        assert!(w.iter().any(|n| n == "b"), "{w:?}");
        assert!(!w.iter().any(|n| n == "a"), "{w:?}");
    }

    #[test]
    fn a_store_at_an_unknown_place_reaches_every_field_load() {
        // Must not fire: a pointer stored through a walked `char *` lands at a place not known,
        // which a load of any field reads.
        let src = r#"
            extern int __VERIFIER_nondet_int(void);
            static int a, c;
            struct pq { int *p; int *q; };
            static struct pq s = {&a, &a};
            int main(void) {
                char *raw = (char *)&s;
                raw += __VERIFIER_nondet_int() & 8;
                *(int **)raw = &c;
                *s.p = 7;
                return 0;
            }
        "#;
        let w = written_by_the_store_of_seven(src);
        assert!(w.iter().any(|n| n == "c"), "{w:?}");
    }

    #[test]
    fn a_pointer_walked_past_a_buffer_may_reach_the_next_field() {
        // The walk gains an offset per visit; past `MAX_OFFSETS` it is "anywhere in `b`",
        // which must still cover `len` (gcc -O0 writes `len` when `data` has no zero).
        let src = r#"
            static struct buf { char data[4096]; int len; } b;
            int main(void) {
                char *p = b.data;
                while (*p) p++;
                *p = 'x';
                return b.len;
            }
        "#;
        let stores = stores_of_constants(src, 1);
        assert_eq!(stores.len(), 1, "{stores:?}");
        assert!(stores[0].iter().any(|n| n == "b.len"), "{stores:?}");
    }

    #[test]
    fn a_result_that_grows_later_reaches_the_caller() {
        // `&y` reaches `q` through two copies in functions visited after the ones that read
        // their results, so it arrives in `get`'s result passes after `main` settled: the
        // worklist must visit `main` again because its callee's result grew.
        let src = r#"
            static int x, y, *q = &x, *q2, *q3;
            static int *get(void);
            static void h2(void);
            static void h1(void);
            static void set(void);
            int main(void) { int *p = get(); *p = 1; h2(); h1(); set(); return 0; }
            static int *get(void) { return q; }
            static void h2(void) { q = q2; }
            static void h1(void) { q2 = q3; }
            static void set(void) { q3 = &y; }
        "#;
        let stores = stores_of_constants(src, 4);
        assert!(
            stores
                .iter()
                .any(|s| s.iter().any(|n| n == "y") && s.iter().any(|n| n == "x")),
            "{stores:?}"
        );
    }

    /// The points-to sets of the parameters of the defined function `name`.
    fn params_of(src: &str, name: &str) -> Vec<(bool, Vec<String>)> {
        with_facts(src, |program, facts| {
            let g = func(program, name);
            let obj_name = |o: crate::ir::ObjId| format!("{:?}", program.objects[o.index()].kind);
            (program.funcs[g.index()].params.iter())
                .map(|p| {
                    let s = facts.memory.pts.of(program, g, &Operand::Var(*p));
                    let mut names: Vec<String> = (s.objects_at())
                        .map(|(o, off)| format!("{} {off:?}", obj_name(o)))
                        .collect();
                    names.sort();
                    (s.unknown, names)
                })
                .collect()
        })
    }

    #[test]
    fn a_comparator_points_anywhere_into_what_qsort_sorts() {
        // `qsort`'s comparator gets pointers to elements of the sorted array (C11 7.22.5p2):
        // anywhere in it, whichever element; `qsort_r` passes its last argument on.
        let src = r#"
            #define _GNU_SOURCE
            #include <stdlib.h>
            static int cmp(const void *a, const void *b) { return *(int *)a - *(int *)b; }
            static int cmp_r(const void *a, const void *b, void *c) {
                return *(int *)a - *(int *)b + *(int *)c;
            }
            int main(void) {
                int v[4] = {3, 1, 2, 0}, k = 0;
                qsort(&v[1], 3, sizeof v[0], cmp);
                qsort_r(v, 4, sizeof v[0], cmp_r, &k);
                return v[0];
            }
        "#;
        let v = "Stack(FuncId(0)) None".to_string();
        let cmp = params_of(src, "cmp");
        assert_eq!(cmp, [(false, vec![v.clone()]), (false, vec![v.clone()])]);
        let cmp_r = params_of(src, "cmp_r");
        assert_eq!(cmp_r[..2], [(false, vec![v.clone()]), (false, vec![v])]);
        assert!(!cmp_r[2].0 && cmp_r[2].1.len() == 1 && cmp_r[2].1[0].ends_with("Some(0)"));
    }

    #[test]
    fn a_comparator_that_unknown_code_may_call_gets_any_pointer() {
        // Must not fire: `keep` may hand `cmp` to code that calls it later with any exposed
        // pointer, so its parameters are not only `v`'s elements.
        let src = r#"
            #include <stdlib.h>
            extern void keep(int (*)(const void *, const void *));
            static int cmp(const void *a, const void *b) { return *(int *)a - *(int *)b; }
            int main(void) {
                int v[4] = {3, 1, 2, 0};
                qsort(v, 4, sizeof v[0], cmp);
                keep(cmp);
                return v[0];
            }
        "#;
        assert!(params_of(src, "cmp").iter().all(|(unknown, _)| *unknown));
    }

    #[test]
    fn the_callbacks_of_library_memory_get_nothing_of_the_arguments() {
        // `tsearch`'s comparator gets the key and the keys in the tree's nodes, which the
        // library keeps: its row binds nothing (an empty set is lost, `MemoryModel::access`).
        let src = r#"
            #include <search.h>
            static int cmp(const void *a, const void *b) { return *(int *)a - *(int *)b; }
            int main(void) {
                static int k = 1;
                void *root = 0;
                tsearch(&k, &root, cmp);
                return 0;
            }
        "#;
        assert!(params_of(src, "cmp")
            .iter()
            .all(|(u, s)| !u && s.is_empty()));
    }
}
