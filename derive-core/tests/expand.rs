//! Expansion snapshots: each `tests/expand/<name>.rs` at the workspace root is expanded
//! and pretty-printed (with `rustfmt`) and compared with `<name>.expanded.rs` next to it,
//! reviewed like code. A struct with a `#[derive(…)]` shows what `#[derive(Lift)]`
//! generates for it; an `impl` block with `#[autodiff]` its methods' rules. `LIFTED_BLESS=1 cargo test -p lifted-derive-core --test expand`
//! rewrites the snapshots after a deliberate change.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use quote::ToTokens;

fn expand_file(path: &Path) -> String {
    let src = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file: syn::File =
        syn::parse_file(&src).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = proc_macro2::TokenStream::new();
    for item in file.items {
        if let syn::Item::Struct(s) = &item
            && s.attrs.iter().any(|a| a.path().is_ident("derive"))
        {
            out.extend(lifted_derive_core::derive_lift(s.to_token_stream()));
            continue;
        }
        if let syn::Item::Impl(mut block) = item {
            let Some(pos) = block
                .attrs
                .iter()
                .position(|a| a.path().is_ident("autodiff"))
            else {
                continue;
            };
            let attr = block.attrs.remove(pos);
            let args = match attr.meta {
                syn::Meta::List(list) => list.tokens,
                _ => proc_macro2::TokenStream::new(),
            };
            out.extend(lifted_derive_core::autodiff(
                args,
                block.into_token_stream(),
            ));
            continue;
        }
        let syn::Item::Fn(mut func) = item else {
            continue;
        };
        let Some(pos) = func
            .attrs
            .iter()
            .position(|a| a.path().is_ident("autodiff"))
        else {
            continue;
        };
        let attr = func.attrs.remove(pos);
        let args = match attr.meta {
            syn::Meta::List(list) => list.tokens,
            _ => proc_macro2::TokenStream::new(),
        };
        out.extend(lifted_derive_core::autodiff(args, func.into_token_stream()));
    }
    rustfmt(&out.to_string())
}

fn rustfmt(code: &str) -> String {
    let mut child = Command::new("rustfmt")
        .args(["--edition", "2024", "--emit", "stdout"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("rustfmt is needed to pretty-print expansions");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(code.as_bytes())
        .expect("write to rustfmt");
    let out = child.wait_with_output().expect("rustfmt output");
    assert!(out.status.success(), "rustfmt failed on:\n{code}");
    String::from_utf8(out.stdout).expect("utf-8")
}

fn cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/expand");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/expand exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == "rs")
                && !p.to_string_lossy().ends_with(".expanded.rs")
        })
        .collect();
    cases.sort();
    cases
}

#[test]
fn expansions_match_snapshots() {
    let bless = std::env::var_os("LIFTED_BLESS").is_some();
    let cases = cases();
    assert!(
        cases.len() >= 10,
        "expected at least 10 expansion cases, found {}",
        cases.len()
    );
    let mut stale = Vec::new();
    for case in cases {
        let got = expand_file(&case);
        let snapshot = case.with_extension("expanded.rs");
        let want = std::fs::read_to_string(&snapshot).unwrap_or_default();
        if got != want {
            if bless {
                std::fs::write(&snapshot, &got).expect("write snapshot");
            } else {
                stale.push(format!("{}\n--- got ---\n{got}", snapshot.display()));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "expansions differ from snapshots (LIFTED_BLESS=1 to accept):\n{}",
        stale.join("\n")
    );
}
