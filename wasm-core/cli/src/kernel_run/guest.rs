//! The guest side of `reclaim kernel`: PID 1 of the initramfs. It sets the machine up as the
//! plan says (modules, swap, sysctls, MGLRU, memcgs, free memory trimmed to machine.ram), runs
//! every task as a process executing its ops with the system calls they stand for, and prints
//! one JSON result on the console between markers. Linux only; ops are checked on the host.
use std::collections::BTreeMap;
use std::ffi::CString;
use std::fs;
use std::io::{Read as _, Write as _};
use std::os::unix::io::{AsRawFd, FromRawFd};
use std::time::{Duration as StdDuration, Instant};

use serde::{Deserialize, Serialize};

use super::plan::{GuestPlan, SwapPlan};
use reclaim_core::report::Percentiles;
use reclaim_core::rng::{Rng, Zipf};
use reclaim_core::scenario::ops::{self, Op};
use reclaim_core::scenario::schema::{Hint, Pattern, Record, Scenario, TaskSpec};

pub const RESULT_BEGIN: &str = "@@RECLAIM-RESULT-BEGIN@@";
pub const RESULT_END: &str = "@@RECLAIM-RESULT-END@@";
pub const LOG: &str = "@@RECLAIM-LOG@@";
const PAGE: usize = 4096;

/// Set by SIGTERM, which the runner sends each task still running at run.duration: the task
/// stops between accesses and still reports what it did (a partial result, `cut`).
static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

extern "C" fn on_term(_: libc::c_int) {
    STOP.store(true, std::sync::atomic::Ordering::Relaxed);
}

fn stopped() -> bool {
    STOP.load(std::sync::atomic::Ordering::Relaxed)
}

const CUT: &str = "stopped at run.duration";

/// What the guest reports to the host.
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
pub struct GuestResult {
    /// `uname -r`.
    pub release: String,
    /// Seconds from the kernel's start to this init (guest clock).
    pub boot_s: f64,
    /// /proc/meminfo after set-up (kB), before and after trimming.
    pub mem_total_kb: u64,
    pub mem_free_before_trim_kb: u64,
    pub mem_free_kb: u64,
    /// 2 MiB huge pages reserved to bring free memory down to machine.ram.
    pub hugetlb_trim_pages: u64,
    pub swappiness: u32,
    pub lru_gen_enabled: String,
    /// /proc/vmstat at the start, at the end, and at each mark's first occurrence.
    pub vmstat_start: BTreeMap<String, u64>,
    pub vmstat_end: BTreeMap<String, u64>,
    pub marks: BTreeMap<String, BTreeMap<String, u64>>,
    pub run_s: f64,
    pub tasks: Vec<TaskResult>,
    /// memcg name -> (memory.stat, memory.events, memory.current in bytes)
    pub memcgs: Vec<MemcgResult>,
    pub errors: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, Default)]
pub struct TaskResult {
    pub name: String,
    pub rounds_s: Vec<f64>,
    pub ops: u64,
    pub ops_s: f64,
    pub latency_ms: Option<Percentiles>,
    pub major_faults: u64,
    pub killed: bool,
    /// Did not finish before run.duration (killed by the runner, not by the OOM killer).
    pub cut: bool,
    pub error: Option<String>,
    pub marks: BTreeMap<String, BTreeMap<String, u64>>,
    pub reclaim_requested_pages: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize, Default)]
pub struct MemcgResult {
    pub name: String,
    pub parent: Option<String>,
    pub current_bytes: u64,
    pub stat: BTreeMap<String, u64>,
    pub events: BTreeMap<String, u64>,
}

fn log(msg: &str) {
    println!("{LOG} {msg}");
}

fn write_file(path: &str, value: &str) -> Result<(), String> {
    fs::write(path, value).map_err(|e| format!("write {value:?} to {path}: {e}"))
}

fn kv_file(path: &str) -> BTreeMap<String, u64> {
    fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            let k = it.next()?.trim_end_matches(':').to_string();
            let v = it.next()?.parse().ok()?;
            Some((k, v))
        })
        .collect()
}

pub fn vmstat() -> BTreeMap<String, u64> {
    kv_file("/proc/vmstat")
}

fn mount(src: &str, target: &str, fstype: &str, data: &str) {
    let _ = fs::create_dir_all(target);
    let c = |s: &str| CString::new(s).unwrap();
    let (s, t, f, d) = (c(src), c(target), c(fstype), c(data));
    // SAFETY: valid NUL-terminated strings that outlive the call.
    let r = unsafe { libc::mount(s.as_ptr(), t.as_ptr(), f.as_ptr(), 0, d.as_ptr().cast()) };
    if r != 0 {
        log(&format!(
            "mount {fstype} on {target}: {}",
            std::io::Error::last_os_error()
        ));
    }
}

/// Load /modules/*.ko, retrying those whose dependencies were not loaded yet until a pass
/// makes no progress (module names alone do not give the order).
fn load_modules() {
    let mut todo: Vec<_> = fs::read_dir("/modules")
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    todo.sort();
    loop {
        let mut failed = Vec::new();
        let mut errors = Vec::new();
        for p in &todo {
            let Ok(f) = fs::File::open(p) else { continue };
            let empty = CString::new("").unwrap();
            // SAFETY: finit_module with an open fd and an empty parameter string.
            let r =
                unsafe { libc::syscall(libc::SYS_finit_module, f.as_raw_fd(), empty.as_ptr(), 0) };
            if r != 0 {
                let e = std::io::Error::last_os_error();
                if e.raw_os_error() != Some(libc::EEXIST) {
                    errors.push(format!("module {}: {e}", p.display()));
                    failed.push(p.clone());
                }
            }
        }
        if failed.is_empty() || failed.len() == todo.len() {
            for e in errors {
                log(&e);
            }
            return;
        }
        todo = failed;
    }
}

