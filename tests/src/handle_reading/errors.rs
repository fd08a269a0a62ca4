//! Why a handle cannot be used, and why a graph cannot be replayed.

use std::fmt;

/// Why a handle could not be used. `Copy` and small, so a failed operation can
/// return it inside a [`Var::Poison`] handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TapeError {
    /// Node `node` of tape `tape` was used after the scope that recorded it ended.
    Stale {
        /// The tape that recorded the node.
        tape: u32,
        /// The node's index on that tape.
        node: u32,
    },
    /// Node `node` of tape `tape` belongs to a scope open on another thread.
    ForeignThread {
        /// The tape that recorded the node.
        tape: u32,
        /// The node's index on that tape.
        node: u32,
    },
    /// Node `node` of tape `tape` belongs to an enclosing scope on this thread: each
    /// scope records its own graph, so handles do not cross into nested scopes.
    OuterScope {
        /// The tape that recorded the node.
        tape: u32,
        /// The node's index on that tape.
        node: u32,
    },
    /// An input was created outside any scope.
    NoScope,
    /// The thread's arena could not be reached (thread-local storage torn down).
    Unavailable,
    /// Tape ids or node indices ran out.
    Exhausted,
}

impl fmt::Display for TapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Stale { tape, node } => write!(
                f,
                "node {node} of tape {tape} was used after its scope ended"
            ),
            Self::ForeignThread { tape, node } => write!(
                f,
                "node {node} of tape {tape} belongs to a scope open on another thread"
            ),
            Self::OuterScope { tape, node } => write!(
                f,
                "node {node} of tape {tape} belongs to an enclosing scope, not the innermost one"
            ),
            Self::NoScope => f.write_str("an input was created outside any recording scope"),
            Self::Unavailable => f.write_str("this thread's arena is not reachable"),
            Self::Exhausted => f.write_str("tape ids or node indices ran out"),
        }
    }
}

impl std::error::Error for TapeError {}

/// Why a recorded graph could not be read or replayed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EvalError {
    /// The handle was poisoned when it was made.
    Poisoned(TapeError),
    /// The handle is a node of another tape.
    NotInGraph {
        /// The handle's tape.
        tape: u32,
        /// This graph's tape.
        graph: u32,
    },
    /// The replay was given a different number of inputs than the recording made.
    InputCount {
        /// Inputs the graph recorded.
        expected: usize,
        /// Inputs given.
        got: usize,
    },
    /// A node recorded from a hand-written primitive (`Reading::compose`) holds its
    /// value at the recorded point only, not the function, so it cannot be replayed.
    Opaque {
        /// The node's index.
        node: u32,
    },
    /// `clamp` met bounds out of order (or NaN) at the replayed inputs; the primal
    /// would panic there.
    Domain {
        /// The node's index.
        node: u32,
    },
    /// A node refers to one that does not precede it.
    Malformed {
        /// The node's index.
        node: u32,
    },
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Poisoned(e) => write!(f, "poisoned handle: {e}"),
            Self::NotInGraph { tape, graph } => {
                write!(
                    f,
                    "a node of tape {tape} read from the graph of tape {graph}"
                )
            }
            Self::InputCount { expected, got } => {
                write!(f, "the graph has {expected} inputs, {got} were given")
            }
            Self::Opaque { node } => write!(
                f,
                "node {node} came from a hand-written primitive and cannot be replayed"
            ),
            Self::Domain { node } => write!(f, "node {node}: clamp bounds out of order"),
            Self::Malformed { node } => write!(f, "node {node} refers forward"),
        }
    }
}

impl std::error::Error for EvalError {}
