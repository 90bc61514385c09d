//! The balance view reports the branch get_scan_count took, its reason and the inputs of the
//! run's kernel era; reporting does not feed back into reclaim (the goldens guard that).
mod common;
use reclaim_core::mm::vmscan::balance::{
    cost_fractions, lru_cost_fractions_2016, rotation_fractions, BalanceEra, ScanBalance,
    ScanReason,
};
use reclaim_core::scenario::parse;
use reclaim_core::Simulation;

/// Run a variant until get_scan_count has run, at most `limit_s` of virtual time.
fn until_reclaim(sim: &mut Simulation, limit_s: f64) {
    let step = 50_000_000;
    let mut t = 0;
    while sim.balance_view().last.is_none() && !sim.finished() && (t as f64) < limit_s * 1e9 {
        t += step;
        sim.run_until(t);
    }
}

/// Every reported decision: the balance follows from the reason, and SCAN_FRACT's weights
/// follow from the reported inputs by the era's arithmetic.
fn check_consistent(sim: &Simulation, rotation_flags: (bool, bool)) {
    let v = sim.balance_view();
    let d = v.last.expect("get_scan_count ran");
    let want = match d.reason {
        ScanReason::MayNotSwap
        | ScanReason::NoSwap
        | ScanReason::CacheTrim
        | ScanReason::PlentyInactiveFile => ScanBalance::File,
        ScanReason::FileIsTiny | ScanReason::FileBelowHigh | ScanReason::AnonOnly => {
            ScanBalance::Anon
        }
        ScanReason::PriorityZero => ScanBalance::Equal,
        ScanReason::Fraction | ScanReason::SwappinessZero | ScanReason::SwappinessMax => {
            ScanBalance::Fract
        }
    };
    assert_eq!(d.balance, want, "{d:?}");
    if d.balance == ScanBalance::Fract {
        let scale = sim.scale();
        let (w, den) = match v.era {
            BalanceEra::Rotation => rotation_fractions(
                d.recent_scanned.map(|x| x / scale),
                d.recent_rotated.map(|x| x / scale),
                d.swappiness as u64,
                rotation_flags.0,
                rotation_flags.1,
            ),
            BalanceEra::Cost => cost_fractions(d.anon_cost, d.file_cost, d.swappiness as u64),
            BalanceEra::Cost2016 => lru_cost_fractions_2016(
                [d.anon_cost, d.file_cost],
                d.cost_denom,
                d.swappiness as u64,
            ),
            BalanceEra::Mglru => panic!("MGLRU does not call get_scan_count"),
        };
        assert_eq!((w, den), (d.fraction, d.denominator), "{d:?}");
        let s = d.shares[0] + d.shares[1];
        assert!(s <= 1.0 + 1e-9 && s > 0.99, "{d:?}");
    }
}

#[test]
fn s000_before_and_after_report_rotation_inputs_once_reclaim_runs() {
    let scn = common::load("s000-thrash.toml");
    for variant in ["before", "after"] {
        let mut sim = Simulation::new(&scn, variant).unwrap();
        let v = sim.balance_view();
        assert_eq!(
            v.era,
            BalanceEra::Rotation,
            "{variant}: 5.2/5.3 balance on scanned/rotated"
        );
        assert!(
            v.last.is_none() && v.recent_scanned == [0, 0],
            "{variant}: nothing before reclaim"
        );
        until_reclaim(&mut sim, 30.0);
        // Let reclaim run a while, then the inputs are those of a kernel that has scanned.
        let t = sim.now_ns() + 2_000_000_000;
        sim.run_until(t);
        let v = sim.balance_view();
        let d = v.last.expect("reclaim ran");
        assert!(v.pgscan > 0, "{variant}");
        assert!(d.recent_scanned.iter().sum::<u64>() > 0, "{variant}: {d:?}");
        assert!(v.recent_scanned.iter().sum::<u64>() > 0, "{variant}: {v:?}");
        // No cost model before 5.8.
        assert_eq!(
            (d.anon_cost, d.file_cost, v.anon_cost, v.file_cost),
            (0, 0, 0, 0)
        );
        assert!(v.decisions.iter().sum::<u64>() > 0);
        check_consistent(&sim, (false, false));
    }
}

fn swappiness_scenario(preset: &str, swappiness: u32) -> String {
    let text = std::fs::read_to_string(common::scenario_path("lesson-swappiness.toml")).unwrap();
    assert!(
        text.matches("swappiness = 60\n").count() == 1
            && text.matches("preset = \"linux-6.1\"").count() == 1,
        "the swappiness lesson's text changed: update this test"
    );
    text.replace("swappiness = 60\n", &format!("swappiness = {swappiness}\n"))
        .replace("preset = \"linux-6.1\"", &format!("preset = \"{preset}\""))
}

