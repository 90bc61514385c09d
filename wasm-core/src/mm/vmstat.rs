//! Event counters (mm/vmstat.c, include/linux/vm_event_item.h) with their /proc/vmstat names,
//! counted in frames and reported in pages.

macro_rules! counters {
    ($($name:ident),* $(,)?) => {
        /// A /proc/vmstat event counter.
        #[allow(non_camel_case_types)]
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        #[repr(usize)]
        pub enum C { $($name),* }
        pub const COUNTER_NAMES: &[&str] = &[$(stringify!($name)),*];
    };
}

counters!(
    pgpgin,
    pgpgout,
    pswpin,
    pswpout,
    pgalloc,
    pgfree,
    pgfault,
    pgmajfault,
    pgactivate,
    pgdeactivate,
    pgrefill,
    pgrotated,
    pgscan_kswapd,
    pgscan_direct,
    pgsteal_kswapd,
    pgsteal_direct,
    pgscan_anon,
    pgscan_file,
    pgsteal_anon,
    pgsteal_file,
    workingset_refault_anon,
    workingset_refault_file,
    workingset_activate_anon,
    workingset_activate_file,
    workingset_restore_anon,
    workingset_restore_file,
    allocstall,
    pageoutrun,
    nr_vmscan_write,
    nr_vmscan_immediate_reclaim,
    kswapd_low_wmark_hit_quickly,
    oom_kill,
    swap_ra,
    swap_ra_hit,
);

pub const NR_COUNTERS: usize = COUNTER_NAMES.len();

/// Whether counter `i` (a `C`) counts events rather than pages: faults, allocation stalls,
/// kswapd runs and wakeups, OOM kills.
pub fn counts_events(i: usize) -> bool {
    [
        C::pgfault,
        C::pgmajfault,
        C::allocstall,
        C::pageoutrun,
        C::kswapd_low_wmark_hit_quickly,
        C::oom_kill,
    ]
    .iter()
    .any(|&c| c as usize == i)
}

/// The refault items of the June 2016 series (RFC 10/10 renames 4.7's WORKINGSET_REFAULT,
/// WORKINGSET_ACTIVATE and WORKINGSET_NODERECLAIM). Kept apart from `C`: only kernels with
/// `rfc2016_refault_cost` have them in /proc/vmstat, so only those report them.
/// refault_nodereclaim counts shadow nodes the shrinker frees, which the engine does not
/// model (shadow entries are unbounded): it stays 0.
#[allow(non_camel_case_types)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(usize)]
pub enum Rfc2016 {
    refault_inactive_file,
    refault_active_file,
    refault_nodereclaim,
}
pub const RFC2016_COUNTER_NAMES: &[&str] = &[
    "refault_inactive_file",
    "refault_active_file",
    "refault_nodereclaim",
];

/// The proactive reclaimer's items (6.15, `proactive_counters`): memory.reclaim's scans and
/// steals, which older kernels count as direct reclaim's. Kept apart from `C` for the same
/// reason as `Rfc2016`: only kernels that have them report them.
#[allow(non_camel_case_types)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(usize)]
pub enum Proactive {
    pgscan_proactive,
    pgsteal_proactive,
}
pub const PROACTIVE_COUNTER_NAMES: &[&str] = &["pgscan_proactive", "pgsteal_proactive"];

/// The /proc/vmstat event counters, the 2016 series' own items and 6.15's proactive items.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counters(
    pub [u64; NR_COUNTERS],
    pub [u64; RFC2016_COUNTER_NAMES.len()],
    pub [u64; PROACTIVE_COUNTER_NAMES.len()],
);

impl Default for Counters {
    fn default() -> Self {
        Counters(
            [0; NR_COUNTERS],
            [0; RFC2016_COUNTER_NAMES.len()],
            [0; PROACTIVE_COUNTER_NAMES.len()],
        )
    }
}

impl Counters {
    #[inline]
    pub fn add(&mut self, c: C, n: u64) {
        self.0[c as usize] += n;
    }
    #[inline]
    pub fn get(&self, c: C) -> u64 {
        self.0[c as usize]
    }
    #[inline]
    pub fn add_proactive(&mut self, c: Proactive, n: u64) {
        self.2[c as usize] += n;
    }
    #[inline]
    pub fn get_proactive(&self, c: Proactive) -> u64 {
        self.2[c as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn names_match_variants() {
        assert_eq!(COUNTER_NAMES[C::pswpout as usize], "pswpout");
        assert_eq!(COUNTER_NAMES[C::oom_kill as usize], "oom_kill");
        let mut c = Counters::default();
        c.add(C::pgscan_direct, 3);
        assert_eq!(c.get(C::pgscan_direct), 3);
    }
}
