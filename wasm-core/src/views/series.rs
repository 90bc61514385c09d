//! The time series: one sample of the model every `run.sample_every`, kept in frames, and the
//! schema of its rows as the page and the exports read them: named columns with their units,
//! in pages. The column order is defined once here (`columns` and `Sample::push_row` walk the
//! same fields in the same order; a test checks them against each other).
use crate::mm::mm_types::NR_LRU_LISTS;
use crate::mm::mmzone::Mm;
use crate::mm::vmstat::{counts_events, COUNTER_NAMES, NR_COUNTERS};
use serde::Serialize;
use ts_rs::TS;

/// One row of the time series, as the model holds it (frames).
#[derive(Debug, Clone)]
pub struct Sample {
    pub t_ns: u64,
    pub counters: [u64; NR_COUNTERS],
    /// inactive_anon, active_anon, inactive_file, active_file, unevictable (the model's list
    /// order), free (frames).
    pub lists: [u64; 6],
    pub anon_cost: u64,
    pub file_cost: u64,
    /// <= 5.7's balance inputs of the root lruvec (frames), [anon, file].
    pub recent_scanned: [u64; 2],
    pub recent_rotated: [u64; 2],
}

impl Sample {
    pub fn of(mm: &Mm, t_ns: u64) -> Sample {
        let mut lists = [0u64; 6];
        for (l, out) in lists.iter_mut().enumerate().take(NR_LRU_LISTS) {
            *out = mm.lru_size(l);
        }
        lists[5] = mm.nr_free();
        let root = &mm.lruvecs[0];
        Sample {
            t_ns,
            counters: mm.counters.0,
            lists,
            anon_cost: root.anon_cost,
            file_cost: root.file_cost,
            recent_scanned: root.recent_scanned,
            recent_rotated: root.recent_rotated,
        }
    }

    /// The row's values in `columns()` order, frames turned into pages (`scale` per frame).
    pub fn push_row(&self, scale: u64, out: &mut Vec<f64>) {
        let pages = |v: u64| (v * scale) as f64;
        out.push(self.t_ns as f64);
        out.extend(self.lists.map(pages));
        out.push(self.anon_cost as f64);
        out.push(self.file_cost as f64);
        out.extend(self.recent_scanned.map(pages));
        out.extend(self.recent_rotated.map(pages));
        out.extend(self.counters.iter().map(|&v| pages(v)));
    }
}

/// What a column counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// Virtual time, nanoseconds.
    Ns,
    /// 4 KiB pages.
    Pages,
    /// Events (stalls, faults, kswapd runs, OOM kills): a number of times, not of pages. A
    /// frame stands for `scale` pages, so an event on one counts `scale` times.
    Count,
    /// The kernel's lruvec cost units (`lru_note_cost`: pages plus the IO weight).
    Cost,
}

impl Unit {
    /// The suffix an export's column name carries.
    pub fn suffix(self) -> &'static str {
        match self {
            Unit::Ns => "ns",
            Unit::Pages => "pages",
            Unit::Count => "count",
            Unit::Cost => "cost_units",
        }
    }
}

/// One column of a series row.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct SeriesColumn {
    /// The kernel's name of the figure (/proc/vmstat names for counters).
    pub name: String,
    pub unit: Unit,
    /// A counter of /proc/vmstat (a running total over the run).
    pub counter: bool,
}

/// The columns of a series row, in order.
pub fn columns() -> Vec<SeriesColumn> {
    let col = |name: &str, unit: Unit| SeriesColumn {
        name: name.to_string(),
        unit,
        counter: false,
    };
    let mut out = vec![col("t_ns", Unit::Ns)];
    for name in [
        "inactive_anon",
        "active_anon",
        "inactive_file",
        "active_file",
        "unevictable",
        "free",
    ] {
        out.push(col(name, Unit::Pages));
    }
    out.push(col("anon_cost", Unit::Cost));
    out.push(col("file_cost", Unit::Cost));
    // <= 5.7's reclaim_stat of the root lruvec.
    for name in [
        "recent_scanned_anon",
        "recent_scanned_file",
        "recent_rotated_anon",
        "recent_rotated_file",
    ] {
        out.push(col(name, Unit::Pages));
    }
    for (i, name) in COUNTER_NAMES.iter().enumerate() {
        out.push(SeriesColumn {
            name: name.to_string(),
            unit: if counts_events(i) {
                Unit::Count
            } else {
                Unit::Pages
            },
            counter: true,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_has_one_value_per_column_in_column_order() {
        // Distinct values per field, so a column that reads the wrong field is seen.
        let mut counters = [0u64; NR_COUNTERS];
        for (i, c) in counters.iter_mut().enumerate() {
            *c = 1000 + i as u64;
        }
        let s = Sample {
            t_ns: 7,
            counters,
            lists: [11, 12, 13, 14, 15, 16],
            anon_cost: 21,
            file_cost: 22,
            recent_scanned: [31, 32],
            recent_rotated: [33, 34],
        };
        let mut row = Vec::new();
        s.push_row(2, &mut row);
        let cols = columns();
        assert_eq!(row.len(), cols.len());
        let at = |name: &str| row[cols.iter().position(|c| c.name == name).unwrap()];
        assert_eq!(at("t_ns"), 7.0);
        assert_eq!(at("inactive_anon"), 22.0);
        assert_eq!(at("active_file"), 28.0);
        assert_eq!(at("free"), 32.0);
        assert_eq!(at("anon_cost"), 21.0, "costs are not pages");
        assert_eq!(at("recent_scanned_file"), 64.0);
        assert_eq!(at("recent_rotated_anon"), 66.0);
        for (i, name) in COUNTER_NAMES.iter().enumerate() {
            assert_eq!(at(name), 2.0 * (1000 + i) as f64, "{name}");
        }
        let names: std::collections::BTreeSet<_> = cols.iter().map(|c| &c.name).collect();
        assert_eq!(names.len(), cols.len(), "column names are unique");
    }

    #[test]
    fn event_counters_are_counts_and_page_counters_pages() {
        let unit = |n: &str| columns().into_iter().find(|c| c.name == n).unwrap().unit;
        assert_eq!(unit("allocstall"), Unit::Count);
        assert_eq!(unit("pgfault"), Unit::Count);
        assert_eq!(unit("pgscan_kswapd"), Unit::Pages);
        assert_eq!(unit("pswpout"), Unit::Pages);
    }
}
