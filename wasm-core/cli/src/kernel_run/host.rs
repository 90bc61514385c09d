//! The host side of `reclaim kernel`: an initramfs holding the guest runner and the plan, one
//! raw disk image per scenario file (non-zero data, so reads do real IO) and for swap, QEMU
//! with block throttling, and the guest's result turned into the `reclaim run` JSON contract.
use std::collections::BTreeMap;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::guest::{GuestResult, RESULT_BEGIN, RESULT_END};
use super::plan::{self, GuestPlan};
use reclaim_core::mm::vmstat::COUNTER_NAMES;
use reclaim_core::report::{MemcgReport, OomKill, RunReport, TaskReport};
use reclaim_core::scenario::Scenario;

/// Guest memory beyond machine.ram: room for the kernel's own reservations and the initramfs;
/// the guest then reserves what is left over as huge pages (see `guest::trim_memory`).
const GUEST_MARGIN_MIB: u64 = 160;

/// `reclaim kernel --json`: the `reclaim run` contract plus where it ran.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KernelReport {
    #[serde(flatten)]
    pub run: RunReport,
    /// Always "kernel": this run is a real kernel's, not the model's.
    pub source: String,
    pub kernel: KernelInfo,
    /// "tcg" (software emulation, multi-threaded) or "kvm".
    pub accelerator: String,
    pub guest: GuestInfo,
    /// Host wall seconds: boot to power-off, and the scenario's tasks alone.
    pub wall_s: f64,
    pub run_s: f64,
    /// What this real run does not reproduce of the scenario.
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KernelInfo {
    /// The `--kernel` name, e.g. "debian-6.1".
    pub name: String,
    /// The kernel's release (uname -r) and its Debian package version.
    pub release: String,
    pub package_version: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GuestInfo {
    pub ram_mib: u64,
    pub cpus: u32,
    /// MemTotal: what the kernel did not reserve of the guest's RAM.
    pub mem_total_kb: u64,
    /// Guest RAM minus MemTotal: the kernel's own reservations (image, memmap, ...).
    pub kernel_reserved_kb: u64,
    /// Free memory after set-up, before and after trimming to machine.ram with huge pages.
    pub mem_free_before_trim_kb: u64,
    pub mem_free_kb: u64,
    pub hugetlb_trim_pages: u64,
    /// Seconds from the kernel's start to the runner (guest clock).
    pub boot_s: f64,
    /// /sys/kernel/mm/lru_gen/enabled as read back.
    pub lru_gen_enabled: String,
}

/// Repository root (for the default cache and guest binary): this crate is wasm-core/cli.
fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn cache_dir() -> PathBuf {
    std::env::var_os("RECLAIM_KERNEL_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join(".kernel-cache"))
}

pub fn guest_binary() -> PathBuf {
    std::env::var_os("RECLAIM_GUEST")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            repo_root().join("wasm-core/target/x86_64-unknown-linux-gnu/release/reclaim-guest")
        })
}

/// One newc cpio entry (the initramfs format the kernel unpacks).
fn cpio_entry(out: &mut Vec<u8>, name: &str, mode: u32, data: &[u8], ino: u32) {
    let header = format!(
        "070701{ino:08X}{mode:08X}{:08X}{:08X}{:08X}{:08X}{:08X}{:08X}{:08X}{:08X}{:08X}{:08X}{:08X}",
        0, 0, 1, 0, data.len(), 0, 0, 0, 0, name.len() + 1, 0
    );
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(name.as_bytes());
    out.push(0);
    while out.len() % 4 != 0 {
        out.push(0);
    }
    out.extend_from_slice(data);
    while out.len() % 4 != 0 {
        out.push(0);
    }
}

