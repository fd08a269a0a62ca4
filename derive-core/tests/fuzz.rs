//! A token-level fuzzer of `autodiff` and `derive_lift`: valid annotated items are
//! mutated (tokens deleted, duplicated, swapped, replaced, inserted; ranges wrapped in
//! groups, calls or operators, up to past the nesting bound; attribute arguments drawn
//! at random) and expanded. Every expansion must return, without a panic, and no
//! error message may name an item the macro generates.
//!
//! Deterministic and bounded, so it runs in CI: `LIFTED_FUZZ_CASES` cases (20 000 by
//! default) or 60 seconds, whichever ends first, from seed `LIFTED_FUZZ_SEED`. A
//! stack overflow aborts the process without a report: rerun with
//! `LIFTED_FUZZ_TRACE=1 cargo test -p lifted-derive-core --test fuzz -- --nocapture`
//! to print each case before it runs.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

/// The stack of the compiler thread a procedural macro runs on.
const STACK: usize = 8 << 20;
const DEFAULT_CASES: usize = 20_000;
const TIME_LIMIT: Duration = Duration::from_secs(60);
/// Panicking inputs listed in the failure.
const REPORTED: usize = 5;

/// xoshiro256** seeded by SplitMix64: small, fast, reproducible.
struct Rng([u64; 4]);

impl Rng {
    fn new(seed: u64) -> Self {
        let mut z = seed;
        let mut next = || {
            z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut x = z;
            x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            x ^ (x >> 31)
        };
        Rng([next(), next(), next(), next()])
    }

