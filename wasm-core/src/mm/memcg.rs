//! Memory cgroups (mm/memcontrol.c, mm/page_counter.c, cgroup v2): a tree of memcgs, each with
//! its own lruvec (memcg id == lruvec index in `Mm::lruvecs`), a hierarchical page counter, the
//! memory.min/low/high/max knobs, memory.stat event counters and memory.events.
//!
//! The root (id 0, name "/") always exists; a scenario without `[[memcgs]]` has only the root,
//! so every page is charged to it and the engine behaves as before memcgs existed.
use crate::mm::vmstat::{Counters, C};

/// "No limit" (`PAGE_COUNTER_MAX`).
pub const UNLIMITED: u64 = u64::MAX;

/// memory.events items (`enum memcg_memory_event`), in the file's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(usize)]
pub enum MemcgEvent {
    Low,
    High,
    Max,
    Oom,
    OomKill,
}
pub const MEMCG_EVENT_NAMES: [&str; 5] = ["low", "high", "max", "oom", "oom_kill"];

/// The vmstat events memory.stat shows per memcg (`memcg_vm_event_stat`, 6.1), and the lruvec
/// state items of workingset detection. Global-only items (pswpin, pgrotated, pgscan_anon, ...)
/// are not counted per memcg, as in the kernel.
pub const MEMCG_STAT_ITEMS: &[C] = &[
    C::pgfault,
    C::pgmajfault,
    C::pgrefill,
    C::pgscan_kswapd,
    C::pgscan_direct,
    C::pgsteal_kswapd,
    C::pgsteal_direct,
    C::pgactivate,
    C::pgdeactivate,
    C::workingset_refault_anon,
    C::workingset_refault_file,
    C::workingset_activate_anon,
    C::workingset_activate_file,
    C::workingset_restore_anon,
    C::workingset_restore_file,
];

#[derive(Debug, Clone)]
pub struct Memcg {
    /// Path-like name as the scenario wrote it ("/" for the root).
    pub name: String,
    pub parent: Option<u16>,
    /// In creation order: `css_next_descendant_pre` visits them in this order.
    pub children: Vec<u16>,
    /// memory.min / low / high / max, in frames (UNLIMITED = "max"; min/low default 0).
    pub min: u64,
    pub low: u64,
    pub high: u64,
    pub max: u64,
    /// Hierarchical usage in frames (`page_counter_read`): own pages plus descendants'.
    pub usage: u64,
    /// Effective protection from the last `calculate_protection` (`memory.emin/elow`).
    pub emin: u64,
    pub elow: u64,
    /// Local (non-hierarchical) event counts; memory.stat sums them over the subtree.
    pub stat: Counters,
    /// memory.events.local.
    pub events: [u64; 5],
    /// memory.reclaim bookkeeping (frames): asked for, and reclaimed by those writes.
    pub reclaim_requested: u64,
    pub reclaim_reclaimed: u64,
    /// Pages charged while over memory.high, not yet paid for (`memcg_nr_pages_over_high`,
    /// kept per memcg here instead of per task).
    pub over_high_pages: u64,
}

impl Memcg {
    fn new(name: &str, parent: Option<u16>) -> Memcg {
        Memcg {
            name: name.to_string(),
            parent,
            children: Vec::new(),
            min: 0,
            low: 0,
            high: UNLIMITED,
            max: UNLIMITED,
            usage: 0,
            emin: 0,
            elow: 0,
            stat: Counters::default(),
            events: [0; 5],
            reclaim_requested: 0,
            reclaim_reclaimed: 0,
            over_high_pages: 0,
        }
    }
}

/// The memcg tree of the (single) node.
#[derive(Debug, Clone)]
pub struct Memcgs {
    pub list: Vec<Memcg>,
}

impl Default for Memcgs {
    fn default() -> Self {
        Memcgs {
            list: vec![Memcg::new("/", None)],
        }
    }
}

impl Memcgs {
    pub fn len(&self) -> usize {
        self.list.len()
    }
    pub fn is_empty(&self) -> bool {
        false
    }
    /// Only the root: memcgs are not in use.
    pub fn only_root(&self) -> bool {
        self.list.len() == 1
    }

