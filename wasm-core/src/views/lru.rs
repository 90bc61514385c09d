//! The LRU view: the four lists as strips of cells (a cell is a bucket of frames, coloured by
//! its majority owner), the page moves of the last step placed on those strips, and the list
//! sizes, watermarks and dirty state beside them. Built here once from `Mm`; the wasm shell and
//! the page pass it through.
use crate::mm::mm_types::{
    gen_list_of, LRU_ACTIVE_ANON, LRU_ACTIVE_FILE, LRU_INACTIVE_ANON, LRU_INACTIVE_FILE,
    LRU_UNEVICTABLE, NIL, NR_LRU_LISTS,
};
use crate::mm::mmzone::{Mm, MoveReason, TracedMove};
use serde::Serialize;
use ts_rs::TS;

/// The four evictable LRU lists, by their kernel names (`enum lru_list`), in the engine's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum LruList {
    InactiveAnon,
    ActiveAnon,
    InactiveFile,
    ActiveFile,
}

impl LruList {
    pub const ALL: [LruList; 4] = [
        LruList::InactiveAnon,
        LruList::ActiveAnon,
        LruList::InactiveFile,
        LruList::ActiveFile,
    ];
    /// The model's list index (`LRU_INACTIVE_ANON`..`LRU_ACTIVE_FILE`).
    pub fn index(self) -> usize {
        match self {
            LruList::InactiveAnon => LRU_INACTIVE_ANON,
            LruList::ActiveAnon => LRU_ACTIVE_ANON,
            LruList::InactiveFile => LRU_INACTIVE_FILE,
            LruList::ActiveFile => LRU_ACTIVE_FILE,
        }
    }
    /// The kernel's name, as serialized.
    pub fn name(self) -> &'static str {
        match self {
            LruList::InactiveAnon => "inactive_anon",
            LruList::ActiveAnon => "active_anon",
            LruList::InactiveFile => "inactive_file",
            LruList::ActiveFile => "active_file",
        }
    }
    fn of_index(i: u8) -> Option<LruList> {
        LruList::ALL.into_iter().find(|l| l.index() == i as usize)
    }
}

/// List sizes in 4 KiB pages, by the kernel's names (`nr_inactive_anon` ... `nr_free_pages`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
pub struct ListSizes {
    pub inactive_anon: u64,
    pub active_anon: u64,
    pub inactive_file: u64,
    pub active_file: u64,
    pub unevictable: u64,
    pub free: u64,
}

impl ListSizes {
    pub fn of(mm: &Mm) -> ListSizes {
        let p = |l: usize| mm.lru_size(l) * mm.scale;
        ListSizes {
            inactive_anon: p(LRU_INACTIVE_ANON),
            active_anon: p(LRU_ACTIVE_ANON),
            inactive_file: p(LRU_INACTIVE_FILE),
            active_file: p(LRU_ACTIVE_FILE),
            unevictable: p(LRU_UNEVICTABLE),
            free: mm.nr_free() * mm.scale,
        }
    }
    /// A size by its field name.
    pub fn by_name(&self, name: &str) -> Option<u64> {
        Some(match name {
            "unevictable" => self.unevictable,
            "free" => self.free,
            _ => self.get(LruList::ALL.into_iter().find(|l| l.name() == name)?),
        })
    }
    /// The size of one of the four evictable lists.
    pub fn get(&self, l: LruList) -> u64 {
        match l {
            LruList::InactiveAnon => self.inactive_anon,
            LruList::ActiveAnon => self.active_anon,
            LruList::InactiveFile => self.inactive_file,
            LruList::ActiveFile => self.active_file,
        }
    }
}

/// The zone watermarks (`WMARK_MIN`, `WMARK_LOW`, `WMARK_HIGH`), in pages.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
pub struct WatermarkView {
    pub min: u64,
    pub low: u64,
    pub high: u64,
}

impl WatermarkView {
    pub fn of(mm: &Mm) -> WatermarkView {
        let w = mm.wmark;
        WatermarkView {
            min: w.min * mm.scale,
            low: w.low * mm.scale,
            high: w.high * mm.scale,
        }
    }
}

/// Dirty and writeback file pages and the thresholds `balance_dirty_pages` compares them with
/// (`domain_dirty_limits`), in pages.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DirtyState {
    pub dirty: u64,
    pub writeback: u64,
    /// The flushers start writing in the background above this.
    pub background_thresh: u64,
    /// Writers are throttled above this.
    pub thresh: u64,
}

impl DirtyState {
    pub fn of(mm: &Mm) -> DirtyState {
        let (bg, th) = mm.dirty_thresholds();
        let s = mm.scale;
        DirtyState {
            dirty: mm.wb.nr_dirty * s,
            writeback: mm.wb.nr_writeback * s,
            background_thresh: bg * s,
            thresh: th * s,
        }
    }
}

/// A place on one of the four strips: the list and the position in frames from its head.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
pub struct ListPlace {
    pub list: LruList,
    pub index: u32,
}

