//! Integration tests of `lifted` live in `tests/`; this library holds shared helpers
//! and the book's chapters as doc-tests.

pub mod alloc_counter;
pub mod constructs;
pub mod handle_reading;
pub mod points;
pub mod rules;

/// The book's "Introduction" chapter; its examples run as doc-tests.
#[doc = include_str!("../../book/src/introduction.md")]
pub mod book_introduction {}

/// The book's "Concepts" chapter; its examples run as doc-tests.
#[doc = include_str!("../../book/src/concepts.md")]
pub mod book_concepts {}

/// The book's "Design" chapter; its examples run as doc-tests.
#[doc = include_str!("../../book/src/design.md")]
pub mod book_design {}

/// The book's "Writing differentiable functions" chapter; its examples run as doc-tests.
#[doc = include_str!("../../book/src/writing-functions.md")]
pub mod book_writing_functions {}

/// The book's "Structs and methods" chapter; its examples run as doc-tests.
#[doc = include_str!("../../book/src/structs.md")]
pub mod book_structs {}

/// The book's "Hand-written rules" chapter; its examples run as doc-tests.
#[doc = include_str!("../../book/src/hand-written-rules.md")]
pub mod book_hand_written_rules {}

/// The book's "Linear algebra" chapter; its examples run as doc-tests.
#[doc = include_str!("../../book/src/linalg.md")]
pub mod book_linalg {}

/// The book's "Drivers" chapter; its examples run as doc-tests.
#[doc = include_str!("../../book/src/drivers.md")]
pub mod book_drivers {}

/// The book's "Physics-informed residuals" chapter; its examples run as doc-tests.
#[doc = include_str!("../../book/src/pinn.md")]
pub mod book_pinn {}
/// The book's "Higher order and Taylor mode" chapter; its examples run as doc-tests.
#[doc = include_str!("../../book/src/taylor.md")]
pub mod book_taylor {}

/// The book's "Mixed second derivatives: HyperDual" chapter; its examples run as
/// doc-tests.
#[doc = include_str!("../../book/src/hyper_dual.md")]
pub mod book_hyper_dual {}

/// The book's "Design: the macro and its readings" chapter; its examples run as doc-tests.
#[doc = include_str!("../../book/src/design-macro.md")]
pub mod book_design_macro {}

/// The book's "GPU" chapter; its examples are compiled as doc-tests (the device ones
/// are `no_run`: CI has no GPU).
#[doc = include_str!("../../book/src/gpu.md")]
pub mod book_gpu {}

/// The book's "Element-wise array functions" chapter; its examples run as doc-tests.
#[doc = include_str!("../../book/src/elementwise.md")]
pub mod book_elementwise {}

/// The book's "Sparse Jacobians" chapter; its examples run as doc-tests.
#[doc = include_str!("../../book/src/sparse.md")]
pub mod book_sparse {}