/// Run until SCAN_FRACT has been chosen and report the last such decision's reason and shares.
fn fract_at(preset: &str, swappiness: u32) -> (ScanReason, [f64; 2]) {
    let scn = parse(&swappiness_scenario(preset, swappiness)).unwrap();
    let mut sim = Simulation::new(&scn, &scn.variants[0].name).unwrap();
    let mut t = 0;
    while !sim.finished() && t < sim.end_ns() {
        t += 10_000_000;
        sim.run_until(t);
        if let Some(d) = sim.balance_view().last {
            if d.balance == ScanBalance::Fract {
                check_consistent(&sim, (false, false));
                return (d.reason, d.shares);
            }
        }
    }
    panic!("{preset} at swappiness {swappiness}: SCAN_FRACT never chosen");
}

#[test]
fn swappiness_that_zeroes_a_side_is_the_reason_reported() {
    // 5.8+ (cost era): 0 zeroes anon, 200 zeroes file.
    let (r, s) = fract_at("linux-5.8", 0);
    assert_eq!((r, s[0]), (ScanReason::SwappinessZero, 0.0));
    assert!(s[1] > 0.99);
    let (r, s) = fract_at("linux-5.8", 200);
    assert_eq!((r, s[1]), (ScanReason::SwappinessMax, 0.0));
    assert!(s[0] > 0.99);
    // A middle swappiness gives both sides a share.
    let (r, s) = fract_at("linux-5.8", 60);
    assert_eq!(r, ScanReason::Fraction);
    assert!(s[0] > 0.0 && s[1] > 0.0);
}

#[test]
fn forced_scans_are_reported_apart_from_get_scan_count() {
    // S001b scans only by its forced scans: pgscan_file grows, get_scan_count never runs.
    let scn = common::load("s001b-worst-case.toml");
    let mut sim = Simulation::new(&scn, "after").unwrap();
    sim.run_until(5_000_000_000);
    let v = sim.balance_view();
    assert!(v.forced_scan > 0, "{v:?}");
    assert!(v.last.is_none(), "{v:?}");
    assert_eq!(v.era, BalanceEra::Rotation);
}

#[test]
fn mglru_reports_its_own_era() {
    let scn = parse(&swappiness_scenario("linux-6.1-mglru", 60)).unwrap();
    let mut sim = Simulation::new(&scn, &scn.variants[0].name).unwrap();
    sim.run_until(2_000_000_000);
    let v = sim.balance_view();
    assert_eq!(v.era, BalanceEra::Mglru);
    assert!(v.last.is_none());
}

#[test]
fn the_refault_view_reports_distance_and_workingset_of_the_last_refault() {
    let scn = common::load("lesson-refault-distance.toml");
    let mut sim = Simulation::new(&scn, &scn.variants[0].name).unwrap();
    sim.run_until(100_000_000);
    assert!(
        sim.refault_view().last.is_none(),
        "no refault before memory is full"
    );
    sim.run_until(900_000_000);
    let v = sim.refault_view();
    let r = v.last.expect("the second pass refaults");
    assert!(r.file && r.at_ns <= 900_000_000);
    assert_eq!(r.distance, r.now_age - r.eviction_age);
    assert_eq!(r.activated, r.distance <= r.workingset_size);
    assert!(
        v.space_name == "set" || v.space_name.contains("set"),
        "{v:?}"
    );
    assert!(v.shadow_entries > 0, "{v:?}");
}

#[test]
fn the_2016_series_reports_its_own_era_and_the_numer_denom_it_weighed() {
    // The 2016 RFC weighs numer[anon, file] / denom, not scanned/rotated: the view must say so
    // and show those inputs (it was shown as the <= 5.7 era, with zeros).
    let (r, s) = fract_at("rfc-2016-lru-cost", 115);
    assert!(
        matches!(r, ScanReason::Fraction | ScanReason::SwappinessMax),
        "{r:?}"
    );
    assert!(s[0] + s[1] > 0.99);
    let scn = parse(&swappiness_scenario("rfc-2016-lru-cost", 115)).unwrap();
    let sim = Simulation::new(&scn, &scn.variants[0].name).unwrap();
    assert_eq!(sim.balance_view().era, BalanceEra::Cost2016);
}
