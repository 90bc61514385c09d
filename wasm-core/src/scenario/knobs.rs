//! Knobs: settings chosen outside a scenario file (the page's knobs, a sweep's axes, the
//! Python API's keyword arguments), written into the scenario's TOML text before it is parsed,
//! so the parser validates the result and names what is wrong. The page applies none itself:
//! it sends a `Setup` and the engine resolves it (`resolve`). Flags (`flag.NAME`) go through
//! `overrides.rs` instead.
use std::collections::BTreeMap;

use serde::Deserialize;
use ts_rs::TS;

use super::overrides::with_flag_overrides;
use super::schema::Scenario;
use crate::variant::FLAG_NAMES;

/// What kind of value a knob takes, and so how it is written into TOML.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A whole number, written bare.
    Whole,
    /// true / false, written bare.
    Bool,
    /// Text (a size, a duration, a device name), written as a TOML string.
    Text,
}

/// Where a text knob lives in the file.
#[derive(Debug, Clone, Copy)]
enum Place {
    /// `key` of table `table` (None: the top level).
    Key(Option<&'static str>, &'static str),
    /// The `device` of `[machine] swap = { device = ... }`.
    SwapDevice,
    /// The `device` of every `[[files]]` entry not on tmpfs.
    FileDevice,
}

/// The knobs the page offers, then the sysctls of the `[sysctl]` table.
const KNOBS: &[(&str, Kind, Place)] = &[
    (
        "swappiness",
        Kind::Whole,
        Place::Key(Some("sysctl"), "swappiness"),
    ),
    ("ram", Kind::Text, Place::Key(Some("machine"), "ram")),
    ("swap_device", Kind::Text, Place::SwapDevice),
    ("file_device", Kind::Text, Place::FileDevice),
    (
        "frame_scale",
        Kind::Whole,
        Place::Key(Some("machine"), "frame_scale"),
    ),
    ("seed", Kind::Whole, Place::Key(None, "seed")),
    (
        "min_free_kbytes",
        Kind::Whole,
        Place::Key(Some("sysctl"), "min_free_kbytes"),
    ),
    (
        "watermark_scale_factor",
        Kind::Whole,
        Place::Key(Some("sysctl"), "watermark_scale_factor"),
    ),
    (
        "dirty_ratio",
        Kind::Whole,
        Place::Key(Some("sysctl"), "dirty_ratio"),
    ),
    (
        "dirty_background_ratio",
        Kind::Whole,
        Place::Key(Some("sysctl"), "dirty_background_ratio"),
    ),
    (
        "laptop_mode",
        Kind::Bool,
        Place::Key(Some("sysctl"), "laptop_mode"),
    ),
    (
        "page_cluster",
        Kind::Whole,
        Place::Key(Some("sysctl"), "page_cluster"),
    ),
    (
        "lru_gen_min_ttl",
        Kind::Text,
        Place::Key(Some("sysctl"), "lru_gen_min_ttl"),
    ),
];

/// The prefix of a flag knob: `flag.refault_scan_anon=true`.
pub const FLAG_PREFIX: &str = "flag.";

/// Every knob name, for messages and docs (`flag.NAME` stands for the flags).
pub fn knob_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = KNOBS.iter().map(|k| k.0).collect();
    names.push("flag.NAME");
    names
}

/// The canonical name of a knob: `sysctl.dirty_ratio` is `dirty_ratio`; flags keep their
/// `flag.` prefix. An unknown name is an error listing the known ones.
pub fn canonical(name: &str) -> Result<String, String> {
    let name = name.trim();
    if let Some(flag) = name.strip_prefix(FLAG_PREFIX) {
        if FLAG_NAMES.contains(&flag) {
            return Ok(name.to_string());
        }
        return Err(format!(
            "unknown flag {flag:?}; flags: {}",
            FLAG_NAMES.join(", ")
        ));
    }
    let bare = name.strip_prefix("sysctl.").unwrap_or(name);
    let knob = KNOBS.iter().find(|k| k.0 == bare).ok_or_else(|| {
        format!(
            "unknown knob {name:?}; knobs: {} (sysctls may also be written sysctl.NAME)",
            knob_names().join(", ")
        )
    })?;
    if name.starts_with("sysctl.") && !matches!(knob.2, Place::Key(Some("sysctl"), _)) {
        return Err(format!("{name:?}: {bare} is not a sysctl"));
    }
    Ok(bare.to_string())
}

