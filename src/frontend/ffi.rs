//! Thin, copyable handles over llvm-sys references, with the queries the lowering needs.
//!
//! Invariant: a handle is only created from a reference of the module being lowered, and the
//! module (and its context) outlives every handle; so every query below is sound even though
//! the handles are plain pointers. Nothing here leaves the front end.

use crate::ir::MemOrder;
use std::ffi::{c_char, c_uint, CStr};

use llvm_sys::core as c;
use llvm_sys::debuginfo::{self as di, LLVMMetadataKind};
use llvm_sys::prelude::{
    LLVMBasicBlockRef, LLVMContextRef, LLVMMetadataRef, LLVMModuleRef, LLVMTypeRef, LLVMValueRef,
};
use llvm_sys::target::{self as t, LLVMTargetDataRef};
use llvm_sys::{LLVMOpcode, LLVMTypeKind, LLVMValueKind};

/// Copies a (pointer, length) string returned by LLVM into an owned `String`.
fn lossy(ptr: *const c_char, len: usize) -> String {
    if ptr.is_null() || len == 0 {
        return String::new();
    }
    // SAFETY: LLVM returned `len` readable bytes at `ptr`.
    let bytes = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// Copies and frees a message LLVM allocated (`LLVMPrint*ToString`).
fn take_message(ptr: *mut c_char) -> String {
    if ptr.is_null() {
        return String::new();
    }
    // SAFETY: LLVM returned a NUL-terminated string that we own.
    let s = unsafe { CStr::from_ptr(ptr) }
        .to_string_lossy()
        .into_owned();
    // SAFETY: allocated by LLVM, freed once.
    unsafe { c::LLVMDisposeMessage(ptr) };
    s
}

/// A value of the module (instruction, argument, constant, global, metadata wrapper).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Val(pub LLVMValueRef);

/// A type of the module's context.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Type(pub LLVMTypeRef);

/// A basic block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Bb(pub LLVMBasicBlockRef);

/// Walks an LLVM intrusive list given the first element and a `next` function.
fn walk<R: Copy, T>(
    first: R,
    next: unsafe extern "C" fn(R) -> R,
    is_null: fn(R) -> bool,
    wrap: fn(R) -> T,
) -> Vec<T> {
    let mut out = Vec::new();
    let mut cur = first;
    while !is_null(cur) {
        out.push(wrap(cur));
        // SAFETY: `cur` is a live element of the list.
        cur = unsafe { next(cur) };
    }
    out
}

/// Every function of the module, in order.
pub(crate) fn functions(m: LLVMModuleRef) -> Vec<Val> {
    // SAFETY: `m` is a live module.
    let first = unsafe { c::LLVMGetFirstFunction(m) };
    walk(first, c::LLVMGetNextFunction, |p| p.is_null(), Val)
}

/// Every global variable of the module, in order.
pub(crate) fn globals(m: LLVMModuleRef) -> Vec<Val> {
    // SAFETY: `m` is a live module.
    let first = unsafe { c::LLVMGetFirstGlobal(m) };
    walk(first, c::LLVMGetNextGlobal, |p| p.is_null(), Val)
}

/// The named struct type `name` of the module's context (`union.pthread_mutex_t`), if any.
pub(crate) fn named_type(m: LLVMModuleRef, name: &str) -> Option<Type> {
    let name = std::ffi::CString::new(name).ok()?;
    // SAFETY: `m` is a live module; the name is NUL-terminated; the type lives as long as the
    // module's context.
    let ty = unsafe { c::LLVMGetTypeByName2(c::LLVMGetModuleContext(m), name.as_ptr()) };
    (!ty.is_null()).then_some(Type(ty))
}

/// The module's data layout (owned by the module).
pub(crate) fn data_layout(m: LLVMModuleRef) -> LLVMTargetDataRef {
    // SAFETY: `m` is a live module; the result lives as long as it.
    unsafe { t::LLVMGetModuleDataLayout(m) }
}

impl Val {
    /// Whether the handle is null.
    pub fn is_null(self) -> bool {
        self.0.is_null()
    }

    /// The value's kind.
    pub fn kind(self) -> LLVMValueKind {
        // SAFETY: live value.
        unsafe { c::LLVMGetValueKind(self.0) }
    }

    /// Its type.
    pub fn ty(self) -> Type {
        // SAFETY: live value.
        Type(unsafe { c::LLVMTypeOf(self.0) })
    }

    /// Its LLVM name (may be empty).
    pub fn name(self) -> String {
        let mut len = 0usize;
        // SAFETY: live value; LLVM returns `len` bytes.
        let p = unsafe { c::LLVMGetValueName2(self.0, &mut len) };
        lossy(p, len)
    }

    /// The assembly text of an inline `asm` value.
    pub fn inline_asm_text(self) -> String {
        let mut len = 0usize;
        // SAFETY: live InlineAsm value (checked by the caller); LLVM returns `len` bytes.
        let p = unsafe { c::LLVMGetInlineAsmAsmString(self.0, &mut len) };
        lossy(p, len)
    }

    /// Its textual IR form (for diagnostics and the rare wide constant).
    pub fn print(self) -> String {
        // SAFETY: live value.
        take_message(unsafe { c::LLVMPrintValueToString(self.0) })
    }

    /// Whether the value has at least one use.
    pub fn has_uses(self) -> bool {
        // SAFETY: live value.
        !unsafe { c::LLVMGetFirstUse(self.0) }.is_null()
    }

    /// The users of the value (instructions and constants), once per use.
    pub fn users(self) -> Vec<Val> {
        let mut out = Vec::new();
        // SAFETY: live value; the use list is walked without changing the module.
        let mut u = unsafe { c::LLVMGetFirstUse(self.0) };
        while !u.is_null() {
            // SAFETY: `u` is a live use of this value.
            out.push(Val(unsafe { c::LLVMGetUser(u) }));
            // SAFETY: as above.
            u = unsafe { c::LLVMGetNextUse(u) };
        }
        out
    }

    /// The number of operands of a user (instruction or constant expression).
    pub fn num_operands(self) -> u32 {
        // SAFETY: live value.
        let n = unsafe { c::LLVMGetNumOperands(self.0) };
        u32::try_from(n).unwrap_or(0)
    }

    /// Operand `i` (null if out of range).
    pub fn operand(self, i: u32) -> Val {
        if i >= self.num_operands() {
            return Val(std::ptr::null_mut());
        }
        // SAFETY: live user, index in range.
        Val(unsafe { c::LLVMGetOperand(self.0, i) })
    }

    /// Whether this is an instruction.
    pub fn is_instruction(self) -> bool {
        self.kind() == LLVMValueKind::LLVMInstructionValueKind
    }

    /// The opcode of an instruction.
    pub fn opcode(self) -> LLVMOpcode {
        // SAFETY: live instruction.
        unsafe { c::LLVMGetInstructionOpcode(self.0) }
    }

    /// The opcode of a constant expression.
    pub fn const_opcode(self) -> LLVMOpcode {
        // SAFETY: live constant expression.
        unsafe { c::LLVMGetConstOpcode(self.0) }
    }

    /// A sign-extended `ConstantInt` of at most 64 bits.
    pub fn const_sext(self) -> i64 {
        // SAFETY: live ConstantInt.
        unsafe { c::LLVMConstIntGetSExtValue(self.0) }
    }

    /// A `ConstantFP`'s value.
    pub fn const_double(self) -> f64 {
        let mut loses = 0;
        // SAFETY: live ConstantFP.
        unsafe { c::LLVMConstRealGetDouble(self.0, &mut loses) }
    }

    /// The initializer of a global variable (null for a declaration).
    pub fn initializer(self) -> Val {
        // SAFETY: live global variable.
        Val(unsafe { c::LLVMGetInitializer(self.0) })
    }

    /// The aliasee of a global alias.
    pub fn aliasee(self) -> Val {
        // SAFETY: live global alias.
        Val(unsafe { c::LLVMAliasGetAliasee(self.0) })
    }

    /// Whether a global value is a declaration (no body, no initializer).
    pub fn is_declaration(self) -> bool {
        // SAFETY: live global value.
        unsafe { c::LLVMIsDeclaration(self.0) != 0 }
    }

    /// Whether a global value has internal or private linkage.
    pub fn is_internal(self) -> bool {
        use llvm_sys::LLVMLinkage::*;
        // SAFETY: live global value.
        let l = unsafe { c::LLVMGetLinkage(self.0) };
        matches!(l, LLVMInternalLinkage | LLVMPrivateLinkage)
    }

    /// Whether a global variable is thread-local (`__thread`, `_Thread_local`).
    pub fn is_thread_local(self) -> bool {
        // SAFETY: live global variable.
        unsafe { c::LLVMIsThreadLocal(self.0) != 0 }
    }

    /// Whether a global variable is constant.
    pub fn is_global_constant(self) -> bool {
        // SAFETY: live global variable.
        unsafe { c::LLVMIsGlobalConstant(self.0) != 0 }
    }

    /// The section a global is placed in (`.init_array`), if the source names one.
    pub fn section(self) -> Option<String> {
        // SAFETY: live global value; LLVM returns a NUL-terminated string it owns, or null.
        let p = unsafe { c::LLVMGetSection(self.0) };
        if p.is_null() {
            return None;
        }
        // SAFETY: non-null, NUL-terminated, alive as long as the module.
        let s = unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned();
        (!s.is_empty()).then_some(s)
    }

    /// The value type of a global (the pointee).
    pub fn global_value_type(self) -> Type {
        // SAFETY: live global value.
        Type(unsafe { c::LLVMGlobalGetValueType(self.0) })
    }

    /// The parameters of a function.
    pub fn params(self) -> Vec<Val> {
        // SAFETY: live function.
        let n = unsafe { c::LLVMCountParams(self.0) };
        // SAFETY: index in range.
        (0..n)
            .map(|i| Val(unsafe { c::LLVMGetParam(self.0, i) }))
            .collect()
    }

    /// The basic blocks of a function, in layout order (entry first).
    pub fn blocks(self) -> Vec<Bb> {
        // SAFETY: live function.
        let first = unsafe { c::LLVMGetFirstBasicBlock(self.0) };
        walk(first, c::LLVMGetNextBasicBlock, |p| p.is_null(), Bb)
    }

    /// Whether a function (or call site, when `call` is set) has the enum attribute `name`.
    pub fn has_fn_attr(self, name: &str, call: bool) -> bool {
        // SAFETY: reads a static table.
        let kind = unsafe { c::LLVMGetEnumAttributeKindForName(name.as_ptr().cast(), name.len()) };
        if kind == 0 {
            return false;
        }
        let idx = llvm_sys::LLVMAttributeFunctionIndex;
        // SAFETY: live function or call instruction.
        let attr = unsafe {
            if call {
                c::LLVMGetCallSiteEnumAttribute(self.0, idx, kind)
            } else {
                c::LLVMGetEnumAttributeAtIndex(self.0, idx, kind)
            }
        };
        !attr.is_null()
    }

    /// The called operand of a call, invoke or callbr.
    pub fn called_value(self) -> Val {
        // SAFETY: live call-like instruction.
        Val(unsafe { c::LLVMGetCalledValue(self.0) })
    }

    /// The argument operands of a call, invoke or callbr.
    pub fn call_args(self) -> Vec<Val> {
        // SAFETY: live call-like instruction.
        let n = unsafe { c::LLVMGetNumArgOperands(self.0) };
        (0..n).map(|i| self.operand(i)).collect()
    }

    /// Successors of a terminator.
    pub fn successors(self) -> Vec<Bb> {
        // SAFETY: live terminator.
        let n = unsafe { c::LLVMGetNumSuccessors(self.0) };
        // SAFETY: index in range.
        (0..n)
            .map(|i| Bb(unsafe { c::LLVMGetSuccessor(self.0, i) }))
            .collect()
    }

    /// Whether a `br` is conditional.
    pub fn is_conditional(self) -> bool {
        // SAFETY: live branch.
        unsafe { c::LLVMIsConditional(self.0) != 0 }
    }

    /// The condition of a conditional `br` (only `br`: the scrutinee of a switch is operand 0).
    pub fn condition(self) -> Val {
        // SAFETY: live branch/switch.
        Val(unsafe { c::LLVMGetCondition(self.0) })
    }

    /// The incoming (value, block) pairs of a phi.
    pub fn incoming(self) -> Vec<(Val, Bb)> {
        // SAFETY: live phi.
        let n = unsafe { c::LLVMCountIncoming(self.0) };
        (0..n)
            .map(|i| {
                // SAFETY: index in range.
                unsafe {
                    (
                        Val(c::LLVMGetIncomingValue(self.0, i)),
                        Bb(c::LLVMGetIncomingBlock(self.0, i)),
                    )
                }
            })
            .collect()
    }

    /// The integer predicate of an `icmp`.
    pub fn icmp_predicate(self) -> llvm_sys::LLVMIntPredicate {
        // SAFETY: live icmp.
        unsafe { c::LLVMGetICmpPredicate(self.0) }
    }

    /// The source element type of a GEP (instruction or constant expression).
    pub fn gep_source_type(self) -> Type {
        // SAFETY: live GEP operator.
        Type(unsafe { c::LLVMGetGEPSourceElementType(self.0) })
    }

    /// The allocated type of an `alloca`.
    pub fn allocated_type(self) -> Type {
        // SAFETY: live alloca.
        Type(unsafe { c::LLVMGetAllocatedType(self.0) })
    }

    /// The constant indices of an `extractvalue`/`insertvalue`.
    pub fn indices(self) -> Vec<u32> {
        // SAFETY: live extractvalue/insertvalue.
        let n = unsafe { c::LLVMGetNumIndices(self.0) };
        // SAFETY: as above; LLVM returns `n` indices.
        let p = unsafe { c::LLVMGetIndices(self.0) };
        if p.is_null() || n == 0 {
            return Vec::new();
        }
        // SAFETY: `n` readable entries.
        unsafe { std::slice::from_raw_parts(p, n as usize) }.to_vec()
    }

    /// The memory order of a load, store or atomicrmw.
    pub fn memory_order(self) -> MemOrder {
        // SAFETY: live memory instruction.
        mem_order(unsafe { c::LLVMGetOrdering(self.0) })
    }

    /// The memory order of a `cmpxchg` when it exchanges.
    pub fn cmpxchg_order(self) -> MemOrder {
        // SAFETY: live cmpxchg.
        mem_order(unsafe { c::LLVMGetCmpXchgSuccessOrdering(self.0) })
    }

    /// The operation of an `atomicrmw`.
    pub fn rmw_op(self) -> llvm_sys::LLVMAtomicRMWBinOp {
        // SAFETY: live atomicrmw.
        unsafe { c::LLVMGetAtomicRMWBinOp(self.0) }
    }

    /// The default destination of a `switch`.
    pub fn switch_default(self) -> Bb {
        // SAFETY: live switch.
        Bb(unsafe { c::LLVMGetSwitchDefaultDest(self.0) })
    }

    /// Raw bytes of a `ConstantDataSequential` of `i8` (strings).
    pub fn as_bytes(self) -> Vec<u8> {
        let mut len = 0usize;
        // SAFETY: live ConstantDataSequential; LLVM returns `len` bytes.
        let p = unsafe { c::LLVMGetAsString(self.0, &mut len) };
        if p.is_null() {
            return Vec::new();
        }
        // SAFETY: `len` readable bytes.
        unsafe { std::slice::from_raw_parts(p.cast::<u8>(), len) }.to_vec()
    }

    /// Element `i` of a constant aggregate (null if none).
    pub fn aggregate_element(self, i: u32) -> Val {
        // SAFETY: live constant.
        Val(unsafe { c::LLVMGetAggregateElement(self.0, i) })
    }

    /// Source line of an instruction, function or global (0 when unknown).
    pub fn debug_line(self) -> u32 {
        // SAFETY: live instruction, function or global variable (callers guarantee it).
        unsafe { c::LLVMGetDebugLocLine(self.0) }
    }

    /// Source column of an instruction (0 when unknown).
    pub fn debug_col(self) -> u32 {
        if !self.is_instruction() {
            return 0;
        }
        // SAFETY: live instruction.
        unsafe { c::LLVMGetDebugLocColumn(self.0) }
    }

    /// (directory, file name) of the debug location of an instruction, function or global.
    pub fn debug_file(self) -> (String, String) {
        let mut dl: c_uint = 0;
        let mut fl: c_uint = 0;
        // SAFETY: live instruction, function or global variable.
        let d = unsafe { c::LLVMGetDebugLocDirectory(self.0, &mut dl) };
        // SAFETY: as above.
        let f = unsafe { c::LLVMGetDebugLocFilename(self.0, &mut fl) };
        (lossy(d, dl as usize), lossy(f, fl as usize))
    }

    /// The metadata wrapped by a `MetadataAsValue` operand, with its kind.
    pub fn metadata_kind(self) -> Option<llvm_sys::debuginfo::LLVMMetadataKind> {
        if self.is_null() || self.kind() != LLVMValueKind::LLVMMetadataAsValueValueKind {
            return None;
        }
        // SAFETY: live MetadataAsValue; LLVMValueAsMetadata unwraps it.
        let md = unsafe { c::LLVMValueAsMetadata(self.0) };
        if md.is_null() {
            return None;
        }
        // SAFETY: live metadata.
        Some(unsafe { llvm_sys::debuginfo::LLVMGetMetadataKind(md) })
    }

    /// The value inside `metadata <value>` (function-local metadata), if it is one.
    pub fn local_metadata_value(self) -> Option<Val> {
        use llvm_sys::debuginfo::LLVMMetadataKind::*;
        match self.metadata_kind()? {
            LLVMLocalAsMetadataMetadataKind => {
                // SAFETY: LLVMGetOperand(MAV, 0) returns the wrapped value of a ValueAsMetadata.
                let v = Val(unsafe { c::LLVMGetOperand(self.0, 0) });
                (!v.is_null()).then_some(v)
            }
            _ => None,
        }
    }

    /// The node a `MetadataAsValue` wraps (`metadata !DILocalVariable(..)`), if it is one.
    pub fn metadata_node(self) -> Option<Md> {
        match node_of_value(self.0) {
            MdOperand::Node(n) => Some(n),
            _ => None,
        }
    }

    /// The `!dbg` attachment of a global variable (its `DIGlobalVariableExpression`), if any.
    pub fn global_debug_info(self) -> Option<Md> {
        let mut n = 0usize;
        // SAFETY: a global variable is a GlobalObject.
        let list = unsafe { c::LLVMGlobalCopyAllMetadata(self.0, &mut n) };
        if list.is_null() {
            return None;
        }
        let mut found = None;
        for i in 0..n {
            // SAFETY: `i` is below the number of entries LLVM returned.
            let kind = unsafe { c::LLVMValueMetadataEntriesGetKind(list, i as c_uint) };
            // SAFETY: as above.
            let md = unsafe { c::LLVMValueMetadataEntriesGetMetadata(list, i as c_uint) };
            // Kind 0 is `dbg` (LLVMContext::MD_dbg, fixed).
            if kind == 0 && found.is_none() && !md.is_null() && Md::kind_of(md).is_some() {
                found = Some(Md(md));
            }
        }
        // SAFETY: allocated by LLVM, freed once.
        unsafe { c::LLVMDisposeValueMetadataEntries(list) };
        found
    }

    /// The `name:` of a `DILocalVariable` wrapped as a value.
    pub fn di_variable_name(self) -> Option<String> {
        use llvm_sys::debuginfo::LLVMMetadataKind::*;
        if !matches!(self.metadata_kind()?, LLVMDILocalVariableMetadataKind) {
            return None;
        }
        // SAFETY: a DILocalVariable is an MDNode.
        let n = unsafe { c::LLVMGetMDNodeNumOperands(self.0) };
        if n < 2 {
            return None;
        }
        let mut ops = vec![std::ptr::null_mut(); n as usize];
        // SAFETY: `ops` has room for every operand.
        unsafe { c::LLVMGetMDNodeOperands(self.0, ops.as_mut_ptr()) };
        // Operand 1 of a DIVariable is its name (an MDString).
        let name = ops[1];
        if name.is_null() {
            return None;
        }
        let mut len: c_uint = 0;
        // SAFETY: live metadata value; returns null when it is not an MDString.
        let p = unsafe { c::LLVMGetMDString(name, &mut len) };
        let s = lossy(p, len as usize);
        (!s.is_empty()).then_some(s)
    }
}

impl Bb {
    /// The instructions of the block, in order.
    pub fn instructions(self) -> Vec<Val> {
        // SAFETY: live block.
        let first = unsafe { c::LLVMGetFirstInstruction(self.0) };
        walk(first, c::LLVMGetNextInstruction, |p| p.is_null(), Val)
    }

    /// The block's terminator (null for a malformed block).
    pub fn terminator(self) -> Val {
        // SAFETY: live block.
        Val(unsafe { c::LLVMGetBasicBlockTerminator(self.0) })
    }
}

impl Type {
    /// Its kind.
    pub fn kind(self) -> LLVMTypeKind {
        // SAFETY: live type.
        unsafe { c::LLVMGetTypeKind(self.0) }
    }

    /// The width of an integer type.
    pub fn int_width(self) -> u32 {
        // SAFETY: live integer type.
        unsafe { c::LLVMGetIntTypeWidth(self.0) }
    }

    /// Whether the type has a size (scalable vectors count as unsized here).
    pub fn is_sized(self) -> bool {
        if self.kind() == LLVMTypeKind::LLVMScalableVectorTypeKind {
            return false;
        }
        // SAFETY: live type.
        unsafe { c::LLVMTypeIsSized(self.0) != 0 }
    }

    /// Element type of an array or vector.
    pub fn element(self) -> Type {
        // SAFETY: live array or vector type.
        Type(unsafe { c::LLVMGetElementType(self.0) })
    }

    /// Length of an array type.
    pub fn array_len(self) -> u64 {
        // SAFETY: live array type.
        unsafe { c::LLVMGetArrayLength2(self.0) }
    }

    /// Field types of a struct.
    pub fn struct_fields(self) -> Vec<Type> {
        // SAFETY: live struct type.
        let n = unsafe { c::LLVMCountStructElementTypes(self.0) };
        // SAFETY: index in range.
        (0..n)
            .map(|i| Type(unsafe { c::LLVMStructGetTypeAtIndex(self.0, i) }))
            .collect()
    }

    /// The name of a named struct type (`struct.device`); empty for literal structs.
    pub fn struct_name(self) -> String {
        // SAFETY: live struct type; the name (if any) is a NUL-terminated string LLVM owns.
        let p = unsafe { c::LLVMGetStructName(self.0) };
        if p.is_null() {
            return String::new();
        }
        // SAFETY: see above.
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    }

    /// The return type of a function type.
    pub fn return_type(self) -> Type {
        // SAFETY: live function type.
        Type(unsafe { c::LLVMGetReturnType(self.0) })
    }

    /// Whether a function type is variadic.
    pub fn is_vararg(self) -> bool {
        // SAFETY: live function type.
        unsafe { c::LLVMIsFunctionVarArg(self.0) != 0 }
    }

    /// The textual form of the type.
    pub fn print(self) -> String {
        // SAFETY: live type.
        take_message(unsafe { c::LLVMPrintTypeToString(self.0) })
    }
}

/// Size and offset queries against the module's data layout.
#[derive(Clone, Copy)]
pub(crate) struct DataLayout(pub LLVMTargetDataRef);

impl DataLayout {
    /// ABI allocation size (with tail padding) of a sized type.
    pub fn alloc_size(self, ty: Type) -> u64 {
        if !ty.is_sized() {
            return 0;
        }
        // SAFETY: live data layout and sized type.
        unsafe { t::LLVMABISizeOfType(self.0, ty.0) }
    }

    /// Store size (bytes actually written) of a sized type.
    pub fn store_size(self, ty: Type) -> u64 {
        if !ty.is_sized() {
            return 0;
        }
        // SAFETY: live data layout and sized type.
        unsafe { t::LLVMStoreSizeOfType(self.0, ty.0) }
    }

    /// Byte offset of field `i` of a sized struct type.
    pub fn field_offset(self, ty: Type, i: u32) -> u64 {
        // SAFETY: live data layout, sized struct type, index checked by callers.
        unsafe { t::LLVMOffsetOfElement(self.0, ty.0, i) }
    }

    /// Pointer size in bytes (address space 0).
    pub fn pointer_size(self) -> u32 {
        // SAFETY: live data layout.
        unsafe { t::LLVMPointerSize(self.0) }
    }
}

/// A metadata node of the module (an `MDNode`: a tuple or a debug-info node).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Md(LLVMMetadataRef);

/// What [`Md::operands`] finds in one operand of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MdOperand {
    /// Another node.
    Node(Md),
    /// No operand (`null`).
    Null,
    /// A string, a value (`i32 1`, `ptr @g`) or an argument list.
    Other,
}

