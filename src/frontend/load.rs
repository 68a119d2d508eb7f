//! Reading every input into one LLVM module: compile C, parse `.ll`/`.bc`, verify, link, run
//! mem2reg, and switch the debug info to the intrinsic form the lowering reads.
//!
//! A function that calls a `returns_twice` function (`setjmp` and kin) keeps `optnone`
//! (`strip_optnone`), so that mem2reg leaves its allocas alone: its locals are stack objects, and a
//! local written between `setjmp` and `longjmp` is seen after the second return, as at `-O0`. Debug
//! info of an IR input is checked for cycles of derived types before mem2reg (`check_debug_types`).

use std::path::{Path, PathBuf};

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{
    CodeModel, InitializationConfig, RelocMode, Target, TargetMachine, TargetTriple,
};
use inkwell::values::AsValueRef;
use inkwell::OptimizationLevel;

use super::clang::{self, Clang};
use crate::config::Config;
use crate::error::InputError;

/// What kind of input a file is, by its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum InputKind {
    /// `.c` or `.i`: compiled by clang.
    C,
    /// `.ll`: textual IR.
    Text,
    /// `.bc`: bitcode.
    Bitcode,
}

fn classify(path: &Path) -> Option<InputKind> {
    let ext = path.extension()?.to_str()?;
    match ext {
        "c" | "i" => Some(InputKind::C),
        "ll" => Some(InputKind::Text),
        "bc" => Some(InputKind::Bitcode),
        _ => None,
    }
}

/// Whether `bytes` start like LLVM bitcode (raw or wrapped).
fn is_bitcode(bytes: &[u8]) -> bool {
    bytes.starts_with(b"BC\xC0\xDE") || bytes.starts_with(&[0xDE, 0xC0, 0x17, 0x0B])
}

/// Loads, links and prepares every input of `config` into one module of `ctx`.
pub(crate) fn load_module<'ctx>(
    ctx: &'ctx Context,
    config: &Config,
    notes: &mut Vec<crate::ir::FrontendNote>,
) -> Result<Module<'ctx>, InputError> {
    if config.inputs.is_empty() {
        return Err(InputError::Unsupported("no input file given".to_string()));
    }
    // Check every input before compiling anything, so that a typo is reported at once.
    let mut kinds = Vec::with_capacity(config.inputs.len());
    for path in &config.inputs {
        let kind = classify(path).ok_or_else(|| InputError::UnknownFileType(path.clone()))?;
        match std::fs::metadata(path) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(InputError::MissingFile(path.clone()))
            }
            Err(e) => return Err(InputError::Unreadable(path.clone(), e)),
        }
        kinds.push(kind);
    }
    let mut clang: Option<Clang> = None;
    let mut linked: Option<Module<'ctx>> = None;
    // What clang's diagnostics may quote (issue 33: a source may include any file).
    let roots = crate::confine::SourceRoots::of(config);
    for (path, kind) in config.inputs.iter().zip(kinds) {
        let bytes = match kind {
            InputKind::C => {
                // Unreadable sources give clang's own message otherwise; read them first.
                std::fs::read(path).map_err(|e| InputError::Unreadable(path.clone(), e))?;
                if clang.is_none() {
                    clang = Some(clang::find(config)?);
                }
                let Some(cl) = clang.as_ref() else {
                    return Err(InputError::ClangNotFound("clang lookup failed".to_string()));
                };
                // A compilation database's flags for this file come first, so that the
                // command line (`-- ARGS`) can override them.
                let mut args = config
                    .units
                    .get(path)
                    .map(|u| u.args.clone())
                    .unwrap_or_default();
                args.extend(config.clang_args.iter().cloned());
                let compiled = clang::compile(cl, path, &args, &roots)?;
                notes.extend(compiled.notes);
                compiled.bitcode
            }
            InputKind::Text | InputKind::Bitcode => {
                let bytes =
                    std::fs::read(path).map_err(|e| InputError::Unreadable(path.clone(), e))?;
                if kind == InputKind::Bitcode && !is_bitcode(&bytes) {
                    return Err(InputError::InvalidIr {
                        path: path.clone(),
                        message: "not an LLVM bitcode file (bad magic number)".to_string(),
                    });
                }
                // Untrusted IR may crash or hang LLVM: a child process reads it first.
                super::ir_check::read_in_child(path, &bytes)?;
                bytes
            }
        };
        let module = parse(ctx, path, &bytes)?;
        if kind != InputKind::C {
            check_debug_types(&module, path)?;
        }
        match &linked {
            None => linked = Some(module),
            Some(first) => first
                .link_in_module(module)
                .map_err(|e| InputError::InvalidIr {
                    path: path.clone(),
                    message: format!("cannot link: {}", e.to_string_lossy()),
                })?,
        }
    }
    let Some(module) = linked else {
        return Err(InputError::Unsupported("no input file given".to_string()));
    };
    prepare(&module);
    Ok(module)
}

