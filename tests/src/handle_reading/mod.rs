//! A reading written from outside the crate whose values are `Copy` handles into a
//! thread-local arena, as the pattern and tape readings will be: every operation on a
//! node handle records a node (operation, inputs, primal) in the arena of the innermost
//! open scope, [`Tape::record`]. Constants are handles too but carry their value, so
//! `Default`, `Zero`, `One`, `cst` and `Reading::constant` need no arena.
//!
//! `errors` says what can go wrong, this file holds the handle, the arena and its
//! scopes and the recorded graph, `impls` the traits that make the handle a reading
//! (`tests/tests/handle_reading.rs` runs derived rules at it).

mod errors;

pub use errors::{EvalError, TapeError};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::iter::{Product, Sum};
use std::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};
use std::sync::atomic::{AtomicU32, Ordering as AtomicOrdering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use lifted::{IntoReading, Reading, Real, ToPrimal};
/// Calls `$m!` with the one-argument float methods of `Real`, so the operation enum,
/// the replay and the trait methods are stamped from one list.
macro_rules! with_unary {
    ($m:ident) => {
        $m! {
            sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh
            exp exp2 exp_m1 ln log2 log10 ln_1p sqrt cbrt abs signum recip
            to_degrees to_radians floor ceil round trunc fract
        }
    };
}

/// Calls `$m!` with the two-argument float methods of `Real`.
macro_rules! with_binary {
    ($m:ident) => {
        $m! { atan2 log powf hypot copysign min max rem_euclid div_euclid }
    };
}

macro_rules! unary_enum {
    ($($name:ident)*) => {
        /// A one-argument operation: unary minus and the float methods of `Real`.
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Unary {
            /// `-x`.
            neg,
            $(
                #[doc = concat!("`f64::", stringify!($name), "`.")]
                $name,
            )*
        }

        impl Unary {
            /// The method's name.
            pub fn name(self) -> &'static str {
                match self {
                    Self::neg => "neg",
                    $(Self::$name => stringify!($name),)*
                }
            }

            /// The operation on plain `f64`.
            pub fn apply(self, x: f64) -> f64 {
                match self {
                    Self::neg => -x,
                    $(Self::$name => f64::$name(x),)*
                }
            }
        }
    };
}

macro_rules! binary_enum {
    ($($name:ident)*) => {
        /// A two-argument operation: the five operators and the float methods of `Real`.
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Binary {
            /// `a + b`.
            add,
            /// `a - b`.
            sub,
            /// `a * b`.
            mul,
            /// `a / b`.
            div,
            /// `a % b`.
            rem,
            $(
                #[doc = concat!("`f64::", stringify!($name), "`.")]
                $name,
            )*
        }

        impl Binary {
            /// The operator's or method's name.
            pub fn name(self) -> &'static str {
                match self {
                    Self::add => "add",
                    Self::sub => "sub",
                    Self::mul => "mul",
                    Self::div => "div",
                    Self::rem => "rem",
                    $(Self::$name => stringify!($name),)*
                }
            }

            /// The operation on plain `f64`, operands in recorded order.
            pub fn apply(self, a: f64, b: f64) -> f64 {
                match self {
                    Self::add => a + b,
                    Self::sub => a - b,
                    Self::mul => a * b,
                    Self::div => a / b,
                    Self::rem => a % b,
                    $(Self::$name => f64::$name(a, b),)*
                }
            }
        }
    };
}

with_unary!(unary_enum);
with_binary!(binary_enum);

/// What a node computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// An independent input ([`Tape::input`]).
    Input,
    /// A one-argument operation.
    Unary(Unary),
    /// A two-argument operation.
    Binary(Binary),
    /// `x.powi(n)`.
    Powi(i32),
    /// `x.mul_add(a, b)`.
    MulAdd,
    /// `x.clamp(lo, hi)`.
    Clamp,
    /// A hand-written primitive through `Reading::compose`: only its value is known.
    Compose,
}

impl Op {
    /// The name graphs are counted by.
    pub fn name(self) -> &'static str {
        match self {
            Self::Input => "input",
            Self::Unary(u) => u.name(),
            Self::Binary(b) => b.name(),
            Self::Powi(_) => "powi",
            Self::MulAdd => "mul_add",
            Self::Clamp => "clamp",
            Self::Compose => "compose",
        }
    }
}

