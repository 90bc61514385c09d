//! The frame table (include/linux/mm_types.h `struct page`, include/linux/page-flags.h): one
//! entry per simulated page frame, stored as a struct of arrays, and the
//! intrusive doubly linked LRU lists threaded through it (O(1) moves, as in the kernel).

/// "No frame" / end of list.
pub const NIL: u32 = u32::MAX;

// Page flags that matter to reclaim (include/linux/page-flags.h).
pub const PG_ACTIVE: u16 = 1 << 0;
pub const PG_REFERENCED: u16 = 1 << 1;
pub const PG_WORKINGSET: u16 = 1 << 2;
pub const PG_DIRTY: u16 = 1 << 3;
pub const PG_WRITEBACK: u16 = 1 << 4;
pub const PG_RECLAIM: u16 = 1 << 5;
pub const PG_SWAPBACKED: u16 = 1 << 6;
pub const PG_SWAPCACHE: u16 = 1 << 7;
pub const PG_UNEVICTABLE: u16 = 1 << 8;
/// Locked for read IO in flight (not yet uptodate): reclaim cannot take it.
pub const PG_LOCKED: u16 = 1 << 9;
/// MGLRU's access counter beyond PG_referenced (`LRU_REFS_MASK`, 2 bits: `MAX_NR_TIERS - 2`).
pub const LRU_REFS_SHIFT: u32 = 10;
pub const LRU_REFS_MASK: u16 = 3 << LRU_REFS_SHIFT;
/// A page that swap readahead brought into the swap cache and that no fault has claimed yet
/// (PG_readahead on a swap cache page, `lookup_swap_cache`).
pub const PG_READAHEAD: u16 = 1 << 12;
/// PG_readahead on a page-cache page: a read() that reaches it starts the next readahead
/// window without waiting for it (`page_cache_async_readahead`).
pub const PG_RA_MARK: u16 = 1 << 13;

/// Not a kernel flag: the page's PTE copy (`Space::pte`) may hold bits. Set with them, so
/// that clearing a frame's young bits reads its space only for pages a hit copied.
pub const PTE_COPIED: u16 = 1 << 14;

// VM flags of mappings, accumulated per frame from the young mappings (mm.h).
pub const VM_EXEC: u8 = 1 << 0;
pub const VM_LOCKED: u8 = 1 << 1;

/// A mapping's access advice (`madvise`, `fadvise`), which the kernel keeps in the VMA's
/// `vm_flags` (VM_SEQ_READ, VM_RAND_READ) or the file's mode (FMODE_NOREUSE, 6.3+).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Madvise {
    #[default]
    Normal,
    /// MADV_SEQUENTIAL (VM_SEQ_READ).
    Sequential,
    /// MADV_RANDOM (VM_RAND_READ).
    Random,
    /// POSIX_FADV_NOREUSE.
    Noreuse,
}

/// A task's mapping of pages `offset..offset + pages` of address space `space` (the kernel's
/// `struct vm_area_struct`, include/linux/mm_types.h), in the form the fault and hit paths
/// read it.
#[derive(Debug, Clone, Copy)]
pub struct Vma {
    pub space: u32,
    /// First page of the space it maps (`vm_pgoff`).
    pub offset: u64,
    pub pages: u64,
    /// Mapping slot bit (`young`/`mapped` masks of frames).
    pub bit: u8,
    pub vmflags: u8,
    /// `vma_has_recency`: references through this mapping count (young bits are kept).
    pub recency: bool,
    /// `lru_gen_enter_fault`: faults on this mapping count as recent (MGLRU adds active).
    pub fault_recency: bool,
    pub advice: Madvise,
    /// Mapped (false once unmapped, or for a slot the program never used).
    pub live: bool,
}

impl Vma {
    /// A slot no mapping has used yet (regions are numbered by the program, not in order of use).
    pub const UNUSED: Vma = Vma {
        space: 0,
        offset: 0,
        pages: 0,
        bit: 0,
        vmflags: 0,
        recency: false,
        fault_recency: false,
        advice: Madvise::Normal,
        live: false,
    };
}

