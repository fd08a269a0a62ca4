//! The arrays of the CUDA reading: [`DeviceVec`] (owned), [`DeviceRef`] and
//! [`DeviceMut`] (views), implementing the array vocabulary every derived rule uses.
//!
//! A `DeviceVec` holds its elements on the device, on the host, or both, and moves them
//! only when asked: whole-array operations run on the device copy (see `offload.rs`);
//! element access (`x[i]`, iteration, `push`) runs on a host copy, downloaded the first
//! time it is needed, and a write through it drops the device copy, which the next
//! device operation uploads again. So every construct of the macro's language works on
//! device arrays, and a body written with whole-array operations never leaves the
//! device. Element loops over device arrays are correct but pay a transfer each time
//! the array changes sides.
//!
//! A device operation that fails (out of memory, a launch error) cannot return a
//! `Result` from inside a rule; its result is a NaN-filled array carrying the error,
//! later operations on it carry it on, and [`DeviceVec::to_host`] returns it.

use core::ops::{Deref, DerefMut, RangeBounds};
use std::sync::{Arc, OnceLock};

use super::DeviceDual;
use crate::array::ArrayReading;
use crate::array::{Array, Field, Flat, Operand, OwnedArray, OwnedOperand, Placement};
use crate::array::{
    ArrayMut, ArrayOwned, ArrayRead, ArrayRef, ArrayView, ArrayViewMut, ArrayWrite, ElemMut,
    IntoIter, Iter, IterMut,
};
use crate::cuda::{CudaArray, CudaError, CudaNDualArray, Device, DeviceFloat};
use crate::{NDual, NDualArray, NDualMut, NDualRef};

/// An owned array of the CUDA reading (`<DeviceDual<S, N> as ArrayReading>::Vec`): N tangent
/// lanes, held on the device (lane-major), on the host (element-major), or both.
pub struct DeviceVec<S: DeviceFloat, const N: usize> {
    host: OnceLock<NDualArray<S, N>>,
    device: OnceLock<CudaNDualArray<S, N>>,
    error: OnceLock<CudaError>,
}

impl<S: DeviceFloat, const N: usize> DeviceVec<S, N> {
    /// An array held on the host (it moves to a device with the first device operation
    /// that has an operand there).
    pub fn from_host(host: NDualArray<S, N>) -> Self {
        Self {
            host: OnceLock::from(host),
            device: OnceLock::new(),
            error: OnceLock::new(),
        }
    }

    /// An array held on the device.
    pub fn from_device(device: CudaNDualArray<S, N>) -> Self {
        Self {
            host: OnceLock::new(),
            device: OnceLock::from(device),
            error: OnceLock::new(),
        }
    }

    /// Uploads `host` to `device`: the usual way to make a rule's inputs.
    ///
    /// # Errors
    /// Allocation and copy errors.
    pub fn upload(device: &Arc<Device>, host: &NDualArray<S, N>) -> Result<Self, CudaError> {
        CudaNDualArray::from_host(device, host).map(Self::from_device)
    }

    /// A NaN-filled array of `len` elements carrying `error`: the result of a device
    /// operation that failed.
    pub(crate) fn failed(len: usize, error: CudaError) -> Self {
        let out = Self::from_host(nan_array(len));
        let _ = out.error.set(error);
        out
    }

    /// The values and lanes on the host.
    ///
    /// # Errors
    /// The error of a device operation this array comes from, or of its download.
    pub fn to_host(&self) -> Result<NDualArray<S, N>, CudaError> {
        if let Some(e) = self.error() {
            return Err(e.clone());
        }
        match (self.host.get(), self.device.get()) {
            (None, Some(d)) => d.to_host(),
            _ => Ok(self.host().clone()),
        }
    }

    /// The device copy, when the array has one.
    pub fn device_array(&self) -> Option<&CudaNDualArray<S, N>> {
        self.device.get()
    }

    /// The error this array carries, if a device operation it comes from failed.
    pub fn error(&self) -> Option<&CudaError> {
        self.error.get()
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        match (self.host.get(), self.device.get()) {
            (Some(h), _) => h.len(),
            (None, Some(d)) => d.len(),
            (None, None) => 0,
        }
    }

