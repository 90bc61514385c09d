//! What `reclaim kernel` asks of the guest: which ops a real kernel can run (checked before
//! boot), the virtual disks that stand for the scenario's files and swap, their throttles, and
//! the settings the guest applies (sysctls, MGLRU, memcgs). Pure data, unit-tested natively.
use serde::{Deserialize, Serialize};

use reclaim_core::devices::Device;
use reclaim_core::scenario::schema::{DeviceKind, Hint, Op, Scenario};
use reclaim_core::variant;

/// The kernels `--kernel` accepts: a name in the set-up cache (scripts/setup-kernel).
pub const KERNELS: &[&str] = &["debian-6.1", "debian-6.12", "debian-6.18", "debian-7.3"];

/// The model's preset for a kernel of `KERNELS`: the mainline tag the Debian package is built
/// from, with MGLRU when the variant's own preset has it. `reclaim validate` runs the model at
/// the kernel that ran, so a scenario written for linux-6.1 is compared on debian-6.12 with
/// the linux-6.12 presets (the variant's flag overrides and sysctls stay as written).
pub fn model_preset(kernel: &str, lru_gen: bool) -> Option<&'static str> {
    Some(match (kernel, lru_gen) {
        ("debian-6.1", false) => "linux-6.1",
        ("debian-6.1", true) => "linux-6.1-mglru",
        ("debian-6.12", false) => "linux-6.12",
        ("debian-6.12", true) => "linux-6.12-mglru",
        ("debian-6.18", false) => "linux-6.18",
        ("debian-6.18", true) => "linux-6.18-mglru",
        ("debian-7.3", false) => "linux-7.3",
        ("debian-7.3", true) => "linux-7.3-mglru",
        _ => return None,
    })
}

/// `s` with every variant's preset replaced by the model preset of `kernel` (see
/// `model_preset`); the variant names stay, so model and kernel rows pair up.
pub fn at_kernel(s: &Scenario, kernel: &str) -> Result<Scenario, String> {
    let mut out = s.clone();
    for v in &mut out.variants {
        let flags = variant::resolve(&v.preset, &v.flags)?;
        v.preset = model_preset(kernel, flags.lru_gen)
            .ok_or_else(|| format!("unknown kernel {kernel:?}"))?
            .to_string();
    }
    Ok(out)
}

/// One virtio disk of the guest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Drive {
    /// virtio-blk serial, how the guest finds the disk in /sys/block/vd*/serial.
    pub serial: String,
    /// The scenario file it holds (its whole content, from byte 0), or None for swap.
    pub file: Option<String>,
    pub bytes: u64,
    /// The scenario device: its drives share one QEMU throttle group.
    pub device: String,
    /// QEMU throttling.bps-total (bytes/s); None: not throttled.
    pub bps: Option<u64>,
    /// QEMU throttling.iops-total; None: not throttled.
    pub iops: Option<u64>,
}

/// Swap as the guest sets it up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum SwapPlan {
    /// A virtio disk with this serial.
    Disk { serial: String, bytes: u64 },
    /// /dev/zram0 of this disk size (the kernel's own zram, compressing for real).
    Zram { bytes: u64 },
}

/// Everything the guest needs besides the scenario text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GuestPlan {
    /// The scenario file's text: the guest parses it with the same parser.
    pub scenario_toml: String,
    pub variant: String,
    pub preset: String,
    /// /sys/kernel/mm/lru_gen/enabled: the variant's `lru_gen` flag.
    pub lru_gen: bool,
    /// machine.ram: the guest trims its free memory to this after boot.
    pub ram_bytes: u64,
    pub swap: Option<SwapPlan>,
    pub drives: Vec<Drive>,
    /// Files on tmpfs (created in the guest's /tmp, pages are shmem as in the model).
    pub tmpfs_files: Vec<(String, u64)>,
}

/// Scenario settings the real run cannot honour but that do not stop it; reported in the JSON.
pub fn notes(s: &Scenario) -> Vec<String> {
    let mut n = vec![
        "op cpu= costs are not simulated: the guest CPU does the real work (slower under TCG)"
            .to_string(),
        "scenario files are whole virtio disks read through the block device's page cache"
            .to_string(),
    ];
    if s.machine.young_fault.ns() > 0 {
        n.push("machine.young_fault is ignored: the guest CPU has a hardware accessed bit".into());
    }
    if s.devices.iter().any(|d| d.write_queue.is_some()) {
        n.push("device write_queue is not reproduced: the guest's virtio queue is QEMU's".into());
    }
    n
}