/// The LRU lists of a lruvec (`enum lru_list`); arithmetic as in the kernel: +1 active, +2 file.
pub const LRU_INACTIVE_ANON: usize = 0;
pub const LRU_ACTIVE_ANON: usize = 1;
pub const LRU_INACTIVE_FILE: usize = 2;
pub const LRU_ACTIVE_FILE: usize = 3;
pub const LRU_UNEVICTABLE: usize = 4;
pub const NR_LRU_LISTS: usize = 5;
/// Frame is on the free list.
pub const LIST_FREE: u8 = 250;
/// Frame is isolated from the LRU by a reclaimer.
pub const LIST_ISOLATED: u8 = 251;
/// MGLRU generation lists: `LIST_GEN_BASE + gen * 2 + type` (type 0 anon, 1 file).
pub const LIST_GEN_BASE: u8 = 16;
pub const NR_GEN_LISTS: u8 = 8;

/// The list id of MGLRU generation slot `gen` (0..MAX_NR_GENS) of `file` pages.
#[inline]
pub fn gen_list_id(gen: usize, file: bool) -> u8 {
    LIST_GEN_BASE + (gen * 2) as u8 + file as u8
}

/// The generation slot and type (0 anon, 1 file) of a generation list id: `gen_list_id`'s
/// inverse, or None for any other list.
#[inline]
pub fn gen_list_of(list: u8) -> Option<(usize, usize)> {
    (LIST_GEN_BASE..LIST_GEN_BASE + NR_GEN_LISTS)
        .contains(&list)
        .then(|| gen_list_slot(list))
}

/// `gen_list_of` for a list id known to be a generation list's.
#[inline]
pub fn gen_list_slot(list: u8) -> (usize, usize) {
    debug_assert!((LIST_GEN_BASE..LIST_GEN_BASE + NR_GEN_LISTS).contains(&list));
    let slot = (list - LIST_GEN_BASE) as usize;
    (slot / 2, slot % 2)
}

/// Is `list` an LRU list (classic or MGLRU), i.e. not free or isolated?
#[inline]
pub fn on_lru_list(list: u8) -> bool {
    (list as usize) < NR_LRU_LISTS || (LIST_GEN_BASE..LIST_GEN_BASE + NR_GEN_LISTS).contains(&list)
}

pub const LRU_NAMES: [&str; NR_LRU_LISTS] = [
    "inactive_anon",
    "active_anon",
    "inactive_file",
    "active_file",
    "unevictable",
];

/// Which list a page with these flags belongs on (`folio_lru_list`).
#[inline]
pub fn lru_of(flags: u16) -> usize {
    if flags & PG_UNEVICTABLE != 0 {
        return LRU_UNEVICTABLE;
    }
    let file = if flags & PG_SWAPBACKED == 0 { 2 } else { 0 };
    let active = if flags & PG_ACTIVE != 0 { 1 } else { 0 };
    file + active
}

#[inline]
pub fn is_file_lru(lru: usize) -> bool {
    lru == LRU_INACTIVE_FILE || lru == LRU_ACTIVE_FILE
}

/// Head, tail and length of one list. The head is where pages are added; reclaim scans the tail.
#[derive(Debug, Clone, Copy)]
pub struct ListHead {
    pub head: u32,
    pub tail: u32,
    pub len: u64,
}

impl Default for ListHead {
    fn default() -> Self {
        ListHead {
            head: NIL,
            tail: NIL,
            len: 0,
        }
    }
}

/// What a resident hit reads of a frame: its page flags and the PTE state of each mapping slot
/// (the kernel keeps the last in the page tables), four bytes together so that one cache line
/// of the frame table answers a hit; the other fields are a column each (issue #28).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(C)]
pub struct Folio {
    pub flags: u16,
    /// Mapping slots (bit = mapping id mod 8) that map this page.
    pub mapped: u8,
    /// Mapping slots whose PTE is young (accessed since the last rmap check).
    pub young: u8,
}

/// The frame table.
#[derive(Clone)]
pub struct Frames {
    pub folio: Vec<Folio>,
    /// Which list the frame is on (an LRU index, LIST_FREE or LIST_ISOLATED).
    pub list: Vec<u8>,
    /// Which lruvec (memcg) owns the frame.
    pub lruvec: Vec<u16>,
    pub prev: Vec<u32>,
    pub next: Vec<u32>,
    /// Address space and page index the frame holds.
    pub space: Vec<u32>,
    pub index: Vec<u32>,
    /// Union of the VM flags of the young mappings.
    pub vmflags: Vec<u8>,
    /// Mapping slots whose PTE of this file page is writable (write-notify: a shared file
    /// mapping maps a page read-only until a write fault, and `page_mkclean` write-protects
    /// it again when the page is cleaned).
    pub writable: Vec<u8>,
    /// MGLRU generation counter (`LRU_GEN_MASK`): slot + 1 while on a generation list, else
    /// 0. It can differ from the list the frame sits on until eviction sorts it (lazy sorting).
    pub gen: Vec<u8>,
}