/// What the child process of `ir_check` does with one IR input: everything the parent then
/// does with it (parse, verify, check the debug types, prepare, lower), so that whatever would
/// crash or hang there crashes or hangs the child first.
pub(crate) fn read_ir_alone(path: &Path, bytes: &[u8]) -> Result<(), InputError> {
    let context = Context::create();
    let module = parse(&context, path, bytes)?;
    check_debug_types(&module, path)?;
    prepare(&module);
    // The child reads no source file: it only has to survive the lowering.
    let _ = super::lower::lower_module(
        &module,
        crate::confine::SourceRoots::new(std::iter::empty()),
    );
    Ok(())
}

/// Makes a linked, verified module ready for the lowering.
fn prepare(module: &Module<'_>) {
    strip_optnone(module);
    run_mem2reg(module);
    use_debug_intrinsics(module);
}

/// Refuses debug info with a cycle of derived types (typedefs, qualifiers, members, pointers)
/// through `baseType`, which no C compiler emits and on which LLVM loops forever: mem2reg asks
/// a variable's size, and LLVM follows `baseType` until a type with a size, or a type that is
/// not a derived one. Iterative, each node visited once (a chain of any depth is walked without
/// recursion).
///
/// FIXME: LLVM's verifier, which runs while the module is parsed, asks the same size for a
/// variable described in fragments (`DW_OP_LLVM_fragment`), so such a cycle loops before this
/// check: in the binary the child process then runs out of time (exit 2 after 10 s); read
/// in-process (library use), it hangs.
fn check_debug_types(module: &Module<'_>, path: &Path) -> Result<(), InputError> {
    use super::ffi::{metadata_nodes, Md, MdOperand};
    use llvm_sys::core::{LLVMGetModuleContext, LLVMIsNewDbgInfoFormat, LLVMSetIsNewDbgInfoFormat};
    use llvm_sys::debuginfo::LLVMMetadataKind::LLVMDIDerivedTypeMetadataKind;
    use std::collections::HashMap;
    /// Where a node is in the walk: on the chain being followed, or known to end.
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Seen {
        OnChain,
        Ends,
    }
    // SAFETY: live module.
    let ctx = unsafe { LLVMGetModuleContext(module.as_mut_ptr()) };
    // A variable that only a debug record names (`#dbg_declare`, LLVM 19's default form) is
    // reached through its `llvm.dbg.declare` call: the intrinsic form, for the walk only.
    // SAFETY: live module; converting between the two forms keeps its meaning.
    let records = unsafe { LLVMIsNewDbgInfoFormat(module.as_mut_ptr()) } != 0;
    if records {
        // SAFETY: as above.
        unsafe { LLVMSetIsNewDbgInfoFormat(module.as_mut_ptr(), 0) };
    }
    let nodes = metadata_nodes(module.as_mut_ptr());
    if records {
        // SAFETY: as above.
        unsafe { LLVMSetIsNewDbgInfoFormat(module.as_mut_ptr(), 1) };
    }
    let mut seen: HashMap<Md, Seen> = HashMap::new();
    for start in nodes {
        let mut chain = Vec::new();
        let mut at = start;
        loop {
            match seen.get(&at) {
                Some(Seen::Ends) => break,
                Some(Seen::OnChain) => {
                    let name = at.type_name();
                    return Err(InputError::InvalidIr {
                        path: path.to_path_buf(),
                        message: format!(
                            "its debug info has a cycle of types through `baseType` (at the \
                             type {}), which LLVM would follow forever",
                            if name.is_empty() {
                                "without a name".to_string()
                            } else {
                                format!("`{name}`")
                            }
                        ),
                    });
                }
                None => {}
            }
            if !matches!(at.kind(), LLVMDIDerivedTypeMetadataKind) {
                break;
            }
            seen.insert(at, Seen::OnChain);
            chain.push(at);
            match at.operands(ctx).get(super::signedness::BASE_TYPE_OPERAND) {
                Some(MdOperand::Node(base)) => at = *base,
                _ => break,
            }
        }
        for n in chain {
            seen.insert(n, Seen::Ends);
        }
    }
    Ok(())
}