/// Check one value of a knob (its canonical name) without a scenario: whole numbers and
/// booleans are checked here, sizes, durations and device names by the parser later.
pub fn check_value(name: &str, value: &str) -> Result<(), String> {
    let kind = match name.strip_prefix(FLAG_PREFIX) {
        Some(_) => Kind::Bool,
        None => knob(name)?.1,
    };
    let v = value.trim();
    match kind {
        Kind::Whole if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) => {
            Err(format!("{name}: {value:?} is not a whole number"))
        }
        Kind::Whole if v.parse::<u64>().is_err() => Err(format!("{name}: {value:?} is too large")),
        Kind::Bool if v != "true" && v != "false" => {
            Err(format!("{name}: {value:?} is not true or false"))
        }
        Kind::Text if v.is_empty() => Err(format!("{name}: the value is empty")),
        _ => Ok(()),
    }
}

fn knob(name: &str) -> Result<&'static (&'static str, Kind, Place), String> {
    KNOBS
        .iter()
        .find(|k| k.0 == name)
        .ok_or_else(|| format!("unknown knob {name:?}"))
}

/// `text` with the (non-flag) knobs set, in order. Names must be canonical. A knob that has
/// nowhere to go (a device knob on a scenario without swap or without files on a device) is
/// an error, not silently ignored.
pub fn apply(text: &str, settings: &[(String, String)]) -> Result<String, String> {
    let mut t = text.to_string();
    for (name, value) in settings {
        if name.starts_with(FLAG_PREFIX) {
            continue;
        }
        check_value(name, value)?;
        let (_, kind, place) = knob(name)?;
        let v = value.trim();
        let toml_value = match kind {
            Kind::Text => toml_string(v),
            Kind::Whole | Kind::Bool => v.to_string(),
        };
        t = match *place {
            // The swappiness knob is every variant's write: a variant's own `sysctl = {
            // swappiness = N }` (S004's vanilla 4.7) gives way to it.
            Place::Key(table, key @ "swappiness") => {
                drop_variant_sysctl(&set_key(&t, table, key, &toml_value))
            }
            Place::Key(table, key) => set_key(&t, table, key, &toml_value),
            Place::SwapDevice => set_swap_device(&t, &toml_value).ok_or_else(|| {
                format!("{name}: the scenario has no `swap = {{ device = ... }}` line in [machine]")
            })?,
            Place::FileDevice => set_file_devices(&t, &toml_value).ok_or_else(|| {
                format!("{name}: the scenario has no [[files]] on a device (only tmpfs or none)")
            })?,
        };
    }
    Ok(t)
}

/// The scenario `text` with `settings` applied, parsed and validated, with the flag knobs
/// merged into variant `variant`. Errors name the knob or the field that is wrong.
pub fn scenario_with(
    text: &str,
    settings: &[(String, String)],
    variant: &str,
) -> Result<Scenario, String> {
    let t = apply(text, settings)?;
    let scn = super::parse(&t).map_err(|e| {
        if settings.is_empty() {
            format!("line {}, column {}: {}", e.line, e.column, e.what())
        } else {
            format!("with {}: {}", describe(settings), e.what())
        }
    })?;
    if settings.iter().any(|(n, _)| n == "swappiness") {
        knob_took_swappiness(&scn)?;
    }
    let flags: BTreeMap<String, bool> = settings
        .iter()
        .filter_map(|(n, v)| Some((n.strip_prefix(FLAG_PREFIX)?.to_string(), v.trim() == "true")))
        .collect();
    with_flag_overrides(&scn, variant, &flags)
}

/// A variant that still sets its own swappiness after the knob (a form `drop_variant_sysctl`
/// does not rewrite, e.g. a `[variants.sysctl]` sub-table) is refused, not run at the wrong value.
fn knob_took_swappiness(scn: &Scenario) -> Result<(), String> {
    match scn.variants.iter().find(|v| v.sysctl.swappiness.is_some()) {
        Some(v) => Err(format!(
            "swappiness: variant {:?} sets its own swappiness in a form the knob cannot replace; write it as `sysctl = {{ swappiness = N }}` on one line",
            v.name
        )),
        None => Ok(()),
    }
}

