//! No import cycles between the source files of `runtime/src` and `derive-core/src`.
//!
//! Each file is a module (`drivers/engine.rs` is `drivers::engine`, a `mod.rs` its
//! folder); a module depends on another when it names it through a `crate::`, `super::`
//! or `self::` path, in a `use` tree or anywhere in its code. A path through a name the
//! module re-exports (`crate::Real`, `crate::linalg::Operand`) counts as a path to the module that defines it.
//! Paths between a module and its own submodules are structure, not dependencies. A
//! cycle fails the test with the edges that close it, so the layers stay one-way.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Source text without comments, string and character literals.
fn code_of(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut depth = 0;
                while i < b.len() {
                    if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        i += 2;
                    } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
            }
            b'r' if b.get(i + 1) == Some(&b'#') || (b.get(i + 1) == Some(&b'"')) => {
                // A raw string: r"…" or r#"…"#.
                let mut j = i + 1;
                let mut hashes = 0;
                while b.get(j) == Some(&b'#') {
                    hashes += 1;
                    j += 1;
                }
                if b.get(j) != Some(&b'"')
                    || (i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
                {
                    out.push('r');
                    i += 1;
                    continue;
                }
                j += 1;
                let close: Vec<u8> = std::iter::once(b'"')
                    .chain(std::iter::repeat_n(b'#', hashes))
                    .collect();
                while j < b.len() && !b[j..].starts_with(&close) {
                    j += 1;
                }
                i = j + close.len();
                out.push_str("\"\"");
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            }
            b'\'' if b.get(i + 2) == Some(&b'\'') || b.get(i + 1) == Some(&b'\\') => {
                // A character literal ('x', '\n', '\u{..}'); lifetimes are left alone.
                i += 1;
                while i < b.len() && b[i] != b'\'' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            c => {
                out.push(c as char);
                i += 1;
            }
        }
    }
    out
}

/// The paths a `use` tree names, flattened (`a::{b, c::d}` → `a::b`, `a::c::d`).
fn flatten_use(tree: &str, prefix: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let head = tree[..open].trim().trim_end_matches("::");
        let head = join(prefix, head);
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let mut depth = 0;
        let mut start = 0;
        for (k, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    flatten_use(&inner[start..k], &head, out);
                    start = k + 1;
                }
                _ => {}
            }
        }
        flatten_use(&inner[start..], &head, out);
        out.push(head);
    } else if !tree.is_empty() {
        let path = tree.split(" as ").next().unwrap_or(tree).trim();
        let path = path.trim_end_matches("::*").trim_end_matches("::self");
        out.push(join(prefix, if path == "self" { "" } else { path }));
    }
}

fn join(prefix: &str, rest: &str) -> String {
    match (prefix.is_empty(), rest.is_empty()) {
        (true, _) => rest.to_string(),
        (_, true) => prefix.to_string(),
        _ => format!("{prefix}::{rest}"),
    }
}

/// Every `crate::…`, `super::…` or `self::…` path in `code`, `use` trees included.
fn paths_in(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let word_at = |k: usize, w: &str| {
        code[k..].starts_with(w)
            && (k == 0 || !(bytes[k - 1].is_ascii_alphanumeric() || bytes[k - 1] == b'_'))
            && code[k + w.len()..].starts_with(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
    };
    let mut k = 0;
    while k < code.len() {
        if !code.is_char_boundary(k) {
            k += 1;
            continue;
        }
        if word_at(k, "use") {
            let end = code[k..].find(';').map_or(code.len(), |e| k + e);
            flatten_use(&code[k + 3..end], "", &mut out);
            k = end;
            continue;
        }
        if ["crate::", "super::", "self::"]
            .iter()
            .any(|w| word_at(k, &w[..w.len() - 2]) && code[k..].starts_with(w))
        {
            let end = code[k..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| k + e);
            out.push(code[k..end].trim_end_matches(':').to_string());
            k = end;
            continue;
        }
        k += 1;
    }
    out
}

/// A crate's modules (file → module path) and the names each module re-exports
/// (`(module, name)` → the path its `pub use` names).
struct Crate {
    modules: BTreeMap<String, PathBuf>,
    reexports: BTreeMap<(String, String), String>,
}

fn module_of(rel: &Path) -> String {
    let mut parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts.join("::")
}

fn scan(root: &Path) -> Crate {
    let mut modules = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read a source folder") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(root).expect("under the root");
                modules.insert(module_of(rel), path.clone());
            }
        }
    }
    let mut reexports = BTreeMap::new();
    for (module, file) in &modules {
        let code = code_of(&std::fs::read_to_string(file).expect("a source file"));
        for stmt in code.split(';') {
            let Some(at) = stmt
                .find("pub use ")
                .or_else(|| stmt.find("pub(crate) use "))
            else {
                continue;
            };
            let tree = &stmt[at..];
            let tree = &tree[tree.find("use ").map_or(0, |u| u + 4)..];
            let mut paths = Vec::new();
            flatten_use(tree, "", &mut paths);
            for p in paths {
                let name = p.rsplit("::").next().unwrap_or(&p).to_string();
                if !p.contains("::") {
                    continue;
                }
                reexports.insert((module.clone(), name), p);
            }
        }
    }
    Crate { modules, reexports }
}

