//! The element-wise ops of the scalar rule set as values: what the array functions of
//! [`crate::elementwise`] apply and what the CUDA kernels are generated from, so the two
//! lists cannot drift apart.

use crate::Real;

macro_rules! op_enum {
    ($(#[$doc:meta])* $Enum:ident { $($(#[$vdoc:meta])* $Variant:ident = $name:literal,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $Enum {
            $($(#[$vdoc])* #[doc = concat!("`", $name, "`")] $Variant,)*
        }

        impl $Enum {
            /// Every op of this kind, in kernel order.
            pub const ALL: &'static [Self] = &[$(Self::$Variant,)*];

            /// The Rust method name (`"ln_1p"`), which is also the kernel's op name.
            pub fn name(self) -> &'static str {
                match self {
                    $(Self::$Variant => $name,)*
                }
            }
        }
    };
}

op_enum! {
    /// The one-argument rules of [`Real`](crate::Real) (and `Neg`).
    Unary {
        Neg = "neg", Sin = "sin", Cos = "cos", Tan = "tan", Asin = "asin", Acos = "acos",
        Atan = "atan", Sinh = "sinh", Cosh = "cosh", Tanh = "tanh", Asinh = "asinh",
        Acosh = "acosh", Atanh = "atanh", Exp = "exp", Exp2 = "exp2", ExpM1 = "exp_m1",
        Ln = "ln", Log2 = "log2", Log10 = "log10", Ln1p = "ln_1p", Sqrt = "sqrt",
        Cbrt = "cbrt", Abs = "abs", Signum = "signum", Recip = "recip",
        ToDegrees = "to_degrees", ToRadians = "to_radians", Floor = "floor", Ceil = "ceil",
        Round = "round", Trunc = "trunc", Fract = "fract",
    }
}

op_enum! {
    /// Rules with one float and one `int` argument.
    UnaryInt {
        Powi = "powi",
    }
}

op_enum! {
    /// The two-argument rules: the operators (`rem` is `%`) and the binary methods.
    Binary {
        Add = "add", Sub = "sub", Mul = "mul", Div = "div", Rem = "rem", Atan2 = "atan2",
        Log = "log", Powf = "powf", Hypot = "hypot", Copysign = "copysign", Min = "min",
        Max = "max", RemEuclid = "rem_euclid", DivEuclid = "div_euclid",
    }
}

op_enum! {
    /// The three-argument rules: `a.mul_add(b, c)`, `a.clamp(b, c)`.
    Ternary {
        MulAdd = "mul_add", Clamp = "clamp",
    }
}

impl Unary {
    /// The op at reading `D`: the scalar rule of the same name.
    #[inline]
    pub fn apply<D: Real>(self, x: D) -> D {
        match self {
            Self::Neg => -x,
            Self::Sin => x.sin(),
            Self::Cos => x.cos(),
            Self::Tan => x.tan(),
            Self::Asin => x.asin(),
            Self::Acos => x.acos(),
            Self::Atan => x.atan(),
            Self::Sinh => x.sinh(),
            Self::Cosh => x.cosh(),
            Self::Tanh => x.tanh(),
            Self::Asinh => x.asinh(),
            Self::Acosh => x.acosh(),
            Self::Atanh => x.atanh(),
            Self::Exp => x.exp(),
            Self::Exp2 => x.exp2(),
            Self::ExpM1 => x.exp_m1(),
            Self::Ln => x.ln(),
            Self::Log2 => x.log2(),
            Self::Log10 => x.log10(),
            Self::Ln1p => x.ln_1p(),
            Self::Sqrt => x.sqrt(),
            Self::Cbrt => x.cbrt(),
            Self::Abs => x.abs(),
            Self::Signum => x.signum(),
            Self::Recip => x.recip(),
            Self::ToDegrees => x.to_degrees(),
            Self::ToRadians => x.to_radians(),
            Self::Floor => x.floor(),
            Self::Ceil => x.ceil(),
            Self::Round => x.round(),
            Self::Trunc => x.trunc(),
            Self::Fract => x.fract(),
        }
    }
}

impl Binary {
    /// The op at reading `D`: the operator or scalar rule of the same name.
    #[inline]
    pub fn apply<D: Real>(self, a: D, b: D) -> D {
        match self {
            Self::Add => a + b,
            Self::Sub => a - b,
            Self::Mul => a * b,
            Self::Div => a / b,
            Self::Rem => a % b,
            Self::Atan2 => a.atan2(b),
            Self::Log => a.log(b),
            Self::Powf => a.powf(b),
            Self::Hypot => a.hypot(b),
            Self::Copysign => a.copysign(b),
            Self::Min => a.min(b),
            Self::Max => a.max(b),
            Self::RemEuclid => a.rem_euclid(b),
            Self::DivEuclid => a.div_euclid(b),
        }
    }
}

impl Ternary {
    /// The op at reading `D`: `a.mul_add(b, c)` or `a.clamp(b, c)`.
    #[inline]
    pub fn apply<D: Real>(self, a: D, b: D, c: D) -> D {
        match self {
            Self::MulAdd => a.mul_add(b, c),
            Self::Clamp => a.clamp(b, c),
        }
    }
}