    fn next(&mut self) -> u64 {
        let s = &mut self.0;
        let out = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        out
    }

    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Valid items, each as `#[autodiff]` (or `#[derive(Lift)]`) would receive it.
const CORPUS: &[&str] = &[
    "fn scalar(x: f64, y: f64) -> f64 { let t = x * y + 1.0; (t.sin() - 2.0 * x).powi(2) / (1.0 + y * y) }",
    "fn rosenbrock(x: &[f64]) -> f64 { let mut s = 0.0; for i in 0..x.len() - 1 { s += (1.0 - x[i]).powi(2) + 100.0 * (x[i + 1] - x[i] * x[i]).powi(2); } s }",
    "fn axpy(a: f64, x: &[f64], y: &mut [f64]) { for i in 0..y.len() { y[i] += a * x[i]; } }",
    "fn calls(x: &[f64], y: f64) -> f64 { let r = rosenbrock(x); let s = super::helper(y); m::g(r, s) + f64::max(r, s) }",
    "fn branches(x: f64, k: i32) -> f64 { let y = if x > 1.0 { x.ln() } else { 0.0 }; match k { 0 => y, n if n < 0 => -y, _ => 2.0 - y } }",
    "fn weighted(x: &[f64], #[constant] w: &[f64], #[constant] scale: f64) -> f64 { let h = 0.5; let mut s = 0.0; for i in 0..x.len() { s += w[i] * x[i]; } scale * s + 2.0 * h }",
    "fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] { let [a0, a1, a2] = a; [a1 * b[2] - a2 * b[1], a2 * b[0] - a0 * b[2], a0 * b[1] - a1 * b[0]] }",
    "fn iterators(x: &[f64]) -> f64 { let s: f64 = x.iter().map(|v| v * v).sum::<f64>(); let p = x.iter().fold(1.0, |acc, v| acc * (1.0 + v)); let mut w = 0.0; for win in x.windows(2) { w += win[1] - win[0]; } s + p + w }",
    "fn vectors(x: &[f64]) -> Vec<f64> { let mut out = vec![0.0; x.len()]; for (i, v) in x.iter().enumerate() { out[i] = v * i as f64; } for v in out.iter_mut() { *v = v.exp(); } out }",
    "pub fn step(p: &Particle, k: f64, dt: f64) -> Particle { let v = p.v - k * p.x / p.m * dt; Particle { x: p.x + v * dt, v, m: p.m } }",
    "impl Particle { pub fn kinetic(&self) -> f64 { 0.5 * self.m * self.v * self.v } pub fn advance(&mut self, dt: f64) { self.x += self.v * dt; } }",
    "fn single(x: f32, y: &[f32]) -> f32 { let mut s = 0.0f32; for v in y { s += v * x; } s.sqrt() }",
    "fn loops(x: f64, n: usize) -> f64 { let mut t = x; let mut i = 0; let r = loop { if i >= n { break t; } t = t * 0.5 + 1.0; i += 1; }; 'outer: while t > 0.0 { t -= 1.0; if t < 0.5 { break 'outer; } } r + t }",
    "fn macros(x: f64, y: &[f64]) -> f64 { let v = vec![x, 2.0 * x, 3.0]; let c = lifted::constant!(y.len() as f64); assert!(x.is_finite(), \"x = {}\", x); println!(\"{x} {}\", v[0]); v[1] * c }",
    "fn tuples(p: (f64, f64), #[constant] n: usize) -> (f64, f64) { let (a, b) = p; let mut t = (a, 0.0); t.1 = a * b; for _ in 0..n { t.0 += t.1; } t }",
    "fn closures(x: &[f64], s: f64) -> f64 { let f = |t: f64| t * s; let mut acc = 0.0; x.iter().for_each(|v| acc += f(*v)); x.iter().zip(x.iter()).map(|(a, b)| a * b).sum::<f64>() + acc }",
    "fn refs(x: &f64, y: &mut [f64; 2]) -> f64 { y[0] = *x * 2.0; y[1] += 10.31_f64.powf(*x); *x + y[0] }",
    "fn slices(x: &[f64], y: &mut [f64]) { let (a, b) = x.split_at(1); let w = &x[1..]; y.copy_from_slice(&x[..y.len()]); y.swap(0, 1); let _ = (a, b, w.len()); }",
    "fn growing(x: &[f64]) -> Vec<f64> { let mut v = Vec::new(); for &t in x { v.push(t * t); } v.extend_from_slice(&x[..1]); let mut w: Vec<f64> = Vec::with_capacity(2); w.push(v[0]); v }",
    "fn options(x: f64, k: Option<usize>) -> Option<f64> { let y = match k { Some(n) => x * n as f64, None => return None }; if let Some(z) = Some(y) { Some(z.abs()) } else { None } }",
    "struct Particle { x: f64, v: f64, #[constant] m: f64 }",
    "struct Tuple(f64, #[constant] usize, [f64; 2]);",
    "enum Mode { A, B(usize) }",
];

/// Attribute arguments, valid and not.
const ATTRS: &[&str] = &[
    "forward",
    "forward",
    "forward",
    "forward, chunk = 4",
    "forward, crate = ::lifted",
    "forward()",
    "forward{}",
    "forward[]",
    "forward(x)",
    "forward = 1",
    "reverse()",
    "reverse",
    "",
    "chunk = 4",
    "forward, chunk = 0",
    "forward, chunk = \"x\"",
    "forward, chunk",
    "forward, chunk(4)",
    "forward, forward",
    "forward, crate = x::<u8>",
    "forward, crate = \"x<u8>\"",
    "forward, crate = x<u8>",
    "forward, crate = \"\"",
    "forward, crate = \"::a::b\"",
    "forward, crate = 1",
    "forward, crate",
    "forward, crate = self::lifted",
    "forward chunk = 4",
    "forward,, chunk = 4",
    "forward, chunk = 4,",
    "crate = ::lifted, forward",
    "forward, width = 4",
    "#[x]",
    "forward, chunk = -1",
    "forward, chunk = 1 + 1",
    "forward, chunk = 99999999999999999999999",
];

/// Tokens to insert or replace with.
const ATOMS: &[&str] = &[
    "x",
    "y",
    "self",
    "Self",
    "super",
    "crate",
    "fn",
    "impl",
    "let",
    "mut",
    "for",
    "in",
    "if",
    "else",
    "match",
    "loop",
    "while",
    "break",
    "continue",
    "return",
    "async",
    "await",
    "unsafe",
    "move",
    "as",
    "f64",
    "f32",
    "usize",
    "Vec",
    "vec",
    "constant",
    "lifted",
    "g",
    "sqrt",
    "iter",
    "iter_mut",
    "windows",
    "enumerate",
    "zip",
    "dot",
    "0",
    "1",
    "1.0",
    "2.5e3",
    "1f64",
    "\"s\"",
    "'a",
    "+",
    "-",
    "*",
    "/",
    "%",
    "=",
    "==",
    "+=",
    "*=",
    "<",
    ">",
    "<=",
    "&",
    "&&",
    "|",
    "||",
    "!",
    "?",
    ".",
    "..",
    "..=",
    ",",
    ";",
    ":",
    "::",
    "->",
    "=>",
    "#",
    "@",
    "_",
    "$",
    "~",
    "^",
];

/// Wrappers that nest what they wrap: `$` stands for it.
const NESTS: &[&str] = &[
    "($)",
    "[$]",
    "{ $ }",
    "g($)",
    "($).sqrt()",
    "-$",
    "!$",
    "&$",
    "*$",
    "($ as f64)",
    "$ + x",
    "x * ($)",
    "if x > 0.0 { $ } else { x }",
    "(|| $)()",
    "vec![$]",
    "Some($)",
    "[$; 2]",
    "lifted::constant!($)",
    "println!(\"{}\", $)",
];

fn tokens(src: &str) -> Vec<TokenTree> {
    src.parse::<TokenStream>()
        .map(|t| t.into_iter().collect())
        .unwrap_or_default()
}

fn stream(trees: Vec<TokenTree>) -> TokenStream {
    trees.into_iter().collect()
}

fn atom(rng: &mut Rng) -> Vec<TokenTree> {
    match rng.below(10) {
        0 => vec![TokenTree::Ident(Ident::new(
            rng.pick::<&str>(&["p", "q", "t", "acc", "self", "win"]),
            Span::call_site(),
        ))],
        1 => vec![TokenTree::Literal(Literal::f64_suffixed(
            rng.below(100) as f64
        ))],
        2 => vec![TokenTree::Punct(Punct::new(
            *rng.pick(&['+', '-', '*', '<', '>', '=', '&', '|']),
            if rng.chance(50) {
                Spacing::Alone
            } else {
                Spacing::Joint
            },
        ))],
        3 => {
            let delim = *rng.pick(&[
                Delimiter::Parenthesis,
                Delimiter::Bracket,
                Delimiter::Brace,
                Delimiter::None,
            ]);
            vec![TokenTree::Group(Group::new(delim, TokenStream::new()))]
        }
        _ => tokens(rng.pick::<&str>(ATOMS)),
    }
}

/// Applies one random mutation to `trees`, or to a group somewhere inside it.
fn mutate(rng: &mut Rng, trees: &mut Vec<TokenTree>, donor: &[TokenTree]) {
    // Descend into a random group now and then, so nested code is mutated too.
    if !trees.is_empty() && rng.chance(60) {
        let i = rng.below(trees.len());
        if let TokenTree::Group(g) = &trees[i] {
            let mut inner: Vec<TokenTree> = g.stream().into_iter().collect();
            mutate(rng, &mut inner, donor);
            let mut ng = Group::new(g.delimiter(), stream(inner));
            ng.set_span(g.span());
            trees[i] = TokenTree::Group(ng);
            return;
        }
    }
    let n = trees.len();
    match rng.below(10) {
        0 | 1 if n > 0 => {
            let i = rng.below(n);
            let len = 1 + rng.below(3.min(n - i));
            trees.drain(i..i + len);
        }
        2 if n > 0 => {
            let i = rng.below(n);
            let len = 1 + rng.below(4.min(n - i));
            let copy: Vec<TokenTree> = trees[i..i + len].to_vec();
            let at = rng.below(n + 1);
            trees.splice(at..at, copy);
        }
        3 if n > 1 => {
            let (i, j) = (rng.below(n), rng.below(n));
            trees.swap(i, j);
        }
        4 if n > 0 => {
            let i = rng.below(n);
            trees.splice(i..=i, atom(rng));
        }
        5 => {
            let at = rng.below(n + 1);
            trees.splice(at..at, atom(rng));
        }
        6 if n > 0 => {
            // Wrap a range in a group.
            let i = rng.below(n);
            let len = 1 + rng.below((n - i).min(6));
            let inner: Vec<TokenTree> = trees.drain(i..i + len).collect();
            let delim = *rng.pick(&[Delimiter::Parenthesis, Delimiter::Bracket, Delimiter::Brace]);
            trees.insert(i, TokenTree::Group(Group::new(delim, stream(inner))));
        }
        7 if n > 0 => {
            // Unwrap a group.
            let i = rng.below(n);
            if let TokenTree::Group(g) = &trees[i] {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                trees.splice(i..=i, inner);
            }
        }
        8 if !donor.is_empty() => {
            // Splice in a run of another corpus item.
            let i = rng.below(donor.len());
            let len = 1 + rng.below((donor.len() - i).min(8));
            let at = rng.below(n + 1);
            trees.splice(at..at, donor[i..i + len].iter().cloned());
        }
        _ if n > 0 => nest(rng, trees),
        _ => {}
    }
}

/// Wraps a range in one wrapper, many times over: sometimes far past the nesting bound.
fn nest(rng: &mut Rng, trees: &mut Vec<TokenTree>) {
    let n = trees.len();
    let i = rng.below(n);
    let len = 1 + rng.below((n - i).min(3));
    let mut inner: String = stream(trees.drain(i..i + len).collect()).to_string();
    let times = match rng.below(10) {
        0..=5 => 1 + rng.below(4),
        6..=8 => 1 + rng.below(300),
        _ => 200 + rng.below(2000),
    };
    let wrapper = *rng.pick(NESTS);
    for _ in 0..times {
        inner = wrapper.replace('$', &inner);
    }
    let nested = tokens(&inner);
    trees.splice(i..i, nested);
}

/// A random attribute argument list: one of [`ATTRS`], sometimes mutated.
fn attr(rng: &mut Rng) -> TokenStream {
    let mut trees = tokens(rng.pick::<&str>(ATTRS));
    if rng.chance(20) {
        mutate(rng, &mut trees, &[]);
    }
    stream(trees)
}

/// The messages of the `compile_error!`s in `out`.
fn messages(out: &TokenStream, found: &mut Vec<String>) {
    let trees: Vec<TokenTree> = out.clone().into_iter().collect();
    for (i, tt) in trees.iter().enumerate() {
        match tt {
            TokenTree::Ident(id) if id == "compile_error" => {
                if let Some(TokenTree::Group(g)) = trees.get(i + 2) {
                    found.push(g.stream().to_string());
                }
            }
            TokenTree::Group(g) => messages(&g.stream(), found),
            _ => {}
        }
    }
}

/// What went wrong with one input, if anything.
fn run_case(attr: &TokenStream, item: &TokenStream, derive: bool) -> Option<String> {
    let result = catch_unwind(AssertUnwindSafe(|| {
        if derive {
            lifted_derive_core::derive_lift(item.clone())
        } else {
            lifted_derive_core::autodiff(attr.clone(), item.clone())
        }
    }));
    let out = match result {
        Ok(out) => out,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            return Some(format!("panicked: {msg}"));
        }
    };
    if out.is_empty() && !item.is_empty() {
        return Some("no tokens".to_string());
    }
    let mut found = Vec::new();
    messages(&out, &mut found);
    found
        .into_iter()
        .find(|m| {
            ["__Lifted", "__lifted", "__private"]
                .iter()
                .any(|g| m.contains(g))
        })
        .map(|m| format!("an error names a generated item: {m}"))
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.parse().ok()
}

