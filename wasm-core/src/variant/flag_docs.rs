//! What the interface shows about each behaviour flag, exported as JSON for the web page's
//! per-flag toggles: the flag table's entries (variant/flags.rs: version, function, commit, one
//! line of what it switches; the full story is the flag's doc comment there) and every preset's
//! values.
pub use super::flags::{FlagDoc, FLAG_DOCS};
use super::{Flags, FLAG_NAMES, PRESETS};

fn flags_json(f: &Flags) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    for n in FLAG_NAMES {
        m.insert(
            (*n).to_string(),
            serde_json::Value::Bool(f.get(n).unwrap_or(false)),
        );
    }
    serde_json::Value::Object(m)
}

/// `{flags: [{name, version, function, commit, doc}], presets: [{name, description, flags:
/// {name: bool}}]}`, flags in `FLAG_NAMES` order.
pub fn kernel_info() -> serde_json::Value {
    let flags: Vec<serde_json::Value> = FLAG_DOCS
        .iter()
        .map(|d| {
            serde_json::json!({
                "name": d.name,
                "version": d.version(),
                "function": d.function,
                "commit": d.commit,
                "doc": d.doc,
            })
        })
        .collect();
    let presets: Vec<serde_json::Value> = PRESETS
        .iter()
        .map(|p| serde_json::json!({"name": p.name, "description": p.description, "flags": flags_json(&p.flags)}))
        .collect();
    serde_json::json!({"flags": flags, "presets": presets})
}

/// Every flag of `f` by name (the wasm facade reports a run's flags this way).
pub fn flag_values(f: &Flags) -> serde_json::Value {
    flags_json(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_flag_has_exactly_one_doc_and_every_doc_a_flag() {
        let names: Vec<&str> = FLAG_DOCS.iter().map(|d| d.name).collect();
        assert_eq!(names, FLAG_NAMES);
        for n in FLAG_NAMES {
            let docs: Vec<_> = FLAG_DOCS.iter().filter(|d| d.name == *n).collect();
            assert_eq!(
                docs.len(),
                1,
                "flag {n} needs exactly one entry in FLAG_DOCS"
            );
            assert!(
                !docs[0].version().is_empty()
                    && !docs[0].doc.is_empty()
                    && !docs[0].function.is_empty(),
                "{n}"
            );
            assert!(!docs[0].doc.contains('\n'), "{n}: the doc is one line");
        }
        for d in FLAG_DOCS {
            assert!(
                FLAG_NAMES.contains(&d.name),
                "FLAG_DOCS names an unknown flag {}",
                d.name
            );
        }
    }

    #[test]
    fn kernel_info_lists_each_preset_with_its_values() {
        let info = kernel_info();
        assert_eq!(info["flags"].as_array().unwrap().len(), FLAG_NAMES.len());
        assert_eq!(info["flags"][0]["name"], FLAG_NAMES[0]);
        let presets = info["presets"].as_array().unwrap();
        assert_eq!(presets.len(), PRESETS.len());
        for (p, j) in PRESETS.iter().zip(presets) {
            assert_eq!(j["name"], p.name);
            for n in FLAG_NAMES {
                assert_eq!(j["flags"][n].as_bool(), p.flags.get(n), "{} {n}", p.name);
            }
        }
        // The two seed presets of 5.7/5.8 differ exactly in io_cost_balance here too.
        let get = |name: &str| presets.iter().find(|j| j["name"] == name).unwrap()["flags"].clone();
        let (a, b) = (get("linux-5.7"), get("linux-5.8"));
        let differ: Vec<&String> = a
            .as_object()
            .unwrap()
            .keys()
            .filter(|k| a[*k] != b[*k])
            .collect();
        assert_eq!(differ, vec!["io_cost_balance"]);
    }
}
