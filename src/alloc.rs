//! An allocator that backs large blocks with huge pages.
//!
//! A search's big blocks (the transposition table, the best-first queue)
//! are touched at random, a few bytes a position, and each 4 KiB page is
//! first touched once: on Solvitaire's 150 Raglan boards, a process each,
//! the searches took 78k page faults, and the kernel a fifth of a hard
//! board's time. Where transparent huge pages are on only for memory that
//! asks (`madvise`, as on Debian), a block that asks is faulted in 2 MiB at
//! a time. The memory is the same; the faults and TLB misses are fewer.
//!
//! Asking after `malloc` hands a block out is too late for much of it:
//! `realloc` copies the old block into the new one first, and `calloc`
//! may clear it, both in 4 KiB faults, and a 2 MiB range holding one
//! 4 KiB page is never made huge. So large blocks are mapped here, on a
//! 2 MiB boundary, and asked for huge pages before anything touches them
//! (the figures are in `docs/tuning.md`).

use std::alloc::{GlobalAlloc, Layout, System};

/// The system allocator for small blocks; blocks of at least [`MAPPED`]
/// bytes are mapped whole and asked for huge pages. Install it in a binary
/// with `#[global_allocator]`.
pub struct HugePages;

/// The huge page size on x86-64 Linux.
const HUGE: usize = 2 << 20;

/// The smallest block mapped in huge pages; smaller ones go to `malloc`.
/// A fault took about 2 µs a 4 KiB page here, and about 0.15 ms a 2 MiB
/// page, so a block of half a huge page, all touched (a table, a growing
/// vector's copy), costs less in one huge page.
const MAPPED: usize = HUGE / 2;

/// Whether a block is one this allocator maps itself.
fn mapped(size: usize, align: usize) -> bool {
    cfg!(target_os = "linux") && size >= MAPPED && align <= HUGE
}

