//! The macro never panics: a few hundred generated and odd functions go through
//! `autodiff`, and each gives tokens (the rule, or the primal plus `compile_error!`s).

use proc_macro2::TokenStream;
use quote::quote;

/// A small deterministic generator (SplitMix64), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

const EXPRS: &[&str] = &[
    "x",
    "y",
    "1.0",
    "2",
    "x * y",
    "1.0 - x",
    "x.sin()",
    "y[0]",
    "y[i]",
    "&y[1..]",
    "x as usize",
    "n as f64",
    "f64::max(x, 0.5)",
    "std::f64::consts::PI",
    "g(x)",
    "m::g(x, y)",
    "super::g(x)",
    "{ let t = x; t }",
    "if x > 0.0 { x } else { 0.0 }",
    "match n { 0 => x, _ => 1.0 }",
    "y.iter().map(|v| v * 2.0).sum::<f64>()",
    "vec![0.0; n]",
    "vec![x, 1.0]",
    "lifted::constant!(2.0)",
    "unknown!(x)",
    "unsafe { x }",
    "async { x }",
    "(x, y)",
    "[x, x]",
    "x?",
    "-x",
    "!b",
    "*x",
    "y[0][1]",
    "&raw const x",
    "x.await",
    "|t: f64| t * x",
    "Some(x)",
    "Point { x }",
    "p.x",
    "x..y",
    "loop { break x; }",
    "return x",
    "format!(\"{}\", x)",
    "println!(\"{}\", y[0])",
];

const STMTS: &[&str] = &[
    "let a = {e};",
    "let mut s = {e};",
    "s += {e};",
    "y[i] = {e};",
    "y[i] *= {e};",
    "let (p, q) = ({e}, {e});",
    "let [u, w] = [{e}, {e}];",
    "for v in y {{ s += v; }}",
    "for &v in y {{ s += v; }}",
    "for v in y.iter_mut() {{ *v = {e}; }}",
    "for (i, v) in y.iter().enumerate() {{ s += v * i as f64; }}",
    "while s < {e} {{ s += 1.0; }}",
    "if {e} > 1.0 {{ s = {e}; }} else {{ s = 0.0; }}",
    "fn inner() {{}}",
    "struct S;",
    "let t: f64 = {e};",
    "assert!({e} > 0.0);",
    "{e};",
    "'l: loop {{ break 'l; }}",
    "use std::f64::consts::PI;",
    "let c = |t: f64| t * {e};",
    "match n {{ 0 | 1 => {{}}, _ => {{}} }}",
];

const SIGS: &[&str] = &[
    "fn f(x: f64, y: &[f64], n: usize) -> f64",
    "fn f(x: f64, y: &mut [f64], n: usize)",
    "pub fn f(x: f32, y: Vec<f32>, n: usize) -> f32",
    "fn f(x: f64, #[constant] y: &[f64], n: usize) -> (f64, f64)",
    "fn f<T>(x: f64, y: &[f64], n: T) -> f64",
    "async fn f(x: f64, y: &[f64], n: usize) -> f64",
    "unsafe fn f(x: f64, y: &[f64], n: usize) -> f64",
    "fn f(&self, x: f64, y: &[f64], n: usize) -> f64",
    "fn f(x: f64, y: &[f64], n: usize) -> !",
    "fn f(x: f64, y: &[f64], n: usize, b: bool) -> impl Fn(f64) -> f64",
    "fn f(x: *const f64, y: &[f64], n: usize) -> f64",
    "fn f(x: f64, y: &[f64], n: usize, s: &str) -> Option<f64>",
];

const ATTRS: &[&str] = &[
    "forward",
    "forward, chunk = 4",
    "forward, chunk = 0",
    "forward, chunk = 99",
    "reverse",
    "",
    "forward, crate = ::lifted",
    "forward, chunk = \"x\"",
    "forward, forward",
    "chunk = 2",
    "forward, chunk = 4, extra",
];

fn expr(rng: &mut Rng) -> String {
    rng.pick(EXPRS).to_string()
}

fn stmt(rng: &mut Rng) -> String {
    let template = rng.pick(STMTS);
    let mut out = String::new();
    let mut rest = template;
    while let Some(pos) = rest.find("{e}") {
        out.push_str(&rest[..pos]);
        out.push_str(&expr(rng));
        rest = &rest[pos + 3..];
    }
    out.push_str(rest);
    out.replace("{{", "{").replace("}}", "}")
}

fn run(attr: &str, item: &str) {
    let (Ok(attr), Ok(item)) = (attr.parse::<TokenStream>(), item.parse::<TokenStream>()) else {
        return;
    };
    let out = std::panic::catch_unwind(|| lifted_derive_core::autodiff(attr.clone(), item.clone()));
    match out {
        Ok(tokens) => assert!(!tokens.is_empty(), "no tokens for {item}"),
        Err(_) => panic!("autodiff panicked on #[autodiff({attr})] {item}"),
    }
}

