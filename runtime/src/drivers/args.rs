//! How drivers take arguments: the rule's owned argument tuple, borrowed, or a tuple
//! of borrowed values converted to it.

use crate::{Constant, Param, Scalar};

/// A rule's argument tuple ([`FRule::Args`](crate::FRule::Args)), seen argument by
/// argument: how many arguments, and how many scalar degrees of freedom each has.
///
/// Implemented for tuples of up to twelve [`Param`]s (and `()`), which is what every
/// rule's `Args` is; drivers use it to check tangent shapes and to select arguments.
pub trait Arguments<F: Scalar>: Param<F> {
    /// The number of arguments.
    const COUNT: usize;
    /// The scalar degrees of freedom of argument `index` (0 past the last one).
    fn arg_dim(&self, index: usize) -> usize;
}

impl<F: Scalar> Arguments<F> for () {
    const COUNT: usize = 0;
    fn arg_dim(&self, _index: usize) -> usize {
        0
    }
}

/// A value a driver accepts for an argument of type `P` of a rule's argument tuple.
///
/// The argument tuple holds owned values (`Vec<f64>` for a `&[f64]` parameter,
/// [`Constant<T>`] for a `#[constant]` one); besides `P` itself, a driver accepts what
/// the primal function would be called with and copies it:
///
/// | argument type `P` | accepted |
/// |---|---|
/// | any `P` | `P`, `&P`, `&mut P` |
/// | `Vec<T>` | `&[T]`, `&mut [T]`, `[T; K]`, `&[T; K]` |
/// | `Constant<T>` | `T`, `&T`, `Constant<&T>` |
/// | `Constant<Vec<T>>` | `&[T]`, `Constant<&[T]>` |
/// | `(A, B)`, `(A, B, C)` | `(&A, &B)`, `(&A, &B, &C)` (a tuple of references parameter) |
pub trait IntoArg<P> {
    /// The owned argument.
    fn into_arg(self) -> P;
}

impl<P: Clone> IntoArg<P> for P {
    #[inline]
    fn into_arg(self) -> P {
        self
    }
}

impl<P: Clone> IntoArg<P> for &P {
    #[inline]
    fn into_arg(self) -> P {
        self.clone()
    }
}

impl<P: Clone> IntoArg<P> for &mut P {
    #[inline]
    fn into_arg(self) -> P {
        self.clone()
    }
}

// A parameter `(&f64, &f64)` owns `(f64, f64)`; a call passes what the primal takes.
impl<A: Clone, B: Clone> IntoArg<(A, B)> for (&A, &B) {
    #[inline]
    fn into_arg(self) -> (A, B) {
        (self.0.clone(), self.1.clone())
    }
}

impl<A: Clone, B: Clone, C: Clone> IntoArg<(A, B, C)> for (&A, &B, &C) {
    #[inline]
    fn into_arg(self) -> (A, B, C) {
        (self.0.clone(), self.1.clone(), self.2.clone())
    }
}

impl<T: Clone> IntoArg<Vec<T>> for &[T] {
    #[inline]
    fn into_arg(self) -> Vec<T> {
        self.to_vec()
    }
}

impl<T: Clone> IntoArg<Vec<T>> for &mut [T] {
    #[inline]
    fn into_arg(self) -> Vec<T> {
        self.to_vec()
    }
}

impl<T: Clone, const K: usize> IntoArg<Vec<T>> for [T; K] {
    #[inline]
    fn into_arg(self) -> Vec<T> {
        self.to_vec()
    }
}

impl<T: Clone, const K: usize> IntoArg<Vec<T>> for &[T; K] {
    #[inline]
    fn into_arg(self) -> Vec<T> {
        self.to_vec()
    }
}

impl<T: Clone> IntoArg<Constant<T>> for T {
    #[inline]
    fn into_arg(self) -> Constant<T> {
        Constant(self)
    }
}