/// The module a path written in `from` leads to: the longest prefix that is a module,
/// followed through that module's re-exports to where the item is defined.
fn resolve(krate: &Crate, from: &str, path: &str) -> Option<String> {
    resolve_within(krate, from, path, 0)
}

fn resolve_within(krate: &Crate, from: &str, path: &str, depth: usize) -> Option<String> {
    let mut segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let here: Vec<String> = from
        .split("::")
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    let mut base: Vec<String> = match segs.first().copied() {
        Some("crate") => {
            segs.remove(0);
            Vec::new()
        }
        Some("super" | "self") => here.clone(),
        // A path relative to `from` (`use engine::X` in a `mod.rs`), else another crate.
        Some(first) if krate.modules.contains_key(&join(from, first)) => here.clone(),
        _ => return None,
    };
    while let Some(&s) = segs.first() {
        match s {
            "super" => {
                base.pop();
            }
            "self" => {}
            _ => break,
        }
        segs.remove(0);
    }
    let mut best = None;
    for n in 0..=segs.len() {
        let mut m = base.clone();
        m.extend(segs[..n].iter().map(|s| s.to_string()));
        let m = m.join("::");
        if krate.modules.contains_key(&m) {
            best = Some((m, n));
        }
    }
    let (module, n) = best?;
    let reexport = segs
        .get(n)
        .and_then(|s| krate.reexports.get(&(module.clone(), s.to_string())));
    match reexport {
        // A bounded chase: re-exports cannot loop in a crate that compiles, but a
        // misread one must not hang the test.
        Some(target) if depth < 16 => {
            resolve_within(krate, &module, target, depth + 1).or(Some(module))
        }
        _ => Some(module),
    }
}

fn nested(a: &str, b: &str) -> bool {
    a.is_empty()
        || b.is_empty()
        || a == b
        || a.starts_with(&format!("{b}::"))
        || b.starts_with(&format!("{a}::"))
}

fn graph(krate: &Crate) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges = BTreeMap::new();
    for (module, file) in &krate.modules {
        let code = code_of(&std::fs::read_to_string(file).expect("a source file"));
        let to: BTreeSet<String> = paths_in(&code)
            .iter()
            .filter_map(|p| resolve(krate, module, p))
            .filter(|t| !nested(module, t))
            .collect();
        edges.insert(module.clone(), to);
    }
    edges
}

/// The strongly connected components of more than one module (Tarjan's algorithm).
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        let edges = s.edges;
        for w in edges.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if s.stack.contains(&w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                component.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut s = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.found
}

fn describe(edges: &BTreeMap<String, BTreeSet<String>>, found: &[Vec<String>]) -> String {
    let mut out = String::new();
    for c in found {
        out += &format!("cycle among {c:?}:\n");
        for a in c {
            let inside: Vec<&String> = edges[a].iter().filter(|t| c.contains(t)).collect();
            out += &format!("    {a} -> {inside:?}\n");
        }
    }
    out
}

/// Fails on any cycle between the source files of `folder`, naming the edges that close it.
fn check(folder: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(folder);
    let krate = scan(&root);
    assert!(krate.modules.len() > 5, "found the sources of {folder}");
    let edges = graph(&krate);
    let found = cycles(&edges);
    assert!(
        found.is_empty(),
        "import cycles in {folder}:\n{}",
        describe(&edges, &found)
    );
}

#[test]
fn runtime_has_no_import_cycles() {
    check("runtime/src");
}

/// The scalar layer at the bottom (the field, `Real`, the derivative table, the op
/// names, the conversions) names only itself: no arrays, linear algebra, offload,
/// CUDA, drivers or rules.
#[test]
fn the_scalar_layer_names_nothing_above_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime/src");
    let edges = graph(&scan(&root));
    let bottom = [
        "scalar",
        "real",
        "reading",
        "reading::convert",
        "reading::ops",
        "reading::table",
    ];
    for module in bottom {
        let Some(deps) = edges.get(module) else {
            panic!("no module {module} in runtime/src");
        };
        let above: Vec<&String> = deps
            .iter()
            .filter(|d| !bottom.contains(&d.as_str()))
            .collect();
        assert!(
            above.is_empty(),
            "{module} names layers above it: {above:?}"
        );
    }
}

#[test]
fn derive_core_has_no_import_cycles() {
    check("derive-core/src");
}

/// The check itself finds a cycle, through a re-export and through `super`.
#[test]
fn a_cycle_is_found() {
    let dir = std::env::temp_dir().join(format!("lifted-cycles-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("b")).expect("temp dir");
    std::fs::write(dir.join("lib.rs"), "mod a; mod b; pub use a::Thing;").expect("write");
    std::fs::write(
        dir.join("a.rs"),
        "use crate::b::c::f; // crate::nothing\npub struct Thing;",
    )
    .expect("write");
    std::fs::write(dir.join("b/mod.rs"), "mod c;").expect("write");
    std::fs::write(
        dir.join("b/c.rs"),
        "fn g() -> crate::Thing { let _ = \"crate::b\"; super::super::a::Thing }\npub fn f() {}",
    )
    .expect("write");
    let krate = scan(&dir);
    let edges = graph(&krate);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        cycles(&edges),
        vec![vec!["a".to_string(), "b::c".to_string()]]
    );
    assert_eq!(edges["a"], BTreeSet::from(["b::c".to_string()]));
}
