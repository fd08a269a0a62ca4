//! Inputs that once made the macro panic, overflow its stack or take seconds: each must
//! now expand, without a panic, to the item plus a `compile_error!` that says what to
//! write instead, on the token at fault.

use std::time::{Duration, Instant};

use proc_macro2::TokenStream;

/// The stack of the compiler thread a procedural macro runs on.
const STACK: usize = 8 << 20;

fn tokens(src: &str) -> TokenStream {
    match src.parse() {
        Ok(t) => t,
        Err(e) => panic!("test input does not lex: {e}"),
    }
}

/// `autodiff(attr, item)` on a thread with the compiler's stack, under
/// `catch_unwind`: the output as a string.
fn expand(attr: &str, item: &str) -> String {
    let (a, i) = (attr.to_string(), item.to_string());
    let run = std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let (attr, item) = (tokens(&a), tokens(&i));
            std::panic::catch_unwind(|| lifted_derive_core::autodiff(attr, item).to_string())
        });
    match run.map(|h| h.join()) {
        Ok(Ok(Ok(out))) => out,
        Ok(Ok(Err(_))) | Ok(Err(_)) => panic!("autodiff panicked on #[autodiff({attr})] {item}"),
        Err(e) => panic!("cannot spawn: {e}"),
    }
}

fn derive(item: &str) -> String {
    let item = tokens(item);
    match std::panic::catch_unwind(|| lifted_derive_core::derive_lift(item.clone())) {
        Ok(out) => out.to_string(),
        Err(_) => panic!("derive(Lift) panicked on {item}"),
    }
}

/// The messages of the `compile_error!`s of an expansion.
fn errors(out: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = out;
    while let Some(at) = rest.find("compile_error ! {") {
        rest = &rest[at..];
        let Some(open) = rest.find('"') else { break };
        let body = &rest[open + 1..];
        let Some(close) = body.find("\" }") else {
            break;
        };
        found.push(body[..close].replace("\\\"", "\""));
        rest = &body[close..];
    }
    found
}

fn assert_error(out: &str, expected: &str) {
    let errs = errors(out);
    assert!(
        errs.iter().any(|e| e.contains(expected)),
        "expected an error containing {expected:?}, got {errs:?}"
    );
    for e in &errs {
        for generated in ["__Lifted", "__lifted", "__private"] {
            assert!(
                !e.contains(generated),
                "an error names a generated item: {e}"
            );
        }
    }
}

const F: &str = "fn f(x: f64) -> f64 { x * x }";

#[test]
fn mode_flags_with_arguments_are_errors() {
    for attr in [
        "forward()",
        "forward{}",
        "forward[]",
        "forward(x)",
        "forward = 1",
    ] {
        let out = expand(attr, F);
        assert_error(
            &out,
            "`forward` takes no arguments: write `#[autodiff(forward)]`",
        );
        assert!(out.contains("fn f"), "the primal function is kept");
    }
    for attr in ["reverse()", "reverse", "reverse = 1"] {
        assert_error(
            &expand(attr, F),
            "lifted differentiates in forward mode only: write `#[autodiff(forward)]`",
        );
    }
}

#[test]
fn other_option_mistakes_are_errors() {
    let cases = [
        (
            "forward, forward",
            "`forward` is given twice: write it once",
        ),
        ("forward, chunk", "`chunk` takes a value: write `chunk = 8`"),
        ("forward, chunk(4)", "`chunk` takes a value"),
        (
            "forward, chunk = \"x\"",
            "`chunk` must be an integer from 1 to 64",
        ),
        (
            "forward, chunk = 0",
            "`chunk` must be an integer from 1 to 64",
        ),
        (
            "forward, crate",
            "`crate` takes a path: write `crate = ::lifted`",
        ),
        ("forward, width = 4", "unknown option `width`"),
        ("forward chunk = 4", "expected `,` between the options"),
        (
            "chunk = 4",
            "missing the mode: write `#[autodiff(forward)]`",
        ),
    ];
    for (attr, message) in cases {
        assert_error(&expand(attr, F), message);
    }
    // Valid spellings still expand.
    for attr in [
        "forward",
        "forward, chunk = 4",
        "forward, chunk = 4,",
        "chunk = 2, forward",
        "forward, crate = ::lifted",
        "forward, crate = my_crate::lifted",
        "forward, crate = \"::lifted\"",
    ] {
        let out = expand(attr, F);
        assert!(errors(&out).is_empty(), "#[autodiff({attr})]: {out}");
        assert!(out.contains("frule"));
    }
}