/// /dev/vdX of the virtio disk with this serial.
fn disk_by_serial(serial: &str) -> Result<String, String> {
    for _ in 0..200 {
        if let Ok(d) = fs::read_dir("/sys/block") {
            for e in d.filter_map(|e| e.ok()) {
                let name = e.file_name().to_string_lossy().to_string();
                let s = fs::read_to_string(format!("/sys/block/{name}/serial")).unwrap_or_default();
                if s.trim() == serial {
                    return Ok(format!("/dev/{name}"));
                }
            }
        }
        std::thread::sleep(StdDuration::from_millis(50));
    }
    Err(format!("no virtio disk with serial {serial:?} appeared"))
}

/// A version-1 swap header (what mkswap writes): the signature in the last 10 bytes of the
/// first page, the last usable page, no bad pages.
fn mkswap(dev: &str, bytes: u64) -> Result<(), String> {
    let mut page = vec![0u8; PAGE];
    page[1024..1028].copy_from_slice(&1u32.to_le_bytes());
    let last = (bytes / PAGE as u64 - 1) as u32;
    page[1028..1032].copy_from_slice(&last.to_le_bytes());
    page[PAGE - 10..].copy_from_slice(b"SWAPSPACE2");
    let mut f = fs::OpenOptions::new()
        .write(true)
        .open(dev)
        .map_err(|e| format!("open {dev}: {e}"))?;
    f.write_all(&page)
        .and_then(|_| f.sync_all())
        .map_err(|e| format!("mkswap {dev}: {e}"))?;
    let c = CString::new(dev).unwrap();
    // SAFETY: valid path.
    if unsafe { libc::swapon(c.as_ptr(), 0) } != 0 {
        return Err(format!("swapon {dev}: {}", std::io::Error::last_os_error()));
    }
    Ok(())
}

/// The paths the tasks open for each scenario file.
fn file_paths(plan: &GuestPlan) -> Result<BTreeMap<String, (String, u64)>, String> {
    let mut m = BTreeMap::new();
    for d in &plan.drives {
        if let Some(f) = &d.file {
            m.insert(f.clone(), (disk_by_serial(&d.serial)?, d.bytes));
        }
    }
    for (name, bytes) in &plan.tmpfs_files {
        let path = format!("/tmp/{name}");
        fs::File::create(&path)
            .and_then(|f| f.set_len(*bytes))
            .map_err(|e| format!("create tmpfs file {path}: {e}"))?;
        m.insert(name.clone(), (path, *bytes));
    }
    Ok(m)
}

fn setup(plan: &GuestPlan, s: &Scenario, res: &mut GuestResult) -> Result<(), String> {
    match &plan.swap {
        Some(SwapPlan::Disk { serial, bytes }) => mkswap(&disk_by_serial(serial)?, *bytes)?,
        Some(SwapPlan::Zram { bytes }) => {
            write_file("/sys/block/zram0/disksize", &bytes.to_string())?;
            mkswap("/dev/zram0", *bytes)?;
        }
        None => {}
    }
    let sc = &s.sysctl;
    let mut sys = vec![
        // The variant's own write when it has one (`sysctl = { swappiness = N }`), as the model.
        ("vm/swappiness", s.swappiness_for(&plan.variant).to_string()),
        (
            "vm/watermark_scale_factor",
            sc.watermark_scale_factor.to_string(),
        ),
        ("vm/dirty_ratio", sc.dirty_ratio.to_string()),
        (
            "vm/dirty_background_ratio",
            sc.dirty_background_ratio.to_string(),
        ),
        ("vm/laptop_mode", (sc.laptop_mode as u32).to_string()),
        ("vm/page-cluster", sc.page_cluster.to_string()),
    ];
    if let Some(k) = sc.min_free_kbytes {
        sys.push(("vm/min_free_kbytes", k.to_string()));
    }
    for (k, v) in sys {
        write_file(&format!("/proc/sys/{k}"), &v)?;
    }
    res.swappiness = fs::read_to_string("/proc/sys/vm/swappiness")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0);
    let thp = "/sys/kernel/mm/transparent_hugepage/enabled";
    let _ = write_file(thp, "never");
    let gen = "/sys/kernel/mm/lru_gen/enabled";
    write_file(gen, if plan.lru_gen { "y" } else { "n" })?;
    if plan.lru_gen {
        let ttl = sc.lru_gen_min_ttl.ns() / 1_000_000;
        write_file("/sys/kernel/mm/lru_gen/min_ttl_ms", &ttl.to_string())?;
    }
    res.lru_gen_enabled = fs::read_to_string(gen)
        .unwrap_or_default()
        .trim()
        .to_string();
    // cgroup v2 memcgs, parents first.
    let memcgs = s.expanded_memcgs();
    if !memcgs.is_empty() {
        write_file("/sys/fs/cgroup/cgroup.subtree_control", "+memory")?;
    }
    for (_, m) in &memcgs {
        let path = memcg_path(s, &m.name);
        fs::create_dir_all(&path).map_err(|e| format!("mkdir {path}: {e}"))?;
        // Only a memcg with child memcgs delegates the controller: cgroup v2 refuses tasks in a
        // cgroup that has controllers enabled for its children.
        if memcgs
            .iter()
            .any(|(_, c)| c.parent.as_deref() == Some(&m.name))
        {
            write_file(&format!("{path}/cgroup.subtree_control"), "+memory")?;
        }
        for (k, v) in [
            ("min", m.min),
            ("low", m.low),
            ("high", m.high),
            ("max", m.max),
        ] {
            if let Some(v) = v {
                write_file(&format!("{path}/memory.{k}"), &v.bytes().to_string())?;
            }
        }
    }
    Ok(())
}

/// The cgroupfs directory of a memcg: its ancestors' names joined below the root.
fn memcg_path(s: &Scenario, name: &str) -> String {
    if name == "/" {
        return "/sys/fs/cgroup".into();
    }
    let all = s.expanded_memcgs();
    let mut parts = vec![name.to_string()];
    let mut cur = name.to_string();
    while let Some((_, m)) = all.iter().find(|(_, m)| m.name == cur) {
        match &m.parent {
            Some(p) if p != "/" => {
                parts.push(p.clone());
                cur = p.clone();
            }
            _ => break,
        }
    }
    parts.reverse();
    let safe: Vec<String> = parts.iter().map(|p| p.replace('/', "_")).collect();
    format!("/sys/fs/cgroup/{}", safe.join("/"))
}

