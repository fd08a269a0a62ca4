//! Large tangent buffers backed by huge pages where the kernel offers them.
//!
//! A lifted array is `N + 1` times its primal, so a function that allocates a vector of
//! a million floats allocates tens of megabytes at a wide reading, afresh on each
//! call. The allocator maps such blocks straight from the kernel, and every first
//! touch of a 4 KiB page is a fault: at `NDual<f64, 16>` the faults of one result cost
//! more than computing it. Linux kernels whose transparent huge pages are in
//! `madvise` mode (the common default) back a region with 2 MiB pages only when asked,
//! so large buffers ask, before anything touches them. Elsewhere this is a no-op.

/// Buffers from this size (bytes) up ask for huge pages: several huge pages, so the
/// unaligned ends the request leaves out are a small share.
const HUGE_FROM: usize = 8 << 20;

/// Asks for huge pages behind `buf`'s capacity when it is large. A hint: the contents
/// are unchanged, and a kernel that declines leaves ordinary pages.
#[inline]
pub(super) fn advise<S>(buf: &mut Vec<S>) {
    let bytes = buf.capacity().saturating_mul(size_of::<S>());
    if bytes >= HUGE_FROM {
        imp::advise(buf.as_mut_ptr().cast(), bytes);
    }
}

#[cfg(target_os = "linux")]
mod imp {
    const HUGE_PAGE: usize = 2 << 20;

    #[allow(unsafe_code)]
    pub(super) fn advise(start: *mut u8, bytes: usize) {
        let begin = (start as usize).next_multiple_of(HUGE_PAGE);
        let end = (start as usize + bytes) & !(HUGE_PAGE - 1);
        if end > begin {
            // SAFETY: `[begin, end)` lies inside one live allocation this thread owns
            // mutably, and MADV_HUGEPAGE changes neither its contents nor its mapping's
            // validity, only how the kernel backs pages not yet touched. A failure
            // (no transparent huge pages) leaves the region as it was.
            unsafe {
                libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE);
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    pub(super) fn advise(_start: *mut u8, _bytes: usize) {}
}