    /// `true` when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The host copy, downloaded on first use. A failed download leaves NaNs and the
    /// error on the array.
    pub(crate) fn host(&self) -> &NDualArray<S, N> {
        self.host.get_or_init(|| match self.device.get() {
            None => NDualArray::new(),
            Some(d) => d.to_host().unwrap_or_else(|e| {
                let _ = self.error.set(e);
                nan_array(d.len())
            }),
        })
    }

    /// The device copy on `device`, uploading the host copy the first time (it is
    /// kept, and dropped again by the next write).
    pub(crate) fn on(&self, device: &Arc<Device>) -> Result<&CudaNDualArray<S, N>, CudaError> {
        if let Some(a) = self.device.get() {
            return Ok(a);
        }
        let up = CudaNDualArray::from_host(device, self.host())?;
        Ok(self.device.get_or_init(|| up))
    }

    /// The host copy for writing: the device copy is dropped, being about to go stale.
    fn host_mut(&mut self) -> &mut NDualArray<S, N> {
        self.host();
        self.device = OnceLock::new();
        self.host.get_mut().expect("the host copy was made above")
    }

    fn into_host(mut self) -> NDualArray<S, N> {
        core::mem::take(self.host_mut())
    }
}

/// A value whose every component is NaN: what a failed device operation yields.
pub(crate) fn nan_dual<S: DeviceFloat, const N: usize>() -> NDual<S, N> {
    NDual::new(<S as DeviceFloat>::nan(), [<S as DeviceFloat>::nan(); N])
}

fn nan_array<S: DeviceFloat, const N: usize>(len: usize) -> NDualArray<S, N> {
    NDualArray::from_elem(nan_dual(), len)
}

impl<S: DeviceFloat, const N: usize> core::fmt::Debug for DeviceVec<S, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DeviceVec")
            .field("len", &self.len())
            .field("on_host", &self.host.get().is_some())
            .field("on_device", &self.device.get().is_some())
            .field("error", &self.error.get())
            .finish()
    }
}

impl<S: DeviceFloat, const N: usize> Clone for DeviceVec<S, N> {
    /// Copies each copy the array has: the device copy on the device (if that copy
    /// fails, the clone is made from the host copy instead), the host copy on the host.
    fn clone(&self) -> Self {
        let out = match (self.host.get(), self.device.get()) {
            (host, Some(d)) if self.error().is_none() => match d.try_clone() {
                Ok(copy) => {
                    let out = Self::from_device(copy);
                    if let Some(h) = host {
                        let _ = out.host.set(h.clone());
                    }
                    out
                }
                Err(_) => Self::from_host(self.host().clone()),
            },
            _ => Self::from_host(self.host().clone()),
        };
        if let Some(e) = self.error() {
            let _ = out.error.set(e.clone());
        }
        out
    }
}

impl<S: DeviceFloat, const N: usize> Default for DeviceVec<S, N> {
    fn default() -> Self {
        Self::from_host(NDualArray::new())
    }
}

/// A shared view of an array of the CUDA reading (`<DeviceDual<S, N> as ArrayReading>::Ref`):
/// a whole [`DeviceVec`] (whose device copy whole-array operations use directly) or a
/// part of its host copy.
#[derive(Clone, Copy)]
pub struct DeviceRef<'a, S: DeviceFloat, const N: usize> {
    inner: RefInner<'a, S, N>,
}

#[derive(Clone, Copy)]
enum RefInner<'a, S: DeviceFloat, const N: usize> {
    Whole(&'a DeviceVec<S, N>),
    Host(NDualRef<'a, S, N>),
}

impl<'a, S: DeviceFloat, const N: usize> DeviceRef<'a, S, N> {
    /// The host view of the same elements (downloading a whole array's on first use).
    pub(crate) fn host(self) -> NDualRef<'a, S, N> {
        match self.inner {
            RefInner::Whole(v) => v.host().view(),
            RefInner::Host(r) => r,
        }
    }

    /// The whole array this view shows, if it shows one whole.
    pub(crate) fn whole(self) -> Option<&'a DeviceVec<S, N>> {
        match self.inner {
            RefInner::Whole(v) => Some(v),
            RefInner::Host(_) => None,
        }
    }

    fn part(r: NDualRef<'a, S, N>) -> Self {
        Self {
            inner: RefInner::Host(r),
        }
    }
}