/// Build the plan for one variant, or say (before any boot) what cannot run on a kernel.
pub fn plan(s: &Scenario, scenario_toml: &str, variant_name: &str) -> Result<GuestPlan, String> {
    check_ops(s)?;
    let v = s
        .variants
        .iter()
        .find(|v| v.name == variant_name)
        .ok_or_else(|| format!("no variant named {variant_name:?}"))?;
    let flags = variant::resolve(&v.preset, &v.flags)?;
    let device = |name: &str| s.devices.iter().find(|d| d.name == name);
    let mut drives = Vec::new();
    let mut tmpfs_files = Vec::new();
    for (i, f) in s.files.iter().enumerate() {
        if f.tmpfs || f.device == "tmpfs" {
            tmpfs_files.push((f.name.clone(), f.size.bytes()));
            continue;
        }
        let d = device(&f.device)
            .ok_or_else(|| format!("files[{i}] ({}): unknown device {:?}", f.name, f.device))?;
        if !matches!(d.kind, DeviceKind::Hdd | DeviceKind::Ssd | DeviceKind::Nvme) {
            return Err(format!(
                "files[{i}] ({}): a file on a {:?} device cannot run on a real kernel yet (only hdd, ssd and nvme devices become virtio disks)",
                f.name, d.kind
            ));
        }
        let (bps, iops) = throttle(&d.device());
        drives.push(Drive {
            serial: format!("f{i}"),
            file: Some(f.name.clone()),
            bytes: f.size.bytes(),
            device: d.name.clone(),
            bps,
            iops,
        });
    }
    let swap = match &s.machine.swap {
        None => None,
        Some(sw) => {
            let d = device(&sw.device)
                .ok_or_else(|| format!("machine.swap: unknown device {:?}", sw.device))?;
            match d.kind {
                DeviceKind::Zram => Some(SwapPlan::Zram {
                    bytes: sw.size.bytes(),
                }),
                DeviceKind::Hdd | DeviceKind::Ssd | DeviceKind::Nvme => {
                    let (bps, iops) = throttle(&d.device());
                    drives.push(Drive {
                        serial: "swap".into(),
                        file: None,
                        bytes: sw.size.bytes(),
                        device: d.name.clone(),
                        bps,
                        iops,
                    });
                    Some(SwapPlan::Disk {
                        serial: "swap".into(),
                        bytes: sw.size.bytes(),
                    })
                }
                k => {
                    return Err(format!(
                        "machine.swap: swap on a {k:?} device cannot run on a real kernel yet"
                    ))
                }
            }
        }
    };
    Ok(GuestPlan {
        scenario_toml: scenario_toml.to_string(),
        variant: v.name.clone(),
        preset: v.preset.clone(),
        lru_gen: flags.lru_gen,
        ram_bytes: s.machine.ram.bytes(),
        swap,
        drives,
        tmpfs_files,
    })
}

/// QEMU's throttle for a modelled device: its sequential bandwidth, and as many requests per
/// second as `parallelism` requests in flight of one access latency each (seek + read latency)
/// allow. Devices faster than QEMU can emulate under TCG are left unthrottled.
pub fn throttle(d: &Device) -> (Option<u64>, Option<u64>) {
    let bps = (d.bytes_per_s < 10_000_000_000).then_some(d.bytes_per_s);
    let access = d.seek_ns + d.read_latency_ns;
    let iops = (access > 0)
        .then(|| d.parallelism as u64 * 1_000_000_000 / access)
        .filter(|&n| n < 100_000);
    (bps, iops)
}

/// Every op of every task, with where it is, or the first one a real kernel run cannot express.
pub fn check_ops(s: &Scenario) -> Result<(), String> {
    for (k, t) in s.expanded_tasks() {
        check_list(s, &t.program, &format!("tasks[{k}] ({}).program", t.name))?;
    }
    Ok(())
}

