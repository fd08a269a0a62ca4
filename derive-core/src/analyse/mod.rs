//! Activity analysis over a function body: which names hold values that may depend on
//! the inputs (active: lifted), which are float values computed from constants only
//! (inactive: kept as plain floats, so constants cost no tangent arithmetic), and which
//! names are float arrays (whose indexing and iteration go through the array traits).
//!
//! Names are tracked per identifier, not per binding: a name that is active anywhere is
//! treated as active everywhere. That is conservative (an inactive binding may be lifted
//! needlessly), never wrong.
//!
//! The work falls in three parts: [`Scope`] holds the names and classifies expressions
//! against them, the predicates answer syntactic questions that need no fixed point,
//! and [`analyse`] walks the body until the sets stop changing.

mod pass;
mod predicates;
mod scope;
mod struct_types;

pub use pass::{analyse, concat_of_arrays, is_as_chunks};
pub use predicates::{FLOAT_METHODS, is_const_name, is_float_const_path, pat_idents, yields_views};
pub use scope::{ArrayKind, Class, Memo, Scope, is_ndarray_dot, is_rule_call, nested_rows};
pub use struct_types::{binary_output, binary_trait, neg_output};
