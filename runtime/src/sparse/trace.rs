//! The tape a pattern run writes: which inputs each value depends on, as a graph of
//! unions over the inputs, and the outcomes of the decisions taken on input-dependent
//! values. One per thread, active while a pattern run is.
//!
//! A value's set is a handle (`u32`): `0` the empty set (a constant), `1..=leaves`
//! input `h − 1` alone, above that the union node `h − leaves − 1`. A union costs one
//! push, whatever the sizes of its operands, so a run costs about what the primal
//! does; the sets are read out once, at the outputs ([`rows`]).

use core::cell::RefCell;
use core::panic::Location;
use core::sync::atomic::{AtomicBool, Ordering};

/// The empty set: a value that depends on no input.
pub(crate) const EMPTY: u32 = 0;

/// What a pattern run does with the decisions it meets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// No run on this thread.
    Off,
    /// Sets are recorded; a decision on an input-dependent value cannot be taken for
    /// every input, and the first one is reported.
    Global,
    /// Sets are recorded; decisions are taken at the point and their outcomes kept.
    Local,
    /// No sets (only whether a value depends on an input at all); decisions are
    /// compared with the outcomes kept by a local run.
    Check,
}

/// The tape of one thread.
struct Tape {
    phase: Phase,
    leaves: u32,
    nodes: Vec<[u32; 2]>,
    /// Local: the outcomes, in order. Check: the outcomes expected.
    decisions: Vec<u64>,
    /// Check: the next expected outcome.
    cursor: usize,
    /// Global: the first decision that could not be taken. Check: the first that
    /// differed.
    issue: Option<&'static Location<'static>>,
    /// More values than handles can number.
    overflow: bool,
}

thread_local! {
    static TAPE: RefCell<Tape> = const {
        RefCell::new(Tape {
            phase: Phase::Off,
            leaves: 0,
            nodes: Vec::new(),
            decisions: Vec::new(),
            cursor: 0,
            issue: None,
            overflow: false,
        })
    };
}

/// Set when input-dependent values meet on a thread with no run (a rule that hands
/// work to other threads): their sets cannot be recorded.
static OFF_THREAD: AtomicBool = AtomicBool::new(false);

/// The union of two sets.
#[inline]
pub(crate) fn union(a: u32, b: u32) -> u32 {
    if a == b || b == EMPTY {
        return a;
    }
    if a == EMPTY {
        return b;
    }
    TAPE.with_borrow_mut(|t| match t.phase {
        Phase::Global | Phase::Local => {
            let handle = u64::from(t.leaves) + 1 + t.nodes.len() as u64;
            match u32::try_from(handle) {
                Ok(h) => {
                    t.nodes.push([a, b]);
                    h
                }
                Err(_) => {
                    t.overflow = true;
                    a
                }
            }
        }
        Phase::Check => a,
        Phase::Off => {
            OFF_THREAD.store(true, Ordering::Relaxed);
            a
        }
    })
}

/// The union of three sets.
#[inline]
pub(crate) fn union3(a: u32, b: u32, c: u32) -> u32 {
    union(union(a, b), c)
}

/// A decision taken on values whose sets are `a` and `b`, with `outcome` at the point.
#[inline]
#[track_caller]
pub(crate) fn decide(a: u32, b: u32, outcome: u64) {
    if a == EMPTY && b == EMPTY {
        return;
    }
    let place = Location::caller();
    TAPE.with_borrow_mut(|t| match t.phase {
        Phase::Global => {
            t.issue.get_or_insert(place);
        }
        Phase::Local => t.decisions.push(outcome),
        Phase::Check => {
            let expected = t.decisions.get(t.cursor).copied();
            t.cursor += 1;
            if expected != Some(outcome) {
                t.issue.get_or_insert(place);
            }
        }
        Phase::Off => {}
    });
}

/// One pattern run on this thread; the tape is reset when it ends, however it ends.
pub(crate) struct Run {
    _not_send: core::marker::PhantomData<*const ()>,
}

/// What a run left.
pub(crate) struct Recorded {
    pub(crate) nodes: Vec<[u32; 2]>,
    pub(crate) decisions: Vec<u64>,
    /// Check: whether as many decisions were taken as were expected.
    pub(crate) complete: bool,
    pub(crate) issue: Option<&'static Location<'static>>,
    pub(crate) overflow: bool,
    pub(crate) off_thread: bool,
}

impl Run {
    /// Starts a run of `phase` over `leaves` inputs; `decisions` are the outcomes a
    /// check compares with (empty otherwise), and their buffer is handed back by
    /// [`finish`](Self::finish). Gives `decisions` back when a run is already active
    /// on this thread (a rule that computes a pattern inside itself).
    pub(crate) fn start(phase: Phase, leaves: u32, decisions: Vec<u64>) -> Result<Self, Vec<u64>> {
        TAPE.with_borrow_mut(|t| {
            if t.phase != Phase::Off {
                return Err(decisions);
            }
            t.phase = phase;
            t.leaves = leaves;
            t.nodes.clear();
            t.decisions = decisions;
            if phase != Phase::Check {
                t.decisions.clear();
            }
            t.cursor = 0;
            t.issue = None;
            t.overflow = false;
            OFF_THREAD.store(false, Ordering::Relaxed);
            Ok(Run {
                _not_send: core::marker::PhantomData,
            })
        })
    }

    /// Ends the run and takes what it recorded.
    pub(crate) fn finish(self) -> Recorded {
        TAPE.with_borrow_mut(|t| Recorded {
            nodes: core::mem::take(&mut t.nodes),
            complete: t.cursor == t.decisions.len(),
            decisions: core::mem::take(&mut t.decisions),
            issue: t.issue,
            overflow: t.overflow,
            off_thread: OFF_THREAD.load(Ordering::Relaxed),
        })
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        TAPE.with_borrow_mut(|t| {
            t.phase = Phase::Off;
            t.nodes = Vec::new();
            t.decisions = Vec::new();
        });
    }
}

/// The sorted input indices each output's set holds, as CSR rows: `(row_ptr,
/// col_idx)`. Each output's graph is walked once, every node and input marked so that
/// shared subgraphs are not walked twice.
pub(crate) fn rows(nodes: &[[u32; 2]], leaves: u32, outputs: &[u32]) -> (Vec<usize>, Vec<usize>) {
    let leaves_n = leaves as usize;
    let mut mark = vec![u32::MAX; leaves_n + 1 + nodes.len()];
    let mut stack = Vec::new();
    let mut row_ptr = Vec::with_capacity(outputs.len() + 1);
    let mut col_idx = Vec::new();
    row_ptr.push(0);
    for (row, &out) in outputs.iter().enumerate() {
        let stamp = row as u32;
        let start = col_idx.len();
        stack.push(out);
        while let Some(h) = stack.pop() {
            let hu = h as usize;
            if h == EMPTY || mark[hu] == stamp {
                continue;
            }
            mark[hu] = stamp;
            if hu <= leaves_n {
                col_idx.push(hu - 1);
            } else {
                let [a, b] = nodes[hu - leaves_n - 1];
                stack.push(a);
                stack.push(b);
            }
        }
        col_idx[start..].sort_unstable();
        row_ptr.push(col_idx.len());
    }
    (row_ptr, col_idx)
}