    /// Create a memcg under `parent` (`mem_cgroup_css_alloc`/`online`); returns its id.
    pub fn create(&mut self, name: &str, parent: u16) -> u16 {
        let id = self.list.len() as u16;
        self.list.push(Memcg::new(name, Some(parent)));
        self.list[parent as usize].children.push(id);
        id
    }

    pub fn find(&self, name: &str) -> Option<u16> {
        self.list
            .iter()
            .position(|m| m.name == name)
            .map(|i| i as u16)
    }

    /// `parent_mem_cgroup` chain from `id` up to the root, `id` first.
    pub fn ancestors(&self, id: u16) -> impl Iterator<Item = u16> + '_ {
        let mut cur = Some(id);
        std::iter::from_fn(move || {
            let c = cur?;
            cur = self.list[c as usize].parent;
            Some(c)
        })
    }

    /// `mem_cgroup_iter(root, ...)` without a shared cursor: `root` first, then its descendants
    /// in pre-order (`css_next_descendant_pre`), each child subtree in creation order.
    pub fn preorder(&self, root: u16) -> Vec<u16> {
        let mut out = Vec::new();
        let mut stack = vec![root];
        while let Some(m) = stack.pop() {
            out.push(m);
            for &c in self.list[m as usize].children.iter().rev() {
                stack.push(c);
            }
        }
        out
    }

    /// Is `a` in the subtree of `root` (`mem_cgroup_is_descendant`)?
    pub fn is_descendant(&self, a: u16, root: u16) -> bool {
        self.ancestors(a).any(|m| m == root)
    }

    /// `page_counter_charge`: add to the usage of the memcg and every ancestor.
    pub fn charge(&mut self, id: u16, n: u64) {
        let mut cur = Some(id);
        while let Some(c) = cur {
            let m = &mut self.list[c as usize];
            m.usage += n;
            cur = m.parent;
        }
    }

    /// `page_counter_uncharge`.
    pub fn uncharge(&mut self, id: u16, n: u64) {
        let mut cur = Some(id);
        while let Some(c) = cur {
            let m = &mut self.list[c as usize];
            m.usage = m.usage.saturating_sub(n);
            cur = m.parent;
        }
    }

    /// `page_counter_try_charge` test: the first memcg from `id` upwards whose memory.max the
    /// charge of `n` frames would exceed (`mem_over_limit`), or None.
    pub fn over_max(&self, id: u16, n: u64) -> Option<u16> {
        self.ancestors(id)
            .find(|&c| self.list[c as usize].usage + n > self.list[c as usize].max)
    }

    /// The memcgs from `id` upwards, excluding the root, whose usage exceeds memory.high
    /// (`mem_cgroup_handle_over_high` / `reclaim_high` walk).
    pub fn over_high(&self, id: u16) -> Vec<u16> {
        self.ancestors(id)
            .filter(|&c| c != 0)
            .filter(|&c| self.list[c as usize].usage > self.list[c as usize].high)
            .collect()
    }

    /// `memcg_memory_event`: count in memory.events.local; memory.events of the memcg and its
    /// ancestors (below the root) are the subtree sums the report computes.
    pub fn event(&mut self, id: u16, ev: MemcgEvent) {
        self.list[id as usize].events[ev as usize] += 1;
    }

    /// `__count_memcg_events` / `mod_lruvec_state` for the memcg side of a counter.
    #[inline]
    pub fn count(&mut self, id: u16, c: C, n: u64) {
        self.list[id as usize].stat.add(c, n);
    }

    /// memory.stat of `id`: the counters summed over its subtree (rstat aggregation).
    pub fn stat_hier(&self, id: u16) -> Counters {
        let mut out = Counters::default();
        for m in self.preorder(id) {
            let stat = &self.list[m as usize].stat;
            for (o, v) in out.0.iter_mut().zip(stat.0.iter()) {
                *o += v;
            }
            for (o, v) in out.2.iter_mut().zip(stat.2.iter()) {
                *o += v;
            }
        }
        out
    }

    /// memory.events of `id` (hierarchical).
    pub fn events_hier(&self, id: u16) -> [u64; 5] {
        let mut out = [0; 5];
        for m in self.preorder(id) {
            for (o, v) in out.iter_mut().zip(self.list[m as usize].events.iter()) {
                *o += v;
            }
        }
        out
    }

    /// `mem_cgroup_calculate_protection(root, memcg)` → `page_counter_calculate_protection`
    /// (6.1 form, without the memory_recursiveprot mount option): the reclaim root and the
    /// root memcg are unprotected; a child of the reclaim root gets its own min/low; deeper
    /// memcgs get `min(usage, setting)`, scaled down by parent_effective / siblings_protected
    /// when the siblings' claims overcommit the parent's effective protection. Must be called
    /// top-down (the parent's emin/elow first), as the reclaim walk does.
    pub fn calculate_protection(&mut self, root: u16, id: u16) {
        let m = &self.list[id as usize];
        let usage = m.usage;
        let (min, low) = (m.min, m.low);
        let parent = m.parent;
        let set = |s: &mut Self, emin: u64, elow: u64| {
            s.list[id as usize].emin = emin;
            s.list[id as usize].elow = elow;
        };
        if id == 0 || id == root || usage == 0 {
            return set(self, 0, 0);
        }
        let parent = parent.expect("a non-root memcg has a parent");
        if parent == root {
            return set(self, min, low);
        }
        let p = &self.list[parent as usize];
        let (p_emin, p_elow) = (p.emin, p.elow);
        let (mut sib_min, mut sib_low) = (0u64, 0u64);
        for &c in &p.children {
            let cm = &self.list[c as usize];
            sib_min += cm.usage.min(cm.min);
            sib_low += cm.usage.min(cm.low);
        }
        let emin = effective_protection(usage, min, p_emin, sib_min);
        let elow = effective_protection(usage, low, p_elow, sib_low);
        set(self, emin, elow)
    }

    /// `mem_cgroup_unprotected`: the root memcg and the reclaim target itself.
    fn unprotected(root: u16, id: u16) -> bool {
        id == 0 || id == root
    }

    /// `mem_cgroup_below_min(target, memcg)`: usage <= emin (an empty memcg counts as below).
    pub fn below_min(&self, root: u16, id: u16) -> bool {
        !Self::unprotected(root, id) && self.list[id as usize].emin >= self.list[id as usize].usage
    }

    /// `mem_cgroup_below_low(target, memcg)`.
    pub fn below_low(&self, root: u16, id: u16) -> bool {
        !Self::unprotected(root, id) && self.list[id as usize].elow >= self.list[id as usize].usage
    }

    /// `mem_cgroup_protection(root, memcg)`: (emin, elow), zero when unprotected.
    pub fn protection(&self, root: u16, id: u16) -> (u64, u64) {
        if Self::unprotected(root, id) {
            return (0, 0);
        }
        let m = &self.list[id as usize];
        (m.emin, m.elow)
    }
}