/// What is set on top of a scenario file: knob settings in order (names as `canonical`
/// accepts them, values as text) and, optionally, a knob comparison.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    #[serde(default)]
    pub knobs: Vec<(String, String)>,
    #[serde(default)]
    pub pair: Option<SwappinessPair>,
}

/// One kernel (variant `variant`) run at two swappiness values: the scenario's variants are
/// replaced by two copies of it, named by `pair_name`.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct SwappinessPair {
    pub variant: String,
    pub swappiness: [u32; 2],
}

/// Name of variant `base` run at swappiness `s` in a knob comparison.
pub fn pair_name(base: &str, s: u32) -> String {
    format!("{base} · swappiness {s}")
}

/// The scenario text a `Setup` runs: the knobs written in (flags excepted: they are per run,
/// `with_flag_overrides`), then the pair. The result parses; an error names the knob, the
/// pair's variant or the field that is wrong.
pub fn resolve(text: &str, setup: &Setup) -> Result<String, String> {
    let settings = setup
        .knobs
        .iter()
        .map(|(n, v)| Ok((canonical(n)?, v.clone())))
        .collect::<Result<Vec<_>, String>>()?;
    if let Some((n, _)) = settings.iter().find(|(n, _)| n.starts_with(FLAG_PREFIX)) {
        return Err(format!(
            "{n}: flags are set per run (flag overrides), not as a knob of the scenario"
        ));
    }
    let mut t = apply(text, &settings)?;
    if let Some(p) = &setup.pair {
        t = swappiness_pair(&t, &p.variant, p.swappiness)?;
    }
    let scn = super::parse(&t).map_err(|e| {
        if settings.is_empty() && setup.pair.is_none() {
            format!("line {}, column {}: {}", e.line, e.column, e.what())
        } else {
            format!("with {}: {}", describe(&settings), e.what())
        }
    })?;
    if settings.iter().any(|(n, _)| n == "swappiness") {
        knob_took_swappiness(&scn)?;
    }
    Ok(t)
}

/// `swappiness=60, ram=1GiB`
pub fn describe(settings: &[(String, String)]) -> String {
    settings
        .iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A TOML basic string.
fn toml_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A table header line: `[name]` or `[[name]]`, with an optional comment after it.
fn header(line: &str) -> Option<(&str, bool)> {
    let l = line.trim();
    let l = match l.find('#') {
        Some(i) => l[..i].trim_end(),
        None => l,
    };
    let (inner, array) = if let Some(x) = l.strip_prefix("[[").and_then(|x| x.strip_suffix("]]")) {
        (x, true)
    } else {
        (l.strip_prefix('[')?.strip_suffix(']')?, false)
    };
    let inner = inner.trim();
    let ok = !inner.is_empty()
        && inner
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'-');
    ok.then_some((inner, array))
}

struct Section<'a> {
    /// None for the top level.
    name: Option<&'a str>,
    array: bool,
    /// Line of the header (None for the top level) and one past the last line.
    start: Option<usize>,
    end: usize,
}

fn sections<'a>(lines: &[&'a str]) -> Vec<Section<'a>> {
    let mut out = vec![Section {
        name: None,
        array: false,
        start: None,
        end: lines.len(),
    }];
    for (i, line) in lines.iter().enumerate() {
        if let Some((name, array)) = header(line) {
            out.last_mut().expect("the top level is first").end = i;
            out.push(Section {
                name: Some(name),
                array,
                start: Some(i),
                end: lines.len(),
            });
        }
    }
    out
}

fn first_line(s: &Section) -> usize {
    s.start.map_or(0, |i| i + 1)
}

/// The line of `key = ...` in section `s`.
fn key_line(lines: &[&str], s: &Section, key: &str) -> Option<usize> {
    (first_line(s)..s.end).find(|&i| {
        let l = lines[i].trim_start();
        l.strip_prefix(key)
            .is_some_and(|rest| rest.trim_start().starts_with('='))
    })
}

/// The text of the first `"..."` after `=` on a line.
fn quoted(line: &str) -> Option<&str> {
    let after = &line[line.find('=')? + 1..];
    let start = after.find('"')? + 1;
    let len = after[start..].find('"')?;
    Some(&after[start..start + len])
}