/// A sampled page move: where it left and where it went (null: outside the four lists — free,
/// isolated by a reclaimer, unevictable), and why.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
pub struct PageMove {
    pub from: Option<ListPlace>,
    pub to: Option<ListPlace>,
    pub reason: MoveReason,
}

/// One list as a strip of cells, head to tail.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct LruStrip {
    pub list: LruList,
    /// Frames on the list as the strip walks it. With MGLRU this can differ from the list's
    /// size (by generation counters) while a page-table walk has moved a folio's generation in
    /// its flags and `sort_folio` has not relinked it yet.
    pub frames: u32,
    /// Per cell of `bucket` frames: its majority owner, address space id + 1 (0: none).
    pub cells: Vec<u16>,
}

/// The LRU view of one run now.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LruView {
    /// Frames per cell (the same for the four strips).
    pub bucket: u32,
    /// The four lists in the engine's order (`LruList::ALL`).
    pub strips: [LruStrip; 4],
    /// Page moves since the last view, sampled evenly down to at most the number asked.
    pub moves: Vec<PageMove>,
    /// Moves recorded since the last view (before sampling; the trace keeps a bounded number).
    pub moves_seen: u32,
}

impl LruView {
    /// The view with cells of `max(1, ceil(frames / cells))` frames, and `moves` (drained from
    /// the model's trace) sampled down to `max_moves`. A move's place on a strip: reclaim takes
    /// pages from a list's tail; a page added goes to the head, or to the tail where the model
    /// put it there (`folio_rotate_reclaimable`).
    pub fn of(mm: &Mm, moves: &[TracedMove], cells: u32, max_moves: usize) -> LruView {
        let bucket = (mm.frames.len() as u32).div_ceil(cells.max(1)).max(1);
        let owners = mm.spaces.len().min(0xfffe);
        let mut tally = vec![0u32; owners + 1];
        let owner = |f: u32| -> usize {
            let s = mm.frames.space[f as usize] as usize;
            if s < owners {
                s + 1
            } else {
                0
            }
        };
        let strips = LruList::ALL.map(|list| {
            let frames = list_frames(mm, list.index());
            let mut cells = Vec::with_capacity(frames.len().div_ceil(bucket as usize));
            for chunk in frames.chunks(bucket as usize) {
                let (mut best, mut best_n) = (0usize, 0u32);
                for &f in chunk {
                    let o = owner(f);
                    tally[o] += 1;
                    if tally[o] > best_n {
                        best_n = tally[o];
                        best = o;
                    }
                }
                for &f in chunk {
                    tally[owner(f)] = 0;
                }
                cells.push(best as u16);
            }
            LruStrip {
                list,
                frames: frames.len() as u32,
                cells,
            }
        });
        let seen = moves.len();
        let take = seen.min(max_moves);
        let place = |list: u8, tail: bool| {
            let list = LruList::of_index(abi_list(mm, list, 0))?;
            let len = strips[list.index()].frames;
            Some(ListPlace {
                list,
                index: if tail { len.saturating_sub(1) } else { 0 },
            })
        };
        let moves = (0..take)
            .map(|k| {
                let m = moves[k * seen / take];
                PageMove {
                    from: place(m.from, true),
                    to: place(m.to, m.tail),
                    reason: m.reason,
                }
            })
            .collect();
        LruView {
            bucket,
            strips,
            moves,
            moves_seen: seen as u32,
        }
    }
}

/// The classic list a list id counts as: generation lists of lruvec `lv` map to active (two
/// youngest generations) or inactive of their type (`lru_gen_is_active`).
pub fn abi_list(mm: &Mm, list: u8, lv: usize) -> u8 {
    let Some((gen, ty)) = gen_list_of(list) else {
        return list;
    };
    (ty * 2 + mm.lruvecs[lv].lrugen.is_active_gen(gen) as usize) as u8
}

/// The classic list an MGLRU frame counts as: by its generation counter (the folio's gen, which
/// `lru_gen_update_size` accounts by), not by the list it sits on, which may be an older one
/// until `sort_folio` moves it. So the views' lists agree with the list sizes.
fn abi_list_of_frame(mm: &Mm, f: usize) -> u8 {
    let list = mm.frames.list[f];
    let gen = mm.frames.gen[f] as usize;
    let lv = mm.frames.lruvec[f] as usize;
    let Some((_, ty)) = gen_list_of(list).filter(|_| gen != 0) else {
        return abi_list(mm, list, lv);
    };
    (ty * 2 + mm.lruvecs[lv].lrugen.is_active_gen(gen - 1) as usize) as u8
}

/// The frames of list `lru` (0..5) from head to tail, over every lruvec (O(frames)). With
/// MGLRU, the frames that count as that list (`abi_list_of_frame`), by generation list youngest
/// first, each from head to tail.
pub fn list_frames(mm: &Mm, lru: usize) -> Vec<u32> {
    let mut v = Vec::new();
    for lv in &mm.lruvecs {
        if mm.flags.lru_gen && lru < 4 {
            let lg = &lv.lrugen;
            let ty = lru / 2;
            for g in lg.slots_youngest_first(ty) {
                let mut f = lg.lists[g][ty].head;
                while f != NIL {
                    if abi_list_of_frame(mm, f as usize) as usize == lru {
                        v.push(f);
                    }
                    f = mm.frames.next[f as usize];
                }
            }
            continue;
        }
        let mut f = lv.lists[lru.min(NR_LRU_LISTS - 1)].head;
        while f != NIL {
            v.push(f);
            f = mm.frames.next[f as usize];
        }
    }
    v
}