/// `effective_protection` (mm/page_counter.c, 5.7+ without recursive protection).
pub fn effective_protection(
    usage: u64,
    setting: u64,
    parent_effective: u64,
    siblings_protected: u64,
) -> u64 {
    let protected = usage.min(setting);
    if siblings_protected > parent_effective {
        return ((protected as u128 * parent_effective as u128) / siblings_protected as u128)
            as u64;
    }
    protected
}

/// The scan target of one LRU list of a protected memcg (`get_scan_count`, 5.4+ "mm: vmscan:
/// proportional memory.{low,min} reclaim"), before the priority shift: the list shrinks by the
/// protected fraction of the memcg's usage, but never below SWAP_CLUSTER_MAX (`min_scan`; all
/// sizes in one unit). Returns (scan, whether memory.low was applied — `sc->memcg_low_skipped`).
pub fn protected_scan(
    lruvec_size: u64,
    usage: u64,
    emin: u64,
    elow: u64,
    memcg_low_reclaim: bool,
    min_scan: u64,
) -> (u64, bool) {
    if emin == 0 && elow == 0 {
        return (lruvec_size, false);
    }
    let (protection, low_applied) = if !memcg_low_reclaim && elow > emin {
        (elow, true)
    } else {
        (emin, false)
    };
    let cgroup_size = usage.max(protection);
    let scan = lruvec_size
        - ((lruvec_size as u128 * protection as u128) / (cgroup_size as u128 + 1)) as u64;
    (scan.max(min_scan), low_applied)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> Memcgs {
        // / -> a -> {a1, a2}; / -> b
        let mut m = Memcgs::default();
        let a = m.create("a", 0);
        m.create("a1", a);
        m.create("a2", a);
        m.create("b", 0);
        m
    }

    #[test]
    fn preorder_visits_root_first_then_children_in_creation_order() {
        let m = tree();
        assert_eq!(m.preorder(0), vec![0, 1, 2, 3, 4]);
        assert_eq!(m.preorder(1), vec![1, 2, 3]);
        assert_eq!(m.preorder(4), vec![4]);
        assert!(m.is_descendant(3, 1) && !m.is_descendant(4, 1));
    }

    #[test]
    fn charges_are_hierarchical_and_limits_checked_upwards() {
        let mut m = tree();
        m.charge(2, 10);
        m.charge(3, 5);
        assert_eq!(
            (m.list[0].usage, m.list[1].usage, m.list[2].usage),
            (15, 15, 10)
        );
        m.list[1].max = 16;
        assert_eq!(m.over_max(3, 1), None);
        assert_eq!(m.over_max(3, 2), Some(1));
        m.uncharge(2, 10);
        assert_eq!((m.list[0].usage, m.list[1].usage), (5, 5));
        m.list[3].high = 4;
        assert_eq!(m.over_high(3), vec![3]);
    }

    #[test]
    fn protection_of_children_of_the_reclaim_root_is_their_setting() {
        let mut m = tree();
        m.charge(1, 100);
        m.list[1].min = 30;
        m.list[1].low = 200;
        m.calculate_protection(0, 0);
        m.calculate_protection(0, 1);
        assert_eq!((m.list[1].emin, m.list[1].elow), (30, 200));
        assert!(!m.below_min(0, 1));
        assert!(m.below_low(0, 1));
        // The reclaim target itself is never protected.
        m.calculate_protection(1, 1);
        assert!(!m.below_low(1, 1));
        assert_eq!(m.protection(1, 1), (0, 0));
    }

    #[test]
    fn overcommitted_protection_is_split_by_used_protection() {
        let mut m = tree();
        m.charge(2, 60);
        m.charge(3, 60);
        m.list[1].min = 60; // parent's effective min: 60
        m.list[2].min = 60;
        m.list[3].min = 30;
        for id in m.preorder(0) {
            m.calculate_protection(0, id);
        }
        // siblings claim 60 + 30 = 90 > 60: each gets protected * 60 / 90.
        assert_eq!(m.list[2].emin, 40);
        assert_eq!(m.list[3].emin, 20);
        assert_eq!(effective_protection(50, 100, 1000, 10), 50);
    }

    #[test]
    fn proportional_scan_of_protected_memcgs() {
        // Unprotected: the whole list.
        assert_eq!(protected_scan(1000, 2000, 0, 0, false, 32), (1000, false));
        // Half the usage protected by low: half the list is scanned.
        let (scan, low) = protected_scan(1000, 2000, 0, 1000, false, 32);
        assert_eq!((scan, low), (1000 - 1000 * 1000 / 2001, true));
        // In the low-reclaim pass only min counts.
        assert_eq!(protected_scan(1000, 2000, 0, 1000, true, 32), (1000, false));
        // Never below SWAP_CLUSTER_MAX.
        assert_eq!(protected_scan(1000, 1000, 1000, 1000, false, 32).0, 32);
    }

    #[test]
    fn stat_and_events_sum_over_the_subtree() {
        let mut m = tree();
        m.count(2, C::pgsteal_direct, 3);
        m.count(3, C::pgsteal_direct, 4);
        m.event(2, MemcgEvent::Max);
        assert_eq!(m.stat_hier(1).get(C::pgsteal_direct), 7);
        assert_eq!(m.stat_hier(3).get(C::pgsteal_direct), 4);
        assert_eq!(m.events_hier(1)[MemcgEvent::Max as usize], 1);
        assert_eq!(m.events_hier(4)[MemcgEvent::Max as usize], 0);
    }
}