#[test]
fn crate_paths_with_generic_arguments_are_errors() {
    let message = "`crate = …` must be a plain path such as `::lifted` or `my_crate::lifted`, \
                   without generic arguments";
    let items = [
        F,
        "fn g(x: &[f64], y: &mut [f64]) { for i in 0..y.len() { y[i] += x[i] * 2.0; } }",
        "fn h(x: f64) -> f64 { let v = vec![x, 1.0]; lifted::constant!(2.0) * v[0] }",
        "impl P { fn e(&self, k: f64) -> f64 { self.x * k } }",
    ];
    for attr in [
        "forward, crate = x::<u8>",
        "forward, crate = \"x<u8>\"",
        "forward, crate = x<u8>",
        "forward, crate = ::a::b<T>::c",
        "forward, crate = \"x::<u8>\"",
        "forward, crate = \"\"",
        "forward, crate = 1",
    ] {
        for item in items {
            assert_error(&expand(attr, item), message);
        }
    }
    // The path goes where the runtime's paths go.
    for item in items {
        let out = expand("forward, crate = my_crate::lifted", item);
        assert!(errors(&out).is_empty(), "{out}");
        assert!(out.contains("my_crate :: lifted :: Reading"), "{out}");
        assert_eq!(
            out.matches(":: lifted ::").count(),
            out.matches("my_crate :: lifted ::").count(),
            "every runtime path goes through `crate`: {out}"
        );
    }
}

#[test]
fn derive_takes_a_crate_path() {
    let out = derive("#[lift(crate = my_crate::lifted)] struct P { x: f64, #[constant] m: f64 }");
    assert!(errors(&out).is_empty(), "{out}");
    assert!(out.contains("my_crate :: lifted :: Param"), "{out}");
    assert_eq!(
        out.matches(":: lifted ::").count(),
        out.matches("my_crate :: lifted ::").count(),
        "every runtime path goes through `crate`: {out}"
    );
    let out = derive("#[lift(crate = \"::re::lifted\")] enum E { A, B(usize) }");
    assert!(out.contains(":: re :: lifted :: Param"), "{out}");
    let cases = [
        (
            "#[lift(crate = x::<u8>)] struct P { x: f64 }",
            "without generic arguments",
        ),
        (
            "#[lift(crate = \"x<u8>\")] struct P { x: f64 }",
            "without generic arguments",
        ),
        (
            "#[lift(crate = x<u8>)] struct P { x: f64 }",
            "without generic arguments",
        ),
        (
            "#[lift(krate = x)] struct P { x: f64 }",
            "write `#[lift(crate = ::lifted)]`",
        ),
        (
            "#[lift(crate)] struct P { x: f64 }",
            "write `#[lift(crate = ::lifted)]`",
        ),
        (
            "#[lift] struct P { x: f64 }",
            "expected attribute arguments",
        ),
        (
            "#[lift(crate = ::a)] #[lift(crate = ::b)] struct P { x: f64 }",
            "is given twice",
        ),
    ];
    for (item, message) in cases {
        assert_error(&derive(item), message);
    }
    // Without the attribute, `::lifted`.
    let out = derive("struct P { x: f64 }");
    assert!(out.contains(":: lifted :: Param < f64 >"), "{out}");
}

