fn scalar_chain(x: f64) -> f64 {
    x.sin().powi(2) / x.cos().powi(2)
        + (x * x * x).sqrt()
        + 10.31_f64.powf(2.0 * x)
        + 1.0 / (1.0 + (-x).exp())
}
#[doc = "Derived forward rule of [`scalar_chain`](fn@scalar_chain): `frule` runs it at any reading, `Rule` is its `lifted::FRule` marker for drivers, `CHUNK` its default width."]
#[allow(
    unused_mut,
    unused_parens,
    unused_braces,
    unused_variables,
    unused_assignments,
    unused_imports,
    dead_code,
    non_snake_case,
    missing_docs,
    private_interfaces,
    private_bounds,
    clippy::all,
    clippy::pedantic,
    clippy::nursery
)]
mod scalar_chain {
    use super::*;
    use ::lifted::__private::{
        FieldFixed as _, FieldNative as _, FieldView as _, KeepOperand as _, LiftOperand as _,
    };
    #[doc = r" The default chunk width for drivers (the attribute's `chunk`)."]
    pub const CHUNK: usize = 8usize;
    #[doc = r" The derived rule, generic over the reading: at `f64` it reproduces the"]
    #[doc = r" primal function; at `lifted::NDual<f64, N>` it carries N directions."]
    #[inline]
    pub fn frule<LiftedF64: ::lifted::Reading<f64>>(x: LiftedF64) -> LiftedF64 {
        x.sin().powi(2) / x.cos().powi(2)
            + (x * x * x).sqrt()
            + <LiftedF64 as ::lifted::Reading<f64>>::constant(10.31_f64).powf(::lifted::Reading::<
                f64,
            >::rmul(
                x, 2.0
            ))
            + ::lifted::Reading::<f64>::rdiv((::lifted::Reading::<f64>::radd((-x).exp(), 1.0)), 1.0)
    }
    #[doc = "The `lifted::FRule` marker of this function: what drivers and `lifted::testing::check_rule` take."]
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Rule;
    impl ::lifted::FRule for Rule {
        type Float = f64;
        type Args = (f64,);
        type Output = f64;
        const CHUNK: usize = 8usize;
        const NAME: &'static str = "scalar_chain";
        const MUTATES_ARGS: bool = false;
        #[inline]
        fn primal(self, args: &mut Self::Args) -> Self::Output {
            super::scalar_chain(args.0)
        }
        #[inline]
        fn at_chunk<V: ::lifted::__private::AtWidth<f64>>(
            visitor: V,
        ) -> ::core::result::Result<V::Output, V> {
            ::core::result::Result::Ok(<f64 as ::lifted::__private::WidthTable>::at_const::<
                8usize,
                V,
            >(visitor))
        }
        #[inline]
        fn frule<LiftedF64: ::lifted::Reading<f64>>(
            self,
            args: &mut <Self::Args as ::lifted::Param<f64>>::Store<LiftedF64>,
        ) -> <Self::Output as ::lifted::Param<f64>>::Store<LiftedF64> {
            frule::<LiftedF64>(args.0)
        }
    }
}
