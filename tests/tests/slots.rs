//! `Lifted` slots: the canonical forward value of each primal type (`Dual<N>`), the
//! accessors rules read slots through, zero-lifting, and the size invariants.

use core::mem::size_of;

use lifted::array::LaneRef;
use lifted::{
    Dual, DualElem, ForwardValue, Lifted, NDual, NDualArray, NDualMut, NDualRef, NoDual, primal,
    tangent, tangent_lane, zero_lifted,
};

/// Whether `A` and `B` are the same type.
fn same_type<A: 'static, B: 'static>() -> bool {
    core::any::TypeId::of::<A>() == core::any::TypeId::of::<B>()
}

/// The forward value of `P` at width `N`.
type V<P, const N: usize> = <P as Dual<N>>::Value;

#[test]
fn canonical_forward_values() {
    assert!(same_type::<V<f64, 4>, NDual<f64, 4>>());
    assert!(same_type::<V<f32, 2>, NDual<f32, 2>>());
    assert!(same_type::<V<NDual<f64, 1>, 2>, NDual<NDual<f64, 1>, 2>>());
    assert!(same_type::<V<Vec<f64>, 3>, NDualArray<f64, 3>>());
    assert!(same_type::<V<Vec<f32>, 3>, NDualArray<f32, 3>>());
    assert!(same_type::<V<&'static [f64], 3>, NDualRef<'static, f64, 3>>());
    assert!(same_type::<
        V<&'static mut [f64], 3>,
        NDualMut<'static, f64, 3>,
    >());
    assert!(same_type::<V<[f64; 3], 4>, [NDual<f64, 4>; 3]>());
    assert!(same_type::<V<[[f64; 2]; 3], 4>, [[NDual<f64, 4>; 2]; 3]>());
    assert!(same_type::<
        V<(f64, i32, bool), 2>,
        (NDual<f64, 2>, i32, bool),
    >());
    assert!(same_type::<V<Option<f64>, 2>, Option<NDual<f64, 2>>>());
    assert!(same_type::<
        V<Result<f64, String>, 2>,
        Result<NDual<f64, 2>, String>,
    >());
    assert!(same_type::<V<usize, 8>, usize>());
    assert!(same_type::<V<String, 8>, String>());
    assert!(same_type::<V<&'static str, 8>, &'static str>());
    assert!(same_type::<V<(), 8>, ()>());
    // Arrays of non-scalars are arrays of forward values.
    assert!(same_type::<V<Vec<[f64; 2]>, 3>, Vec<[NDual<f64, 3>; 2]>>());
    assert!(same_type::<V<Vec<(f64, u8)>, 3>, Vec<(NDual<f64, 3>, u8)>>());
    assert!(same_type::<V<Vec<Vec<f64>>, 3>, Vec<NDualArray<f64, 3>>>());
    assert!(same_type::<V<Vec<i64>, 3>, Vec<i64>>());
    assert!(same_type::<
        V<&'static [(f64, f64)], 3>,
        &'static [(NDual<f64, 3>, NDual<f64, 3>)],
    >());
    assert!(same_type::<<f64 as DualElem<2>>::Vec, NDualArray<f64, 2>>());
    // Tuples up to 12 elements.
    type T12 = (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, u8);
    assert!(same_type::<
        V<T12, 1>,
        (
            NDual<f64, 1>,
            NDual<f64, 1>,
            NDual<f64, 1>,
            NDual<f64, 1>,
            NDual<f64, 1>,
            NDual<f64, 1>,
            NDual<f64, 1>,
            NDual<f64, 1>,
            NDual<f64, 1>,
            NDual<f64, 1>,
            NDual<f64, 1>,
            u8,
        ),
    >());
}

#[test]
fn invariant_1_sizes() {
    // The primal is not stored twice: a scalar slot is exactly its NDual.
    assert_eq!(size_of::<Lifted<f64, 1>>(), size_of::<[f64; 2]>());
    assert_eq!(size_of::<Lifted<f64, 4>>(), size_of::<[f64; 5]>());
    assert_eq!(size_of::<Lifted<f64, 64>>(), size_of::<[f64; 65]>());
    assert_eq!(size_of::<Lifted<f32, 3>>(), size_of::<[f32; 4]>());
    // Fixed arrays: no allocation, no header.
    assert_eq!(size_of::<Lifted<[f64; 3], 4>>(), size_of::<[[f64; 5]; 3]>());
    assert_eq!(size_of::<Lifted<(f64, f64), 2>>(), size_of::<[f64; 6]>());
    // Inert values carry nothing extra.
    assert_eq!(size_of::<Lifted<u32, 8>>(), size_of::<u32>());
    assert_eq!(size_of::<NoDual>(), 0);
    // A slice slot is the two slices (primal and block), nothing else.
    assert_eq!(size_of::<Lifted<&[f64], 4>>(), 2 * size_of::<&[f64]>());
}

#[test]
fn scalar_accessors() {
    let x = Lifted::<f64, 2>::from_parts(1.5, [1.0, -2.0]);
    assert_eq!(primal(&x), 1.5);
    assert_eq!(tangent(&x), &[1.0, -2.0]);
    assert_eq!(tangent_lane(&x, 1), -2.0);
    let z = zero_lifted::<f64, 3>(2.5);
    assert_eq!(primal(&z), 2.5);
    assert_eq!(tangent(&z), &[0.0; 3]);
}