/// Parses IR text or bitcode and verifies it.
fn parse<'ctx>(ctx: &'ctx Context, path: &Path, bytes: &[u8]) -> Result<Module<'ctx>, InputError> {
    let name = path.display().to_string().replace('\0', "");
    let buf = MemoryBuffer::create_from_memory_range_copy(bytes, &name);
    let module = ctx
        .create_module_from_ir(buf)
        .map_err(|e| InputError::InvalidIr {
            path: path.to_path_buf(),
            message: e.to_string_lossy().into_owned(),
        })?;
    verify(&module, path)?;
    Ok(module)
}

/// Runs the LLVM verifier; a broken module would make later queries undefined.
fn verify(module: &Module<'_>, path: &Path) -> Result<(), InputError> {
    use llvm_sys::analysis::{LLVMVerifierFailureAction, LLVMVerifyModule};
    let mut msg: *mut std::ffi::c_char = std::ptr::null_mut();
    // SAFETY: live module; the message is freed below.
    let broken = unsafe {
        LLVMVerifyModule(
            module.as_mut_ptr(),
            LLVMVerifierFailureAction::LLVMReturnStatusAction,
            &mut msg,
        )
    } != 0;
    let text = if msg.is_null() {
        String::new()
    } else {
        // SAFETY: NUL-terminated message allocated by LLVM.
        let s = unsafe { std::ffi::CStr::from_ptr(msg) }
            .to_string_lossy()
            .into_owned();
        // SAFETY: freed once.
        unsafe { llvm_sys::core::LLVMDisposeMessage(msg) };
        s
    };
    if broken {
        return Err(InputError::InvalidIr {
            path: PathBuf::from(path),
            message: if text.is_empty() {
                "the module does not verify".to_string()
            } else {
                text
            },
        });
    }
    Ok(())
}

/// A target machine for the module's triple, else for the host.
fn target_machine(module: &Module<'_>) -> Option<TargetMachine> {
    Target::initialize_x86(&InitializationConfig::default());
    let make = |triple: &TargetTriple| {
        let target = Target::from_triple(triple).ok()?;
        target.create_target_machine(
            triple,
            "generic",
            "",
            OptimizationLevel::None,
            RelocMode::Default,
            CodeModel::Default,
        )
    };
    make(&module.get_triple()).or_else(|| make(&TargetMachine::get_default_triple()))
}

/// Removes `optnone` (what `clang -O0` puts on every function unless told
/// `-disable-O0-optnone`), which would make mem2reg skip the function; except in functions that
/// call a function that may return twice (`setjmp`), which get `optnone` (and `noinline`, which
/// `optnone` requires) so that mem2reg leaves their allocas alone.
///
/// Soundness: at `-O0` clang keeps every local in its stack slot, so a local written between
/// `setjmp` and `longjmp` holds its new value after the second return of `setjmp`. Promoted to
/// SSA values, the second return would see the values of the first (the jump edges of the
/// thread CFG carry the state at the `longjmp`, but an SSA value defined before the `setjmp`
/// and merged by a phi after it would lose the writes in between). Kept as stack objects, the
/// locals are memory cells, which the jump edges carry like every other cell.
fn strip_optnone(module: &Module<'_>) {
    use llvm_sys::core::{
        LLVMAddAttributeAtIndex, LLVMCreateEnumAttribute, LLVMGetEnumAttributeKindForName,
        LLVMGetModuleContext, LLVMRemoveEnumAttributeAtIndex,
    };
    let kind_of = |name: &str| {
        // SAFETY: reads a static table.
        unsafe { LLVMGetEnumAttributeKindForName(name.as_ptr().cast(), name.len()) }
    };
    let (optnone, noinline) = (kind_of("optnone"), kind_of("noinline"));
    if optnone == 0 {
        return;
    }
    // SAFETY: live module.
    let ctx = unsafe { LLVMGetModuleContext(module.as_mut_ptr()) };
    for f in module.get_functions() {
        let fv = super::ffi::Val(f.as_value_ref());
        if calls_returns_twice(fv) {
            for kind in [optnone, noinline] {
                if kind != 0 {
                    // SAFETY: live context and function; adding a present attribute replaces it.
                    unsafe {
                        let attr = LLVMCreateEnumAttribute(ctx, kind, 0);
                        LLVMAddAttributeAtIndex(
                            f.as_value_ref(),
                            llvm_sys::LLVMAttributeFunctionIndex,
                            attr,
                        );
                    }
                }
            }
            continue;
        }
        // SAFETY: live function; removing an absent attribute is a no-op.
        unsafe {
            LLVMRemoveEnumAttributeAtIndex(
                f.as_value_ref(),
                llvm_sys::LLVMAttributeFunctionIndex,
                optnone,
            )
        };
    }
}

