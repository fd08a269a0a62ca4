//! Procedural macros of `lifted`. Use them through the `lifted` crate, which re-exports
//! them; this crate only forwards to `lifted-derive-core`.
#![forbid(unsafe_code)]

use proc_macro::TokenStream;

/// Derives a forward-mode rule for a function, an `impl` block's methods, or an
/// operator `impl`.
///
/// ```
/// use lifted::autodiff;
///
/// #[autodiff(forward, chunk = 4)]
/// pub fn energy(x: &[f64], k: f64) -> f64 {
///     x.windows(2).map(|w| k * (w[1] - w[0]).powi(2)).sum()
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let (e, grad) = lifted::gradient(energy::Rule, (vec![0.0, 1.0, 3.0], 0.5))?;
/// assert_eq!(e, energy(&[0.0, 1.0, 3.0], 0.5)); // the function itself is unchanged
/// // ∂e/∂x = k · (−2 d₀, 2 d₀ − 2 d₁, 2 d₁) with d = (1, 2); ∂e/∂k = Σ d².
/// assert_eq!(grad, [-1.0, -1.0, 2.0, 5.0]);
/// # Ok(())
/// # }
/// ```
///
/// # Options
///
/// | option | meaning |
/// |---|---|
/// | `forward` | required: forward mode (the one mode today) |
/// | `chunk = N` | the default width, 1 to 64, of the drivers' passes (default 8); a driver may pick another ([`Driver::chunk`]) |
/// | `crate = path` | where the runtime is, when `lifted` is re-exported under another path |
///
/// # What it generates
///
/// The function stays as written. Next to it, a module of the same name holds:
///
/// * `frule::<D>(…)`, the rule: the body rewritten so every float is a value of the
///   reading `D` (`f64` itself, `NDual<f64, N>`, `Taylor`, `ZDual`, the CUDA
///   reading, …). At `D = f64` it computes bit for bit what the function does.
/// * `Rule`, a unit struct implementing [`FRule`]: what the drivers take
///   (`lifted::gradient(energy::Rule, …)`, `jacobian`, `jvp`, `hessian`, …).
///
/// On an `impl` block, every method gets a rule named in one expression,
/// `Type::method_rule()` (receiver first among the arguments); on an operator `impl`
/// (`impl Mul for Cplx`) the operator works on lifted values of the type.
///
/// ```
/// use lifted::autodiff;
///
/// #[derive(Clone, Debug, lifted::Lift)]
/// pub struct Spring {
///     pub k: f64,
///     pub rest: f64,
/// }
///
/// #[autodiff(forward)]
/// impl Spring {
///     pub fn energy(&self, x: f64) -> f64 {
///         0.5 * self.k * (x - self.rest).powi(2)
///     }
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let s = Spring { k: 2.0, rest: 1.0 };
/// // ∂/∂(k, rest, x) at x = 3: ((x − rest)² / 2, −k (x − rest), k (x − rest)).
/// let (_, grad) = lifted::gradient(Spring::energy_rule(), (s, 3.0))?;
/// assert_eq!(grad, [2.0, -4.0, 4.0]);
/// # Ok(())
/// # }
/// ```
///
/// # Parameters and results
///
/// Parameters may be `f64` or `f32` (one of them per function), `&f64`, tuples and
/// fixed arrays of floats, `&[f64]`, `&mut [f64]` (in/out: the drivers differentiate
/// what it holds after the call), `Vec<f64>`, nested arrays (`&[Vec<f64>]`,
/// `Vec<Vec<f64>>`, `Vec<[f64; K]>`), `#[derive(lifted::Lift)]` structs and enums,
/// integers and `bool`. A parameter marked `#[constant]` is not differentiated and
/// costs nothing. A call passes what rustc would accept (`&[f64; 3]` or `&mut [f64]`
/// where `&[f64]` is expected). Results may be floats, tuples, fixed arrays, `Vec`s,
/// nested `Vec`s, lifted structs, `Option`s of them or `()`.
///
/// ```
/// use lifted::autodiff;
///
/// /// A weighted residual: `w` is data, not a variable.
/// #[autodiff(forward)]
/// pub fn residual(x: &[f64], #[constant] w: &[f64]) -> Vec<f64> {
///     let mut r = Vec::new();
///     for i in 0..x.len() {
///         r.push(w[i] * x[i].sin());
///     }
///     r
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let (r, jac) = lifted::jacobian(residual::Rule, (vec![0.0, 0.5], vec![2.0, 3.0]))?;
/// assert_eq!(r, [0.0, 3.0 * 0.5f64.sin()]);
/// assert_eq!(jac.shape(), (2, 2)); // columns for `x` only
/// assert_eq!(jac.data()[0], 2.0); // ∂r₀/∂x₀ = w₀ cos 0
/// # Ok(())
/// # }
/// ```
///
/// # The body
///
/// Ordinary Rust: `let`, `if`/`match`/loops, early `return`, closures and iterator
/// chains (`iter`, `zip`, `windows`, `map`, `fold`, `sum`, …), indexing and slicing,
/// `Vec` building (`vec!`, `push`, `collect`), the whole float method surface
/// (`sin` … `powf`, `hypot`, `mul_add`), constants (`PI`, `const` tables, `Self::C`)
/// and calls to other annotated functions. A call to a function without a rule
/// fails at the call; annotate the callee, give it a hand-written [`FRule`], or wrap
/// a call that does not depend on the inputs in [`constant!`](crate::constant).
/// Generic functions (`T: Float`) are out of scope: write the function for `f64`,
/// the rule is generic over the reading already. Annotated functions live at module
/// level (the rule is a sibling module, which cannot see the items of a function
/// body).
///
/// # Errors
///
/// An unsupported construct is a compile error on its own token saying what to write
/// instead (`async`, `unsafe`, a function-valued parameter, a nested `fn`, mixing
/// `f32` and `f64`, a slice method lifted arrays do not have, …). The book's "Writing
/// differentiable functions" chapter lists every construct, and its Troubleshooting
/// section every message by its first line.
///
/// [`FRule`]: https://docs.rs/lifted/latest/lifted/trait.FRule.html
/// [`Driver::chunk`]: https://docs.rs/lifted/latest/lifted/drivers/struct.Driver.html#method.chunk
#[proc_macro_attribute]
pub fn autodiff(attr: TokenStream, item: TokenStream) -> TokenStream {
    lifted_derive_core::autodiff(attr.into(), item.into()).into()
}

/// Marks a sub-expression as independent of the inputs. In the primal function it is
/// the expression itself; inside a derived rule it runs on primals and is zero-lifted.
#[proc_macro]
pub fn constant(input: TokenStream) -> TokenStream {
    lifted_derive_core::constant(input.into()).into()
}

/// Derives the lifted form of a struct or enum, so it can be a parameter, result or
/// local of `#[autodiff]` functions.
///
/// For a struct `P` with float fields it generates the dual struct `PDual<D>` (each
/// float field read at reading `D`; fields marked `#[constant]` keep their type) and
/// implements `lifted::Param` for `P`. A type without floats reads as itself. The type
/// must also be `Clone` and `Debug`. See the book's "Structs and methods" chapter.
#[proc_macro_derive(Lift, attributes(constant, lift))]
pub fn lift(item: TokenStream) -> TokenStream {
    lifted_derive_core::derive_lift(item.into()).into()
}
