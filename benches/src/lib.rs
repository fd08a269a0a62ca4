//! Shared inputs of the benchmarks: the seeded generator and workloads W1–W3.
