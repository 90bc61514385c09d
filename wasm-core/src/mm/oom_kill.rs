//! The OOM killer (mm/oom_kill.c): `out_of_memory` picks the task with the largest footprint
//! (`oom_badness`: its resident and swapped pages) among the live tasks, or among those of the
//! memcg at memory.max when a charge failed there (`mem_cgroup_out_of_memory`), and counts the
//! kill. Freeing the victim's memory is its exit (`exit_mmap`), which the caller carries out.
use super::memcg::MemcgEvent;
use super::mmzone::Mm;
use super::vmstat::C;

/// A task as the OOM killer sees it (`for_each_process`): its memcg and whether it still runs.
/// Its pages are the address spaces it owns (`Space::owner` is its index).
#[derive(Debug, Clone, Copy)]
pub struct OomTask {
    pub memcg: u16,
    pub live: bool,
}

impl Mm {
    /// Pick and count the victim among `tasks`; None when there is none. A memcg OOM that
    /// finds no task lets the next charge through (`mem_cgroup_oom` failing: the charge is
    /// forced).
    pub fn out_of_memory(&mut self, tasks: &[OomTask]) -> Option<usize> {
        let scope = self.oom_memcg.take();
        let mut best: Option<(u64, usize)> = None;
        for (ti, t) in tasks.iter().enumerate() {
            if !t.live {
                continue;
            }
            if scope.is_some_and(|m| !self.memcgs.is_descendant(t.memcg, m)) {
                continue;
            }
            let badness: u64 = self
                .spaces
                .iter()
                .filter(|s| s.owner == ti as u32 && !s.dead)
                .map(|s| s.resident + s.swapped)
                .sum();
            if best.is_none_or(|(b, _)| badness > b) {
                best = Some((badness, ti));
            }
        }
        let Some((_, victim)) = best else {
            if scope.is_some() {
                self.memcg_force_charge = true;
            }
            return None;
        };
        self.counters.add(C::oom_kill, 1);
        if scope.is_some() {
            self.memcgs.event(tasks[victim].memcg, MemcgEvent::OomKill);
        }
        Some(victim)
    }
}