fn fuzz() -> (usize, Vec<String>) {
    let cases = env_number("LIFTED_FUZZ_CASES").map_or(DEFAULT_CASES, |n| n as usize);
    let seed = env_number("LIFTED_FUZZ_SEED").unwrap_or(0x11F7_ED00);
    let trace = std::env::var_os("LIFTED_FUZZ_TRACE").is_some();
    let corpus: Vec<Vec<TokenTree>> = CORPUS.iter().map(|s| tokens(s)).collect();
    let mut rng = Rng::new(seed);
    let start = Instant::now();
    let mut failures = Vec::new();
    let mut ran = 0;
    while ran < cases && start.elapsed() < TIME_LIMIT && failures.len() < REPORTED {
        let k = rng.below(corpus.len());
        let mut item = corpus[k].clone();
        let donor = rng.pick(&corpus).clone();
        // Some cases unchanged, most with a few mutations.
        let rounds = if rng.chance(5) { 0 } else { 1 + rng.below(4) };
        for _ in 0..rounds {
            mutate(&mut rng, &mut item, &donor);
        }
        // Duplicating what nesting made can grow an item without bound.
        if item.len() > 4000 {
            continue;
        }
        let item = stream(item);
        let derive = CORPUS[k].starts_with("struct") || CORPUS[k].starts_with("enum");
        let derive = derive && rng.chance(70);
        let attr = attr(&mut rng);
        if trace {
            println!("case {ran}: derive={derive} attr=`{attr}` item=`{item}`");
        }
        if let Some(problem) = run_case(&attr, &item, derive) {
            let what = if derive {
                format!("#[derive(Lift)] {item}")
            } else {
                format!("#[autodiff({attr})] {item}")
            };
            failures.push(format!("case {ran}: {problem}\n    {what}"));
        }
        ran += 1;
    }
    (ran, failures)
}

#[test]
fn mutated_items_never_panic() {
    // Quiet: the panics caught are reported below, with their inputs.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let run = std::thread::Builder::new().stack_size(STACK).spawn(fuzz);
    let result = run.map(|h| h.join());
    std::panic::set_hook(hook);
    let (ran, failures) = match result {
        Ok(Ok(r)) => r,
        Ok(Err(_)) => panic!("the fuzzer itself panicked"),
        Err(e) => panic!("cannot start the fuzzer's thread: {e}"),
    };
    println!("{ran} cases");
    assert!(
        failures.is_empty(),
        "{} of {ran} inputs failed (first {REPORTED} at most):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn rng_is_deterministic() {
    let (mut a, mut b) = (Rng::new(7), Rng::new(7));
    let xs: Vec<u64> = (0..8).map(|_| a.next()).collect();
    let ys: Vec<u64> = (0..8).map(|_| b.next()).collect();
    assert_eq!(xs, ys);
    assert!(xs.windows(2).all(|w| w[0] != w[1]));
}