#[test]
fn array_accessors() {
    let a = NDualArray::<f64, 2>::from_primal_fn(vec![1.0, 2.0, 3.0], |i, k| (10 * i + k) as f64);
    let slot = Lifted::<Vec<f64>, 2>::new(a.clone());
    // The primal is the array's own buffer.
    assert!(core::ptr::eq(primal(&slot), slot.value().as_primal_slice()));
    assert_eq!(primal(&slot), &[1.0, 2.0, 3.0]);
    assert_eq!(tangent(&slot), &[0.0, 1.0, 10.0, 11.0, 20.0, 21.0]);
    let lane: LaneRef<'_, f64, 2> = tangent_lane(&slot, 1);
    assert_eq!(lane.to_vec(), vec![1.0, 11.0, 21.0]);

    // Invariant 5: a rule reads through the accessors, whatever the view.
    let r = Lifted::<&[f64], 2>::new(a.slice(1..));
    assert_eq!(primal(&r), &[2.0, 3.0]);
    assert_eq!(tangent(&r), &[10.0, 11.0, 20.0, 21.0]);
    assert_eq!(tangent_lane(&r, 0).to_vec(), vec![10.0, 20.0]);
    let mut b = a.clone();
    let m = Lifted::<&mut [f64], 2>::new(b.view_mut());
    assert_eq!(primal(&m), &[1.0, 2.0, 3.0]);
    assert_eq!(tangent_lane(&m, 1).get(2), 21.0);

    let z = zero_lifted::<Vec<f64>, 4>(vec![1.0, 2.0]);
    assert_eq!(primal(&z), &[1.0, 2.0]);
    assert_eq!(tangent(&z), &[0.0; 8]);
}

#[test]
fn fixed_array_tuple_option_accessors() {
    // [f64; K]: element-wise, no allocation.
    let arr = Lifted::<[f64; 3], 2>::new([
        NDual::new(1.0, [1.0, 0.0]),
        NDual::new(2.0, [0.0, 1.0]),
        NDual::new(3.0, [5.0, 6.0]),
    ]);
    assert_eq!(primal(&arr), [1.0, 2.0, 3.0]);
    assert_eq!(tangent_lane(&arr, 1), [0.0, 1.0, 6.0]);
    assert_eq!(tangent(&arr)[2], &[5.0, 6.0]);
    let [a, b, _] = *arr.value();
    assert_eq!((a + b).value(), 3.0);
    let z = zero_lifted::<[f64; 2], 3>([4.0, 5.0]);
    assert_eq!(primal(&z), [4.0, 5.0]);
    assert_eq!(tangent_lane(&z, 2), [0.0, 0.0]);

    // Tuples: element-wise, inert members keep their value and a NoDual tangent.
    let t = zero_lifted::<(f64, usize, bool), 2>((1.5, 7, true));
    assert_eq!(primal(&t), (1.5, &7, &true));
    assert_eq!(tangent_lane(&t, 0), (0.0, NoDual, NoDual));
    let t = Lifted::<(f64, Vec<f64>), 1>::new((
        NDual::new(1.0, [2.0]),
        NDualArray::from_primal_fn(vec![3.0, 4.0], |i, _| i as f64),
    ));
    let (p0, p1) = primal(&t);
    assert_eq!((p0, p1), (1.0, &[3.0, 4.0][..]));
    assert_eq!(tangent_lane(&t, 0).1.to_vec(), vec![0.0, 1.0]);
    let big = zero_lifted::<(f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64), 1>((
        1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0,
    ));
    assert_eq!(primal(&big).11, 12.0);

    // Option and Result: element-wise.
    let o = Lifted::<Option<f64>, 2>::new(Some(NDual::new(1.0, [2.0, 3.0])));
    assert_eq!(primal(&o), Some(1.0));
    assert_eq!(tangent_lane(&o, 1), Some(3.0));
    let n = zero_lifted::<Option<f64>, 2>(None);
    assert_eq!(primal(&n), None);
    let r = zero_lifted::<Result<f64, String>, 2>(Err("no".to_string()));
    assert_eq!(primal(&r), Err(&"no".to_string()));
    assert_eq!(tangent(&r), Err(NoDual));

    // Vec of non-scalars: a Vec of forward values.
    let v = zero_lifted::<Vec<[f64; 2]>, 2>(vec![[1.0, 2.0], [3.0, 4.0]]);
    assert_eq!(primal(&v), vec![[1.0, 2.0], [3.0, 4.0]]);
    assert_eq!(tangent_lane(&v, 1), vec![[0.0, 0.0], [0.0, 0.0]]);
}

#[test]
fn inert_accessors() {
    let i = zero_lifted::<i32, 4>(-3);
    assert_eq!(primal(&i), &-3);
    assert_eq!(tangent(&i), NoDual);
    assert_eq!(tangent_lane(&i, 0), NoDual);
    let s = zero_lifted::<String, 4>("x".into());
    assert_eq!(primal(&s), "x");
    let c = zero_lifted::<char, 1>('c');
    assert_eq!(primal(&c), &'c');
    let u = zero_lifted::<(), 1>(());
    assert_eq!(tangent(&u), NoDual);
    let st = Lifted::<&str, 2>::new("borrowed");
    assert_eq!(*primal(&st), "borrowed");
}

#[test]
fn forward_value_of_width_64() {
    let a = NDualArray::<f64, 64>::seeded(vec![1.0; 70], 3);
    assert_eq!(ForwardValue::tangent(&a).len(), 64 * 70);
    assert_eq!(ForwardValue::tangent_lane(&a, 63).get(66), 1.0);
    assert_eq!(ForwardValue::tangent_lane(&a, 63).iter().sum::<f64>(), 1.0);
    let x = zero_lifted::<[f64; 2], 64>([1.0, 2.0]);
    assert_eq!(tangent_lane(&x, 63), [0.0, 0.0]);
}

#[test]
#[should_panic]
fn lane_past_the_width_panics() {
    let a = NDualArray::<f64, 2>::constant(vec![1.0]);
    let _ = tangent_lane(&Lifted::<Vec<f64>, 2>::new(a), 2);
}