#[test]
fn syntax_errors_in_functions_say_where() {
    // A function `syn` cannot read: its error, on the token at fault, not "applies to
    // functions".
    let out = expand("forward", "fn f(x: f64) -> f64 { let = x; x }");
    let errs = errors(&out);
    assert!(!errs.is_empty(), "{out}");
    assert!(
        errs.iter().all(|e| !e.contains("applies to functions")),
        "{errs:?}"
    );
    let out = expand("forward", "fn f(x f64) -> f64 { x }");
    assert!(!errors(&out).is_empty());
    let out = expand("forward", "impl P { fn e(&self) -> f64 { self.x + } }");
    assert!(!errors(&out).is_empty());
    assert!(!out.contains("applies to functions"), "{out}");
    // Not a function at all: what to write.
    assert_error(
        &expand("forward", "struct P { x: f64 }"),
        "`#[autodiff]` applies to functions and `impl` blocks",
    );
    // A constant of function-pointer type is not a function either.
    assert_error(
        &expand("forward", "const F: fn(f64) -> f64 = g;"),
        "`#[autodiff]` applies to functions and `impl` blocks",
    );
}

/// Expands `item` on the compiler's stack and returns how long it took; the output
/// must hold the depth error, or (`fits`) none at all.
fn deep(item: &str, fits: bool) -> Duration {
    let start = Instant::now();
    let out = expand("forward", item);
    let took = start.elapsed();
    let message = "nested deeper than 256 levels: split it with `let` bindings";
    if fits {
        assert!(errors(&out).is_empty(), "{:?}", errors(&out));
    } else {
        assert_error(&out, message);
    }
    assert!(out.contains("fn f"), "the primal function is kept");
    took
}

#[test]
fn deep_expressions_are_errors_not_overflows() {
    let limit = Duration::from_secs(10);
    let chain = |n: usize, piece: &str| piece.repeat(n);
    let cases: Vec<(String, bool)> = vec![
        (
            format!("fn f(x: f64) -> f64 {{ x{} }}", chain(10_000, ".sqrt()")),
            false,
        ),
        (
            format!("fn f(x: f64) -> f64 {{ {} }}", vec!["x"; 5000].join(" + ")),
            false,
        ),
        (
            format!("fn f(x: f64) -> f64 {{ {} }}", vec!["x"; 1000].join(" + ")),
            false,
        ),
        (
            format!(
                "fn f(x: f64) -> f64 {{ {}x{} }}",
                chain(2000, "g("),
                chain(2000, ")")
            ),
            false,
        ),
        (
            format!("fn f(x: f64) -> f64 {{ x{} }}", chain(1000, " as f64")),
            false,
        ),
        (
            format!("fn f(x: f64) -> f64 {{ {}x }}", chain(10_000, "-")),
            false,
        ),
        (
            format!("fn f(x: f64) -> f64 {{ {}x }}", chain(400, "-")),
            false,
        ),
        (
            format!(
                "fn f(x: f64) -> f64 {{ {}x{} }}",
                chain(300, "("),
                chain(300, ")")
            ),
            false,
        ),
        (
            format!(
                "fn f(x: f64) -> f64 {{ {}x{} }}",
                chain(300, "{ "),
                chain(300, " }")
            ),
            false,
        ),
        (
            format!(
                "fn f(x: f64, t: {}f64{}) -> f64 {{ x }}",
                chain(300, "("),
                chain(300, ",)")
            ),
            false,
        ),
        (
            format!(
                "fn f(x: f64, t: {}f64{}) -> f64 {{ x }}",
                chain(300, "Vec<"),
                chain(300, ">")
            ),
            false,
        ),
        (
            format!(
                "fn f(x: f64) -> f64 {{ {}x{} }}",
                chain(300, "vec!["),
                chain(300, "]")
            ),
            false,
        ),
        (
            format!(
                "fn f(x: f64) -> f64 {{ println!(\"{{}}\", x{}); x }}",
                chain(5000, ".sqrt()")
            ),
            false,
        ),
        (
            format!(
                "fn f(x: f64) -> f64 {{ lifted::constant!({}1.0); x }}",
                chain(3000, "-")
            ),
            false,
        ),
        // Just within the bound: expanded.
        (
            format!("fn f(x: f64) -> f64 {{ x{} }}", chain(250, ".sqrt()")),
            true,
        ),
        (
            format!("fn f(x: f64) -> f64 {{ {} }}", vec!["x"; 250].join(" + ")),
            true,
        ),
        (
            format!(
                "fn f(x: f64) -> f64 {{ {}x{} }}",
                chain(120, "g("),
                chain(120, ")")
            ),
            true,
        ),
        (
            format!("fn f(x: f64) -> f64 {{ x{} }}", chain(250, " as f64")),
            true,
        ),
    ];
    for (item, fits) in &cases {
        let took = deep(item, *fits);
        assert!(
            took < limit,
            "{took:?} for {}…",
            item.chars().take(60).collect::<String>()
        );
    }
    // The same bound holds on an `impl` block's methods.
    let body = chain(5000, ".sqrt()");
    let out = expand(
        "forward",
        &format!("impl P {{ fn e(&self) -> f64 {{ self.x{body} }} }}"),
    );
    assert_error(&out, "nested deeper than 256 levels");
}

