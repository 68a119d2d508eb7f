//! What the front end tells the user about how it read the program, as data: the report words
//! it.
//!
//! Invariant: a note names only what the front end changed to accept C that gcc accepts (and
//! where it was first seen); clang's own words are kept as clang wrote them.

/// One note of the front end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrontendNote {
    /// `names` are defined in `input` as a variable or with another type, which clang takes
    /// for the C library's functions (gcc accepts it): it was compiled with
    /// `-fno-builtin-NAME` for each.
    ShadowedBuiltins {
        /// The input, as given.
        input: String,
        /// The names, in the order clang rejected them.
        names: Vec<String>,
    },
    /// `input` uses GCC's `__attribute__((malloc(deallocator)))` at `places` places, which
    /// clang rejects: they were dropped (they pair an allocator with its deallocator for gcc's
    /// warnings and change nothing the analysis models).
    DroppedMallocArguments {
        /// The input, as given.
        input: String,
        /// How many attributes were dropped.
        places: usize,
        /// The first place, as clang names it (`alloc.h:4:24`: where the attribute's name is
        /// spelled, in the macro that spelled it if one did).
        first: String,
    },
    /// C that gcc accepts, which clang compiled with a warning of `kind`.
    Lenient {
        /// Which warning.
        kind: Lenient,
        /// How many places clang warned about.
        places: usize,
        /// The first place, as clang names it (`f.c:2:26`).
        first: String,
        /// clang's message there, without its flag.
        message: String,
    },
}

/// The kinds of C that gcc accepts and clang compiles with a warning, which the front end
/// notes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lenient {
    /// `-Wimplicit-function-declaration`: a call of an undeclared function.
    ImplicitFunctionDeclaration,
    /// `-Wimplicit-int`: a declaration without a type.
    ImplicitInt,
    /// `-Wint-conversion`: an implicit conversion between a pointer and an integer.
    IntConversion,
    /// `-Wincompatible-function-pointer-types`: a function pointer of another type.
    IncompatibleFunctionPointerTypes,
}

impl Lenient {
    /// Every kind, in the order notes are made.
    pub const ALL: [Lenient; 4] = [
        Lenient::ImplicitFunctionDeclaration,
        Lenient::ImplicitInt,
        Lenient::IntConversion,
        Lenient::IncompatibleFunctionPointerTypes,
    ];

    /// The clang warning flag of the kind.
    pub fn flag(self) -> &'static str {
        match self {
            Lenient::ImplicitFunctionDeclaration => "-Wimplicit-function-declaration",
            Lenient::ImplicitInt => "-Wimplicit-int",
            Lenient::IntConversion => "-Wint-conversion",
            Lenient::IncompatibleFunctionPointerTypes => "-Wincompatible-function-pointer-types",
        }
    }
}