impl<S: DeviceFloat, const N: usize> core::fmt::Debug for DeviceRef<'_, S, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.inner {
            RefInner::Whole(v) => f.debug_tuple("DeviceRef").field(v).finish(),
            RefInner::Host(r) => f.debug_tuple("DeviceRef").field(&r).finish(),
        }
    }
}

impl<'a, S: DeviceFloat, const N: usize> From<&'a DeviceVec<S, N>> for DeviceRef<'a, S, N> {
    fn from(v: &'a DeviceVec<S, N>) -> Self {
        Self {
            inner: RefInner::Whole(v),
        }
    }
}

/// A mutable view of an array of the CUDA reading (`<DeviceDual<S, N> as ArrayReading>::Mut`):
/// writes go to the host copy (the device copy was dropped when the view was made).
#[derive(Debug)]
pub struct DeviceMut<'a, S: DeviceFloat, const N: usize>(NDualMut<'a, S, N>);

/// A mutable handle on one element of a device-reading array; writes the element back
/// when dropped, as [`ElemMut`] does.
pub struct DeviceElemMut<'s, S: ArrayReading, const N: usize>(ElemMut<'s, S, N>);

impl<S: ArrayReading, const N: usize> Deref for DeviceElemMut<'_, S, N> {
    type Target = DeviceDual<S, N>;
    fn deref(&self) -> &DeviceDual<S, N> {
        let x: &NDual<S, N> = &self.0;
        // SAFETY: `DeviceDual` is a `repr(transparent)` wrapper of `NDual`.
        unsafe { &*(core::ptr::from_ref(x).cast::<DeviceDual<S, N>>()) }
    }
}

impl<S: ArrayReading, const N: usize> DerefMut for DeviceElemMut<'_, S, N> {
    fn deref_mut(&mut self) -> &mut DeviceDual<S, N> {
        let x: &mut NDual<S, N> = &mut self.0;
        // SAFETY: as in `deref`.
        unsafe { &mut *(core::ptr::from_mut(x).cast::<DeviceDual<S, N>>()) }
    }
}

type Wrap<S, const N: usize> = fn(NDual<S, N>) -> DeviceDual<S, N>;
type WrapMut<'s, S, const N: usize> = fn(ElemMut<'s, S, N>) -> DeviceElemMut<'s, S, N>;

/// The iterator of a device-reading array: the host elements, wrapped.
pub type DeviceIter<'s, S, const N: usize> = core::iter::Map<Iter<'s, S, N>, Wrap<S, N>>;
/// The mutable iterator of a device-reading array.
pub type DeviceIterMut<'s, S, const N: usize> =
    core::iter::Map<IterMut<'s, S, N>, WrapMut<'s, S, N>>;