#[test]
fn deep_but_linear_time() {
    // Expansion time grows with the size of the input, not its square: 240 levels take
    // about as long per level as 60. The best of a few runs, against noise.
    let time = |item: &str| {
        (0..5)
            .map(|_| {
                let start = Instant::now();
                deep(item, true);
                start.elapsed()
            })
            .min()
            .unwrap_or_default()
    };
    type Shape = fn(usize) -> String;
    let shapes: [(&str, Shape); 3] = [
        ("calls", |n| {
            format!(
                "fn f(x: f64) -> f64 {{ {}x{} }}",
                "g(".repeat(n),
                ")".repeat(n)
            )
        }),
        ("sum", |n| {
            format!("fn f(x: f64) -> f64 {{ {} }}", vec!["x"; n].join(" + "))
        }),
        ("casts", |n| {
            format!("fn f(x: f64) -> f64 {{ x{} }}", " as f64".repeat(n))
        }),
    ];
    for (name, shape) in shapes {
        let (small, large) = (time(&shape(60)), time(&shape(240)));
        // Linear growth makes the ratio 4, quadratic 16.
        assert!(
            large < small * 10,
            "{name}: 60 levels {small:?}, 240 levels {large:?}"
        );
    }
}

/// `src` with the identifier `FRAGMENT` replaced by `fragment` in an invisible group,
/// as `macro_rules!` hands over a `$n:literal` or `$p:path`.
fn invisible(src: &str, fragment: &str) -> TokenStream {
    use proc_macro2::{Delimiter, Group, TokenTree};
    fn replace(ts: TokenStream, fragment: &TokenStream) -> TokenStream {
        ts.into_iter()
            .map(|t| match t {
                TokenTree::Ident(i) if i == "FRAGMENT" => {
                    TokenTree::Group(Group::new(Delimiter::None, fragment.clone()))
                }
                TokenTree::Group(g) => {
                    TokenTree::Group(Group::new(g.delimiter(), replace(g.stream(), fragment)))
                }
                t => t,
            })
            .collect()
    }
    replace(tokens(src), &tokens(fragment))
}

#[test]
fn option_values_from_macro_fragments_are_read() {
    let out = lifted_derive_core::autodiff(invisible("forward, chunk = FRAGMENT", "4"), tokens(F));
    let out = out.to_string();
    assert!(errors(&out).is_empty(), "{out}");
    assert!(out.contains("CHUNK : usize = 4"), "{out}");
    let out = lifted_derive_core::autodiff(
        invisible("forward, crate = FRAGMENT", "::re::lifted"),
        tokens(F),
    )
    .to_string();
    assert!(errors(&out).is_empty(), "{out}");
    assert!(out.contains(":: re :: lifted :: Reading"), "{out}");
    let out = lifted_derive_core::derive_lift(invisible(
        "#[lift(crate = FRAGMENT)] struct P { x: f64 }",
        "my::lifted",
    ))
    .to_string();
    assert!(errors(&out).is_empty(), "{out}");
    assert!(out.contains("my :: lifted :: Param"), "{out}");
}
