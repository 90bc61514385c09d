//! S000 at full scale (2 GB, 2048 MB anon, 200 MB file, 10 rounds): the bands of
//! seed-experiments.md, from the scenario file as shipped.
mod common;
use common::*;

#[test]
fn s000_thrash_reproduces_at_full_scale() {
    let scn = load("s000-thrash.toml");
    let before = run(&scn, "before");
    let after = run(&scn, "after");
    let rb = rounds(&before, "thrash");
    let ra = rounds(&after, "thrash");
    assert_eq!((rb.len(), ra.len()), (10, 10));

    // Before: every round from disk, each within 2x of round 0.
    for (i, r) in rb.iter().enumerate() {
        assert!(
            *r <= 2.0 * rb[0] && *r >= rb[0] / 2.0,
            "before round {i} = {r}, round 0 = {}",
            rb[0]
        );
    }
    // After: the last 5 rounds' median is >= 100x faster than round 0 ...
    let tail = median(&ra[5..]);
    assert!(
        ra[0] / tail >= 100.0,
        "after: round 0 {} vs median of last 5 {tail}",
        ra[0]
    );
    // ... and the rounds have converged by round 6.
    for (i, r) in ra.iter().enumerate().skip(6) {
        assert!(
            *r <= 2.0 * tail,
            "after round {i} = {r} not converged (tail median {tail})"
        );
    }
    // Swap-outs during the rounds: after >= 3x before.
    let (sb, sa) = (before.measured["pswpout"], after.measured["pswpout"]);
    assert!(sa >= 3 * sb, "pswpout before {sb} after {sa}");
    // The mechanism: anon is scanned far more once refaults unlock it.
    assert!(after.measured["pgscan_anon"] > before.measured["pgscan_anon"]);
    assert!(after.measured["workingset_activate_file"] > 0);
}