fn wrap_iter<S: DeviceFloat, const N: usize>(it: Iter<'_, S, N>) -> DeviceIter<'_, S, N> {
    it.map(DeviceDual as Wrap<S, N>)
}

fn wrap_iter_mut<S: DeviceFloat, const N: usize>(it: IterMut<'_, S, N>) -> DeviceIterMut<'_, S, N> {
    it.map(DeviceElemMut as WrapMut<'_, S, N>)
}

/// Read access, views and iteration for each array type, given how it reaches its host
/// elements (`$host`) and its shared view (`$view`).
macro_rules! read_impls {
    ($ty:ty, |$s:ident| $host:expr, $view:expr) => {
        impl<S: DeviceFloat, const N: usize> ArrayRead<DeviceDual<S, N>> for $ty {
            fn len(&self) -> usize {
                let $s = self;
                $host.len()
            }
            #[track_caller]
            fn get(&self, i: usize) -> DeviceDual<S, N> {
                let $s = self;
                DeviceDual($host.get(i))
            }
        }

        impl<S: DeviceFloat, const N: usize> ArrayView<DeviceDual<S, N>> for $ty {
            type Iter<'s>
                = DeviceIter<'s, S, N>
            where
                Self: 's;
            fn view(&self) -> DeviceRef<'_, S, N> {
                let $s = self;
                $view
            }
            fn iter(&self) -> DeviceIter<'_, S, N> {
                let $s = self;
                wrap_iter($host.iter())
            }
            fn to_vec(&self) -> DeviceVec<S, N> {
                let $s = self;
                match ArrayView::view($s).whole() {
                    Some(v) => v.clone(),
                    None => DeviceVec::from_host($host.to_vec()),
                }
            }
        }
    };
}

read_impls!(DeviceVec<S, N>, |s| s.host(), DeviceRef::from(s));
read_impls!(DeviceRef<'_, S, N>, |s| s.host(), *s);
read_impls!(DeviceMut<'_, S, N>, |s| s.0, DeviceRef::part(s.0.view()));

macro_rules! write_impls {
    ($ty:ty, |$s:ident| $host:expr) => {
        impl<S: DeviceFloat, const N: usize> ArrayWrite<DeviceDual<S, N>> for $ty {
            #[track_caller]
            fn set(&mut self, i: usize, value: DeviceDual<S, N>) {
                let $s = self;
                $host.set(i, value.0);
            }
            #[track_caller]
            fn swap(&mut self, i: usize, j: usize) {
                let $s = self;
                $host.swap(i, j);
            }
        }

        impl<S: DeviceFloat, const N: usize> ArrayViewMut<DeviceDual<S, N>> for $ty {
            type ElemMut<'s>
                = DeviceElemMut<'s, S, N>
            where
                Self: 's;
            type IterMut<'s>
                = DeviceIterMut<'s, S, N>
            where
                Self: 's;
            fn view_mut(&mut self) -> DeviceMut<'_, S, N> {
                let $s = self;
                DeviceMut($host.view_mut())
            }
            #[track_caller]
            fn elem_mut(&mut self, i: usize) -> DeviceElemMut<'_, S, N> {
                let $s = self;
                DeviceElemMut($host.elem_mut(i))
            }
            fn iter_mut(&mut self) -> DeviceIterMut<'_, S, N> {
                let $s = self;
                wrap_iter_mut($host.iter_mut())
            }
            #[track_caller]
            fn copy_from_slice(&mut self, src: DeviceRef<'_, S, N>) {
                let $s = self;
                $host.copy_from_slice(src.host());
            }
            fn fill(&mut self, value: DeviceDual<S, N>) {
                let $s = self;
                $host.fill(value.0);
            }
        }
    };
}

write_impls!(DeviceVec<S, N>, |s| s.host_mut());
write_impls!(DeviceMut<'_, S, N>, |s| s.0);

impl<'a, S: DeviceFloat, const N: usize> ArrayRef<'a, DeviceDual<S, N>> for DeviceRef<'a, S, N> {
    #[track_caller]
    fn into_slice(self, range: impl RangeBounds<usize>) -> DeviceRef<'a, S, N> {
        if covers_all(&range, ArrayRead::len(&self)) {
            self
        } else {
            Self::part(self.host().slice(range))
        }
    }
    #[track_caller]
    fn into_split_at(self, mid: usize) -> (DeviceRef<'a, S, N>, DeviceRef<'a, S, N>) {
        let (a, b) = self.host().split_at(mid);
        (Self::part(a), Self::part(b))
    }
}

/// Whether `range` is `0..len` (a slice of the whole keeps the device copy usable).
fn covers_all(range: &impl RangeBounds<usize>, len: usize) -> bool {
    use core::ops::Bound::{Excluded, Included, Unbounded};
    let start = match range.start_bound() {
        Included(&s) => s,
        Excluded(&s) => s.saturating_add(1),
        Unbounded => 0,
    };
    let end = match range.end_bound() {
        Included(&e) => e.saturating_add(1),
        Excluded(&e) => e,
        Unbounded => len,
    };
    start == 0 && end == len
}