fn meminfo() -> BTreeMap<String, u64> {
    kv_file("/proc/meminfo")
}

fn drop_caches() {
    // SAFETY: sync has no preconditions.
    unsafe { libc::sync() };
    let _ = fs::write("/proc/sys/vm/drop_caches", "3");
}

/// Reserve huge pages (out of the LRUs' reach) until free memory is machine.ram.
fn trim_memory(plan: &GuestPlan, res: &mut GuestResult) {
    drop_caches();
    let mi = meminfo();
    res.mem_total_kb = mi.get("MemTotal").copied().unwrap_or(0);
    res.mem_free_before_trim_kb = mi.get("MemFree").copied().unwrap_or(0);
    let target_kb = plan.ram_bytes / 1024;
    let excess = res.mem_free_before_trim_kb.saturating_sub(target_kb);
    let pages = excess / 2048;
    if pages > 0 {
        let _ = fs::write("/proc/sys/vm/nr_hugepages", pages.to_string());
    }
    res.hugetlb_trim_pages = kv_file("/proc/meminfo")
        .get("HugePages_Total")
        .copied()
        .unwrap_or(0);
    drop_caches();
    res.mem_free_kb = meminfo().get("MemFree").copied().unwrap_or(0);
}

/// PID 1: never returns; powers the guest off.
pub fn init_main() -> ! {
    mount("proc", "/proc", "proc", "");
    mount("sysfs", "/sys", "sysfs", "");
    mount("devtmpfs", "/dev", "devtmpfs", "");
    mount("cgroup2", "/sys/fs/cgroup", "cgroup2", "");
    mount("tmpfs", "/tmp", "tmpfs", "");
    let mut res = GuestResult {
        boot_s: fs::read_to_string("/proc/uptime")
            .ok()
            .and_then(|s| s.split_whitespace().next()?.parse().ok())
            .unwrap_or(0.0),
        release: fs::read_to_string("/proc/sys/kernel/osrelease")
            .unwrap_or_default()
            .trim()
            .to_string(),
        ..Default::default()
    };
    log(&format!(
        "init at {:.2}s, kernel {}",
        res.boot_s, res.release
    ));
    load_modules();
    if let Err(e) = run(&mut res) {
        res.errors.push(e);
    }
    let json = serde_json::to_string(&res).unwrap_or_else(|e| format!("{{\"errors\":[\"{e}\"]}}"));
    println!("\n{RESULT_BEGIN}\n{json}\n{RESULT_END}");
    let _ = std::io::stdout().flush();
    // SAFETY: sync then power off; PID 1 may do so.
    unsafe {
        libc::sync();
        libc::reboot(libc::RB_POWER_OFF);
    }
    loop {
        std::thread::sleep(StdDuration::from_secs(1));
    }
}

fn run(res: &mut GuestResult) -> Result<(), String> {
    let text = fs::read_to_string("/plan.json").map_err(|e| format!("read /plan.json: {e}"))?;
    let plan: GuestPlan = serde_json::from_str(&text).map_err(|e| format!("plan: {e}"))?;
    let s = reclaim_core::scenario::parse(&plan.scenario_toml).map_err(|e| e.what())?;
    setup(&plan, &s, res)?;
    let files = file_paths(&plan)?;
    trim_memory(&plan, res);
    log(&format!(
        "memory: total {} kB, free {} kB -> {} kB ({} huge pages reserved)",
        res.mem_total_kb, res.mem_free_before_trim_kb, res.mem_free_kb, res.hugetlb_trim_pages
    ));
    res.vmstat_start = vmstat();
    let t0 = Instant::now();
    let deadline = t0 + StdDuration::from_nanos(s.run.duration.ns());
    let tasks = s.expanded_tasks();
    let cursors = SweepCursors::new(&s)?;
    // (pid, pipe read end, task name)
    let mut children = Vec::new();
    for (ti, (spec_idx, t)) in tasks.iter().enumerate() {
        let _ = spec_idx;
        for client in 0..t.clients.max(1) {
            let name = if t.clients > 1 {
                format!("{}#{client}", t.name)
            } else {
                t.name.clone()
            };
            let mut fds = [0; 2];
            // SAFETY: fds is a valid array of two ints.
            if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
                return Err("pipe failed".into());
            }
            // SAFETY: the child only runs its program and exits.
            let pid = unsafe { libc::fork() };
            if pid == 0 {
                // SAFETY: closing our copy of the read end.
                unsafe {
                    libc::close(fds[0]);
                    libc::signal(libc::SIGTERM, on_term as *const () as libc::sighandler_t);
                }
                let rng = reclaim_core::sim::task_rng(s.seed, ti as u64, client as u64);
                let r = run_task(&s, t, &name, &files, &cursors, t0, rng);
                // SAFETY: fds[1] is the pipe's write end, owned here.
                let mut w = unsafe { fs::File::from_raw_fd(fds[1]) };
                let _ = w.write_all(serde_json::to_string(&r).unwrap_or_default().as_bytes());
                drop(w);
                // SAFETY: leave the child without running the parent's destructors.
                unsafe { libc::_exit(0) };
            }
            // SAFETY: closing the parent's copy of the write end.
            unsafe { libc::close(fds[1]) };
            children.push((pid, fds[0], name));
        }
    }
    // Read every child's result (each child writes once, at its end) and reap it.
    let mut results: Vec<Option<TaskResult>> = vec![None; children.len()];
    let mut status: Vec<Option<i32>> = vec![None; children.len()];
    let mut bufs: Vec<Vec<u8>> = vec![Vec::new(); children.len()];
    for &(_, fd, _) in &children {
        // SAFETY: fd is our pipe read end.
        unsafe { libc::fcntl(fd, libc::F_SETFL, libc::O_NONBLOCK) };
    }
    let mut cut = false;
    loop {
        for (i, &(pid, fd, _)) in children.iter().enumerate() {
            let mut chunk = [0u8; 65536];
            loop {
                // SAFETY: reading into a stack buffer from our fd.
                let n = unsafe { libc::read(fd, chunk.as_mut_ptr().cast(), chunk.len()) };
                if n <= 0 {
                    break;
                }
                bufs[i].extend_from_slice(&chunk[..n as usize]);
            }
            if status[i].is_none() {
                let mut st = 0;
                // SAFETY: waiting on our own child.
                if unsafe { libc::waitpid(pid, &mut st, libc::WNOHANG) } == pid {
                    status[i] = Some(st);
                }
            }
        }
        if status.iter().all(|s| s.is_some()) {
            break;
        }
        let now = Instant::now();
        let kill_at = deadline + StdDuration::from_secs(10);
        if (now > deadline && !cut) || now > kill_at {
            let sig = if cut { libc::SIGKILL } else { libc::SIGTERM };
            cut = true;
            for (i, &(pid, _, _)) in children.iter().enumerate() {
                if status[i].is_none() {
                    // SAFETY: signalling our own child at the end of the run.
                    unsafe { libc::kill(pid, sig) };
                }
            }
        }
        std::thread::sleep(StdDuration::from_millis(20));
    }
    res.run_s = t0.elapsed().as_secs_f64();
    res.vmstat_end = vmstat();
    for (i, (_, fd, name)) in children.iter().enumerate() {
        let mut f = unsafe { fs::File::from_raw_fd(*fd) };
        let mut rest = Vec::new();
        let _ = f.read_to_end(&mut rest);
        bufs[i].extend(rest);
        let st = status[i].unwrap_or(0);
        let signalled = libc::WIFSIGNALED(st) && libc::WTERMSIG(st) == libc::SIGKILL;
        results[i] = Some(match serde_json::from_slice::<TaskResult>(&bufs[i]) {
            Ok(r) => r,
            Err(_) => TaskResult {
                name: name.clone(),
                killed: signalled && !cut,
                cut: signalled && cut,
                ..Default::default()
            },
        });
    }
    res.tasks = results.into_iter().flatten().collect();
    for t in &res.tasks {
        for (m, v) in &t.marks {
            res.marks.entry(m.clone()).or_insert_with(|| v.clone());
        }
    }
    for (_, m) in s.expanded_memcgs() {
        let path = memcg_path(&s, &m.name);
        res.memcgs.push(MemcgResult {
            name: m.name.clone(),
            parent: Some(m.parent.clone().unwrap_or_else(|| "/".into())),
            current_bytes: fs::read_to_string(format!("{path}/memory.current"))
                .ok()
                .and_then(|s| s.trim().parse().ok())
                .unwrap_or(0),
            stat: kv_file(&format!("{path}/memory.stat")),
            events: kv_file(&format!("{path}/memory.events")),
        });
    }
    Ok(())
}

