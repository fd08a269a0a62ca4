fn calls(x: &[f64], y: f64) -> f64 {
    let r = rosenbrock(x);
    let s = super::helper(y);
    m::g(r, s) + f64::max(r, s)
}
#[doc = "Derived forward rule of [`calls`](fn@calls): `frule` runs it at any reading, `Rule` is its `lifted::FRule` marker for drivers, `CHUNK` its default width."]
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
mod calls {
    use super::*;
    use ::lifted::__private::{
        FieldFixed as _, FieldNative as _, FieldView as _, KeepOperand as _, LiftOperand as _,
    };
    #[doc = r" The default chunk width for drivers (the attribute's `chunk`)."]
    pub const CHUNK: usize = 8usize;
    #[doc = r" The derived rule, generic over the reading: at `f64` it reproduces the"]
    #[doc = r" primal function; at `lifted::NDual<f64, N>` it carries N directions."]
    #[inline]
    pub fn frule<LiftedF64: ::lifted::Reading<f64>>(
        x: impl ::lifted::array::SliceArg<LiftedF64>,
        y: LiftedF64,
    ) -> LiftedF64 {
        let held = ::lifted::__private::SliceArg::hold(x);
        let x = ::lifted::__private::HeldSlice::view(&held);
        let r = self::rosenbrock::frule::<LiftedF64>(x);
        let s = super::super::helper::frule::<LiftedF64>(y);
        m::g::frule::<LiftedF64>(r, s) + ::lifted::Real::max(r, s)
    }
    #[doc = "The `lifted::FRule` marker of this function: what drivers and `lifted::testing::check_rule` take."]
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Rule;
    impl ::lifted::FRule for Rule {
        type Float = f64;
        type Args = (::lifted::__private::Vec<f64>, f64);
        type Output = f64;
        const CHUNK: usize = 8usize;
        const NAME: &'static str = "calls";
        const MUTATES_ARGS: bool = false;
        #[inline]
        fn primal(self, args: &mut Self::Args) -> Self::Output {
            super::calls(&args.0, args.1)
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
            frule::<LiftedF64>(::lifted::__private::ArrayView::view(&args.0), args.1)
        }
    }
}
