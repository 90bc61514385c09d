//! LRU list manipulation (include/linux/mm_inline.h): `lruvec_add_folio`,
//! `lruvec_add_folio_tail`, `lruvec_del_folio`, with the per-memcg and hierarchical sizes kept
//! as pages move, and the isolation of a list's tail (`isolate_lru_folios`' list walk).
use super::mm_types::*;
use super::mmzone::Mm;

impl Mm {
    /// Put a frame on the head of the list its flags select (`lruvec_add_folio`); with MGLRU
    /// on, the generation its flags select (`lru_gen_add_folio`).
    #[inline]
    pub fn lru_add_head(&mut self, f: u32) {
        if self.flags.lru_gen && self.frames.folio[f as usize].flags & PG_UNEVICTABLE == 0 {
            return self.lru_gen_add_folio(f, false);
        }
        let lru = lru_of(self.frames.folio[f as usize].flags);
        let lv = self.frames.lruvec[f as usize] as usize;
        let l = &mut self.lruvecs[lv].lists[lru];
        self.frames.push_head(l, f, lru as u8);
        self.account_lru_len(lv, lru, 1);
    }

    /// Put a frame on the tail of the list its flags select (`lruvec_add_folio_tail`); with
    /// MGLRU, the tail of the oldest generation (`lru_gen_add_folio` with `reclaiming`).
    #[inline]
    pub fn lru_add_tail(&mut self, f: u32) {
        if self.flags.lru_gen && self.frames.folio[f as usize].flags & PG_UNEVICTABLE == 0 {
            return self.lru_gen_add_folio(f, true);
        }
        let lru = lru_of(self.frames.folio[f as usize].flags);
        let lv = self.frames.lruvec[f as usize] as usize;
        let l = &mut self.lruvecs[lv].lists[lru];
        self.frames.push_tail(l, f, lru as u8);
        self.account_lru_len(lv, lru, 1);
    }

    /// Take a frame off whatever LRU list it is on (`lruvec_del_folio`); no-op if not on one.
    #[inline]
    pub fn lru_del(&mut self, f: u32) {
        if self.frames.gen[f as usize] != 0 {
            return self.lru_gen_del_folio(f);
        }
        let list = self.frames.list[f as usize] as usize;
        if list < NR_LRU_LISTS {
            let lv = self.frames.lruvec[f as usize] as usize;
            let l = &mut self.lruvecs[lv].lists[list];
            self.frames.unlink(l, f);
            self.account_lru_len(lv, list, -1);
        }
    }

    /// Isolate up to `n` frames from the tail of `lru` of lruvec `lv` (`isolate_lru_folios`).
    pub fn isolate_tail(&mut self, lv: usize, lru: usize, n: u64, out: &mut Vec<u32>) {
        out.clear();
        for _ in 0..n {
            let l = &mut self.lruvecs[lv].lists[lru];
            let f = l.tail;
            if f == NIL {
                break;
            }
            self.frames.unlink(l, f);
            out.push(f);
        }
        self.account_lru_len(lv, lru, -(out.len() as i64));
    }
}