/// A mapped region of the task.
struct Region {
    addr: *mut u8,
    pages: usize,
    /// Where a `sweep` through the region takes its next page.
    cursor: Cursor,
}

/// The `sweep` cursors the model keeps per address space (`Simulation::sweep_cursors`): one
/// per file and per shared anon name, shared by every task (process) and op that sweeps it,
/// in one shared anonymous mapping made before the tasks fork. A private anon region has a
/// cursor of its own (`Cursor::Own`), from 0 at each `anon` op, as the model's new space.
pub struct SweepCursors {
    keys: BTreeMap<String, usize>,
    table: *const std::sync::atomic::AtomicU64,
}

impl SweepCursors {
    /// The cursors of scenario `s`: each file's, and each shared anon name's in any task's
    /// program.
    pub fn new(s: &Scenario) -> Result<SweepCursors, String> {
        fn shared_anon(ops: &[Op], out: &mut Vec<String>) {
            for op in ops {
                match op {
                    Op::Anon(ops::Anon {
                        name, shared: true, ..
                    }) => out.push(format!("anon:{name}")),
                    Op::Loop(ops::Loop { body, .. }) => shared_anon(body, out),
                    _ => {}
                }
            }
        }
        let mut names: Vec<String> = s.files.iter().map(|f| format!("file:{}", f.name)).collect();
        for (_, t) in s.expanded_tasks() {
            shared_anon(&t.program, &mut names);
        }
        let mut keys = BTreeMap::new();
        for n in names {
            let i = keys.len();
            keys.entry(n).or_insert(i);
        }
        let len = (keys.len().max(1) * 8).next_multiple_of(PAGE);
        // SAFETY: a fresh shared anonymous mapping, zero-filled, kept for the process's life
        // (and its children's, which inherit it).
        let addr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if addr == libc::MAP_FAILED {
            return Err(format!(
                "mmap sweep cursors: {}",
                std::io::Error::last_os_error()
            ));
        }
        Ok(SweepCursors {
            keys,
            table: addr.cast(),
        })
    }

    /// The shared cursor of `key` ("file:NAME" or "anon:NAME").
    fn shared(&self, key: &str) -> Cursor {
        let i = self.keys[key];
        // SAFETY: `i` is below the number of keys the table was made for.
        Cursor::Shared(unsafe { self.table.add(i) })
    }
}

/// A region's `sweep` cursor.
enum Cursor {
    Own(std::cell::Cell<u64>),
    Shared(*const std::sync::atomic::AtomicU64),
}

impl Cursor {
    /// Take the cursor's position and advance it by one.
    fn take(&self) -> u64 {
        match self {
            Cursor::Own(c) => {
                let v = c.get();
                c.set(v + 1);
                v
            }
            // SAFETY: the pointer is into the `SweepCursors` mapping, never unmapped.
            Cursor::Shared(p) => unsafe { &**p }.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }
}

/// Access `k` of a `sweep` touch of regions with cursors `cursors`, `pages` the smallest
/// region's size: as the model's interpreter, the regions take turns (k mod their number)
/// and each access takes the next position of its region's cursor, wrapped to `pages`.
fn sweep_visit(k: u64, cursors: &[&Cursor], pages: u64) -> (usize, u64) {
    let slot = (k % cursors.len() as u64) as usize;
    (slot, cursors[slot].take() % pages.max(1))
}

struct TaskState<'a> {
    s: &'a Scenario,
    files: &'a BTreeMap<String, (String, u64)>,
    cursors: &'a SweepCursors,
    regions: BTreeMap<String, Region>,
    fds: BTreeMap<(String, bool), fs::File>,
    rng: Rng,
    t0: Instant,
    result: TaskResult,
    latencies: Vec<f64>,
    ops_time: f64,
}