/// Whether a function's body calls a function that may return twice (by name or attribute, as
/// the lowering recognises them in `calls`).
fn calls_returns_twice(f: super::ffi::Val) -> bool {
    use llvm_sys::{LLVMOpcode, LLVMValueKind};
    f.blocks().into_iter().any(|bb| {
        bb.instructions().into_iter().any(|i| {
            if !matches!(
                i.opcode(),
                LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke | LLVMOpcode::LLVMCallBr
            ) {
                return false;
            }
            if i.has_fn_attr("returns_twice", true) {
                return true;
            }
            let callee = i.called_value();
            !callee.is_null()
                && callee.kind() == LLVMValueKind::LLVMFunctionValueKind
                && (callee.has_fn_attr("returns_twice", false)
                    || super::library::classify(&callee.name())
                        .is_some_and(|l| l.props().returns_twice))
        })
    })
}

/// Promotes allocas to SSA values. If no target machine can be made, the module stays as it is
/// (allocas become stack objects: slower to analyse, still sound).
fn run_mem2reg(module: &Module<'_>) {
    if let Some(tm) = target_machine(module) {
        // A failure leaves the module valid and unpromoted.
        let _ = module.run_passes("mem2reg", &tm, PassBuilderOptions::create());
    }
}

/// LLVM 19 may keep debug info as records instead of `llvm.dbg.*` calls; convert back so that
/// variable names are visible as intrinsic calls.
fn use_debug_intrinsics(module: &Module<'_>) {
    use llvm_sys::core::{LLVMIsNewDbgInfoFormat, LLVMSetIsNewDbgInfoFormat};
    // SAFETY: live module.
    unsafe {
        if LLVMIsNewDbgInfoFormat(module.as_mut_ptr()) != 0 {
            LLVMSetIsNewDbgInfoFormat(module.as_mut_ptr(), 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::config::Config;
    use crate::error::InputError;

    /// A `.ll` whose local variable's type is the typedef `!5`, whose base type is `BASE`.
    const TEMPLATE: &str = r#"define i32 @main() !dbg !15 {
  %1 = alloca i32, align 4
    #dbg_declare(ptr %1, !19, !DIExpression(), !20)
  store i32 1, ptr %1, align 4, !dbg !20
  %2 = load i32, ptr %1, align 4, !dbg !20
  ret i32 %2, !dbg !20
}

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!8}
!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!3 = !DIFile(filename: "t.c", directory: "/tmp")
!5 = !DIDerivedType(tag: DW_TAG_typedef, name: "t0", file: !3, line: 1, baseType: BASE)
!6 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!8 = !{i32 2, !"Debug Info Version", i32 3}
!15 = distinct !DISubprogram(name: "main", scope: !3, file: !3, line: 3, type: !16, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !2)
!16 = !DISubroutineType(types: !17)
!17 = !{!6}
!19 = !DILocalVariable(name: "x", scope: !15, file: !3, line: 3, type: !5)
!20 = !DILocation(line: 3, column: 21, scope: !15)
!24 = !DIDerivedType(tag: DW_TAG_volatile_type, baseType: !5)
"#;

    fn load_ll(text: &str) -> Result<crate::ir::Program, InputError> {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("t.ll");
        std::fs::write(&path, text).expect("write");
        super::super::load(&Config::new(vec![path]))
    }

    /// Read in-process (as a library, without the child process), a cycle of debug types is
    /// refused before mem2reg, which would follow it forever.
    #[test]
    fn a_cycle_of_debug_types_is_refused_in_process() {
        assert!(load_ll(&TEMPLATE.replace("BASE", "!6")).is_ok());
        for base in ["!5", "!24"] {
            match load_ll(&TEMPLATE.replace("BASE", base)) {
                Err(InputError::InvalidIr { message, .. }) => {
                    assert!(message.contains("cycle of types"), "{message}")
                }
                other => panic!("{base}: {:?}", other.map(|_| ())),
            }
        }
    }
}
