fn vectors(x: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; x.len()];
    for (i, v) in x.iter().enumerate() {
        out[i] = v * i as f64;
    }
    for v in out.iter_mut() {
        *v = v.exp();
    }
    out
}
#[doc = "Derived forward rule of [`vectors`](fn@vectors): `frule` runs it at any reading, `Rule` is its `lifted::FRule` marker for drivers, `CHUNK` its default width."]
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
mod vectors {
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
    ) -> <Vec<f64> as ::lifted::Param<f64>>::Store<LiftedF64> {
        let held = ::lifted::__private::SliceArg::hold(x);
        let x = ::lifted::__private::HeldSlice::view(&held);
        let mut out = < < LiftedF64 as :: lifted :: array :: ArrayReading > :: Vec as :: lifted :: __private :: ArrayOwned < LiftedF64 > > :: from_elem (< LiftedF64 as :: lifted :: Reading < f64 > > :: constant (0.0) , :: lifted :: __private :: ArrayRead :: len (& x)) ;
        for (i, v) in ::lifted::__private::ArrayView::iter(&x).enumerate() {
            {
                let __lifted_element =
                    v * ::lifted::__private::IntoReading::<f64, LiftedF64>::into_reading(i);
                let __lifted_index = i;
                ::lifted::__private::ArrayWrite::set(&mut out, __lifted_index, __lifted_element);
            };
        }
        for mut v in ::lifted::__private::ArrayViewMut::iter_mut(&mut out) {
            *v = v.exp();
        }
        out
    }
    #[doc = "The `lifted::FRule` marker of this function: what drivers and `lifted::testing::check_rule` take."]
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Rule;
    impl ::lifted::FRule for Rule {
        type Float = f64;
        type Args = (::lifted::__private::Vec<f64>,);
        type Output = Vec<f64>;
        const CHUNK: usize = 8usize;
        const NAME: &'static str = "vectors";
        const MUTATES_ARGS: bool = false;
        #[inline]
        fn primal(self, args: &mut Self::Args) -> Self::Output {
            super::vectors(&args.0)
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
            frule::<LiftedF64>(::lifted::__private::ArrayView::view(&args.0))
        }
    }
}