/// One task's program, in a forked child.
pub fn run_task(
    s: &Scenario,
    t: &TaskSpec,
    name: &str,
    files: &BTreeMap<String, (String, u64)>,
    cursors: &SweepCursors,
    t0: Instant,
    rng: Rng,
) -> TaskResult {
    if let Some(m) = &t.memcg {
        let path = memcg_path(s, m);
        // SAFETY: getpid has no preconditions.
        let pid = unsafe { libc::getpid() };
        if let Err(e) = write_file(&format!("{path}/cgroup.procs"), &pid.to_string()) {
            return TaskResult {
                name: name.into(),
                error: Some(e),
                ..Default::default()
            };
        }
    }
    let start = t0 + StdDuration::from_nanos(t.start.ns());
    sleep_until(start);
    let mut st = TaskState {
        s,
        files,
        cursors,
        regions: BTreeMap::new(),
        fds: BTreeMap::new(),
        rng,
        t0,
        result: TaskResult {
            name: name.into(),
            ..Default::default()
        },
        latencies: Vec::new(),
        ops_time: 0.0,
    };
    match st.ops(&t.program) {
        Err(e) if e == CUT => st.result.cut = true,
        Err(e) => st.result.error = Some(e),
        Ok(()) => {}
    }
    st.result.ops = st.latencies.len() as u64;
    if !st.latencies.is_empty() {
        st.result.ops_s = st.latencies.len() as f64 / st.ops_time.max(1e-9);
        st.result.latency_ms = Some(percentiles(&mut st.latencies));
    }
    // SAFETY: rusage of this process.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    st.result.major_faults = ru.ru_majflt as u64;
    st.result
}

fn sleep_until(t: Instant) {
    let now = Instant::now();
    if t > now {
        std::thread::sleep(t - now);
    }
}

pub fn percentiles(v: &mut [f64]) -> Percentiles {
    v.sort_by(|a, b| a.total_cmp(b));
    let at = |q: f64| v[((v.len() as f64 * q).ceil() as usize).clamp(1, v.len()) - 1];
    Percentiles {
        p50: at(0.5),
        p95: at(0.95),
        p99: at(0.99),
        mean: v.iter().sum::<f64>() / v.len() as f64,
        count: v.len() as u64,
    }
}

/// The page indices an access op visits, in order: `count` accesses (default: every page once)
/// sequential from the start (wrapping), uniform at random, or Zipf, with the task's RNG.
pub fn access_order(
    pattern: Pattern,
    pages: u64,
    count: Option<u64>,
    theta: f64,
    rng: &mut Rng,
) -> Vec<u64> {
    let pages = pages.max(1);
    let n = count.unwrap_or(pages);
    match pattern {
        Pattern::Seq | Pattern::Sweep => (0..n).map(|i| i % pages).collect(),
        Pattern::Random => (0..n).map(|_| rng.below(pages)).collect(),
        Pattern::Zipf => {
            let z = Zipf::new(pages, theta);
            (0..n).map(|_| z.sample(rng)).collect()
        }
    }
}

/// Pages of several regions interleaved page by page: (region, page) in visiting order for a
/// sequential touch of every page of each.
pub fn interleave(sizes: &[u64]) -> Vec<(usize, u64)> {
    let max = sizes.iter().copied().max().unwrap_or(0);
    let mut out = Vec::new();
    for p in 0..max {
        for (r, &n) in sizes.iter().enumerate() {
            if p < n {
                out.push((r, p));
            }
        }
    }
    out
}

/// Paces an op at `rate` accesses per second (0: unpaced).
struct Pacer {
    start: Instant,
    interval: f64,
}

impl Pacer {
    fn new(rate: f64) -> Pacer {
        Pacer {
            start: Instant::now(),
            interval: if rate > 0.0 { 1.0 / rate } else { 0.0 },
        }
    }
    fn wait(&self, k: u64) {
        if self.interval > 0.0 && k % 16 == 0 {
            sleep_until(self.start + StdDuration::from_secs_f64(k as f64 * self.interval));
        }
    }
}

fn fadvise_of(h: Hint) -> Option<i32> {
    match h {
        Hint::Normal => None,
        Hint::Sequential => Some(libc::POSIX_FADV_SEQUENTIAL),
        Hint::Random => Some(libc::POSIX_FADV_RANDOM),
        Hint::Noreuse => Some(libc::POSIX_FADV_NOREUSE),
    }
}

