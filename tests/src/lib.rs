//! Integration tests of `lifted` live in `tests/`; this library holds shared helpers
//! and the book's chapters as doc-tests.
