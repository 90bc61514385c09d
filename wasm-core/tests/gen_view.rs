//! The generations view (`Simulation::lru_gen_view`) against the engine's own state: its pages
//! add up to the LRU sizes, its rows span min_seq..=max_seq, and the controller positions it
//! reports decide the type it says is scanned next.
mod common;
use common::scenario_path;
use reclaim_core::mm::vmscan::lru_gen::TypeReason;
use reclaim_core::views::CtrlPosView;
use reclaim_core::Simulation;

/// `positive_ctrl_err` over the reported positions (exact integer arithmetic, as the kernel).
fn positive(sp: CtrlPosView, pv: CtrlPosView, batch: u64) -> bool {
    pv.refaulted < batch
        || pv.refaulted as u128 * (sp.total + batch) as u128 * sp.gain as u128
            <= (sp.refaulted + 1) as u128 * pv.total as u128 * pv.gain as u128
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
    while !sim.finished() && seen_seqs.last().is_none_or(|&m| m < 3 + 4) {
        sim.step(200_000_000);
        let v = sim.lru_gen_view(0).unwrap();
        let sizes = sim.lru_sizes();
        let pages =
            |ty: usize| -> u64 { v.rows.iter().map(|r| r.tiers[ty].iter().sum::<u64>()).sum() };
        assert_eq!(pages(0), sizes[0] + sizes[1], "anon pages");
        assert_eq!(pages(1), sizes[2] + sizes[3], "file pages");
        // The generations it marks active hold what the classic active lists count.
        let active = |ty: usize| -> u64 {
            v.rows
                .iter()
                .filter(|r| r.active)
                .map(|r| r.tiers[ty].iter().sum::<u64>())
                .sum()
        };
        assert_eq!((active(0), active(1)), (sizes[1], sizes[3]), "active pages");
        assert_eq!(
            v.rows.iter().filter(|r| r.active).count(),
            2.min(v.rows.len())
        );
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
        assert_eq!(v.rows.first().unwrap().seq, first);
        assert_eq!(v.rows.last().unwrap().seq, v.max_seq);
        assert_eq!(v.rows.len() as u64, v.max_seq - first + 1);
        for r in &v.rows {
            for ty in 0..2 {
                if r.seq < v.min_seq[ty] {
                    assert!(r.tiers[ty].iter().all(|&x| x == 0));
                }
            }
        }
        assert!(v.tier_idx.iter().all(|&t| t <= 3));
        assert_eq!(v.rework, variant_preset == "linux-6.14-mglru");
        assert_eq!(v.swappiness, 60);
        let batch = v.batch_pages / scale;
        // Swappiness of the scenario (default 60) between 2 and 199: the positions decide.
        if v.rework || v.min_seq[0] >= v.min_seq[1] {
            let c = v.compare.expect("the controller compared");
            assert_eq!((c.anon.gain, c.file.gain), (60, 140));
            let file = positive(c.anon, c.file, batch);
            assert_eq!(v.next, file as u8, "type from {c:?}");
            let few = c.file.refaulted < batch;
            let want = if few {
                TypeReason::FewFileRefaults
            } else {
                TypeReason::RefaultRates
            };
            assert_eq!(v.reason, want);
            // The rates the page words say the same as the integer comparison (away from a tie).
            if !few && (c.file_rate - c.bound).abs() > 1e-9 {
                assert_eq!(c.file_rate <= c.bound, file, "{c:?}");
            }
            decided += 1;
        } else {
            assert_eq!(v.next, 0, "6.1: the older anon generation goes first");
            assert_eq!(v.reason, TypeReason::OlderAnon);
            assert!(v.compare.is_none());
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
