//! The `FRule` contract every rule satisfies, hand-written or derived.