impl TaskState<'_> {
    fn ops(&mut self, ops: &[Op]) -> Result<(), String> {
        for op in ops {
            if stopped() {
                return Err(CUT.into());
            }
            self.op(op)?;
        }
        Ok(())
    }

    fn file(&mut self, name: &str, write: bool, sync: bool) -> Result<&fs::File, String> {
        let (path, _) = self
            .files
            .get(name)
            .ok_or_else(|| format!("unknown file {name:?}"))?
            .clone();
        if !self.fds.contains_key(&(name.to_string(), sync)) {
            let mut o = fs::OpenOptions::new();
            o.read(true).write(true);
            if sync {
                use std::os::unix::fs::OpenOptionsExt;
                o.custom_flags(libc::O_DSYNC);
            }
            let f = o.open(&path).map_err(|e| format!("open {path}: {e}"))?;
            self.fds.insert((name.to_string(), sync), f);
        }
        let _ = write;
        Ok(&self.fds[&(name.to_string(), sync)])
    }

    fn file_pages(&self, name: &str, offset: u64, size: Option<u64>) -> Result<(u64, u64), String> {
        let (_, bytes) = self
            .files
            .get(name)
            .ok_or_else(|| format!("unknown file {name:?}"))?;
        let first = offset / PAGE as u64;
        let total = bytes / PAGE as u64;
        let n = size
            .map(|b| b.div_ceil(PAGE as u64))
            .unwrap_or(total.saturating_sub(first));
        Ok((first, n.min(total.saturating_sub(first))))
    }

    fn op(&mut self, op: &Op) -> Result<(), String> {
        match op {
            Op::Anon(ops::Anon { name, size, shared }) => {
                let len = size.bytes() as usize;
                let flags = libc::MAP_ANONYMOUS
                    | if *shared {
                        libc::MAP_SHARED
                    } else {
                        libc::MAP_PRIVATE
                    };
                // SAFETY: a fresh anonymous mapping.
                let addr = unsafe {
                    libc::mmap(
                        std::ptr::null_mut(),
                        len,
                        libc::PROT_READ | libc::PROT_WRITE,
                        flags,
                        -1,
                        0,
                    )
                };
                if addr == libc::MAP_FAILED {
                    return Err(format!(
                        "mmap anon {name}: {}",
                        std::io::Error::last_os_error()
                    ));
                }
                // SAFETY: advising our own mapping; the model has 4 KiB pages.
                unsafe { libc::madvise(addr, len, libc::MADV_NOHUGEPAGE) };
                let cursor = if *shared {
                    self.cursors.shared(&format!("anon:{name}"))
                } else {
                    Cursor::Own(Default::default())
                };
                self.regions.insert(
                    name.clone(),
                    Region {
                        addr: addr.cast(),
                        pages: len.div_ceil(PAGE),
                        cursor,
                    },
                );
            }
            Op::Mmap(ops::Mmap {
                name,
                file,
                offset,
                size,
                prot,
                shared,
                hint,
                advance: _,
            }) => {
                let (first, n) = self.file_pages(file, offset.bytes(), size.map(|s| s.bytes()))?;
                let mut p = libc::PROT_READ;
                if prot.contains('w') {
                    p |= libc::PROT_WRITE;
                }
                if prot.contains('x') {
                    p |= libc::PROT_EXEC;
                }
                let fd = self.file(file, prot.contains('w'), false)?.as_raw_fd();
                let flags = if *shared {
                    libc::MAP_SHARED
                } else {
                    libc::MAP_PRIVATE
                };
                let len = n as usize * PAGE;
                // SAFETY: mapping an open file at a page-aligned offset.
                let addr = unsafe {
                    libc::mmap(
                        std::ptr::null_mut(),
                        len,
                        p,
                        flags,
                        fd,
                        (first * PAGE as u64) as libc::off_t,
                    )
                };
                if addr == libc::MAP_FAILED {
                    return Err(format!("mmap {file}: {}", std::io::Error::last_os_error()));
                }
                let advice = match hint {
                    Hint::Sequential => Some(libc::MADV_SEQUENTIAL),
                    Hint::Random => Some(libc::MADV_RANDOM),
                    _ => None,
                };
                if let Some(a) = advice {
                    // SAFETY: advising our own mapping.
                    unsafe { libc::madvise(addr, len, a) };
                }
                let cursor = self.cursors.shared(&format!("file:{file}"));
                self.regions.insert(
                    name.clone(),
                    Region {
                        addr: addr.cast(),
                        pages: n as usize,
                        cursor,
                    },
                );
            }
            Op::Munmap(ops::Munmap { name }) | Op::Free(ops::Free { name }) => {
                if let Some(r) = self.regions.remove(name) {
                    // SAFETY: unmapping a mapping this task made.
                    unsafe { libc::munmap(r.addr.cast(), r.pages * PAGE) };
                }
            }
            Op::Touch(ops::Touch {
                regions,
                pattern,
                count,
                write,
                theta,
                rate,
                write_fraction,
                cpu: _,
            }) => {
                let regs: Vec<&Region> = regions
                    .iter()
                    .map(|n| {
                        self.regions
                            .get(n)
                            .ok_or_else(|| format!("touch: unknown region {n:?}"))
                    })
                    .collect::<Result<_, _>>()?;
                let rs: Vec<(*mut u8, u64)> =
                    regs.iter().map(|r| (r.addr, r.pages as u64)).collect();
                let sizes: Vec<u64> = rs.iter().map(|r| r.1).collect();
                let total: u64 = sizes.iter().sum();
                let pacer = Pacer::new(*rate);
                let sweep = *pattern == Pattern::Sweep;
                let visit: Vec<(usize, u64)> = if sweep {
                    // Taken one access at a time: other tasks move a shared cursor meanwhile.
                    Vec::new()
                } else if *pattern == Pattern::Seq && count.is_none() {
                    interleave(&sizes)
                } else {
                    access_order(*pattern, total, *count, *theta, &mut self.rng)
                        .into_iter()
                        .map(|g| locate(&sizes, g))
                        .collect()
                };
                let cursors: Vec<&Cursor> = regs.iter().map(|r| &r.cursor).collect();
                let min_pages = sizes.iter().copied().min().unwrap_or(0);
                let n = if sweep {
                    count.unwrap_or(min_pages * sizes.len() as u64)
                } else {
                    visit.len() as u64
                };
                for k in 0..n {
                    let (r, p) = if sweep {
                        sweep_visit(k, &cursors, min_pages)
                    } else {
                        visit[k as usize]
                    };
                    let k = k as usize;
                    if k % 64 == 0 && stopped() {
                        return Err(CUT.into());
                    }
                    pacer.wait(k as u64);
                    let w = *write || (*write_fraction > 0.0 && self.rng.unit() < *write_fraction);
                    // SAFETY: p is inside the mapping of region r.
                    unsafe {
                        let at = rs[r].0.add(p as usize * PAGE);
                        if w {
                            std::ptr::write_volatile(
                                at,
                                std::ptr::read_volatile(at).wrapping_add(1) | 1,
                            );
                        } else {
                            std::ptr::read_volatile(at);
                        }
                    }
                }
            }
            Op::Read(ops::Read {
                file,
                pattern,
                offset,
                size,
                count,
                theta,
                rate,
                hint,
                ..
            }) => {
                let (first, n) = self.file_pages(file, offset.bytes(), size.map(|s| s.bytes()))?;
                let order = access_order(*pattern, n, *count, *theta, &mut self.rng);
                let fd = self.file(file, false, false)?.as_raw_fd();
                if let Some(a) = fadvise_of(*hint) {
                    // SAFETY: advice on our open fd.
                    unsafe {
                        libc::posix_fadvise(
                            fd,
                            (first * PAGE as u64) as i64,
                            (n * PAGE as u64) as i64,
                            a,
                        )
                    };
                }
                let pacer = Pacer::new(*rate);
                let mut buf = vec![0u8; PAGE];
                for (k, p) in order.into_iter().enumerate() {
                    if k % 64 == 0 && stopped() {
                        return Err(CUT.into());
                    }
                    pacer.wait(k as u64);
                    let off = ((first + p) * PAGE as u64) as libc::off_t;
                    // SAFETY: reading one page into our buffer.
                    let r = unsafe { libc::pread(fd, buf.as_mut_ptr().cast(), PAGE, off) };
                    if r < 0 {
                        return Err(format!("read {file}: {}", std::io::Error::last_os_error()));
                    }
                }
            }
            Op::Write(ops::Write {
                file,
                pattern,
                offset,
                size,
                count,
                theta,
                rate,
                sync,
                ..
            }) => {
                let (first, n) = self.file_pages(file, offset.bytes(), size.map(|s| s.bytes()))?;
                let order = access_order(*pattern, n, *count, *theta, &mut self.rng);
                let fd = self.file(file, true, *sync)?.as_raw_fd();
                let pacer = Pacer::new(*rate);
                let buf = vec![0xa5u8; PAGE];
                for (k, p) in order.into_iter().enumerate() {
                    if k % 64 == 0 && stopped() {
                        return Err(CUT.into());
                    }
                    pacer.wait(k as u64);
                    let off = ((first + p) * PAGE as u64) as libc::off_t;
                    // SAFETY: writing one page from our buffer.
                    let r = unsafe { libc::pwrite(fd, buf.as_ptr().cast(), PAGE, off) };
                    if r < 0 {
                        return Err(format!("write {file}: {}", std::io::Error::last_os_error()));
                    }
                }
            }
            // In slices, so that a task stopped at run.duration does not sleep on.
            Op::Sleep(ops::Sleep { duration }) => {
                let until = Instant::now() + StdDuration::from_nanos(duration.ns());
                while !stopped() && Instant::now() < until {
                    sleep_until((Instant::now() + StdDuration::from_millis(50)).min(until));
                }
            }
            Op::DropCaches(_) => drop_caches(),
            Op::Truncate(ops::Truncate { file }) => {
                let f = self.file(file, true, false)?;
                f.set_len(0).map_err(|e| format!("truncate {file}: {e}"))?;
            }
            Op::Mark(ops::Mark { name }) => {
                if !self.result.marks.contains_key(name) {
                    self.result.marks.insert(name.clone(), vmstat());
                }
            }
            Op::MemoryReclaim(ops::MemoryReclaim {
                memcg,
                amount,
                swappiness,
            }) => {
                let path = format!("{}/memory.reclaim", memcg_path(self.s, memcg));
                let mut v = amount.bytes().to_string();
                match swappiness {
                    Some(ops::SWAPPINESS_MAX) => v.push_str(" swappiness=max"),
                    Some(sw) => v.push_str(&format!(" swappiness={sw}")),
                    None => {}
                }
                self.result.reclaim_requested_pages += amount.bytes() / PAGE as u64;
                // EAGAIN: the kernel reclaimed less than asked, as the model's loop may.
                let _ = fs::write(&path, v);
            }
            // The plan refuses it before anything is booted.
            Op::Replay(_) => return Err("replay is not implemented by the guest runner".into()),
            Op::Loop(ops::Loop {
                count,
                duration,
                record,
                body,
            }) => {
                let until = duration.map(|d| Instant::now() + StdDuration::from_nanos(d.ns()));
                let mut i = 0u64;
                loop {
                    if count.is_some_and(|c| i >= c) || until.is_some_and(|u| Instant::now() >= u) {
                        break;
                    }
                    let t = Instant::now();
                    self.ops(body)?;
                    let dt = t.elapsed().as_secs_f64();
                    match record {
                        Record::Rounds => self.result.rounds_s.push(dt),
                        Record::Ops => {
                            self.latencies.push(dt * 1e3);
                            self.ops_time += dt;
                        }
                        Record::None => {}
                    }
                    i += 1;
                }
            }
            Op::ScanInactiveFile(_) => return Err("scan_inactive_file cannot run".into()),
        }
        let _ = self.t0;
        Ok(())
    }
}