/// Per frame: the list it is on (LRU index 0..4, or 250 free); frames on MGLRU generation
/// lists report the classic list they count as.
pub fn frame_lists(mm: &Mm) -> std::borrow::Cow<'_, [u8]> {
    if !mm.flags.lru_gen {
        return std::borrow::Cow::Borrowed(&mm.frames.list);
    }
    let v = (0..mm.frames.len())
        .map(|f| abi_list_of_frame(mm, f))
        .collect();
    std::borrow::Cow::Owned(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mm::mm_types::LIST_FREE;
    use crate::mm::space::{Space, SpaceKind};

    /// A 5.8 `Mm` of 16 frames with two anon spaces: `a` faulted in 6 pages, then `b` 1 page.
    fn mm() -> Mm {
        let flags = crate::variant::preset("linux-5.8").unwrap().flags;
        let w = crate::mm::page_alloc::Watermarks {
            min: 1,
            low: 2,
            high: 3,
        };
        let mut m = Mm::new(16, 2, flags, w);
        m.spaces
            .push(Space::new("a", SpaceKind::Anon, 8, 0, 0, u32::MAX));
        m.spaces
            .push(Space::new("b", SpaceKind::Anon, 8, 0, 0, u32::MAX));
        for i in 0..6 {
            m.fault_anon(0, i, 0);
        }
        m.fault_anon(1, 0, 0);
        m
    }

    #[test]
    fn strips_hold_every_listed_frame_in_cells_of_their_majority_owner() {
        let m = mm();
        let v = LruView::of(&m, &[], 4, 10);
        assert_eq!(v.bucket, 4, "16 frames in about 4 cells");
        let sizes = ListSizes::of(&m);
        for s in &v.strips {
            assert_eq!(s.frames as u64 * m.scale, sizes.get(s.list), "{:?}", s.list);
            assert_eq!(s.cells.len(), (s.frames as usize).div_ceil(4));
        }
        // The 7 anon pages sit on one list, head first: b's page, then a's 6 (newest first).
        let anon = v
            .strips
            .iter()
            .find(|s| s.frames == 7)
            .expect("one list holds them");
        assert_eq!(
            anon.cells,
            vec![1, 1],
            "space a (id 0 + 1) has the majority of both cells"
        );
        assert_eq!(v.moves_seen, 0);
    }

    #[test]
    fn moves_are_placed_where_the_model_put_the_page_and_sampled_evenly() {
        let m = mm();
        let list = LruList::ALL
            .into_iter()
            .find(|l| ListSizes::of(&m).get(*l) > 0)
            .unwrap();
        let l = list.index() as u8;
        let mv = |from: u8, to: u8, reason: MoveReason, tail: bool| TracedMove {
            t: 0,
            frame: 0,
            from,
            to,
            reason,
            tail,
        };
        let moves = [
            mv(LIST_FREE, l, MoveReason::Add, false),
            mv(l, l, MoveReason::Rotate, true),
            mv(l, LIST_FREE, MoveReason::Evict, false),
        ];
        let v = LruView::of(&m, &moves, 4, 10);
        let at = |list, index| Some(ListPlace { list, index });
        assert_eq!(v.moves[0].from, None, "from outside the lists");
        assert_eq!(v.moves[0].to, at(list, 0), "added at the head");
        assert_eq!(
            v.moves[1].to,
            at(list, 6),
            "rotated to the tail (folio_rotate_reclaimable)"
        );
        assert_eq!(v.moves[2].from, at(list, 6), "reclaim takes from the tail");
        assert_eq!(v.moves[2].to, None);
        assert_eq!(v.moves[2].reason, MoveReason::Evict);
        // Ten moves sampled down to three, and all ten counted.
        let many: Vec<TracedMove> = (0..10).map(|k| TracedMove { t: k, ..moves[0] }).collect();
        let v = LruView::of(&m, &many, 4, 3);
        assert_eq!(v.moves.len(), 3);
        assert_eq!(v.moves_seen, 10);
    }
}

/// The address space of each frame (frame index -> space id, `space_names` order).
pub fn frame_spaces(mm: &Mm) -> &[u32] {
    &mm.frames.space
}

/// Names of the address spaces (anon regions "task:region", files, shmem), by space id.
pub fn space_names(mm: &Mm) -> Vec<String> {
    mm.spaces.iter().map(|s| s.name.clone()).collect()
}

/// Per address space: (name, resident pages, swapped pages).
pub fn space_usage(mm: &Mm) -> Vec<(String, u64, u64)> {
    mm.spaces
        .iter()
        .map(|s| (s.name.clone(), s.resident * mm.scale, s.swapped * mm.scale))
        .collect()
}
