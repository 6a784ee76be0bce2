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
//!
//! On a virtual machine that hands freed memory back to its host, the
//! first touch of a page the host took back costs ten to fifty times a
//! fill of memory the process holds. So a block given back is kept, up
//! to what [`keep_freed`] allows, and handed out again, split or grown
//! into, before anything new is mapped: a batch's next deal, or a walk
//! growing its table after a narrowed walk ended, finds its memory warm.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

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

/// Fresh zeroed memory for `len` bytes (whole huge pages) on a 2 MiB
/// boundary, asked for huge pages before it is touched; null if the
/// system has none. Blocks kept are given back to the system first, as
/// many as it takes to keep all that is mapped within [`keep_freed`]'s
/// bound or what is in use.
fn map(len: usize) -> *mut u8 {
    // Under the lock, so that two threads mapping at once cannot both
    // count on the same room.
    let mut kept = kept();
    kept.make_room(len);
    let start = reserve(len);
    if !start.is_null() {
        MAPPED_BYTES.fetch_add(len, Ordering::Relaxed);
    }
    start
}

/// [`map`]'s mapping, not counted in [`MAPPED_BYTES`]: for a block whose
/// every page is about to be replaced by pages moved in.
#[cfg(target_os = "linux")]
fn reserve(len: usize) -> *mut u8 {
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
fn reserve(_: usize) -> *mut u8 {
    unreachable!("only Linux blocks are mapped")
}

/// Moves the pages of the `held` bytes mapped at `from` to `to`, inside a
/// fresh mapping, so that a growing block keeps its contents without a
/// copy, and without first touching (so zeroing) the new pages a copy
/// would write to; `false` if the system would not.
#[cfg(target_os = "linux")]
fn remap(from: *mut u8, held: usize, to: *mut u8) -> bool {
    // SAFETY: both lie in mappings `map` or `reserve` made, the range at
    // `to` untouched; the moved pages replace its `held` bytes, and the
    // old addresses are left unmapped.
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

/// Gives back to the system `len` bytes (whole huge pages) at `ptr`, of
/// mappings [`map`] or [`reserve`] made.
fn unmap(ptr: *mut u8, len: usize) {
    MAPPED_BYTES.fetch_sub(len, Ordering::Relaxed);
    #[cfg(target_os = "linux")]
    // SAFETY: the range lies in mappings `map` made, which nothing uses.
    unsafe {
        libc::munmap(ptr.cast(), len)
    };
    #[cfg(not(target_os = "linux"))]
    let _ = ptr;
}

/// Bytes mapped by [`map`] and not yet given back to the system: blocks in
/// use and blocks kept.
static MAPPED_BYTES: AtomicUsize = AtomicUsize::new(0);

/// The bound [`keep_freed`] sets, on the blocks kept and on all that is
/// mapped while some are kept; none kept while it is 0.
static KEEP: AtomicUsize = AtomicUsize::new(0);

/// The blocks given back and kept for reuse.
static KEPT: Mutex<Kept> = Mutex::new(Kept {
    blocks: [(0, 0); KEPT_BLOCKS],
});

/// How many separate blocks are kept at most; a block that adjoins a kept
/// one joins it, so a batch's blocks seldom come near this.
const KEPT_BLOCKS: usize = 32;

/// Keeps blocks the program gives back, for reuse: at most `bytes` of
/// them, and all this allocator maps, in use or kept, stays within
/// `bytes` or the most in use at once, whichever is more. A program that
/// caps its large blocks at `bytes` (a search's `--memory`) passes the
/// cap. Without a call nothing is kept.
pub fn keep_freed(bytes: usize) {
    KEEP.store(bytes, Ordering::Relaxed);
}

/// The kept blocks, for this thread alone while it holds them.
fn kept() -> MutexGuard<'static, Kept> {
    KEPT.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Blocks kept for reuse: `(address, length)`, whole huge pages on a
/// 2 MiB boundary, a length of 0 for an unused entry.
struct Kept {
    blocks: [(usize, usize); KEPT_BLOCKS],
}

impl Kept {
    /// Takes `len` bytes of the smallest kept block that holds them, from
    /// its start; what is left of it stays kept.
    fn take(&mut self, len: usize) -> Option<usize> {
        let (_, block) = self
            .blocks
            .iter_mut()
            .map(|block| (block.1, block))
            .filter(|&(held, _)| held >= len)
            .min_by_key(|&(held, _)| held)?;
        Some(split_off(block, len))
    }

    /// Takes `len` bytes from the start of the kept block at `at`, if one
    /// starts there and holds them: a block that ends at `at` grows in
    /// place.
    fn take_at(&mut self, at: usize, len: usize) -> bool {
        let Some(block) = self
            .blocks
            .iter_mut()
            .find(|block| block.0 == at && block.1 >= len)
        else {
            return false;
        };
        split_off(block, len);
        true
    }

    /// Keeps the block, joined to the kept ones it adjoins, or gives it
    /// back to the system if keeping it would pass [`KEEP`].
    fn put(&mut self, mut at: usize, mut len: usize) {
        let kept: usize = self.blocks.iter().map(|block| block.1).sum();
        if kept + len > KEEP.load(Ordering::Relaxed) {
            return unmap(at as *mut u8, len);
        }
        for block in &mut self.blocks {
            if block.1 > 0 && block.0 + block.1 == at {
                (at, len) = (block.0, block.1 + len);
                *block = (0, 0);
            } else if block.1 > 0 && at + len == block.0 {
                len += block.1;
                *block = (0, 0);
            }
        }
        match self.blocks.iter_mut().find(|block| block.1 == 0) {
            Some(free) => *free = (at, len),
            None => unmap(at as *mut u8, len),
        }
    }

    /// Gives kept blocks back to the system, the smallest first, until
    /// `len` more bytes mapped keep the total within [`KEEP`], or none is
    /// left: memory in use is never the reason the total passes it.
    fn make_room(&mut self, len: usize) {
        let keep = KEEP.load(Ordering::Relaxed);
        while MAPPED_BYTES.load(Ordering::Relaxed) + len > keep {
            let Some(block) = self
                .blocks
                .iter_mut()
                .filter(|block| block.1 > 0)
                .min_by_key(|block| block.1)
            else {
                return;
            };
            let (at, held) = std::mem::take(block);
            unmap(at as *mut u8, held);
        }
    }
}

/// Takes `len` bytes from the start of a kept block, which keeps the rest
/// (none left, an unused entry); gives their address.
fn split_off(block: &mut (usize, usize), len: usize) -> usize {
    let (start, held) = *block;
    *block = match held - len {
        0 => (0, 0),
        rest => (start + len, rest),
    };
    start
}

/// Maps `bytes` more and first touches them on a thread of its own, then
/// keeps them: for a block about to grow by that much (a table that will
/// double), whose growth then takes warm pages (see [`keep_freed`]), while
/// the search goes on. Does nothing unless blocks are kept, if a kept
/// block already holds that much, or if the total mapped would pass the
/// bound.
pub fn touch_ahead(bytes: usize) {
    static AHEAD: OnceLock<Sender<usize>> = OnceLock::new();
    if !cfg!(target_os = "linux") || KEEP.load(Ordering::Relaxed) == 0 || bytes < MAPPED {
        return;
    }
    let ahead = AHEAD.get_or_init(|| {
        let (send, receive) = channel();
        std::thread::spawn(move || {
            for bytes in receive {
                touch(bytes);
            }
        });
        send
    });
    // A send fails only if the thread has gone, when nothing is touched.
    let _ = ahead.send(bytes);
}

/// [`touch_ahead`]'s work, on its thread.
fn touch(bytes: usize) {
    let len = bytes.next_multiple_of(HUGE);
    {
        // Counted under the lock that fresh mappings make room under.
        let kept = kept();
        let room = MAPPED_BYTES.load(Ordering::Relaxed) + len <= KEEP.load(Ordering::Relaxed);
        if !room || kept.blocks.iter().any(|block| block.1 >= len) {
            return;
        }
        MAPPED_BYTES.fetch_add(len, Ordering::Relaxed);
    }
    let block = reserve(len);
    if block.is_null() {
        MAPPED_BYTES.fetch_sub(len, Ordering::Relaxed);
        return;
    }
    for page in (0..len).step_by(4096) {
        // SAFETY: a page of the block just mapped, which no one else holds.
        unsafe { block.add(page).write_volatile(0) };
    }
    release(block, len);
}

/// `len` bytes on a 2 MiB boundary, a kept block's or fresh (zeroed) ones,
/// and which; null if the system has none.
fn obtain(len: usize) -> (*mut u8, bool) {
    let kept = kept().take(len);
    match kept {
        Some(at) => (at as *mut u8, false),
        None => (map(len), true),
    }
}

/// The block of `held` bytes at `ptr` grown to `wanted` with the pages of
/// a kept block: both moved into a fresh range, so that none of the pages
/// is touched or given back; `None` if no kept block is large enough, or
/// the system would not move them.
fn grow_from_kept(ptr: *mut u8, held: usize, wanted: usize) -> Option<*mut u8> {
    let mut kept = kept();
    let piece = kept.take(wanted - held)? as *mut u8;
    let moved = reserve(wanted);
    if moved.is_null() {
        kept.put(piece as usize, wanted - held);
        return None;
    }
    // The reserved range is counted while it is given back below.
    MAPPED_BYTES.fetch_add(wanted, Ordering::Relaxed);
    // SAFETY: the tail lies inside the range just reserved.
    let tail = unsafe { moved.add(held) };
    if !remap(piece, wanted - held, tail) {
        kept.put(piece as usize, wanted - held);
        unmap(moved, wanted);
        return None;
    }
    if !remap(ptr, held, moved) {
        // The block stays where it was; the piece, moved, is kept again,
        // counted once.
        MAPPED_BYTES.fetch_sub(wanted - held, Ordering::Relaxed);
        kept.put(tail as usize, wanted - held);
        unmap(moved, held);
        return None;
    }
    // The block and the piece, both counted, now fill the range.
    MAPPED_BYTES.fetch_sub(wanted, Ordering::Relaxed);
    Some(moved)
}

/// Gives back `len` bytes (whole huge pages) of a block at `ptr`, to be
/// kept or returned to the system.
fn release(ptr: *mut u8, len: usize) {
    kept().put(ptr as usize, len);
}

// SAFETY: small blocks go to `System`, which upholds the contract; large
// ones are whole huge pages on a 2 MiB boundary (at least the layout's
// alignment), fresh mappings or blocks given back and kept, which no one
// else holds; zeroed when asked (fresh mappings come zeroed, kept ones are
// cleared).
unsafe impl GlobalAlloc for HugePages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if mapped(layout.size(), layout.align()) {
            return obtain(layout.size().next_multiple_of(HUGE)).0;
        }
        // SAFETY: forwarded as given.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if mapped(layout.size(), layout.align()) {
            let len = layout.size().next_multiple_of(HUGE);
            let (ptr, fresh) = obtain(len);
            if !fresh {
                // SAFETY: a kept block of `len` bytes, now this caller's.
                unsafe { ptr.write_bytes(0, len) };
            }
            return ptr;
        }
        // SAFETY: forwarded as given.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if mapped(layout.size(), layout.align()) {
            return release(ptr, layout.size().next_multiple_of(HUGE));
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
                    // SAFETY: the tail lies inside the block, past the
                    // bytes it keeps.
                    release(unsafe { ptr.add(wanted) }, held - wanted);
                }
                return ptr;
            }
            let end = ptr as usize + held;
            if kept().take_at(end, wanted - held) {
                return ptr;
            }
            if let Some(moved) = grow_from_kept(ptr, held, wanted) {
                return moved;
            }
            let moved = map(wanted);
            if moved.is_null() {
                return moved;
            }
            if remap(ptr, held, moved) {
                // The old pages replaced the first `held` bytes of the
                // new block, and their old addresses are unmapped.
                MAPPED_BYTES.fetch_sub(held, Ordering::Relaxed);
                return moved;
            }
            release(moved, wanted);
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

    /// The tests share the allocator's count and its kept blocks, so they
    /// run one at a time, each leaving nothing kept. Those that count what
    /// is mapped keep too little for the memory a table of another test
    /// has touched ahead (12 MiB at the least).
    static ALONE: Mutex<()> = Mutex::new(());

    /// Runs `test` alone with blocks kept up to `keep` bytes beyond those
    /// mapped now, then gives back what is kept.
    fn keeping(keep: usize, test: impl FnOnce()) {
        let _alone = ALONE
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        keep_freed(MAPPED_BYTES.load(Ordering::Relaxed) + keep);
        test();
        keep_freed(0);
        kept().make_room(0);
    }

    fn layout(size: usize) -> Layout {
        Layout::from_size_align(size, 8).unwrap()
    }

    /// Blocks below and above the mapped size come zeroed when asked,
    /// and keep their contents when grown or shrunk across it, with
    /// blocks kept or not.
    #[test]
    fn blocks_keep_their_contents() {
        keeping(0, blocks_keep_their_contents_so);
        keeping(64 * HUGE, blocks_keep_their_contents_so);
    }

    fn blocks_keep_their_contents_so() {
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
        keeping(0, || unsafe {
            let ptr = HugePages.alloc(layout(MAPPED));
            assert_eq!(ptr as usize % HUGE, 0);
            HugePages.dealloc(ptr, layout(MAPPED));
        });
    }

    /// A block given back is handed out again, cleared when asked, and
    /// nothing more is mapped for it.
    #[test]
    fn kept_blocks_are_handed_out_again_cleared() {
        keeping(4 * HUGE, || unsafe {
            let first = HugePages.alloc_zeroed(layout(2 * HUGE));
            first.write_bytes(5, 2 * HUGE);
            HugePages.dealloc(first, layout(2 * HUGE));
            let mapped = MAPPED_BYTES.load(Ordering::Relaxed);
            let again = HugePages.alloc_zeroed(layout(2 * HUGE - 100));
            assert_eq!(again, first);
            assert!((0..2 * HUGE).step_by(4093).all(|i| *again.add(i) == 0));
            assert_eq!(MAPPED_BYTES.load(Ordering::Relaxed), mapped);
            HugePages.dealloc(again, layout(2 * HUGE - 100));
        });
    }

    /// A block taken from the front of a kept one grows in place into the
    /// rest; one that cannot takes the pages of another kept block, so
    /// nothing new is mapped either way.
    #[test]
    fn blocks_grow_into_kept_ones() {
        keeping(11 * HUGE, || unsafe {
            let big = HugePages.alloc(layout(8 * HUGE));
            HugePages.dealloc(big, layout(8 * HUGE));
            let mapped = MAPPED_BYTES.load(Ordering::Relaxed);
            let block = HugePages.alloc(layout(HUGE));
            assert_eq!(block, big);
            block.write(3);
            let grown = HugePages.realloc(block, layout(HUGE), 4 * HUGE);
            assert_eq!((grown, *grown), (big, 3));
            // The rest of the kept block is taken, so the next growth
            // moves this block and a kept one's pages together.
            let rest = HugePages.alloc(layout(4 * HUGE));
            let other = HugePages.alloc(layout(2 * HUGE));
            HugePages.dealloc(other, layout(2 * HUGE));
            let mapped_now = MAPPED_BYTES.load(Ordering::Relaxed);
            grown.add(4 * HUGE - 1).write(4);
            let moved = HugePages.realloc(grown, layout(4 * HUGE), 6 * HUGE);
            assert_eq!((*moved, *moved.add(4 * HUGE - 1)), (3, 4));
            assert_eq!(moved as usize % HUGE, 0);
            assert_eq!(MAPPED_BYTES.load(Ordering::Relaxed), mapped_now);
            moved.add(6 * HUGE - 1).write(5);
            HugePages.dealloc(moved, layout(6 * HUGE));
            HugePages.dealloc(rest, layout(4 * HUGE));
            assert!(MAPPED_BYTES.load(Ordering::Relaxed) <= mapped + 2 * HUGE);
        });
    }

    /// Memory touched ahead is kept, and a block of that size is then
    /// handed out from it, nothing more mapped.
    #[test]
    fn memory_touched_ahead_is_handed_out() {
        keeping(8 * HUGE, || unsafe {
            touch_ahead(3 * HUGE);
            let held = || kept().blocks.iter().any(|b| b.1 >= 3 * HUGE);
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
            while !held() && std::time::Instant::now() < deadline {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            assert!(held(), "nothing kept in 20 s");
            let mapped = MAPPED_BYTES.load(Ordering::Relaxed);
            let block = HugePages.alloc(layout(3 * HUGE));
            assert_eq!(MAPPED_BYTES.load(Ordering::Relaxed), mapped);
            HugePages.dealloc(block, layout(3 * HUGE));
        });
    }

    /// Blocks given back past the bound go back to the system, and a fresh
    /// mapping first gives back kept blocks that would pass it.
    #[test]
    fn kept_blocks_stay_within_the_bound() {
        keeping(3 * HUGE, || unsafe {
            let base = MAPPED_BYTES.load(Ordering::Relaxed);
            let blocks: Vec<_> = (0..3).map(|_| HugePages.alloc(layout(2 * HUGE))).collect();
            for &block in &blocks {
                HugePages.dealloc(block, layout(2 * HUGE));
            }
            assert_eq!(MAPPED_BYTES.load(Ordering::Relaxed), base + 2 * HUGE);
            let large = HugePages.alloc(layout(3 * HUGE));
            assert_eq!(MAPPED_BYTES.load(Ordering::Relaxed), base + 3 * HUGE);
            HugePages.dealloc(large, layout(3 * HUGE));
        });
    }
}