/// Set `key = value` in table `table` (None: the top level), adding the key, or the table at
/// the end, when missing.
fn set_key(text: &str, table: Option<&str>, key: &str, value: &str) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    let entry = format!("{key} = {value}");
    let secs = sections(&lines);
    let Some(s) = secs.iter().find(|s| s.name == table && !s.array) else {
        let table = table.expect("the top level always exists");
        return format!("{}\n\n[{table}]\n{entry}\n", text.trim_end_matches('\n'));
    };
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    match key_line(&lines, s, key) {
        Some(i) => out[i] = entry,
        None => out.insert(first_line(s), entry),
    }
    out.join("\n")
}

fn set_swap_device(text: &str, device: &str) -> Option<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let secs = sections(&lines);
    let machine = secs
        .iter()
        .find(|s| s.name == Some("machine") && !s.array)?;
    let i = key_line(&lines, machine, "swap")?;
    let line = lines[i];
    let at = line.find("device")?;
    let rest = &line[at + "device".len()..];
    let eq = rest.find('=')?;
    if !rest[..eq].trim().is_empty() {
        return None;
    }
    let open = eq + rest[eq..].find('"')?;
    let close = open + 1 + rest[open + 1..].find('"')?;
    let value_start = at + "device".len() + open;
    let value_end = at + "device".len() + close + 1;
    let new_line = format!("{}{}{}", &line[..value_start], device, &line[value_end..]);
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    out[i] = new_line;
    Some(out.join("\n"))
}

fn set_file_devices(text: &str, device: &str) -> Option<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let mut changed = 0;
    for s in sections(&lines)
        .iter()
        .filter(|s| s.name == Some("files") && s.array)
    {
        if let Some(i) = key_line(&lines, s, "device") {
            if quoted(lines[i]) != Some("tmpfs") {
                out[i] = format!("device = {device}");
                changed += 1;
            }
        }
    }
    (changed > 0).then(|| out.join("\n"))
}

/// Drop the `sysctl = { ... }` line of every `[[variants]]` (its only key is swappiness).
fn drop_variant_sysctl(text: &str) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    let own: Vec<usize> = sections(&lines)
        .iter()
        .filter(|s| s.name == Some("variants") && s.array)
        .filter_map(|s| key_line(&lines, s, "sysctl"))
        .collect();
    let kept: Vec<&str> = (0..lines.len())
        .filter(|i| !own.contains(i))
        .map(|i| lines[i])
        .collect();
    kept.join("\n")
}

/// Brackets opened minus closed on a line, outside strings and comments.
fn bracket_depth(line: &str) -> i32 {
    let (mut depth, mut in_str, mut esc) = (0, false, false);
    for c in line.chars() {
        match (in_str, c) {
            (true, _) if esc => esc = false,
            (true, '\\') => esc = true,
            (true, '"') => in_str = false,
            (true, _) => {}
            (false, '"') => in_str = true,
            (false, '#') => break,
            (false, '[') => depth += 1,
            (false, ']') => depth -= 1,
            _ => {}
        }
    }
    depth
}