impl Frames {
    pub fn new(n: usize) -> Frames {
        Frames {
            folio: vec![Folio::default(); n],
            list: vec![LIST_FREE; n],
            lruvec: vec![0; n],
            prev: vec![NIL; n],
            next: vec![NIL; n],
            space: vec![NIL; n],
            index: vec![0; n],
            vmflags: vec![0; n],
            writable: vec![0; n],
            gen: vec![0; n],
        }
    }

    pub fn len(&self) -> usize {
        self.folio.len()
    }

    pub fn is_empty(&self) -> bool {
        self.folio.is_empty()
    }

    #[inline]
    pub fn has(&self, f: u32, flag: u16) -> bool {
        self.folio[f as usize].flags & flag != 0
    }
    #[inline]
    pub fn set(&mut self, f: u32, flag: u16) {
        self.folio[f as usize].flags |= flag;
    }
    #[inline]
    pub fn clear(&mut self, f: u32, flag: u16) {
        self.folio[f as usize].flags &= !flag;
    }
    /// Test and clear, as `TestClearPageReferenced`.
    #[inline]
    pub fn test_clear(&mut self, f: u32, flag: u16) -> bool {
        let had = self.folio[f as usize].flags & flag != 0;
        self.folio[f as usize].flags &= !flag;
        had
    }

    /// Insert at the head of `l` (`lruvec_add_folio`).
    #[inline]
    pub fn push_head(&mut self, l: &mut ListHead, f: u32, list_id: u8) {
        let fi = f as usize;
        self.prev[fi] = NIL;
        self.next[fi] = l.head;
        if l.head != NIL {
            self.prev[l.head as usize] = f;
        } else {
            l.tail = f;
        }
        l.head = f;
        l.len += 1;
        self.list[fi] = list_id;
    }

    /// Insert at the tail of `l` (`lruvec_add_folio_tail`): next to be scanned.
    #[inline]
    pub fn push_tail(&mut self, l: &mut ListHead, f: u32, list_id: u8) {
        let fi = f as usize;
        self.next[fi] = NIL;
        self.prev[fi] = l.tail;
        if l.tail != NIL {
            self.next[l.tail as usize] = f;
        } else {
            l.head = f;
        }
        l.tail = f;
        l.len += 1;
        self.list[fi] = list_id;
    }

    /// Unlink `f` from `l`; the caller knows `f` is on it.
    #[inline]
    pub fn unlink(&mut self, l: &mut ListHead, f: u32) {
        let fi = f as usize;
        let (p, n) = (self.prev[fi], self.next[fi]);
        if p != NIL {
            self.next[p as usize] = n;
        } else {
            l.head = n;
        }
        if n != NIL {
            self.prev[n as usize] = p;
        } else {
            l.tail = p;
        }
        self.prev[fi] = NIL;
        self.next[fi] = NIL;
        l.len -= 1;
        self.list[fi] = LIST_ISOLATED;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(fr: &Frames, l: &ListHead) -> Vec<u32> {
        let mut v = vec![];
        let mut f = l.head;
        while f != NIL {
            v.push(f);
            f = fr.next[f as usize];
        }
        v
    }

    #[test]
    fn list_order_head_and_tail() {
        let mut fr = Frames::new(8);
        let mut l = ListHead::default();
        fr.push_head(&mut l, 1, 0);
        fr.push_head(&mut l, 2, 0);
        fr.push_tail(&mut l, 3, 0);
        assert_eq!(collect(&fr, &l), vec![2, 1, 3]);
        assert_eq!(l.tail, 3);
        fr.unlink(&mut l, 1);
        assert_eq!(collect(&fr, &l), vec![2, 3]);
        fr.unlink(&mut l, 3);
        fr.unlink(&mut l, 2);
        assert_eq!((l.head, l.tail, l.len), (NIL, NIL, 0));
    }

    #[test]
    fn lru_of_follows_flags() {
        assert_eq!(lru_of(PG_SWAPBACKED), LRU_INACTIVE_ANON);
        assert_eq!(lru_of(PG_SWAPBACKED | PG_ACTIVE), LRU_ACTIVE_ANON);
        assert_eq!(lru_of(0), LRU_INACTIVE_FILE);
        assert_eq!(lru_of(PG_ACTIVE), LRU_ACTIVE_FILE);
        assert_eq!(lru_of(PG_ACTIVE | PG_UNEVICTABLE), LRU_UNEVICTABLE);
    }
}