/// Fresh zeroed memory for `size` bytes on a 2 MiB boundary, in whole huge
/// pages (a block smaller than one takes a whole one), asked for huge
/// pages before it is touched; null if the system has none.
#[cfg(target_os = "linux")]
fn map(size: usize) -> *mut u8 {
    let len = size.next_multiple_of(HUGE);
    let Some(span) = len.checked_add(HUGE) else {
        return std::ptr::null_mut();
    };
    // SAFETY: a fresh private anonymous mapping, with no address asked for,
    // touches nothing that exists.
    let raw = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            span,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if raw == libc::MAP_FAILED {
        return std::ptr::null_mut();
    }
    let raw = raw as usize;
    let start = raw.next_multiple_of(HUGE);
    // SAFETY: the head and tail trimmed off lie inside the mapping just
    // made, outside the block handed out, and the advice changes only how
    // the block's pages are backed.
    unsafe {
        if start > raw {
            libc::munmap(raw as *mut libc::c_void, start - raw);
        }
        let tail = raw + span - (start + len);
        if tail > 0 {
            libc::munmap((start + len) as *mut libc::c_void, tail);
        }
        libc::madvise(start as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
    start as *mut u8
}

#[cfg(not(target_os = "linux"))]
fn map(_: usize) -> *mut u8 {
    unreachable!("only Linux blocks are mapped")
}

/// Moves the pages of the `held` bytes mapped at `from` to the start of
/// `to`, a fresh mapping of more, so that a growing block keeps its
/// contents without a copy, and without first touching (so zeroing) the
/// new pages a copy would write to; `false` if the system would not.
#[cfg(target_os = "linux")]
fn remap(from: *mut u8, held: usize, to: *mut u8) -> bool {
    // SAFETY: both are mappings `map` made, `to` the larger and untouched;
    // the moved pages replace its first `held` bytes, and the old
    // addresses are left unmapped.
    let done = unsafe {
        libc::mremap(
            from.cast(),
            held,
            held,
            libc::MREMAP_MAYMOVE | libc::MREMAP_FIXED,
            to.cast::<libc::c_void>(),
        )
    };
    done != libc::MAP_FAILED
}

#[cfg(not(target_os = "linux"))]
fn remap(_: *mut u8, _: usize, _: *mut u8) -> bool {
    unreachable!("only Linux blocks are mapped")
}

/// Gives back a block [`map`] made for `size` bytes.
fn unmap(ptr: *mut u8, size: usize) {
    #[cfg(target_os = "linux")]
    // SAFETY: `ptr` and the rounded length are the mapping `map` made.
    unsafe {
        libc::munmap(ptr.cast(), size.next_multiple_of(HUGE))
    };
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, size);
}

// SAFETY: small blocks go to `System`, which upholds the contract; large
// ones are fresh mappings, aligned to 2 MiB (at least the layout's
// alignment), zeroed, and given back only by `dealloc` or `realloc`.
unsafe impl GlobalAlloc for HugePages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if mapped(layout.size(), layout.align()) {
            return map(layout.size());
        }
        // SAFETY: forwarded as given.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if mapped(layout.size(), layout.align()) {
            return map(layout.size());
        }
        // SAFETY: forwarded as given.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if mapped(layout.size(), layout.align()) {
            return unmap(ptr, layout.size());
        }
        // SAFETY: forwarded as given.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let (old, new) = (
            mapped(layout.size(), layout.align()),
            mapped(new_size, layout.align()),
        );
        if !old && !new {
            // SAFETY: forwarded as given.
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        if old && new {
            let (held, wanted) = (
                layout.size().next_multiple_of(HUGE),
                new_size.next_multiple_of(HUGE),
            );
            if wanted <= held {
                if wanted < held {
                    // SAFETY: the tail lies inside the mapping `map` made,
                    // past the bytes the block keeps.
                    unmap(unsafe { ptr.add(wanted) }, held - wanted);
                }
                return ptr;
            }
            let moved = map(new_size);
            if moved.is_null() {
                return moved;
            }
            if remap(ptr, held, moved) {
                return moved;
            }
            unmap(moved, new_size);
        }
        // SAFETY: the caller guarantees `new_size` with the old alignment
        // makes a valid layout.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        // SAFETY: a fresh block of `new_layout`; the copy takes the bytes
        // both blocks hold, and the old block is given back as it came.
        unsafe {
            let moved = self.alloc(new_layout);
            if !moved.is_null() {
                std::ptr::copy_nonoverlapping(ptr, moved, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            moved
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks below and above the mapped size come zeroed when asked,
    /// and keep their contents when grown or shrunk across it.
    #[test]
    fn blocks_keep_their_contents() {
        for size in [64, MAPPED - 1, MAPPED, HUGE, 3 * HUGE + 100] {
            let layout = Layout::from_size_align(size, 8).unwrap();
            unsafe {
                let ptr = HugePages.alloc_zeroed(layout);
                assert!(!ptr.is_null());
                assert!((0..size).step_by(4093).all(|i| *ptr.add(i) == 0));
                ptr.add(size - 1).write(7);
                let grown = HugePages.realloc(ptr, layout, 2 * size);
                assert_eq!(*grown.add(size - 1), 7);
                grown.add(2 * size - 1).write(9);
                let grown_layout = Layout::from_size_align(2 * size, 8).unwrap();
                let shrunk = HugePages.realloc(grown, grown_layout, size);
                assert_eq!(*shrunk.add(size - 1), 7);
                HugePages.dealloc(shrunk, layout);
            }
        }
    }

    /// A large block lies on a 2 MiB boundary, so that all of it can be
    /// backed by huge pages.
    #[test]
    fn large_blocks_start_on_a_huge_page() {
        let layout = Layout::from_size_align(MAPPED, 8).unwrap();
        unsafe {
            let ptr = HugePages.alloc(layout);
            assert_eq!(ptr as usize % HUGE, 0);
            HugePages.dealloc(ptr, layout);
        }
    }
}