impl<T: Clone> IntoArg<Constant<T>> for &T {
    #[inline]
    fn into_arg(self) -> Constant<T> {
        Constant(self.clone())
    }
}

impl<T: Clone> IntoArg<Constant<T>> for Constant<&T> {
    #[inline]
    fn into_arg(self) -> Constant<T> {
        Constant(self.0.clone())
    }
}

impl<T: Clone> IntoArg<Constant<Vec<T>>> for &[T] {
    #[inline]
    fn into_arg(self) -> Constant<Vec<T>> {
        Constant(self.to_vec())
    }
}

impl<T: Clone> IntoArg<Constant<Vec<T>>> for Constant<&[T]> {
    #[inline]
    fn into_arg(self) -> Constant<Vec<T>> {
        Constant(self.0.to_vec())
    }
}

/// What a driver accepts for a rule's argument tuple `A` ([`FRule::Args`](crate::FRule::Args)),
/// and for tangents, which have the same type.
///
/// * `&A` — the owned tuple, borrowed: nothing is copied;
/// * a tuple of values each accepted for its argument by [`IntoArg`] — `(&x, 2.0)`
///   for `fn f(x: &[f64], y: f64)`, whose `A` is `(Vec<f64>, f64)` — copied into an
///   `A` once per driver call;
/// * for a function of one argument, the argument itself: `&x`, `&x[..]`, `x` (a
///   `Vec`, an array) or a scalar.
///
/// ```
/// use lifted::autodiff;
///
/// #[autodiff(forward)]
/// fn f(x: &[f64], y: f64) -> f64 {
///     x[0] * y
/// }
///
/// #[autodiff(forward)]
/// fn g(x: &[f64]) -> f64 {
///     x[0] * x[1]
/// }
///
/// # fn main() -> Result<(), lifted::Error> {
/// let x = vec![3.0, 4.0];
/// // The rule's own argument tuple, borrowed…
/// let args = (x.clone(), 2.0);
/// assert_eq!(lifted::gradient(f::Rule, &args)?.1, [2.0, 0.0, 3.0]);
/// // …or what `f` itself is called with.
/// assert_eq!(lifted::gradient(f::Rule, (&x, 2.0))?.1, [2.0, 0.0, 3.0]);
/// // One argument: no tuple needed.
/// assert_eq!(lifted::gradient(g::Rule, &x)?.1, [4.0, 3.0]);
/// # Ok(())
/// # }
/// ```
pub trait IntoArgs<A> {
    /// Calls `f` with the argument tuple (borrowed when `self` is `&A`, converted
    /// otherwise).
    fn with_args<T>(self, f: impl FnOnce(&A) -> T) -> T;
}

impl<A> IntoArgs<A> for &A {
    #[inline]
    fn with_args<T>(self, f: impl FnOnce(&A) -> T) -> T {
        f(self)
    }
}

impl IntoArgs<()> for () {
    #[inline]
    fn with_args<T>(self, f: impl FnOnce(&()) -> T) -> T {
        f(&())
    }
}

macro_rules! tuple_args {
    ($($P:ident $X:ident $i:tt),*) => {
        impl<F: Scalar, $($P: Param<F>),*> Arguments<F> for ($($P,)*) {
            const COUNT: usize = [$($i),*].len();
            fn arg_dim(&self, index: usize) -> usize {
                match index {
                    $($i => self.$i.dim(),)*
                    _ => 0,
                }
            }
        }

        impl<$($P, $X: IntoArg<$P>),*> IntoArgs<($($P,)*)> for ($($X,)*) {
            #[inline]
            fn with_args<T>(self, f: impl FnOnce(&($($P,)*)) -> T) -> T {
                f(&($(self.$i.into_arg(),)*))
            }
        }
    };
}