/// The metadata an LLVM value wraps, when it is a `MetadataAsValue` of a node.
fn node_of_value(v: LLVMValueRef) -> MdOperand {
    if v.is_null() {
        return MdOperand::Null;
    }
    // SAFETY: live value.
    if unsafe { c::LLVMGetValueKind(v) } != LLVMValueKind::LLVMMetadataAsValueValueKind {
        // A constant operand (`ConstantAsMetadata`) comes back as the constant itself.
        return MdOperand::Other;
    }
    // SAFETY: live MetadataAsValue; unwrapping creates nothing.
    let md = unsafe { c::LLVMValueAsMetadata(v) };
    if md.is_null() {
        return MdOperand::Null;
    }
    match Md::kind_of(md) {
        Some(_) => MdOperand::Node(Md(md)),
        None => MdOperand::Other,
    }
}

impl Md {
    /// The kind of `md` when it is a node (an `MDNode`); `None` for strings, values, argument
    /// lists and placeholders, which have no operands to walk.
    fn kind_of(md: LLVMMetadataRef) -> Option<LLVMMetadataKind> {
        use LLVMMetadataKind::*;
        // SAFETY: live metadata.
        match unsafe { di::LLVMGetMetadataKind(md) } {
            LLVMMDStringMetadataKind
            | LLVMConstantAsMetadataMetadataKind
            | LLVMLocalAsMetadataMetadataKind
            | LLVMDistinctMDOperandPlaceholderMetadataKind
            | LLVMDIArgListMetadataKind => None,
            k => Some(k),
        }
    }

