//! The generations view (`Simulation::lru_gen_view`) against the engine's own state: its pages
//! add up to the LRU sizes, its rows span min_seq..=max_seq, and the controller positions it
//! reports decide the type it says is scanned next.
mod common;
use common::scenario_path;
use reclaim_core::Simulation;

struct View {
    max_seq: f64,
    min_seq: [f64; 2],
    rows: Vec<Vec<f64>>,
    tier_idx: [f64; 2],
    next_type: f64,
    /// (refaulted, total): tier 0 anon, tier 0 file, all tiers anon, all tiers file.
    pos: [(f64, f64); 4],
    batch: f64,
    rework: bool,
}

fn read(v: &[f64]) -> View {
    let n = v[3] as usize;
    let rows: Vec<Vec<f64>> = (0..n)
        .map(|i| v[4 + i * 10..4 + (i + 1) * 10].to_vec())
        .collect();
    let c = 4 + n * 10 + 8;
    assert_eq!(v.len(), c + 3 + 8 + 2, "layout of {v:?}");
    let p = |k: usize| (v[c + 3 + 2 * k], v[c + 4 + 2 * k]);
    View {
        max_seq: v[0],
        min_seq: [v[1], v[2]],
        rows,
        tier_idx: [v[c], v[c + 1]],
        next_type: v[c + 2],
        pos: [p(0), p(1), p(2), p(3)],
        batch: v[c + 11],
        rework: v[c + 12] == 1.0,
    }
}

/// `positive_ctrl_err` over f64 positions (exact for the counts these runs reach).
fn positive(sp: (f64, f64), sp_gain: f64, pv: (f64, f64), pv_gain: f64, batch: f64) -> bool {
    pv.0 < batch || pv.0 * (sp.1 + batch) * sp_gain <= (sp.0 + 1.0) * pv.1 * pv_gain
}

fn check(variant_preset: &str) {
    let text = std::fs::read_to_string(scenario_path("s003b-noreuse.toml")).unwrap();
    let text = text.replacen(
        "preset = \"linux-6.3-mglru\"",
        &format!("preset = \"{variant_preset}\""),
        2,
    );
    assert!(text.contains(variant_preset));
    let scn = reclaim_core::scenario::parse(&text).unwrap();
    let mut sim = Simulation::new(&scn, "before").unwrap();
    assert!(sim.lru_gen());
    let scale = sim.scale();
    let mut seen_seqs = Vec::new();
    let mut decided = 0;
    // Until aging has made a few generations (the working set fills RAM first).
    while !sim.finished() && seen_seqs.last().is_none_or(|&m| m < 3.0 + 4.0) {
        sim.step(200_000_000);
        let v = read(&sim.lru_gen_view(0));
        let sizes = sim.lru_sizes();
        let anon: f64 = v.rows.iter().map(|r| r[2..6].iter().sum::<f64>()).sum();
        let file: f64 = v.rows.iter().map(|r| r[6..10].iter().sum::<f64>()).sum();
        assert_eq!(anon, (sizes[0] + sizes[1]) as f64, "anon pages");
        assert_eq!(file, (sizes[2] + sizes[3]) as f64, "file pages");
        // The classic lists the views draw hold exactly what lru_sizes counts, frame by frame.
        let lists = sim.frame_lists();
        for (lru, &size) in sizes.iter().enumerate().take(4) {
            let walked = sim.list_frames(lru);
            assert_eq!(
                walked.len() as u64 * scale,
                size,
                "list {lru} at {}",
                sim.now_ns()
            );
            assert!(walked.iter().all(|&f| lists[f as usize] as usize == lru));
        }
        let first = v.min_seq[0].min(v.min_seq[1]);
        assert_eq!(v.rows.first().unwrap()[0], first);
        assert_eq!(v.rows.last().unwrap()[0], v.max_seq);
        for r in &v.rows {
            for ty in 0..2 {
                if r[0] < v.min_seq[ty] {
                    assert!(r[2 + 4 * ty..6 + 4 * ty].iter().all(|&x| x == 0.0));
                }
            }
        }
        assert!(v.tier_idx.iter().all(|&t| (0.0..=3.0).contains(&t)));
        assert_eq!(v.rework, variant_preset == "linux-6.14-mglru");
        // Swappiness of the scenario (default 60) between 2 and 199: the positions decide.
        let s = 60.0;
        if v.rework || v.min_seq[0] >= v.min_seq[1] {
            let (sp, pv) = if v.rework {
                (v.pos[2], v.pos[3])
            } else {
                (v.pos[0], v.pos[1])
            };
            let file = positive(sp, s, pv, 200.0 - s, v.batch);
            assert_eq!(v.next_type, file as u8 as f64, "type from {:?}", v.pos);
            decided += 1;
        } else {
            assert_eq!(
                v.next_type, 0.0,
                "6.1: the older anon generation goes first"
            );
        }
        seen_seqs.push(v.max_seq);
    }
    assert!(decided > 0);
    assert!(
        seen_seqs.last() > seen_seqs.first(),
        "aging advanced max_seq: {seen_seqs:?}"
    );
}

#[test]
fn generations_view_agrees_with_the_engine_under_6_3_mglru() {
    check("linux-6.3-mglru");
}

#[test]
fn generations_view_agrees_with_the_engine_under_6_14_mglru() {
    check("linux-6.14-mglru");
}
