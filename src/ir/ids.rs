//! Dense ids. Each is an index into one `Vec` of the program or of a function.

macro_rules! dense_id {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct $name(pub u32);

        impl $name {
            /// The index this id stands for.
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl From<usize> for $name {
            #[inline]
            fn from(i: usize) -> Self {
                $name(u32::try_from(i).expect("id overflow"))
            }
        }
    };
}

dense_id!(
    /// A function of the program (`Program::funcs`).
    FuncId
);
dense_id!(
    /// A basic block of one function (`Function::blocks`); block 0 is the entry.
    BlockId
);
dense_id!(
    /// An SSA value of one function (`Function::vars`).
    VarId
);
dense_id!(
    /// A global variable (`Program::globals`).
    GlobalId
);
dense_id!(
    /// A memory object (`Program::objects`).
    ObjId
);
dense_id!(
    /// An assertion site (`Program::asserts`).
    AssertId
);