/// An argument of a node: an earlier node of the same tape or a constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arg {
    /// The node at this index.
    Node(u32),
    /// A constant operand, stored in place (constants never become nodes).
    Const(f64),
}

/// One recorded operation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Node {
    op: Op,
    args: [Arg; 3],
    arity: u8,
    value: f64,
}

impl Node {
    /// What the node computes.
    pub fn op(&self) -> Op {
        self.op
    }

    /// Its arguments, in operand order (`c - x` keeps the constant first).
    pub fn args(&self) -> &[Arg] {
        &self.args[..usize::from(self.arity)]
    }

    /// The primal value it had when recorded.
    pub fn value(&self) -> f64 {
        self.value
    }
}

/// A value of the handle reading.
///
/// `Copy` plain data, as `Real` demands; a node handle names its tape, so a use
/// outside that tape's scope is detected rather than read from another arena.
#[derive(Clone, Copy, Debug)]
pub enum Var {
    /// A constant: no node, no arena.
    Const(f64),
    /// Node `index` of tape `tape`.
    Node {
        /// The tape (one per scope, never reused).
        tape: u32,
        /// The node's index on that tape.
        index: u32,
    },
    /// The result of an operation that met an unusable handle; every later
    /// operation on it fails the same way.
    Poison(TapeError),
}

/// One open scope's arena.
struct Arena {
    id: u32,
    nodes: Vec<Node>,
    error: Option<TapeError>,
}

thread_local! {
    /// The open scopes of this thread, innermost last.
    static SCOPES: RefCell<Vec<Arena>> = const { RefCell::new(Vec::new()) };
}

/// Tape ids are never reused, so a handle cannot alias a later scope's node.
static NEXT_TAPE: AtomicU32 = AtomicU32::new(1);

/// The ids of every scope open on any thread: what tells a handle of another
/// thread's open scope from one whose scope has ended. Touched when a scope opens or
/// closes and when a handle fails, never on the recording path.
static LIVE: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

fn live() -> MutexGuard<'static, BTreeSet<u32>> {
    // The set stays consistent whatever panicked while holding it.
    LIVE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Runs `f` on this thread's scopes; `Unavailable` instead of a panic when the
/// thread-local is gone (thread teardown) or already borrowed.
fn with_scopes<R>(f: impl FnOnce(&mut Vec<Arena>) -> R) -> Result<R, TapeError> {
    SCOPES
        .try_with(|s| match s.try_borrow_mut() {
            Ok(mut s) => Ok(f(&mut s)),
            Err(_) => Err(TapeError::Unavailable),
        })
        .unwrap_or(Err(TapeError::Unavailable))
}

/// Why node `node` of tape `tape` is not usable in the innermost scope.
fn classify(tape: u32, node: u32, scopes: &[Arena]) -> TapeError {
    if scopes.iter().any(|a| a.id == tape) {
        TapeError::OuterScope { tape, node }
    } else if live().contains(&tape) {
        TapeError::ForeignThread { tape, node }
    } else {
        TapeError::Stale { tape, node }
    }
}

/// The primal of `v` as the innermost scope sees it.
fn resolve(v: Var, scopes: &[Arena]) -> Result<f64, TapeError> {
    match v {
        Var::Const(c) => Ok(c),
        Var::Poison(e) => Err(e),
        Var::Node { tape, index } => match scopes.last() {
            Some(top) if top.id == tape => top
                .nodes
                .get(index as usize)
                .map(Node::value)
                .ok_or(TapeError::Stale { tape, node: index }),
            _ => Err(classify(tape, index, scopes)),
        },
    }
}

/// Fails the innermost scope with `e` (the first error wins).
fn note(scopes: &mut [Arena], e: TapeError) {
    if let Some(top) = scopes.last_mut() {
        top.error.get_or_insert(e);
    }
}