/// The initramfs: /init (the runner), /plan.json, /modules/*.ko, and busybox for debugging.
pub fn initramfs(plan: &GuestPlan, kernel_dir: &Path, guest: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut ino = 1;
    let mut add = |out: &mut Vec<u8>, name: &str, mode: u32, data: &[u8]| {
        cpio_entry(out, name, mode, data, ino);
        ino += 1;
    };
    for d in ["dev", "proc", "sys", "tmp", "modules", "bin"] {
        add(&mut out, d, 0o040755, &[]);
    }
    add(&mut out, "init", 0o100755, guest);
    let json = serde_json::to_vec(plan).map_err(|e| e.to_string())?;
    add(&mut out, "plan.json", 0o100644, &json);
    let mods = kernel_dir.join("modules");
    let mut names: Vec<_> = fs::read_dir(&mods)
        .map_err(|e| format!("{}: {e}", mods.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    for n in names {
        let data = fs::read(mods.join(&n)).map_err(|e| e.to_string())?;
        add(&mut out, &format!("modules/{n}"), 0o100644, &data);
    }
    if let Ok(bb) = fs::read("/bin/busybox") {
        add(&mut out, "bin/busybox", 0o100755, &bb);
    }
    add(&mut out, "TRAILER!!!", 0, &[]);
    Ok(out)
}

/// A disk image of `bytes` filled with non-zero data (each page its own pattern), so that the
/// guest's reads are real reads of written blocks.
fn data_image(path: &Path, bytes: u64) -> Result<(), String> {
    let mut f = fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut chunk = vec![0u8; 1 << 20];
    let mut written = 0u64;
    while written < bytes {
        let n = chunk.len().min((bytes - written) as usize);
        for (i, b) in chunk[..n].iter_mut().enumerate() {
            *b = (((written + i as u64) / 4096) as u8) | 1;
        }
        f.write_all(&chunk[..n]).map_err(|e| e.to_string())?;
        written += n as u64;
    }
    Ok(())
}

/// The QEMU command line for a plan (without running it).
pub fn qemu_args(
    plan: &GuestPlan,
    kernel: &Path,
    initrd: &Path,
    images: &[PathBuf],
    cpus: u32,
    serial_log: &Path,
) -> Vec<String> {
    let ram_mib = plan.ram_bytes.div_ceil(1 << 20) + GUEST_MARGIN_MIB;
    let mut a: Vec<String> = [
        "-accel",
        "tcg,thread=multi",
        "-nodefaults",
        "-no-user-config",
        "-display",
        "none",
        "-no-reboot",
        "-nic",
        "none",
        "-cpu",
        "max",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.extend([
        "-smp".into(),
        cpus.to_string(),
        "-m".into(),
        format!("{ram_mib}M"),
        "-kernel".into(),
        kernel.display().to_string(),
        "-initrd".into(),
        initrd.display().to_string(),
        "-append".into(),
        // no_timer_check: under TCG on a loaded host the IO-APIC timer check can miss its ticks
        // and panic the boot ("IO-APIC + timer doesn't work"); the guest's timer is QEMU's.
        "console=ttyS0 loglevel=3 panic=-1 transparent_hugepage=never no_timer_check rdinit=/init"
            .into(),
        "-serial".into(),
        format!("file:{}", serial_log.display()),
    ]);
    let mut groups: BTreeMap<&str, ()> = BTreeMap::new();
    for (i, (d, img)) in plan.drives.iter().zip(images).enumerate() {
        let mut drive = format!(
            "file={},format=raw,if=none,id=d{i},aio=threads",
            img.display()
        );
        if d.bps.is_some() || d.iops.is_some() {
            // Drives of one scenario device share its limits.
            drive.push_str(&format!(",throttling.group={}", d.device));
            if groups.insert(&d.device, ()).is_none() {
                if let Some(b) = d.bps {
                    drive.push_str(&format!(",throttling.bps-total={b}"));
                }
                if let Some(n) = d.iops {
                    drive.push_str(&format!(",throttling.iops-total={n}"));
                }
            }
        }
        a.extend(["-drive".into(), drive]);
        a.extend([
            "-device".into(),
            format!("virtio-blk-pci,drive=d{i},serial={}", d.serial),
        ]);
    }
    a
}

/// A guest whose console never shows the runner's log died while booting (under TCG on a
/// loaded host, a timer or watchdog panic); nothing of the scenario ran yet.
fn died_before_runner(console: &str) -> bool {
    // An empty console is QEMU failing to start (bad arguments, no image): booting again
    // would fail the same way.
    !console.trim().is_empty() && !console.contains(super::guest::LOG)
}

/// Boots the kernel on the plan and returns the guest's result and host wall seconds. A guest that dies before its runner starts
/// is booted once more; a run that started is never repeated (its result would be a second
/// sample, not the same one).
pub fn boot(
    kernel_name: &str,
    plan: &GuestPlan,
    cpus: u32,
    timeout: Duration,
) -> Result<(GuestResult, f64, KernelInfo), String> {
    match boot_once(kernel_name, plan, cpus, timeout) {
        Err(Boot::Early(e)) => {
            eprintln!(
                "reclaim kernel: the guest died before its runner started; booting again ({e})"
            );
            boot_once(kernel_name, plan, cpus, timeout).map_err(Boot::message)
        }
        r => r.map_err(Boot::message),
    }
}

enum Boot {
    /// Died before the runner started (see `died_before_runner`).
    Early(String),
    Failed(String),
}

impl Boot {
    fn message(self) -> String {
        match self {
            Boot::Early(e) | Boot::Failed(e) => e,
        }
    }
}

impl From<String> for Boot {
    fn from(e: String) -> Self {
        Boot::Failed(e)
    }
}

fn boot_once(
    kernel_name: &str,
    plan: &GuestPlan,
    cpus: u32,
    timeout: Duration,
) -> Result<(GuestResult, f64, KernelInfo), Boot> {
    let kdir = cache_dir().join(kernel_name);
    if !kdir.join("ok").exists() {
        return Err(format!(
            "kernel {kernel_name:?} is not set up in {}: run scripts/setup-kernel",
            cache_dir().display()
        )
        .into());
    }
    let gb = guest_binary();
    let guest = fs::read(&gb).map_err(|e| {
        format!(
            "guest runner {}: {e}; build it with scripts/build-guest",
            gb.display()
        )
    })?;
    let read = |f: &str| {
        fs::read_to_string(kdir.join(f))
            .unwrap_or_default()
            .trim()
            .to_string()
    };
    let info = KernelInfo {
        name: kernel_name.to_string(),
        release: read("release"),
        package_version: read("version"),
    };
    let work = std::env::temp_dir().join(format!("reclaim-kernel-{}", std::process::id()));
    let _ = fs::remove_dir_all(&work);
    fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    let result = (|| -> Result<(GuestResult, f64), Boot> {
        let initrd = work.join("initramfs.cpio");
        fs::write(&initrd, initramfs(plan, &kdir, &guest)?).map_err(|e| e.to_string())?;
        let mut images = Vec::new();
        for d in &plan.drives {
            let img = work.join(format!("{}.img", d.serial));
            if d.file.is_some() {
                data_image(&img, d.bytes)?;
            } else {
                fs::File::create(&img)
                    .and_then(|f| f.set_len(d.bytes))
                    .map_err(|e| e.to_string())?;
            }
            images.push(img);
        }
        let log = work.join("serial.log");
        let args = qemu_args(plan, &kdir.join("vmlinuz"), &initrd, &images, cpus, &log);
        let t0 = Instant::now();
        let mut child = Command::new("qemu-system-x86_64")
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("qemu-system-x86_64: {e} (run scripts/setup-kernel)"))?;
        let status = loop {
            if let Some(st) = child.try_wait().map_err(|e| e.to_string())? {
                break st;
            }
            if t0.elapsed() > timeout {
                let _ = child.kill();
                let _ = child.wait();
                let console = fs::read_to_string(&log).unwrap_or_default();
                let e = format!(
                    "the guest did not finish within {} s; console: {}",
                    timeout.as_secs(),
                    tail(&console)
                );
                // A guest that hung before its runner started ran nothing of the scenario.
                return Err(if died_before_runner(&console) {
                    Boot::Early(e)
                } else {
                    Boot::Failed(e)
                });
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        let wall = t0.elapsed().as_secs_f64();
        let console = fs::read_to_string(&log).unwrap_or_default();
        let mut stderr = String::new();
        if let Some(mut e) = child.stderr.take() {
            use std::io::Read as _;
            let _ = e.read_to_string(&mut stderr);
        }
        let json = console
            .split(RESULT_BEGIN)
            .nth(1)
            .and_then(|r| r.split(RESULT_END).next())
            .ok_or_else(|| {
                let early = died_before_runner(&console);
                let e = format!(
                    "the guest printed no result (qemu {status}{}); console: {}",
                    if stderr.is_empty() {
                        String::new()
                    } else {
                        format!(": {}", stderr.trim())
                    },
                    tail(&console)
                );
                if early {
                    Boot::Early(e)
                } else {
                    Boot::Failed(e)
                }
            })?;
        let res: GuestResult =
            serde_json::from_str(json.trim()).map_err(|e| format!("guest result: {e}"))?;
        if !res.errors.is_empty() {
            let logs: Vec<&str> = console
                .lines()
                .filter(|l| l.contains(super::guest::LOG))
                .collect();
            return Err(format!(
                "the guest failed: {}\nguest log:\n{}",
                res.errors.join("; "),
                logs.join("\n")
            )
            .into());
        }
        if let Some(path) = std::env::var_os("RECLAIM_KERNEL_CONSOLE") {
            let _ = fs::write(path, &console);
        }
        Ok((res, wall))
    })();
    let _ = fs::remove_dir_all(&work);
    let (res, wall) = result?;
    Ok((res, wall, info))
}

fn tail(s: &str) -> String {
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(15)..].join("\n")
}

/// /proc/vmstat deltas under the model's counter names, in pages. pgpgin/pgpgout are KiB in
/// /proc/vmstat; allocstall is split by zone there.
pub fn counter_deltas(
    from: &BTreeMap<String, u64>,
    to: &BTreeMap<String, u64>,
) -> BTreeMap<String, u64> {
    let d = |k: &str| {
        to.get(k)
            .copied()
            .unwrap_or(0)
            .saturating_sub(from.get(k).copied().unwrap_or(0))
    };
    let mut out = BTreeMap::new();
    for &name in COUNTER_NAMES {
        let v = match name {
            "pgpgin" | "pgpgout" => d(name) / 4,
            "allocstall" => [
                "allocstall_dma",
                "allocstall_dma32",
                "allocstall_normal",
                "allocstall_movable",
            ]
            .iter()
            .map(|k| d(k))
            .sum(),
            "pgalloc" => [
                "pgalloc_dma",
                "pgalloc_dma32",
                "pgalloc_normal",
                "pgalloc_movable",
            ]
            .iter()
            .map(|k| d(k))
            .sum(),
            _ if !to.contains_key(name) => continue,
            _ => d(name),
        };
        out.insert(name.to_string(), v);
    }
    out
}

/// The guest's result in the `reclaim run` contract.
pub fn to_report(s: &Scenario, plan: &GuestPlan, res: &GuestResult) -> RunReport {
    let counters = counter_deltas(&res.vmstat_start, &res.vmstat_end);
    let measured = match s.run.measure_from.as_ref().and_then(|m| res.marks.get(m)) {
        Some(at) => counter_deltas(at, &res.vmstat_end),
        None => counters.clone(),
    };
    let tasks = res
        .tasks
        .iter()
        .map(|t| TaskReport {
            name: t.name.clone(),
            rounds_s: (!t.rounds_s.is_empty()).then(|| t.rounds_s.clone()),
            ops_per_s: (t.ops > 0).then_some(t.ops_s),
            latency_ms: t.latency_ms,
            alloc_stall_ms: None,
            io_wait_ms: None,
            dirty_throttle_ms: None,
            major_faults: t.major_faults,
            killed: t.killed,
        })
        .collect();
    let oom_kills = res
        .tasks
        .iter()
        .filter(|t| t.killed)
        .map(|t| OomKill {
            task: t.name.clone(),
            time_s: res.run_s,
            freed_pages: 0,
        })
        .collect();
    let mut memcgs = Vec::new();
    if !res.memcgs.is_empty() {
        memcgs.push(MemcgReport {
            name: "/".into(),
            parent: None,
            current_pages: 0,
            events: BTreeMap::new(),
            stat: BTreeMap::new(),
        });
        for m in &res.memcgs {
            // memory.stat reports sizes in bytes and events in pages; the contract is pages.
            let stat = m
                .stat
                .iter()
                .filter(|(k, _)| k.starts_with("pg") || k.starts_with("workingset"))
                .map(|(k, v)| (k.clone(), *v))
                .collect();
            memcgs.push(MemcgReport {
                name: m.name.clone(),
                parent: m.parent.clone(),
                current_pages: m.current_bytes / 4096,
                events: m.events.clone(),
                stat,
            });
        }
    }
    let requested: u64 = res.tasks.iter().map(|t| t.reclaim_requested_pages).sum();
    RunReport {
        scenario: s.title.clone(),
        variant: plan.variant.clone(),
        preset: plan.preset.clone(),
        swappiness: res.swappiness,
        virtual_s: res.run_s,
        counters,
        measured,
        tasks,
        oom_kills,
        memcgs,
        reclaim_requested_pages: (requested > 0).then_some(requested),
        reclaim_reclaimed_pages: None,
    }
}

/// Run one variant of a scenario on a real kernel.
pub fn run_kernel(
    s: &Scenario,
    text: &str,
    variant: &str,
    kernel: &str,
) -> Result<KernelReport, String> {
    if !plan::KERNELS.contains(&kernel) {
        return Err(format!(
            "unknown kernel {kernel:?}; known: {}",
            plan::KERNELS.join(", ")
        ));
    }
    let p = plan::plan(s, text, variant)?;
    let cpus = s.machine.cpus.unwrap_or(2).clamp(1, 2);
    // Boot and set-up take about a minute under TCG; the tasks may run several times slower
    // than the scenario's own duration.
    let timeout = Duration::from_secs(300) + Duration::from_nanos(s.run.duration.ns()) * 2;
    let (res, wall, info) = boot(kernel, &p, cpus, timeout)?;
    let ram_mib = p.ram_bytes.div_ceil(1 << 20) + GUEST_MARGIN_MIB;
    let mut notes = plan::notes(s);
    if res.tasks.iter().any(|t| t.cut) {
        notes.push("some tasks were still running at run.duration and were stopped".into());
    }
    let failed: Vec<String> = res
        .tasks
        .iter()
        .filter_map(|t| t.error.as_ref().map(|e| format!("task {}: {e}", t.name)))
        .collect();
    if !failed.is_empty() {
        return Err(format!("the guest's tasks failed: {}", failed.join("; ")));
    }
    Ok(KernelReport {
        run: to_report(s, &p, &res),
        source: "kernel".into(),
        kernel: KernelInfo {
            release: if res.release.is_empty() {
                info.release
            } else {
                res.release.clone()
            },
            ..info
        },
        accelerator: "tcg".into(),
        guest: GuestInfo {
            ram_mib,
            cpus,
            mem_total_kb: res.mem_total_kb,
            kernel_reserved_kb: (ram_mib * 1024).saturating_sub(res.mem_total_kb),
            mem_free_before_trim_kb: res.mem_free_before_trim_kb,
            mem_free_kb: res.mem_free_kb,
            hugetlb_trim_pages: res.hugetlb_trim_pages,
            boot_s: res.boot_s,
            lru_gen_enabled: res.lru_gen_enabled.clone(),
        },
        wall_s: wall,
        run_s: res.run_s,
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpio_entries_are_aligned_newc() {
        let mut out = Vec::new();
        cpio_entry(&mut out, "init", 0o100755, b"abc", 1);
        assert!(out.starts_with(b"070701"));
        assert_eq!(out.len() % 4, 0);
        // 110-byte header + "init\0" padded to 116, + 3 data bytes padded to 120.
        assert_eq!(out.len(), 120);
        assert_eq!(&out[116..119], b"abc");
    }

    #[test]
    fn vmstat_deltas_use_model_units() {
        let a: BTreeMap<String, u64> = [("pgpgin", 100), ("allocstall_normal", 1), ("pswpout", 5)]
            .iter()
            .map(|(k, v)| (k.to_string(), *v))
            .collect();
        let b: BTreeMap<String, u64> = [
            ("pgpgin", 500),
            ("allocstall_normal", 3),
            ("allocstall_dma32", 4),
            ("pswpout", 9),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), *v))
        .collect();
        let d = counter_deltas(&a, &b);
        assert_eq!(d["pgpgin"], 100, "KiB to pages");
        assert_eq!(d["allocstall"], 6);
        assert_eq!(d["pswpout"], 4);
        assert!(!d.contains_key("swap_ra"), "absent from this vmstat");
    }

    #[test]
    fn qemu_throttles_each_device_once_and_groups_its_drives() {
        let text = r#"
title = "t"
[machine]
ram = "64MiB"
swap = { device = "disk", size = "32MiB" }
[[devices]]
name = "disk"
kind = "hdd"
[[files]]
name = "data"
size = "8MiB"
device = "disk"
[[variants]]
name = "v"
preset = "linux-6.1"
[[tasks]]
name = "t"
program = [{ op = "read", file = "data" }]
[run]
duration = "1s"
"#;
        let s = reclaim_core::scenario::parse(text).unwrap();
        let p = plan::plan(&s, text, "v").unwrap();
        let imgs = vec![PathBuf::from("/x/f0.img"), PathBuf::from("/x/swap.img")];
        let a = qemu_args(
            &p,
            Path::new("/k"),
            Path::new("/i"),
            &imgs,
            2,
            Path::new("/l"),
        );
        let drives: Vec<&String> = a.iter().filter(|s| s.starts_with("file=")).collect();
        assert_eq!(drives.len(), 2);
        assert!(drives[0].contains("throttling.group=disk"));
        assert!(drives[0].contains("throttling.bps-total=150000000"));
        assert!(drives[0].contains("throttling.iops-total=78"));
        assert!(drives[1].contains("throttling.group=disk"));
        assert!(
            !drives[1].contains("bps-total"),
            "the group's limits are set once"
        );
        assert!(a.contains(&"224M".to_string()), "64 MiB + margin: {a:?}");
        assert!(a.iter().any(|s| s.contains("serial=swap")));
        let append = &a[a.iter().position(|s| s == "-append").unwrap() + 1];
        assert!(append.contains("no_timer_check"), "{append}");
    }

    #[test]
    fn only_a_guest_that_died_before_its_runner_is_booted_again() {
        assert!(died_before_runner(
            "Kernel panic - not syncing: IO-APIC + timer doesn't work!"
        ));
        assert!(
            !died_before_runner(""),
            "QEMU that printed nothing failed to start"
        );
        let started = format!(
            "[    1.0] {} runner: start\nKernel panic",
            super::super::guest::LOG
        );
        assert!(
            !died_before_runner(&started),
            "a run that started is never repeated"
        );
    }
}
