//! The element-wise ops of the scalar rule set as values: what the array functions of
//! [`crate::elementwise`] apply and what the CUDA kernels are generated from. Each kind's
//! ops are listed once, in a macro that hands the list to a callback (the enum here, the
//! array functions, the CUDA array methods), so no list can drift from another.

use crate::Real;

/// Invokes `$callback! { [prefix…] Variant = method, … }` with every one-argument op:
/// the rules of [`Real`] and `Neg`, in kernel order.
macro_rules! unary_ops {
    ($callback:ident $($prefix:tt)*) => {
        $callback! { [$($prefix)*]
            Neg = neg, Sin = sin, Cos = cos, Tan = tan, Asin = asin, Acos = acos,
            Atan = atan, Sinh = sinh, Cosh = cosh, Tanh = tanh, Asinh = asinh,
            Acosh = acosh, Atanh = atanh, Exp = exp, Exp2 = exp2, ExpM1 = exp_m1,
            Ln = ln, Log2 = log2, Log10 = log10, Ln1p = ln_1p, Sqrt = sqrt,
            Cbrt = cbrt, Abs = abs, Signum = signum, Recip = recip,
            ToDegrees = to_degrees, ToRadians = to_radians, Floor = floor, Ceil = ceil,
            Round = round, Trunc = trunc, Fract = fract,
        }
    };
}

/// Invokes `$callback! { [prefix…] Variant = method ("how it is written"), … }` with
/// every two-argument op: the operators (`rem` is `%`) and the binary methods.
macro_rules! binary_ops {
    ($callback:ident $($prefix:tt)*) => {
        $callback! { [$($prefix)*]
            Add = add ("a + b"), Sub = sub ("a - b"), Mul = mul ("a * b"),
            Div = div ("a / b"), Rem = rem ("a % b"), Atan2 = atan2 ("a.atan2(b)"),
            Log = log ("a.log(b)"), Powf = powf ("a.powf(b)"), Hypot = hypot ("a.hypot(b)"),
            Copysign = copysign ("a.copysign(b)"), Min = min ("a.min(b)"),
            Max = max ("a.max(b)"), RemEuclid = rem_euclid ("a.rem_euclid(b)"),
            DivEuclid = div_euclid ("a.div_euclid(b)"),
        }
    };
}

/// An op kind as an enum with its kernel-order list and names, and `apply` at a
/// reading: the op is the method of the same name (operators through their traits).
macro_rules! op_enum {
    ([$(#[$doc:meta])* $Enum:ident ($($arg:ident: $ty:ty),*) => $call:tt]
        $($Variant:ident = $name:ident $(($what:literal))?,)*
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $Enum {
            $(#[doc = concat!("`", stringify!($name), "`")] $Variant,)*
        }

        impl $Enum {
            /// Every op of this kind, in kernel order.
            pub const ALL: &'static [Self] = &[$(Self::$Variant,)*];

            /// The Rust method name (`"ln_1p"`), which is also the kernel's op name.
            pub fn name(self) -> &'static str {
                match self {
                    $(Self::$Variant => stringify!($name),)*
                }
            }

            /// The op at reading `D`: the operator or scalar rule of the same name.
            #[inline]
            pub fn apply<D: Real>(self, x: D $(, $arg: $ty)*) -> D {
                match self {
                    $(Self::$Variant => x.$name $call,)*
                }
            }
        }
    };
}

unary_ops!(op_enum
    /// The one-argument rules of [`Real`](crate::Real) (and `Neg`).
    Unary () => ()
);

op_enum! {
    [
        /// Rules with one float and one `int` argument.
        UnaryInt (n: i32) => (n)
    ]
    Powi = powi,
}

binary_ops!(op_enum
    /// The two-argument rules: the operators (`rem` is `%`) and the binary methods.
    Binary (b: D) => (b)
);

op_enum! {
    [
        /// The three-argument rules: `a.mul_add(b, c)`, `a.clamp(b, c)`.
        Ternary (b: D, c: D) => (b, c)
    ]
    MulAdd = mul_add, Clamp = clamp,
}