/// A global page index over concatenated regions -> (region, page).
fn locate(sizes: &[u64], mut g: u64) -> (usize, u64) {
    for (r, &n) in sizes.iter().enumerate() {
        if g < n {
            return (r, g);
        }
        g -= n;
    }
    (sizes.len().saturating_sub(1), 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interleave_alternates_pages_of_regions() {
        assert_eq!(
            interleave(&[2, 3]),
            vec![(0, 0), (1, 0), (0, 1), (1, 1), (1, 2)]
        );
    }

    #[test]
    fn access_orders_follow_the_pattern_and_the_rng() {
        let mut r = Rng::new(1);
        assert_eq!(
            access_order(Pattern::Seq, 3, Some(5), 0.99, &mut r),
            vec![0, 1, 2, 0, 1]
        );
        let a = access_order(Pattern::Random, 100, Some(50), 0.99, &mut Rng::new(9));
        let b = access_order(Pattern::Random, 100, Some(50), 0.99, &mut Rng::new(9));
        assert_eq!(a, b, "same seed, same pages");
        assert!(a.iter().all(|&p| p < 100));
        assert!(a.iter().collect::<std::collections::BTreeSet<_>>().len() > 20);
        let z = access_order(Pattern::Zipf, 1000, Some(2000), 1.2, &mut Rng::new(3));
        let mut hist = BTreeMap::new();
        for p in &z {
            *hist.entry(*p).or_insert(0) += 1;
        }
        let top = hist.values().max().unwrap();
        assert!(*top > 100, "zipf has a hot page: {top}");
    }

    #[test]
    fn a_sweep_takes_turns_between_regions_and_goes_on_from_each_cursor() {
        // The model's rule (`Simulation::op_access`, Pattern::Sweep): access k goes to region
        // k mod n, at its cursor's next position wrapped to the smallest region's size.
        let own = Cursor::Own(Default::default());
        let table = std::sync::atomic::AtomicU64::new(0);
        let shared = Cursor::Shared(&table);
        let order: Vec<_> = (0..6)
            .map(|k| sweep_visit(k, &[&own, &shared], 3))
            .collect();
        assert_eq!(order, [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)]);
        // Another task sweeping the shared space moves its cursor meanwhile; the next op goes
        // on from where each cursor is, not from the start as a sequential touch does.
        table.fetch_add(2, std::sync::atomic::Ordering::Relaxed);
        let order: Vec<_> = (0..4)
            .map(|k| sweep_visit(k, &[&own, &shared], 3))
            .collect();
        assert_eq!(order, [(0, 0), (1, 2), (0, 1), (1, 0)]);
    }

    /// Two tasks sweep one file through their own shared mappings, one after the other, in
    /// this process with one cursor table, as forked tasks share it: the second goes on where
    /// the first stopped. Each write adds to the first byte of its page (1 -> 3), so the file
    /// says which pages were swept and how often.
    #[test]
    fn tasks_sweeping_a_file_share_its_cursor() {
        let dir = std::env::temp_dir().join(format!("reclaim-sweep-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("data");
        fs::write(&path, vec![1u8; 16 * PAGE]).unwrap();
        let text = r#"
title = "t"
[machine]
ram = "64MiB"
[[devices]]
name = "disk"
kind = "ssd"
[[files]]
name = "data"
size = "64KiB"
device = "disk"
[[variants]]
name = "v"
preset = "linux-6.1"
[[tasks]]
name = "a"
program = [
  { op = "mmap", name = "m", file = "data", prot = "rw" },
  { op = "touch", regions = ["m"], pattern = "sweep", count = 5, write = true },
]
[[tasks]]
name = "b"
program = [
  { op = "mmap", name = "m", file = "data", prot = "rw" },
  { op = "touch", regions = ["m"], pattern = "sweep", count = 5, write = true },
]
[run]
duration = "10s"
"#;
        let s = reclaim_core::scenario::parse(text).unwrap();
        let mut files = BTreeMap::new();
        files.insert(
            "data".to_string(),
            (path.display().to_string(), 16 * PAGE as u64),
        );
        let cursors = SweepCursors::new(&s).unwrap();
        for (_, t) in s.expanded_tasks() {
            let r = run_task(
                &s,
                &t,
                &t.name,
                &files,
                &cursors,
                Instant::now(),
                Rng::new(1),
            );
            assert_eq!(r.error, None);
        }
        let data = fs::read(&path).unwrap();
        fs::remove_dir_all(&dir).unwrap();
        let firsts: Vec<u8> = (0..16).map(|p| data[p * PAGE]).collect();
        assert_eq!(
            firsts,
            [[3; 10].as_slice(), &[1; 6]].concat(),
            "pages 0-9 once each"
        );
        let file = cursors.shared("file:data");
        assert_eq!(file.take(), 10, "the file's cursor");
    }

    #[test]
    fn locate_maps_global_pages_to_regions() {
        assert_eq!(locate(&[2, 3], 0), (0, 0));
        assert_eq!(locate(&[2, 3], 2), (1, 0));
        assert_eq!(locate(&[2, 3], 4), (1, 2));
    }

    #[test]
    fn percentiles_of_latencies() {
        let mut v: Vec<f64> = (1..=100).map(|x| x as f64).collect();
        let p = percentiles(&mut v);
        assert_eq!((p.p50, p.p95, p.p99, p.count), (50.0, 95.0, 99.0, 100));
        assert!((p.mean - 50.5).abs() < 1e-9);
    }

    /// The ops at host-friendly sizes: a small anon region and a small temporary file, run in
    /// this process (no guest, no pressure): rounds, ops and marks are recorded.
    #[test]
    fn a_task_runs_its_ops_natively_at_small_sizes() {
        let dir = std::env::temp_dir().join(format!("reclaim-guest-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("data");
        fs::write(&path, vec![1u8; 16 * PAGE]).unwrap();
        let text = r#"
title = "t"
[machine]
ram = "64MiB"
[[devices]]
name = "disk"
kind = "ssd"
[[files]]
name = "data"
size = "64KiB"
device = "disk"
[[variants]]
name = "v"
preset = "linux-6.1"
[[tasks]]
name = "t"
program = [
  { op = "anon", name = "heap", size = "256KiB" },
  { op = "touch", regions = ["heap"], write = true },
  { op = "mmap", name = "m", file = "data", prot = "r" },
  { op = "mark", name = "go" },
  { op = "loop", count = 3, record = "rounds", body = [
    { op = "touch", regions = ["heap", "m"] },
    { op = "read", file = "data", pattern = "random", count = 8 },
  ] },
  { op = "loop", count = 4, record = "ops", body = [
    { op = "write", file = "data", pattern = "zipf", count = 2 },
  ] },
  { op = "free", name = "heap" },
]
[run]
duration = "10s"
"#;
        let s = reclaim_core::scenario::parse(text).unwrap();
        let mut files = BTreeMap::new();
        files.insert(
            "data".to_string(),
            (path.display().to_string(), 16 * PAGE as u64),
        );
        let (_, t) = &s.expanded_tasks()[0];
        let cursors = SweepCursors::new(&s).unwrap();
        let r = run_task(&s, t, "t", &files, &cursors, Instant::now(), Rng::new(1));
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(r.error, None);
        assert_eq!(r.rounds_s.len(), 3);
        assert_eq!(r.ops, 4);
        assert_eq!(r.latency_ms.unwrap().count, 4);
        assert!(r.marks["go"].contains_key("pgfault"));
        let unknown = {
            let mut t2 = t.clone();
            t2.program = vec![Op::Touch(ops::Touch {
                regions: vec!["nope".into()],
                pattern: Pattern::Seq,
                count: None,
                write: false,
                cpu: Default::default(),
                theta: 0.99,
                rate: 0.0,
                write_fraction: 0.0,
            })];
            run_task(&s, &t2, "t", &files, &cursors, Instant::now(), Rng::new(1))
        };
        assert!(unknown.error.unwrap().contains("nope"));
    }
}