tuple_args!(P0 X0 0);
tuple_args!(P0 X0 0, P1 X1 1);
tuple_args!(P0 X0 0, P1 X1 1, P2 X2 2);
tuple_args!(P0 X0 0, P1 X1 1, P2 X2 2, P3 X3 3);
tuple_args!(P0 X0 0, P1 X1 1, P2 X2 2, P3 X3 3, P4 X4 4);
tuple_args!(P0 X0 0, P1 X1 1, P2 X2 2, P3 X3 3, P4 X4 4, P5 X5 5);
tuple_args!(P0 X0 0, P1 X1 1, P2 X2 2, P3 X3 3, P4 X4 4, P5 X5 5, P6 X6 6);
tuple_args!(P0 X0 0, P1 X1 1, P2 X2 2, P3 X3 3, P4 X4 4, P5 X5 5, P6 X6 6, P7 X7 7);
tuple_args!(P0 X0 0, P1 X1 1, P2 X2 2, P3 X3 3, P4 X4 4, P5 X5 5, P6 X6 6, P7 X7 7, P8 X8 8);
tuple_args!(
    P0 X0 0, P1 X1 1, P2 X2 2, P3 X3 3, P4 X4 4, P5 X5 5, P6 X6 6, P7 X7 7, P8 X8 8, P9 X9 9
);
tuple_args!(
    P0 X0 0, P1 X1 1, P2 X2 2, P3 X3 3, P4 X4 4, P5 X5 5, P6 X6 6, P7 X7 7, P8 X8 8, P9 X9 9,
    P10 X10 10
);
tuple_args!(
    P0 X0 0, P1 X1 1, P2 X2 2, P3 X3 3, P4 X4 4, P5 X5 5, P6 X6 6, P7 X7 7, P8 X8 8, P9 X9 9,
    P10 X10 10, P11 X11 11
);

/// The one-argument shorthands: the argument itself instead of a 1-tuple.
macro_rules! single_args {
    ($($f:ty),*) => {$(
        impl IntoArgs<($f,)> for $f {
            #[inline]
            fn with_args<T>(self, f: impl FnOnce(&($f,)) -> T) -> T {
                f(&(self,))
            }
        }

        impl IntoArgs<(Vec<$f>,)> for Vec<$f> {
            #[inline]
            fn with_args<T>(self, f: impl FnOnce(&(Vec<$f>,)) -> T) -> T {
                f(&(self,))
            }
        }

        impl IntoArgs<(Vec<$f>,)> for &Vec<$f> {
            #[inline]
            fn with_args<T>(self, f: impl FnOnce(&(Vec<$f>,)) -> T) -> T {
                f(&(self.clone(),))
            }
        }

        impl IntoArgs<(Vec<$f>,)> for &[$f] {
            #[inline]
            fn with_args<T>(self, f: impl FnOnce(&(Vec<$f>,)) -> T) -> T {
                f(&(self.to_vec(),))
            }
        }

        impl<const K: usize> IntoArgs<(Vec<$f>,)> for [$f; K] {
            #[inline]
            fn with_args<T>(self, f: impl FnOnce(&(Vec<$f>,)) -> T) -> T {
                f(&(self.to_vec(),))
            }
        }

        impl<const K: usize> IntoArgs<(Vec<$f>,)> for &[$f; K] {
            #[inline]
            fn with_args<T>(self, f: impl FnOnce(&(Vec<$f>,)) -> T) -> T {
                f(&(self.to_vec(),))
            }
        }

        impl<const K: usize> IntoArgs<([$f; K],)> for [$f; K] {
            #[inline]
            fn with_args<T>(self, f: impl FnOnce(&([$f; K],)) -> T) -> T {
                f(&(self,))
            }
        }

        impl<const K: usize> IntoArgs<([$f; K],)> for &[$f; K] {
            #[inline]
            fn with_args<T>(self, f: impl FnOnce(&([$f; K],)) -> T) -> T {
                f(&(*self,))
            }
        }
    )*};
}

single_args!(f64, f32);