    /// The node's kind.
    pub fn kind(self) -> LLVMMetadataKind {
        Md::kind_of(self.0).expect("an Md is a node")
    }

    /// The DWARF tag of a debug-info type (`DIDerivedType`, `DICompositeType`).
    pub fn tag(self) -> u16 {
        // SAFETY: live DINode (callers check the kind).
        unsafe { di::LLVMGetDINodeTag(self.0) }
    }

    /// The `name:` of a debug-info type (empty when it has none).
    pub fn type_name(self) -> String {
        let mut len = 0usize;
        // SAFETY: live DIType (callers check the kind).
        let p = unsafe { di::LLVMDITypeGetName(self.0, &mut len) };
        if p.is_null() || len == 0 {
            return String::new();
        }
        // SAFETY: LLVM returned `len` readable bytes at `p`.
        let bytes = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), len) };
        escaped(bytes)
    }

    /// The `offset:` of a debug-info type, in bits.
    pub fn type_offset_bits(self) -> u64 {
        // SAFETY: live DIType (callers check the kind).
        unsafe { di::LLVMDITypeGetOffsetInBits(self.0) }
    }

    /// Whether a debug-info type has `DIFlagBitField`.
    pub fn is_bit_field(self) -> bool {
        // SAFETY: live DIType (callers check the kind).
        let flags = unsafe { di::LLVMDITypeGetFlags(self.0) };
        flags & di::LLVMDIFlagBitField != 0
    }

    /// Its textual form (`!5 = !DIBasicType(name: "unsigned int", size: 32, encoding:
    /// DW_ATE_unsigned)`): the one way the C API shows a basic type's encoding.
    pub fn print(self, ctx: LLVMContextRef) -> String {
        // SAFETY: live node; the wrapper is owned by the context.
        let v = unsafe { c::LLVMMetadataAsValue(ctx, self.0) };
        Val(v).print()
    }

    /// The operands of the node, in order.
    pub fn operands(self, ctx: LLVMContextRef) -> Vec<MdOperand> {
        // SAFETY: live node; the wrapper is owned by the context.
        let v = unsafe { c::LLVMMetadataAsValue(ctx, self.0) };
        // SAFETY: a MetadataAsValue of an MDNode.
        let n = unsafe { c::LLVMGetMDNodeNumOperands(v) };
        let mut ops = vec![std::ptr::null_mut(); n as usize];
        // SAFETY: `ops` has room for every operand.
        unsafe { c::LLVMGetMDNodeOperands(v, ops.as_mut_ptr()) };
        ops.into_iter().map(node_of_value).collect()
    }
}