impl<'a, S: DeviceFloat, const N: usize> ArrayMut<'a, DeviceDual<S, N>> for DeviceMut<'a, S, N> {
    fn into_ref(self) -> DeviceRef<'a, S, N> {
        DeviceRef::part(self.0.into_ref())
    }
    #[track_caller]
    fn into_slice_mut(self, range: impl RangeBounds<usize>) -> DeviceMut<'a, S, N> {
        DeviceMut(self.0.into_slice_mut(range))
    }
    #[track_caller]
    fn into_split_at_mut(self, mid: usize) -> (DeviceMut<'a, S, N>, DeviceMut<'a, S, N>) {
        let (a, b) = self.0.into_split_at_mut(mid);
        (DeviceMut(a), DeviceMut(b))
    }
}

impl<S: DeviceFloat, const N: usize> ArrayOwned<DeviceDual<S, N>> for DeviceVec<S, N> {
    fn from_elem(value: DeviceDual<S, N>, len: usize) -> Self {
        Self::from_host(NDualArray::from_elem(value.0, len))
    }
    fn with_capacity(capacity: usize) -> Self {
        Self::from_host(NDualArray::with_capacity(capacity))
    }
    fn push(&mut self, value: DeviceDual<S, N>) {
        self.host_mut().push(value.0);
    }
    fn pop(&mut self) -> Option<DeviceDual<S, N>> {
        self.host_mut().pop().map(DeviceDual)
    }
    fn extend_from_slice(&mut self, src: DeviceRef<'_, S, N>) {
        self.host_mut().extend_from_slice(src.host());
    }
    fn resize(&mut self, len: usize, value: DeviceDual<S, N>) {
        self.host_mut().resize(len, value.0);
    }
    fn truncate(&mut self, len: usize) {
        self.host_mut().truncate(len);
    }
    fn clear(&mut self) {
        self.host_mut().clear();
    }
    #[track_caller]
    fn insert(&mut self, i: usize, value: DeviceDual<S, N>) {
        self.host_mut().insert(i, value.0);
    }
    #[track_caller]
    fn remove(&mut self, i: usize) -> DeviceDual<S, N> {
        DeviceDual(self.host_mut().remove(i))
    }
    fn reserve(&mut self, additional: usize) {
        self.host_mut().reserve(additional);
    }
    fn extend_map<T: Copy>(&mut self, src: &[T], mut f: impl FnMut(T) -> DeviceDual<S, N>) {
        self.host_mut().extend_map(src, |x| f(x).0);
    }
}

impl<S: DeviceFloat, const N: usize> FromIterator<DeviceDual<S, N>> for DeviceVec<S, N> {
    fn from_iter<I: IntoIterator<Item = DeviceDual<S, N>>>(iter: I) -> Self {
        Self::from_host(iter.into_iter().map(|x| x.0).collect())
    }
}

impl<S: DeviceFloat, const N: usize> Extend<DeviceDual<S, N>> for DeviceVec<S, N> {
    fn extend<I: IntoIterator<Item = DeviceDual<S, N>>>(&mut self, iter: I) {
        self.host_mut().extend(iter.into_iter().map(|x| x.0));
    }
}

impl<S: DeviceFloat, const N: usize> IntoIterator for DeviceVec<S, N> {
    type Item = DeviceDual<S, N>;
    type IntoIter = core::iter::Map<IntoIter<S, N>, Wrap<S, N>>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_host().into_iter().map(DeviceDual as Wrap<S, N>)
    }
}

impl<S: DeviceFloat, const N: usize> Array for DeviceRef<'_, S, N> {
    type Elem = DeviceDual<S, N>;
    fn len(&self) -> usize {
        ArrayRead::len(self)
    }
}

impl<S: DeviceFloat, const N: usize> Operand<DeviceDual<S, N>> for DeviceRef<'_, S, N> {
    fn get(&self, i: usize) -> DeviceDual<S, N> {
        ArrayRead::get(self, i)
    }
    fn flat(&self) -> Option<Flat<'_, Field<DeviceDual<S, N>>>> {
        let (primal, tangent) = self.host().into_parts();
        Some(Flat {
            primal,
            tangent: Some(tangent),
        })
    }
    fn placement(&self) -> Placement<'_, DeviceDual<S, N>> {
        self.whole().map_or(Placement::Host, Placement::Own)
    }
}