/// Applies `eval` to the primals of `args`: folded to a constant when every argument
/// is one (no arena), recorded as a node otherwise, poisoned (and the innermost
/// scope failed) when an argument is unusable.
fn record(op: Op, args: &[Var], eval: impl FnOnce(&[f64]) -> f64) -> Var {
    let mut vals = [0.0; 3];
    if args.iter().all(|a| matches!(a, Var::Const(_))) {
        for (slot, a) in vals.iter_mut().zip(args) {
            if let Var::Const(c) = a {
                *slot = *c;
            }
        }
        return Var::Const(eval(&vals[..args.len()]));
    }
    let outcome = with_scopes(|scopes| {
        let mut stored = [Arg::Const(0.0); 3];
        for ((slot, arg), &a) in vals.iter_mut().zip(&mut stored).zip(args) {
            match resolve(a, scopes) {
                Ok(v) => *slot = v,
                Err(e) => {
                    note(scopes, e);
                    return Err(e);
                }
            }
            *arg = match a {
                Var::Node { index, .. } => Arg::Node(index),
                _ => Arg::Const(*slot),
            };
        }
        // Every node argument resolved, so the innermost scope exists.
        let top = scopes.last_mut().ok_or(TapeError::NoScope)?;
        let Ok(index) = u32::try_from(top.nodes.len()) else {
            top.error.get_or_insert(TapeError::Exhausted);
            return Err(TapeError::Exhausted);
        };
        let value = eval(&vals[..args.len()]);
        top.nodes.push(Node {
            op,
            args: stored,
            arity: args.len() as u8,
            value,
        });
        Ok(Var::Node {
            tape: top.id,
            index,
        })
    });
    match outcome {
        Ok(Ok(v)) => v,
        Ok(Err(e)) | Err(e) => Var::Poison(e),
    }
}

/// Opens and closes recording scopes.
pub struct Tape;

impl Tape {
    /// Runs `f` in a fresh scope and returns its result with the graph it recorded,
    /// or the first error any operation in it met. Scopes nest; each records its
    /// own graph, and the handles of one are unusable in another.
    ///
    /// # Errors
    /// A [`TapeError`] when an operation inside used a handle of an ended scope,
    /// of another thread's scope or of an enclosing scope, or when the arena ran out.
    pub fn record<T>(f: impl FnOnce() -> T) -> Result<(T, Graph), TapeError> {
        let id = NEXT_TAPE
            .fetch_update(AtomicOrdering::Relaxed, AtomicOrdering::Relaxed, |n| {
                n.checked_add(1)
            })
            .map_err(|_| TapeError::Exhausted)?;
        live().insert(id);
        if let Err(e) = with_scopes(|s| {
            s.push(Arena {
                id,
                nodes: Vec::new(),
                error: None,
            });
        }) {
            live().remove(&id);
            return Err(e);
        }
        // Closes the scope even when `f` unwinds, so the thread is left with no
        // half-open arena.
        let mut guard = Guard { id, open: true };
        let out = f();
        let arena = guard.close()?;
        match arena.error {
            Some(e) => Err(e),
            None => Ok((
                out,
                Graph {
                    tape: id,
                    nodes: arena.nodes,
                },
            )),
        }
    }

    /// A new independent input of the innermost scope; poisoned with
    /// [`TapeError::NoScope`] outside any scope.
    pub fn input(x: f64) -> Var {
        let made = with_scopes(|scopes| {
            let top = scopes.last_mut().ok_or(TapeError::NoScope)?;
            let index = u32::try_from(top.nodes.len()).map_err(|_| TapeError::Exhausted)?;
            top.nodes.push(Node {
                op: Op::Input,
                args: [Arg::Const(0.0); 3],
                arity: 0,
                value: x,
            });
            Ok(Var::Node {
                tape: top.id,
                index,
            })
        });
        match made {
            Ok(Ok(v)) => v,
            Ok(Err(e)) | Err(e) => Var::Poison(e),
        }
    }

    /// One input per element, in order.
    pub fn inputs(xs: &[f64]) -> Vec<Var> {
        xs.iter().map(|&x| Self::input(x)).collect()
    }
}

struct Guard {
    id: u32,
    open: bool,
}

impl Guard {
    fn close(&mut self) -> Result<Arena, TapeError> {
        self.open = false;
        live().remove(&self.id);
        let id = self.id;
        with_scopes(|s| s.iter().rposition(|a| a.id == id).map(|i| s.remove(i)))?
            .ok_or(TapeError::Unavailable)
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if self.open {
            let _ = self.close();
        }
    }
}

/// The nodes one scope recorded, in order (every argument precedes its node).
#[derive(Clone, Debug)]
pub struct Graph {
    tape: u32,
    nodes: Vec<Node>,
}

impl Graph {
    /// The tape id of the scope that recorded it.
    pub fn tape(&self) -> u32 {
        self.tape
    }