fn check_list(s: &Scenario, ops: &[Op], at: &str) -> Result<(), String> {
    use reclaim_core::scenario::ops::{Loop, Mmap, Read, Truncate, Write};
    for (i, op) in ops.iter().enumerate() {
        let at = format!("{at}[{i}]");
        let no = |op: &str, why: &str| {
            Err(format!(
                "{at}: op {op:?} cannot run on a real kernel: {why} (nothing was booted)"
            ))
        };
        let is_tmpfs = |file: &str| {
            s.files
                .iter()
                .any(|f| f.name == file && (f.tmpfs || f.device == "tmpfs"))
        };
        match op {
            Op::ScanInactiveFile(_) => {
                return no("scan_inactive_file", "it is test instrumentation of the model")
            }
            Op::Mmap(Mmap { advance: true, .. }) => {
                return no("mmap", "advance = true is not implemented by the guest runner")
            }
            Op::Read(Read { buffer: Some(_), .. }) => {
                return no("read", "buffer = (an application buffer pool) is not implemented by the guest runner")
            }
            Op::Write(Write { bytes: Some(_), .. }) => {
                return no("write", "bytes = (sub-page writes) is not implemented by the guest runner")
            }
            Op::Write(Write {
                drop_behind: Some(_),
                ..
            }) => return no("write", "drop_behind = is not implemented by the guest runner"),
            Op::Read(Read {
                hint: Hint::Sequential,
                ..
            }) => {} // POSIX_FADV_SEQUENTIAL
            Op::Truncate(Truncate { file }) if !is_tmpfs(file) => {
                return no(
                    "truncate",
                    "files on disks are whole block devices, which cannot be truncated (tmpfs files can)",
                )
            }
            Op::Replay(_) => {
                return no("replay", "trace replay is not implemented by the guest runner")
            }
            Op::Loop(Loop { body, .. }) => check_list(s, body, &format!("{at}.body"))?,
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use reclaim_core::scenario;

    const BASE: &str = r#"
title = "t"
seed = 3
[machine]
ram = "64MiB"
swap = { device = "disk", size = "128MiB" }
[[devices]]
name = "disk"
kind = "ssd"
bandwidth = "100MB"
[[files]]
name = "data"
size = "8MiB"
device = "disk"
[[variants]]
name = "classic"
preset = "linux-6.1"
[[variants]]
name = "mglru"
preset = "linux-6.1-mglru"
[run]
duration = "10s"
"#;

    /// One task reading the scenario's file.
    const READ_TASK: &str = r#"[[tasks]]
name = "a"
program = [{ op = "read", file = "data" }]"#;

    fn with_tasks(tasks: &str) -> (Scenario, String) {
        let text = format!("{BASE}\n{tasks}");
        (scenario::parse(&text).expect("scenario parses"), text)
    }

    #[test]
    fn the_model_runs_the_presets_of_the_kernel_that_boots() {
        let (s, _) = with_tasks(READ_TASK);
        let presets = |k| -> Vec<String> {
            at_kernel(&s, k)
                .unwrap()
                .variants
                .into_iter()
                .map(|v| v.preset)
                .collect()
        };
        assert_eq!(presets("debian-6.1"), ["linux-6.1", "linux-6.1-mglru"]);
        assert_eq!(presets("debian-6.12"), ["linux-6.12", "linux-6.12-mglru"]);
        assert_eq!(presets("debian-6.18"), ["linux-6.18", "linux-6.18-mglru"]);
        assert_eq!(presets("debian-7.3"), ["linux-7.3", "linux-7.3-mglru"]);
        assert!(at_kernel(&s, "debian-5").unwrap_err().contains("debian-5"));
    }

    #[test]
    fn plan_maps_files_and_swap_to_throttled_disks_and_variant_to_lru_gen() {
        let (s, text) = with_tasks(READ_TASK);
        let p = plan(&s, &text, "classic").unwrap();
        assert!(!p.lru_gen);
        assert!(plan(&s, &text, "mglru").unwrap().lru_gen);
        assert_eq!(p.ram_bytes, 64 << 20);
        assert_eq!(p.drives.len(), 2);
        assert_eq!(p.drives[0].file.as_deref(), Some("data"));
        assert_eq!(p.drives[0].bytes, 8 << 20);
        // Both drives share the device's throttle: 100 MB/s, 32 requests of 100 us in flight.
        for d in &p.drives {
            assert_eq!(d.device, "disk");
            assert_eq!(d.bps, Some(100_000_000));
            assert_eq!(d.iops, None, "320k IOPS is beyond what is throttled");
        }
        assert_eq!(
            p.swap,
            Some(SwapPlan::Disk {
                serial: "swap".into(),
                bytes: 128 << 20
            })
        );
        assert!(plan(&s, &text, "nope").unwrap_err().contains("nope"));
    }

    #[test]
    fn hdd_throttle_counts_seeks() {
        let d = Device::default_for("d", DeviceKind::Hdd);
        assert_eq!(throttle(&d), (Some(150_000_000), Some(78)));
    }

    #[test]
    fn unsupported_ops_are_named_with_their_place_before_boot() {
        let (s, text) = with_tasks(
            r#"[[tasks]]
name = "a"
program = [{ op = "loop", count = 2, body = [{ op = "read", file = "data" }, { op = "scan_inactive_file" }] }]"#,
        );
        let e = plan(&s, &text, "classic").unwrap_err();
        assert!(e.contains("tasks[0] (a).program[0].body[1]"), "{e}");
        assert!(e.contains("scan_inactive_file"), "{e}");
        assert!(e.contains("nothing was booted"), "{e}");

        let (s, text) = with_tasks(
            r#"[[tasks]]
name = "a"
program = [{ op = "truncate", file = "data" }]"#,
        );
        assert!(plan(&s, &text, "classic")
            .unwrap_err()
            .contains("\"truncate\""));
    }

    #[test]
    fn zram_swap_is_the_kernels_zram() {
        let text = BASE
            .replace("swap = { device = \"disk\"", "swap = { device = \"z\"")
            .replace(
                "[[files]]",
                "[[devices]]\nname = \"z\"\nkind = \"zram\"\n[[files]]",
            )
            + "[[tasks]]\nname = \"a\"\nprogram = [{ op = \"sleep\", duration = \"1s\" }]\n";
        let s = scenario::parse(&text).unwrap();
        let p = plan(&s, &text, "classic").unwrap();
        assert_eq!(p.swap, Some(SwapPlan::Zram { bytes: 128 << 20 }));
        assert_eq!(p.drives.len(), 1);
    }
}
