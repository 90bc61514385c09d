//! Flag overrides chosen outside the file (the web page's per-flag toggles): merged into one
//! variant's `flags` table, on top of what the file itself sets, and validated like the file.
use std::collections::BTreeMap;

use super::schema::Scenario;
use crate::variant::Flags;

/// `scn` with `overrides` merged into the `flags` of its variant `variant`. An unknown variant
/// or flag name is an error naming it (and what is known); nothing panics.
pub fn with_flag_overrides(
    scn: &Scenario,
    variant: &str,
    overrides: &BTreeMap<String, bool>,
) -> Result<Scenario, String> {
    let mut out = scn.clone();
    let names: Vec<String> = out.variants.iter().map(|v| v.name.clone()).collect();
    let v = out
        .variants
        .iter_mut()
        .find(|v| v.name == variant)
        .ok_or_else(|| {
            format!(
                "flag overrides: no variant named {variant:?} in this scenario; it has: {}",
                names.join(", ")
            )
        })?;
    let mut check = Flags::default();
    for (name, on) in overrides {
        check
            .set(name, *on)
            .map_err(|e| format!("flag overrides of variant {variant:?}: {e}"))?;
        v.flags.insert(name.clone(), *on);
    }
    Ok(out)
}

/// Parse `{"flag": true, …}` (the wasm facade's argument); an error says what is wrong.
pub fn parse_overrides(json: &str) -> Result<BTreeMap<String, bool>, String> {
    if json.trim().is_empty() {
        return Ok(BTreeMap::new());
    }
    serde_json::from_str(json).map_err(|e| {
        format!("flag overrides must be a JSON object of flag names to true/false: {e}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant;

    const TEXT: &str = include_str!("../sim/demo.toml");

    #[test]
    fn overrides_are_merged_into_one_variant_and_resolved_on_top_of_the_preset() {
        let scn = crate::scenario::parse(TEXT).unwrap();
        let v = scn.variants[0].clone();
        let base = variant::resolve(&v.preset, &v.flags).unwrap();
        let mut o = BTreeMap::new();
        o.insert("refault_scan_anon".to_string(), !base.refault_scan_anon);
        let out = with_flag_overrides(&scn, &v.name, &o).unwrap();
        let w = out.variants.iter().find(|x| x.name == v.name).unwrap();
        let flags = variant::resolve(&w.preset, &w.flags).unwrap();
        assert_eq!(
            flags,
            variant::Flags {
                refault_scan_anon: !base.refault_scan_anon,
                ..base
            }
        );
        // The scenario itself is untouched.
        assert_eq!(scn.variants[0].flags, v.flags);
    }

    #[test]
    fn unknown_flags_and_variants_are_named() {
        let scn = crate::scenario::parse(TEXT).unwrap();
        let name = scn.variants[0].name.clone();
        let mut o = BTreeMap::new();
        o.insert("refault_scan_anonn".to_string(), true);
        let e = with_flag_overrides(&scn, &name, &o).unwrap_err();
        assert!(
            e.contains("\"refault_scan_anonn\"") && e.contains("known flags: refault_scan_anon"),
            "{e}"
        );
        let e = with_flag_overrides(&scn, "nope", &BTreeMap::new()).unwrap_err();
        assert!(e.contains("\"nope\""), "{e}");
        assert!(parse_overrides("[1]").unwrap_err().contains("JSON object"));
        assert!(parse_overrides("{\"x\": 1}").is_err());
        assert_eq!(parse_overrides("").unwrap().len(), 0);
        assert_eq!(
            parse_overrides("{\"io_cost_balance\": false}")
                .unwrap()
                .get("io_cost_balance"),
            Some(&false)
        );
    }
}