    /// The nodes, in recording order.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The number of nodes of each operation, by name.
    pub fn counts(&self) -> BTreeMap<&'static str, usize> {
        let mut out = BTreeMap::new();
        for n in &self.nodes {
            *out.entry(n.op.name()).or_insert(0) += 1;
        }
        out
    }

    /// The node a handle names.
    ///
    /// # Errors
    /// When `v` is a constant, poisoned, or a node of another tape.
    pub fn node(&self, v: Var) -> Result<&Node, EvalError> {
        match v {
            Var::Node { tape, index } if tape == self.tape => self
                .nodes
                .get(index as usize)
                .ok_or(EvalError::Malformed { node: index }),
            Var::Node { tape, .. } => Err(EvalError::NotInGraph {
                tape,
                graph: self.tape,
            }),
            Var::Poison(e) => Err(EvalError::Poisoned(e)),
            Var::Const(_) => Err(EvalError::NotInGraph {
                tape: 0,
                graph: self.tape,
            }),
        }
    }

    /// The recorded primal of `v` (a constant's own value).
    ///
    /// # Errors
    /// When `v` is poisoned or a node of another tape.
    pub fn value(&self, v: Var) -> Result<f64, EvalError> {
        match v {
            Var::Const(c) => Ok(c),
            v => self.node(v).map(Node::value),
        }
    }

    /// Re-evaluates every node from `inputs` (one per input node, in recording
    /// order) and returns the values of `outputs`.
    ///
    /// # Errors
    /// On a wrong input count, a `compose` node, a `clamp` out of its domain, or an
    /// output not of this graph.
    pub fn replay(&self, inputs: &[f64], outputs: &[Var]) -> Result<Vec<f64>, EvalError> {
        let expected = self.nodes.iter().filter(|n| n.op == Op::Input).count();
        if expected != inputs.len() {
            return Err(EvalError::InputCount {
                expected,
                got: inputs.len(),
            });
        }
        let mut next_input = inputs.iter();
        let mut values: Vec<f64> = Vec::with_capacity(self.nodes.len());
        for (i, n) in self.nodes.iter().enumerate() {
            let node = i as u32;
            let mut a = [0.0; 3];
            for (slot, arg) in a.iter_mut().zip(n.args()) {
                *slot = match *arg {
                    Arg::Const(c) => c,
                    Arg::Node(j) => *values
                        .get(j as usize)
                        .ok_or(EvalError::Malformed { node })?,
                };
            }
            let v = match n.op {
                Op::Input => *next_input.next().ok_or(EvalError::InputCount {
                    expected,
                    got: inputs.len(),
                })?,
                Op::Unary(u) => u.apply(a[0]),
                Op::Binary(b) => b.apply(a[0], a[1]),
                Op::Powi(k) => a[0].powi(k),
                Op::MulAdd => a[0].mul_add(a[1], a[2]),
                Op::Clamp if a[1] <= a[2] => a[0].clamp(a[1], a[2]),
                Op::Clamp => return Err(EvalError::Domain { node }),
                Op::Compose => return Err(EvalError::Opaque { node }),
            };
            values.push(v);
        }
        outputs
            .iter()
            .map(|&o| match o {
                Var::Const(c) => Ok(c),
                Var::Node { index, .. } => {
                    self.node(o)?;
                    values
                        .get(index as usize)
                        .copied()
                        .ok_or(EvalError::Malformed { node: index })
                }
                Var::Poison(e) => Err(EvalError::Poisoned(e)),
            })
            .collect()
    }
}

impl Var {
    /// The primal, read from the innermost scope's arena; an unusable handle fails
    /// that scope as an operation would.
    ///
    /// # Errors
    /// Why the handle is not usable here.
    pub fn value(self) -> Result<f64, TapeError> {
        match self {
            Var::Const(c) => Ok(c),
            Var::Poison(e) => Err(e),
            v => with_scopes(|scopes| {
                let r = resolve(v, scopes);
                if let Err(e) = r {
                    note(scopes, e);
                }
                r
            })?,
        }
    }

    /// The primal for the trait methods that must answer a plain `f64`: NaN for an
    /// unusable handle (whose scope, if any, has then failed).
    fn primal(self) -> f64 {
        self.value().unwrap_or(f64::NAN)
    }

    fn unary(self, u: Unary) -> Self {
        record(Op::Unary(u), &[self], |v| u.apply(v[0]))
    }

    fn binary(self, b: Binary, rhs: Self) -> Self {
        record(Op::Binary(b), &[self, rhs], |v| b.apply(v[0], v[1]))
    }
}

// Declared after the macros above, which it uses.
mod impls;