/// The scenario with its `[[variants]]` replaced by two copies of variant `base`, one per
/// swappiness value (each sets its own `sysctl.swappiness`; the engine applies the kernel's
/// cap). The scenario's expectations and the lessons' facts name the variants that are gone,
/// so the pair keeps neither (its results compare the two runs).
fn swappiness_pair(text: &str, base: &str, values: [u32; 2]) -> Result<String, String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let secs = sections(&lines);
    let variants: Vec<&Section> = secs
        .iter()
        .filter(|s| s.name == Some("variants") && s.array)
        .collect();
    let src = variants
        .iter()
        .find(|s| key_line(&lines, s, "name").and_then(|i| quoted(lines[i])) == Some(base))
        .ok_or_else(|| {
            let names: Vec<&str> = variants
                .iter()
                .filter_map(|s| key_line(&lines, s, "name").and_then(|i| quoted(lines[i])))
                .collect();
            format!(
                "pair: no variant named {base:?} in this scenario; it has: {}",
                names.join(", ")
            )
        })?;
    let is_key = |l: &str, keys: &[&str]| {
        let l = l.trim_start();
        keys.iter().any(|k| {
            l.strip_prefix(k)
                .is_some_and(|r| r.trim_start().starts_with('='))
        })
    };
    let mut body: Vec<&str> = lines[first_line(src)..src.end]
        .iter()
        .copied()
        .filter(|l| !is_key(l, &["name", "sysctl"]) && !l.trim_start().starts_with('#'))
        .collect();
    while body.last().is_some_and(|l| l.trim().is_empty()) {
        body.pop();
    }
    let mut copies: Vec<String> = Vec::new();
    for v in values {
        copies.push("[[variants]]".into());
        copies.push(format!("name = {}", toml_string(&pair_name(base, v))));
        copies.extend(body.iter().map(|l| l.to_string()));
        copies.push(format!("sysctl = {{ swappiness = {v} }}"));
        copies.push(String::new());
    }
    let within = |s: &Section, i: usize| s.start.is_some_and(|st| i >= st) && i < s.end;
    let expects: Vec<&Section> = secs
        .iter()
        .filter(|s| s.name == Some("expect") && s.array)
        .collect();
    let lessons: Vec<&Section> = secs
        .iter()
        .filter(|s| s.name == Some("lesson") && s.array)
        .collect();
    let mut out: Vec<String> = Vec::new();
    // Depth of the open brackets of a facts array being dropped (it may span lines).
    let mut dropping = 0;
    for (i, l) in lines.iter().enumerate() {
        if expects.iter().any(|s| within(s, i)) {
            continue;
        }
        if dropping > 0 {
            dropping += bracket_depth(l);
            continue;
        }
        let in_lesson = lessons.iter().any(|s| within(s, i) && s.start != Some(i));
        if in_lesson && is_key(l, &["facts", "facts_since", "since"]) {
            dropping = bracket_depth(l).max(0);
            continue;
        }
        match variants.iter().position(|s| within(s, i)) {
            None => out.push(l.to_string()),
            Some(0) if variants[0].start == Some(i) => out.extend(copies.iter().cloned()),
            Some(_) => {}
        }
    }
    Ok(out.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const S000: &str = include_str!("../../../scenarios/s000-thrash.toml");

    fn set(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(n, v)| (canonical(n).unwrap(), v.to_string()))
            .collect()
    }

    #[test]
    fn every_page_knob_lands_in_the_parsed_scenario() {
        let text = S000.replace(
            "[[files]]",
            "[[devices]]\nname = \"fast\"\nkind = \"nvme\"\n\n[[files]]",
        );
        let s = set(&[
            ("swappiness", "200"),
            ("ram", "1GiB"),
            ("swap_device", "fast"),
            ("file_device", "fast"),
            ("frame_scale", "4"),
            ("seed", "7"),
            ("sysctl.dirty_ratio", "33"),
            ("laptop_mode", "true"),
            ("lru_gen_min_ttl", "1s"),
        ]);
        let scn = scenario_with(&text, &s, "before").unwrap();
        assert_eq!(scn.sysctl.swappiness, 200);
        assert_eq!(scn.machine.ram.bytes(), 1 << 30);
        assert_eq!(scn.machine.swap.as_ref().unwrap().device, "fast");
        assert!(scn.files.iter().all(|f| f.device == "fast"));
        assert_eq!(scn.machine.frame_scale, 4);
        assert_eq!(scn.seed, 7);
        assert_eq!(scn.sysctl.dirty_ratio, 33);
        assert!(scn.sysctl.laptop_mode);
        assert_eq!(scn.sysctl.lru_gen_min_ttl.ns(), 1_000_000_000);
        // The swap size on the same line is kept.
        assert_eq!(scn.machine.swap.as_ref().unwrap().size.bytes(), 4 << 30);
    }

    #[test]
    fn flags_are_merged_into_the_variant_run() {
        let s = set(&[("flag.refault_scan_anon", "true")]);
        let scn = scenario_with(S000, &s, "before").unwrap();
        let v = scn.variants.iter().find(|v| v.name == "before").unwrap();
        assert_eq!(v.flags.get("refault_scan_anon"), Some(&true));
        let other = scn.variants.iter().find(|v| v.name == "after").unwrap();
        assert_eq!(other.flags.get("refault_scan_anon"), None);
    }

    #[test]
    fn missing_keys_and_tables_are_added() {
        let text = "title = \"t\"\n[machine]\nram = \"64MiB\"\n";
        let t = apply(
            text,
            &set(&[("swappiness", "10"), ("frame_scale", "2"), ("seed", "3")]),
        )
        .unwrap();
        assert!(t.starts_with("seed = 3\n"), "{t}");
        assert!(t.contains("[machine]\nframe_scale = 2\nram"), "{t}");
        assert!(t.ends_with("[sysctl]\nswappiness = 10\n"), "{t}");
    }

    #[test]
    fn bad_names_and_values_are_named() {
        let e = canonical("swapiness").unwrap_err();
        assert!(
            e.contains("\"swapiness\"") && e.contains("swappiness, ram"),
            "{e}"
        );
        assert!(canonical("flag.nope").unwrap_err().contains("\"nope\""));
        assert!(canonical("sysctl.ram")
            .unwrap_err()
            .contains("not a sysctl"));
        assert_eq!(canonical("sysctl.page_cluster").unwrap(), "page_cluster");
        assert!(check_value("swappiness", "-1")
            .unwrap_err()
            .contains("whole number"));
        assert!(check_value("laptop_mode", "yes")
            .unwrap_err()
            .contains("true or false"));
        assert!(check_value("flag.refault_scan_anon", "1").is_err());
        // A device the scenario does not declare: the parser names the field.
        let e = scenario_with(S000, &set(&[("swap_device", "nvme9")]), "before").unwrap_err();
        assert!(
            e.starts_with("with swap_device=nvme9: ") && e.contains("nvme9"),
            "{e}"
        );
        let e = scenario_with(S000, &set(&[("ram", "lots")]), "before").unwrap_err();
        assert!(e.contains("machine.ram"), "{e}");
        // Nowhere to put a device knob.
        let no_swap = S000.replace("swap = { device = \"disk\", size = \"4GiB\" }\n", "");
        let e = apply(&no_swap, &set(&[("swap_device", "disk")])).unwrap_err();
        assert!(e.contains("no `swap = { device"), "{e}");
        // A quote in a value stays inside the TOML string.
        let e = scenario_with(S000, &set(&[("ram", "1\"GiB")]), "before").unwrap_err();
        assert!(e.contains("machine.ram"), "{e}");
    }

    #[test]
    fn the_swappiness_knob_replaces_a_variants_own_swappiness() {
        let text = "title = \"t\"\n[machine]\nram = \"64MiB\"\n\n[[variants]]\nname = \"own\"\npreset = \"linux-6.1\"\nsysctl = { swappiness = 100 }\n\n[[tasks]]\nname = \"a\"\nprogram = [{ op = \"sleep\", duration = \"1ms\" }]\n\n[run]\nduration = \"1s\"\n";
        let own = scenario_with(text, &[], "own").unwrap();
        assert_eq!(own.swappiness_for("own"), 100);
        let knob = scenario_with(text, &set(&[("swappiness", "7")]), "own").unwrap();
        assert_eq!(knob.swappiness_for("own"), 7);
    }

    const PAIR_TEXT: &str = "title = \"t\"\n\n[sysctl]\nswappiness = 30\n\n[[variants]]\nname = \"before\"\npreset = \"linux-5.7\"\n\n[[variants]]\nname = \"after\"\npreset = \"linux-6.1\"\nflags = { lru_gen = true }\n\n[[tasks]]\nname = \"x\"\n";

    fn pair(variant: &str, a: u32, b: u32) -> Setup {
        Setup {
            knobs: vec![],
            pair: Some(SwappinessPair {
                variant: variant.into(),
                swappiness: [a, b],
            }),
        }
    }

    #[test]
    fn a_pair_is_two_copies_of_one_variant_each_at_its_own_swappiness() {
        let t = swappiness_pair(PAIR_TEXT, "after", [0, 200]).unwrap();
        assert_eq!(t.matches("flags = { lru_gen = true }").count(), 2, "{t}");
        assert!(
            t.contains("name = \"after · swappiness 0\"\npreset = \"linux-6.1\""),
            "{t}"
        );
        assert!(t.contains("sysctl = { swappiness = 0 }"), "{t}");
        assert!(t.contains("sysctl = { swappiness = 200 }"), "{t}");
        assert!(t.contains("[[tasks]]\nname = \"x\""), "{t}");
        assert!(!t.contains("\"before\""), "{t}");
        let e = swappiness_pair(PAIR_TEXT, "sideways", [0, 200]).unwrap_err();
        assert!(
            e.contains("\"sideways\"") && e.contains("before, after"),
            "{e}"
        );
    }

    #[test]
    fn every_shipped_scenario_resolves_as_a_pair_that_runs_at_its_two_values() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios");
        let mut n = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().and_then(|e| e.to_str()) != Some("toml") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let base = crate::scenario::parse(&text)
                .unwrap()
                .variants
                .last()
                .unwrap()
                .name
                .clone();
            let t =
                resolve(&text, &pair(&base, 0, 100)).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            let scn = crate::scenario::parse(&t).unwrap();
            let names: Vec<&str> = scn.variants.iter().map(|v| v.name.as_str()).collect();
            assert_eq!(
                names,
                [pair_name(&base, 0), pair_name(&base, 100)],
                "{path:?}"
            );
            assert_eq!(scn.swappiness_for(names[0]), 0, "{path:?}");
            assert!(scn.expect.is_empty(), "{path:?}");
            n += 1;
        }
        assert!(n > 10, "{n} scenarios");
    }

    #[test]
    fn resolve_applies_the_page_knobs_and_refuses_flags_and_unknown_names() {
        let s004 = include_str!("../../../scenarios/s004-pgbench.toml");
        assert!(s004.contains("\nsysctl = { swappiness = 100 }\n"));
        let setup = Setup {
            knobs: vec![
                ("swappiness".into(), "200".into()),
                ("swap_device".into(), "hdd".into()),
                ("file_device".into(), "ssd".into()),
            ],
            pair: None,
        };
        let t = resolve(s004, &setup).unwrap();
        assert_eq!(
            t.matches("\nswappiness = ").count() + t.matches("{ swappiness").count(),
            1,
            "{t}"
        );
        assert!(t.contains("swap = { device = \"hdd\""), "{t}");
        assert!(
            t.contains("device = \"tmpfs\""),
            "tmpfs files stay in memory"
        );
        let scn = crate::scenario::parse(&t).unwrap();
        assert!(scn
            .variants
            .iter()
            .all(|v| scn.swappiness_for(&v.name) == 200));
        // Nothing set: the text as it is.
        assert_eq!(resolve(S000, &Setup::default()).unwrap(), S000);
        let e = resolve(
            S000,
            &Setup {
                knobs: vec![("flag.lru_gen".into(), "true".into())],
                pair: None,
            },
        )
        .unwrap_err();
        assert!(e.contains("per run"), "{e}");
        let e = resolve(
            S000,
            &Setup {
                knobs: vec![("swapiness".into(), "1".into())],
                pair: None,
            },
        )
        .unwrap_err();
        assert!(e.contains("\"swapiness\""), "{e}");
        let e = resolve(
            S000,
            &Setup {
                knobs: vec![("swap_device".into(), "nvme9".into())],
                pair: None,
            },
        )
        .unwrap_err();
        assert!(
            e.starts_with("with swap_device=nvme9: ") && e.contains("nvme9"),
            "{e}"
        );
    }

    #[test]
    fn a_variant_swappiness_the_knob_cannot_rewrite_is_refused() {
        let text = "title = \"t\"\n[machine]\nram = \"64MiB\"\n\n[[variants]]\nname = \"own\"\npreset = \"linux-6.1\"\n[variants.sysctl]\nswappiness = 100\n\n[[tasks]]\nname = \"a\"\nprogram = [{ op = \"sleep\", duration = \"1ms\" }]\n\n[run]\nduration = \"1s\"\n";
        let knob = Setup {
            knobs: vec![("swappiness".into(), "7".into())],
            pair: None,
        };
        let e = resolve(text, &knob).unwrap_err();
        assert!(e.contains("\"own\"") && e.contains("cannot replace"), "{e}");
        assert!(scenario_with(text, &set(&[("swappiness", "7")]), "own").is_err());
    }
}
