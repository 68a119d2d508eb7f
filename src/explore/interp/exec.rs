//! The execution of one instruction: values, memory, inputs, assertions and assumptions,
//! handing calls to `library` and thread operations to `threads`.
//!
//! Invariant: an instruction either ends the execution (`Err`) or advances its thread past
//! itself (a call of a defined function stays until the callee returns).

use super::*;

impl<'p> Interp<'p> {
    /// Executes `inst` of thread `t`, advancing its position. Returns the step kind when
    /// `visible` (the kind of a local instruction is not needed).
    pub(super) fn exec_inst(
        &self,
        s: &mut State,
        t: Tid,
        inst: &'p Inst,
        alt: usize,
        visible: bool,
    ) -> Exec<Option<StepKind>> {
        let here = || self.at(inst.span);
        let ev = |s: &State, o: &Operand| self.eval(s, t, o);
        let mut kind = None;
        self.hooks(s).before_inst(self, s, t, inst, visible);
        match &inst.kind {
            InstKind::Bin {
                dst,
                op,
                a,
                b,
                bits,
            } => {
                let v = binop(*op, ev(s, a), ev(s, b), *bits).map_err(|e| {
                    Status::Unsupported(Abandon::Unmodelled(format!("{e}{}", here())))
                })?;
                self.set(s, t, *dst, v);
            }
            InstKind::Cmp {
                dst,
                pred,
                a,
                b,
                bits,
            } => {
                let (a, b) = (ev(s, a), ev(s, b));
                let v = self.compare(s, *pred, a, b, *bits);
                self.set(
                    s,
                    t,
                    *dst,
                    v.map_or(Value::Unknown, |c| Value::int(c as i128, 1)),
                );
            }
            InstKind::Cast {
                dst,
                op,
                src,
                from,
                to,
            } => {
                let v = self.cast(s, *op, ev(s, src), *from, *to);
                self.set(s, t, *dst, v);
            }
            InstKind::Select { dst, cond, t: a, f } => {
                let (a, f) = (ev(s, a), ev(s, f));
                let v = match ev(s, cond) {
                    Value::Int { v, .. } => {
                        if v != 0 {
                            a
                        } else {
                            f
                        }
                    }
                    _ if a == f => a,
                    _ => Value::Unknown,
                };
                self.set(s, t, *dst, v);
            }
            InstKind::Copy { dst, src } => {
                let v = ev(s, src);
                self.set(s, t, *dst, v);
            }
            InstKind::Gep {
                dst,
                base,
                offset,
                indices,
            } => {
                let mut delta = Some(*offset);
                for (i, stride) in indices {
                    delta = match (delta, ev(s, i)) {
                        (Some(d), Value::Int { v, bits }) => Some(
                            d.wrapping_add((sext(v, bits) as i64).wrapping_mul(*stride as i64)),
                        ),
                        _ => None,
                    };
                }
                let v = match (ev(s, base), delta) {
                    (Value::Ptr(Ptr::Mem { alloc, off }), Some(d)) => Value::Ptr(Ptr::Mem {
                        alloc,
                        off: off.wrapping_add(d),
                    }),
                    (Value::Ptr(Ptr::Raw(x)), Some(d)) => Value::Ptr(Ptr::Raw(mask(
                        x.wrapping_add(d as u64) as u128,
                        self.program.pointer_size * 8,
                    )
                        as u64)),
                    _ => Value::Unknown,
                };
                self.set(s, t, *dst, v);
            }
            InstKind::Alloca { dst, obj } => {
                let size = self.program.objects[obj.index()]
                    .layout
                    .as_ref()
                    .map(Layout::size);
                let id = s.mem.len() as u32;
                let mut a = Alloc::new(
                    AllocKind::Stack {
                        obj: *obj,
                        owner: t,
                    },
                    size,
                    Byte::Unknown,
                );
                a.key = self.alloc_key(s, t);
                s.mem.push(a);
                self.top_mut(s, t).allocas.push(id);
                self.set(s, t, *dst, Value::Ptr(Ptr::Mem { alloc: id, off: 0 }));
            }
            InstKind::HeapAlloc {
                dst,
                obj,
                zeroed,
                from,
            } => {
                if self.options.exact {
                    // Alternative 1: the allocation fails (null; a `realloc` keeps its block).
                    kind = Some(StepKind::Input(InputValue {
                        value: i128::from(alt == 0),
                        name: Some("the allocation succeeds".to_string()),
                        ty: CInt::new(1, Signedness::Unsigned),
                    }));
                    if alt == 1 {
                        self.set(s, t, *dst, Value::NULL);
                        self.advance(s, t);
                        return Ok(kind);
                    }
                }
                // Soundness (no false violation): a block fresh from the system holds zeros, one
                // of the contents a real `malloc` may hand out (a restriction, like the input
                // candidates); the exact mode keeps every content possible (unknown bytes).
                let fill = if *zeroed || !self.options.exact {
                    Byte::Data(0)
                } else {
                    Byte::Unknown
                };
                let mut block = Alloc::new(AllocKind::Heap(*obj), None, fill);
                if let Some(p) = from {
                    match ev(s, p) {
                        Value::NULL => {}
                        Value::Ptr(Ptr::Mem { alloc, off: 0 })
                            if matches!(s.mem[alloc as usize].kind, AllocKind::Heap(_))
                                && s.mem[alloc as usize].live =>
                        {
                            let old = s.mem.make_mut(alloc as usize);
                            block.bytes = std::mem::take(&mut old.bytes);
                            block.fill = old.fill;
                            old.kill();
                            if visible {
                                kind = Some(StepKind::Write {
                                    loc: self.describe_object(s, alloc, 0),
                                    value: "(moved by realloc)".into(),
                                });
                            }
                        }
                        _ => {
                            return unsupported(format!(
                                "realloc of a pointer that is not a live heap block{}",
                                here()
                            ))
                        }
                    }
                }
                let id = s.mem.len() as u32;
                block.key = self.alloc_key(s, t);
                let n = s.heap_blocks.entry(obj.0).or_insert(0);
                block.ordinal = *n;
                *n += 1;
                s.mem.push(block);
                self.set(s, t, *dst, Value::Ptr(Ptr::Mem { alloc: id, off: 0 }));
            }
            InstKind::Load {
                dst, ptr, ty, size, ..
            } => {
                let p = ev(s, ptr);
                let v = self.load(s, p, *ty, *size)?;
                self.set(s, t, *dst, v);
                if visible {
                    kind = Some(StepKind::Read {
                        loc: self.loc(s, p),
                        value: self.show_at(s, p, *size, v),
                    });
                }
            }
            InstKind::Store { ptr, val, size, .. } => {
                let (p, v) = (ev(s, ptr), ev(s, val));
                self.store(s, p, v, *size)?;
                if visible {
                    kind = Some(StepKind::Write {
                        loc: self.loc(s, p),
                        value: self.show_at(s, p, *size, v),
                    });
                }
            }
            InstKind::AtomicRmw {
                dst,
                op,
                ptr,
                val,
                bits,
                ..
            } => {
                let (p, operand) = (ev(s, ptr), ev(s, val));
                let (ty, size) = self.access_ty(*bits);
                let old = self.load(s, p, ty, size)?;
                let new = rmw(*op, old, operand, *bits);
                self.store(s, p, new, size)?;
                self.set(s, t, *dst, old);
                if visible {
                    kind = Some(StepKind::Update {
                        loc: self.loc(s, p),
                        read: self.show_at(s, p, size, old),
                        written: Some(self.show_at(s, p, size, new)),
                    });
                }
            }
            InstKind::CmpXchg {
                old,
                ok,
                ptr,
                expected,
                new,
                bits,
                ..
            } => {
                let (p, e, n) = (ev(s, ptr), ev(s, expected), ev(s, new));
                let (ty, size) = self.access_ty(*bits);
                let cur = self.load(s, p, ty, size)?;
                let Some(equal) = self.compare(s, CmpPred::Eq, cur, e, *bits) else {
                    return unsupported(format!(
                        "an unknown value decides a compare-exchange{}",
                        here()
                    ));
                };
                if equal {
                    self.store(s, p, n, size)?;
                }
                self.set(s, t, *old, cur);
                self.set(s, t, *ok, Value::int(equal as i128, 1));
                if visible {
                    kind = Some(StepKind::Update {
                        loc: self.loc(s, p),
                        read: self.show_at(s, p, size, cur),
                        written: equal.then(|| self.show_at(s, p, size, n)),
                    });
                }
            }
            InstKind::MemSet { ptr, val, len } => {
                let p = ev(s, ptr);
                let n = self.length(ev(s, len), "memset")?;
                let byte = match ev(s, val) {
                    Value::Int { v, .. } => Byte::Data(v as u8),
                    _ => Byte::Unknown,
                };
                if n > 0 {
                    self.write(s, p, &vec![byte; n as usize])?;
                }
                if visible {
                    let b = match byte {
                        Byte::Data(d) => d.to_string(),
                        _ => "?".into(),
                    };
                    kind = Some(StepKind::Write {
                        loc: self.loc(s, p),
                        value: format!("{b} ({n} bytes, memset)"),
                    });
                }
            }
            InstKind::MemCopy { dst, src, len } => {
                let (d, from) = (ev(s, dst), ev(s, src));
                let n = self.length(ev(s, len), "memcpy")?;
                if n > 0 {
                    let bytes = self.read(s, from, n)?;
                    self.write(s, d, &bytes)?;
                }
                if visible {
                    kind = Some(StepKind::Write {
                        loc: self.loc(s, d),
                        value: format!("{n} bytes from {}", self.loc(s, from)),
                    });
                }
            }
            InstKind::Call { dst, callee, args } => {
                return self.exec_call(s, t, inst, *dst, callee, args, alt, visible);
            }
            InstKind::ThreadCreate {
                dst,
                handle,
                entry,
                arg,
            } => kind = Some(self.exec_create(s, t, inst.span, *dst, [handle, entry, arg])?),
            InstKind::ThreadJoin {
                dst,
                handle,
                retval,
                result_bits,
            } => {
                let join = self.exec_join(s, t, inst.span, *dst, handle, (retval, *result_bits));
                kind = Some(join?)
            }
            InstKind::Lock {
                dst,
                lock,
                exclusive,
            } => kind = Some(self.exec_lock(s, t, inst.span, *dst, lock, *exclusive)?),
            InstKind::Unlock { dst, lock } => kind = Some(self.exec_unlock(s, t, *dst, lock)?),
            InstKind::AtomicBegin => kind = Some(self.exec_atomic_begin(s, t)),
            InstKind::AtomicEnd => kind = Some(self.exec_atomic_end(s, t, inst.span)?),
            InstKind::Assert { id, cond } => {
                let failed = match (self.program.asserts[id.index()].kind, cond) {
                    (AssertKind::VerifierAssert, Some(c)) => match ev(s, c) {
                        Value::Int { v, .. } => v == 0,
                        _ => {
                            return unsupported(format!(
                                "an unknown value decides an assertion{}",
                                here()
                            ))
                        }
                    },
                    // Reaching the instruction is the failure.
                    _ => true,
                };
                if failed {
                    return Err(Status::Violated(*id));
                }
            }
            InstKind::Assume { cond } => match ev(s, cond) {
                Value::Int { v: 0, .. } => return Err(Status::Discarded),
                Value::Int { .. } => {}
                _ => {
                    return unsupported(format!("an unknown value decides an assumption{}", here()))
                }
            },
            InstKind::Nondet { dst, ty, is_bool } => {
                if !(*is_bool || *ty == Ty::Int(1)) {
                    self.restricted(|| {
                        format!("an input takes only a few candidate values{}", here())
                    })?;
                }
                // Named after the variable that gets it: a parameter of an `--entry` function
                // (the harness names the input after it) or the variable a
                // `__VERIFIER_nondet_*` result is assigned to.
                kind = Some(self.take_input(s, t, *dst, *ty, *is_bool, alt, None));
            }
            InstKind::Havoc {
                dst,
                clobbers_memory,
                reason,
            } => {
                if *clobbers_memory {
                    return unsupported(format!("{reason}{}", here()));
                }
                let func = self.top(s, t).func;
                let v = match dst.and_then(|d| self.tls_addrs.get(&(func, d))) {
                    // `llvm.threadlocal.address`: the running thread's copy (C's meaning).
                    Some(&g) => self.eval(s, t, &Operand::GlobalAddr(g, 0)),
                    None => Value::Unknown,
                };
                self.set_opt(s, t, *dst, v);
            }
        }
        self.hooks(s).after_inst(self, s, t, inst, visible);
        self.advance(s, t);
        Ok(kind)
    }
}