impl<S: DeviceFloat, const N: usize> OwnedArray for DeviceVec<S, N> {
    type Elem = DeviceDual<S, N>;
    fn len(&self) -> usize {
        Self::len(self)
    }
}

impl<S: DeviceFloat, const N: usize> OwnedOperand<DeviceDual<S, N>> for DeviceVec<S, N> {
    fn get(&self, i: usize) -> DeviceDual<S, N> {
        ArrayRead::get(self, i)
    }
    fn flat(&self) -> Option<Flat<'_, Field<DeviceDual<S, N>>>> {
        let host = self.host();
        Some(Flat {
            primal: host.as_primal_slice(),
            tangent: Some(host.partials_block()),
        })
    }
    fn placement(&self) -> Placement<'_, DeviceDual<S, N>> {
        Placement::Own(self)
    }
}

/// A constant device array is an operand of the array primitives at every reading of
/// its field: at the CUDA reading its device copy is used where it lies (weights kept
/// on the device are not uploaded per call); host computations read a host copy,
/// downloaded once.
impl<S: DeviceFloat> OwnedArray for CudaArray<S> {
    type Elem = S;
    fn len(&self) -> usize {
        Self::len(self)
    }
}

impl<S: DeviceFloat, D: ArrayReading<Field = S>> OwnedOperand<D> for CudaArray<S> {
    fn get(&self, i: usize) -> D {
        D::cst(crate::Scalar::to_f64(self.host()[i]))
    }
    fn flat(&self) -> Option<Flat<'_, S>> {
        Some(Flat {
            primal: self.host(),
            tangent: None,
        })
    }
    fn placement(&self) -> Placement<'_, D> {
        Placement::Constant(self)
    }
}

// The coercions at a call to a rule taking `&[f64]` / `&mut [f64]` (see
// `crate::array::SliceArg`): a view is held as it is, a mutable view or an owned array
// is viewed.
impl<'a, S: DeviceFloat, const N: usize> crate::array::SliceArg<DeviceDual<S, N>>
    for DeviceRef<'a, S, N>
{
    type Held = Self;
    fn hold(self) -> Self {
        self
    }
}

impl<'a, S: DeviceFloat, const N: usize> crate::array::SliceArg<DeviceDual<S, N>>
    for DeviceMut<'a, S, N>
{
    type Held = DeviceRef<'a, S, N>;
    fn hold(self) -> Self::Held {
        ArrayMut::into_ref(self)
    }
}

impl<'a, S: DeviceFloat, const N: usize> crate::array::SliceArg<DeviceDual<S, N>>
    for &'a DeviceVec<S, N>
{
    type Held = DeviceRef<'a, S, N>;
    fn hold(self) -> Self::Held {
        DeviceRef::from(self)
    }
}

impl<'a, S: DeviceFloat, const N: usize> crate::array::SliceArgMut<DeviceDual<S, N>>
    for DeviceMut<'a, S, N>
{
    type Held = Self;
    fn hold(self) -> Self {
        self
    }
}

impl<'a, S: DeviceFloat, const N: usize> crate::array::SliceArgMut<DeviceDual<S, N>>
    for &'a mut DeviceVec<S, N>
{
    type Held = DeviceMut<'a, S, N>;
    fn hold(self) -> Self::Held {
        ArrayViewMut::view_mut(self)
    }
}

impl<S: DeviceFloat, const N: usize> crate::array::HeldSlice<DeviceDual<S, N>>
    for DeviceRef<'_, S, N>
{
    fn view(&self) -> DeviceRef<'_, S, N> {
        *self
    }
}

impl<S: DeviceFloat, const N: usize> crate::array::HeldSliceMut<DeviceDual<S, N>>
    for DeviceMut<'_, S, N>
{
    fn view_mut(&mut self) -> DeviceMut<'_, S, N> {
        ArrayViewMut::view_mut(self)
    }
}