#[test]
fn generated_functions_never_panic() {
    let mut rng = Rng(0x5EED);
    let mut count = 0;
    for _ in 0..400 {
        let sig = rng.pick(SIGS);
        let n = (rng.next() % 6) as usize;
        let body: Vec<String> = (0..n).map(|_| stmt(&mut rng)).collect();
        let tail = if rng.next().is_multiple_of(2) {
            expr(&mut rng)
        } else {
            String::new()
        };
        let item = format!(
            "{sig} {{ let mut s = 0.0; let i = 0; {} {tail} }}",
            body.join(" ")
        );
        run(rng.pick(ATTRS), &item);
        count += 1;
    }
    assert_eq!(count, 400);
}

#[test]
fn odd_items_never_panic() {
    let items = [
        quote!(
            fn f() {}
        ),
        quote!(
            fn f(x: f64) -> f64 {}
        ),
        quote!(
            fn f(x: f64) -> ! {
                loop {}
            }
        ),
        quote!(
            struct S;
        ),
        quote!(),
        quote!(fn),
        quote!(
            fn f(
                #[constant]
                #[allow(unused)]
                x: f64,
                #[doc = "x"] y: f64,
            ) -> f64 {
                x + y
            }
        ),
        quote!(
            fn f((a, b): (f64, f64)) -> f64 {
                a * b
            }
        ),
        quote!(
            fn f(_: f64) -> f64 {
                1.0
            }
        ),
        quote!(
            fn f(x: f64) -> f64 {
                let f = f;
                f(x)
            }
        ),
        quote!(
            fn f(x: f64) -> f64 {
                'a: {
                    break 'a x;
                }
            }
        ),
        quote!(
            const fn f(x: f64) -> f64 {
                x
            }
        ),
        quote!(
            extern "C" fn f(x: f64) -> f64 {
                x
            }
        ),
        quote!(
            fn f(x: f64, ...) -> f64 {
                x
            }
        ),
        quote!(
            fn f(x: &&[f64]) -> f64 {
                x[0]
            }
        ),
        quote!(
            fn f(x: [[f64; 2]; 2]) -> f64 {
                x[0][1]
            }
        ),
        quote!(
            fn f(x: Box<f64>) -> f64 {
                *x
            }
        ),
        quote!(
            fn f(x: f64) -> f64 {
                macro_rules! m {
                    () => {};
                }
                m!();
                x
            }
        ),
        quote!(
            fn f(x: f64) -> f64 {
                #[cfg(test)]
                let y = x;
                x
            }
        ),
        quote!(
            fn f(x: f64) -> f64 {
                x.0
            }
        ),
    ];
    for item in items {
        for attr in ["forward", "forward, chunk = 3", "reverse", ""] {
            run(attr, &item.to_string());
        }
    }
}

#[test]
fn impl_blocks_and_struct_bodies_never_panic() {
    let items = [
        quote!(
            impl P {
                fn e(&self, k: f64) -> f64 {
                    self.x * k + P { x: 1.0, n: self.n }.x
                }
                fn s(&mut self) {
                    self.x = 0.0;
                    self.v += self.m * self.x;
                }
                fn new(x: f64) -> Self {
                    Self { x, ..Self::default() }
                }
            }
        ),
        quote!(
            impl Trait for P {
                fn e(&self) -> f64 {
                    self.x
                }
            }
        ),
        quote!(
            impl<T> P<T> {
                fn e(&self) -> f64 {
                    1.0
                }
            }
        ),
        quote!(
            impl [f64; 2] {}
        ),
        quote!(
            impl P {
                const C: f64 = 1.0;
                type T = f64;
                fn e(self: Box<Self>) -> f64 {
                    self.x
                }
                async fn a(&self) -> f64 {
                    self.x
                }
            }
        ),
        quote!(
            fn f(p: &geom::P, q: (P, f64), r: &mut [P; 2]) -> P {
                let t = p.a.b[0].c * q.1;
                r[0].x = t;
                P {
                    x: t,
                    y: p.y.sqrt(),
                    ..q.0
                }
            }
        ),
    ];
    for item in items {
        for attr in ["forward", "forward, chunk = 3", "reverse", ""] {
            run(attr, &item.to_string());
        }
    }
}

#[test]
fn derives_never_panic() {
    let items = [
        quote!(
            struct P {
                x: f64,
                #[constant]
                m: f64,
            }
        ),
        quote!(
            struct T(f64, #[constant] usize);
        ),
        quote!(
            struct U;
        ),
        quote!(
            struct G<T> {
                x: T,
            }
        ),
        quote!(
            struct M {
                x: f64,
                y: f32,
            }
        ),
        quote!(
            enum E {
                A,
                B(usize),
                C { x: f64 },
            }
        ),
        quote!(
            union W {
                a: f64,
            }
        ),
        quote!(),
        quote!(
            fn f() {}
        ),
    ];
    for item in items {
        let out = std::panic::catch_unwind(|| lifted_derive_core::derive_lift(item.clone()));
        match out {
            Ok(tokens) => assert!(!tokens.is_empty(), "no tokens for {item}"),
            Err(_) => panic!("derive(Lift) panicked on {item}"),
        }
    }
}
