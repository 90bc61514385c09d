//! The wasm build's global allocator: dlmalloc (the allocator std uses on wasm32) over a system
//! layer that grows the linear memory in steps of at least 16 MiB.
//!
//! std's own layer grows the memory by exactly what each request lacks, so building and running
//! a full-scale scenario made thousands of `memory.grow` calls of one 64 KiB page; Node pays for
//! each (2.5 s of 4,800 grows on a cold S000 in Node 20, issue #28). Memory is never returned
//! to the host either way (wasm memory cannot shrink), so at most one step is held unused.
//!
//! It also counts the bytes allocated and not yet freed (`live_bytes`), so that the page can
//! size a seek checkpoint (a clone of a run) by what cloning allocated.
use core::arch::wasm32;
use core::cell::{Cell, UnsafeCell};
use std::alloc::{GlobalAlloc, Layout};

use dlmalloc::{Allocator, Dlmalloc};

const WASM_PAGE: usize = 64 * 1024;
/// The smallest grow: 256 wasm pages.
const STEP_PAGES: usize = 256;

struct GrowInSteps;

unsafe impl Allocator for GrowInSteps {
    fn alloc(&self, size: usize) -> (*mut u8, usize, u32) {
        let need = size.div_ceil(WASM_PAGE);
        // A step when the host allows it, else only what is needed.
        for pages in [need.max(STEP_PAGES), need] {
            let prev = wasm32::memory_grow(0, pages);
            if prev != usize::MAX {
                return ((prev * WASM_PAGE) as *mut u8, pages * WASM_PAGE, 0);
            }
        }
        (core::ptr::null_mut(), 0, 0)
    }
    fn remap(&self, _ptr: *mut u8, _old: usize, _new: usize, _can_move: bool) -> *mut u8 {
        core::ptr::null_mut()
    }
    fn free_part(&self, _ptr: *mut u8, _old: usize, _new: usize) -> bool {
        false
    }
    fn free(&self, _ptr: *mut u8, _size: usize) -> bool {
        false
    }
    fn can_release_part(&self, _flags: u32) -> bool {
        false
    }
    fn allocates_zeros(&self) -> bool {
        true
    }
    fn page_size(&self) -> usize {
        WASM_PAGE
    }
}

/// The allocator and its count of live bytes (as requested, without dlmalloc's headers).
struct Global(UnsafeCell<Dlmalloc<GrowInSteps>>, Cell<usize>);

// The wasm build is single-threaded (no atomics, no shared memory): one caller at a time.
unsafe impl Sync for Global {}

#[global_allocator]
static ALLOC: Global = Global(
    UnsafeCell::new(Dlmalloc::new_with_allocator(GrowInSteps)),
    Cell::new(0),
);

/// Bytes allocated and not yet freed, as requested of the allocator.
pub fn live_bytes() -> usize {
    ALLOC.1.get()
}

impl Global {
    /// Count `size` bytes in (a successful allocation) or out.
    #[inline]
    fn count(&self, p: *mut u8, add: usize, sub: usize) -> *mut u8 {
        if !p.is_null() {
            self.1.set(self.1.get() + add - sub);
        }
        p
    }
}

unsafe impl GlobalAlloc for Global {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = (*self.0.get()).malloc(layout.size(), layout.align());
        self.count(p, layout.size(), 0)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = (*self.0.get()).calloc(layout.size(), layout.align());
        self.count(p, layout.size(), 0)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        (*self.0.get()).free(ptr, layout.size(), layout.align());
        self.1.set(self.1.get() - layout.size());
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = (*self.0.get()).realloc(ptr, layout.size(), layout.align(), new_size);
        // On failure the old block stays allocated, and the count with it.
        self.count(p, new_size, layout.size())
    }
}