/// A metadata string as the textual IR prints it between quotes: printable ASCII but `\` and
/// `"` as it is, every other byte as `\XX` (two upper-case hex digits).
fn escaped(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if (0x20..0x7f).contains(&b) && b != b'\\' && b != b'"' {
            out.push(b as char);
        } else {
            out.push('\\');
            out.push(char::from(b"0123456789ABCDEF"[(b >> 4) as usize]));
            out.push(char::from(b"0123456789ABCDEF"[(b & 15) as usize]));
        }
    }
    out
}

/// Every metadata node the module references, each once: those of named metadata, the
/// attachments of global variables, functions and instructions (debug locations included),
/// and the metadata operands of calls (`llvm.dbg.*`), with every node reachable from them
/// through operands. These are the nodes the textual IR of the module lists.
pub(crate) fn metadata_nodes(m: LLVMModuleRef) -> Vec<Md> {
    // SAFETY: `m` is a live module.
    let ctx = unsafe { c::LLVMGetModuleContext(m) };
    let mut roots: Vec<Md> = Vec::new();
    let entries =
        |list: *mut llvm_sys::prelude::LLVMValueMetadataEntry, n: usize, roots: &mut Vec<Md>| {
            for i in 0..n {
                // SAFETY: `i` is below the number of entries LLVM returned.
                let md = unsafe { c::LLVMValueMetadataEntriesGetMetadata(list, i as c_uint) };
                if !md.is_null() && Md::kind_of(md).is_some() {
                    roots.push(Md(md));
                }
            }
            if !list.is_null() {
                // SAFETY: allocated by LLVM, freed once.
                unsafe { c::LLVMDisposeValueMetadataEntries(list) };
            }
        };
    // SAFETY: `m` is a live module; the named nodes belong to it.
    let mut named = unsafe { c::LLVMGetFirstNamedMetadata(m) };
    while !named.is_null() {
        let mut len = 0usize;
        // SAFETY: live named node.
        let name = unsafe { c::LLVMGetNamedMetadataName(named, &mut len) };
        // SAFETY: `len` bytes at `name`.
        let name = unsafe { std::slice::from_raw_parts(name.cast::<u8>(), len) };
        if let Ok(name) = std::ffi::CString::new(name) {
            // SAFETY: live module, NUL-terminated name.
            let n = unsafe { c::LLVMGetNamedMetadataNumOperands(m, name.as_ptr()) };
            let mut ops = vec![std::ptr::null_mut(); n as usize];
            // SAFETY: `ops` has room for every operand.
            unsafe { c::LLVMGetNamedMetadataOperands(m, name.as_ptr(), ops.as_mut_ptr()) };
            roots.extend(ops.into_iter().filter_map(|v| match node_of_value(v) {
                MdOperand::Node(n) => Some(n),
                _ => None,
            }));
        }
        // SAFETY: live named node.
        named = unsafe { c::LLVMGetNextNamedMetadata(named) };
    }
    for g in globals(m).into_iter().chain(functions(m)) {
        let mut n = 0usize;
        // SAFETY: a global variable or function is a GlobalObject.
        let list = unsafe { c::LLVMGlobalCopyAllMetadata(g.0, &mut n) };
        entries(list, n, &mut roots);
    }
    for f in functions(m) {
        for b in f.blocks() {
            for i in b.instructions() {
                let mut n = 0usize;
                // SAFETY: live instruction.
                let list =
                    unsafe { c::LLVMInstructionGetAllMetadataOtherThanDebugLoc(i.0, &mut n) };
                entries(list, n, &mut roots);
                // SAFETY: live instruction.
                let loc = unsafe { di::LLVMInstructionGetDebugLoc(i.0) };
                if !loc.is_null() && Md::kind_of(loc).is_some() {
                    roots.push(Md(loc));
                }
                if i.opcode() == LLVMOpcode::LLVMCall {
                    for k in 0..i.num_operands() {
                        if let MdOperand::Node(n) = node_of_value(i.operand(k).0) {
                            roots.push(n);
                        }
                    }
                }
            }
        }
    }
    let mut seen: std::collections::HashSet<Md> = std::collections::HashSet::new();
    let mut out = Vec::new();
    while let Some(n) = roots.pop() {
        if !seen.insert(n) {
            continue;
        }
        out.push(n);
        for op in n.operands(ctx) {
            if let MdOperand::Node(o) = op {
                if !seen.contains(&o) {
                    roots.push(o);
                }
            }
        }
    }
    out
}

/// C11's name for an LLVM atomic ordering (`unordered` orders no more than relaxed).
fn mem_order(o: llvm_sys::LLVMAtomicOrdering) -> MemOrder {
    use llvm_sys::LLVMAtomicOrdering::*;
    match o {
        LLVMAtomicOrderingNotAtomic => MemOrder::NotAtomic,
        LLVMAtomicOrderingUnordered | LLVMAtomicOrderingMonotonic => MemOrder::Relaxed,
        LLVMAtomicOrderingAcquire => MemOrder::Acquire,
        LLVMAtomicOrderingRelease => MemOrder::Release,
        LLVMAtomicOrderingAcquireRelease => MemOrder::AcqRel,
        LLVMAtomicOrderingSequentiallyConsistent => MemOrder::SeqCst,
    }
}
