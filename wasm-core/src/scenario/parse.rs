//! Parsing and validating scenario files.
//!
//! Every error names a line, a column and, where it can be told, the field it is about, so that
//! a person can fix a scenario from the message alone. Parsing never panics.
use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::ops::Range;

use serde::Deserialize;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

use super::budget::Budget;
use super::lesson;
use super::ops::{Loop, Op, Read, Touch, Write};
use super::schema::{DeviceKind, FileSpec, Scenario};
use super::units::Size;
use crate::kernel::variant;

/// What is wrong with a scenario file, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// Dotted path of the field, e.g. `tasks[0].program[2].size`; empty when unknown.
    pub field: String,
    /// What is wrong and what is allowed.
    pub message: String,
}

impl ScenarioError {
    /// `field: message`, or the message alone when the field is unknown.
    pub fn what(&self) -> String {
        if self.field.is_empty() {
            self.message.clone()
        } else {
            format!("{}: {}", self.field, self.message)
        }
    }
}

/// `line 12, column 5: tasks[0].program[2]: unknown field `sizee`, expected one of ...`
impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line,
            self.column,
            self.what()
        )
    }
}

impl std::error::Error for ScenarioError {}

/// Parse a scenario from TOML text and check that it makes sense and fits the default
/// resource budget ([`Budget::DEFAULT`]).
pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
    parse_with_budget(text, &Budget::DEFAULT)
}

/// [`parse`] against the given budget (the CLI's `--no-budget` lifts the soft limits).
pub fn parse_with_budget(text: &str, budget: &Budget) -> Result<Scenario, ScenarioError> {
    if text.len() > budget.text_bytes {
        return Err(ScenarioError {
            line: 1,
            column: 1,
            field: String::new(),
            message: format!(
                "the scenario text is {} bytes; the limit is {} bytes (MAX_TEXT_BYTES)",
                text.len(),
                budget.text_bytes
            ),
        });
    }
    let doc = DeTable::parse(text).map_err(|e| syntax_error(text, &e))?;
    // The index borrows `doc` to locate errors; serde consumes a copy.
    let index = Index::new(text, &doc);
    if doc.get_ref().is_empty() {
        return Err(index.error_at(
            "",
            "the scenario is empty; it needs at least title, [machine], [[variants]], [[tasks]] and [run]",
        ));
    }
    let scenario = Scenario::deserialize(toml::de::Deserializer::from(doc.clone()))
        .map_err(|e| index.type_error(&e))?;
    Checker {
        index: &index,
        scenario: &scenario,
        budget,
        memcg_names: OnceCell::new(),
        files: OnceCell::new(),
    }
    .scenario()?;
    Ok(scenario)
}

/// The page size the kernel and the engine use.
pub(super) const PAGE_SIZE: u64 = 4096;
const MIN_RAM: u64 = 16 << 20;
/// Far above any experiment, and low enough that page arithmetic cannot overflow.
const MAX_SIZE: u64 = 64 << 40;

fn syntax_error(text: &str, e: &toml::de::Error) -> ScenarioError {
    // Errors such as the recursion limit come without a span.
    let (line, column) = position(text, e.span().map_or(0, |s| s.start));
    ScenarioError {
        line,
        column,
        field: String::new(),
        message: e.message().to_string(),
    }
}

/// 1-based line and column of a byte offset, clamped to the text's last line so that an error
/// at the end of a file that ends with a newline still points at a line of the file.
fn position(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.matches('\n').count() + 1;
    let column = before[line_start..].chars().count() + 1;
    let last_line = text.lines().count().max(1);
    if line > last_line {
        let last = text.lines().last().unwrap_or("");
        return (last_line, last.chars().count() + 1);
    }
    (line, column)
}

/// One key or array item of the parsed document.
struct Node<'d, 'i> {
    /// Dotted path, e.g. `tasks[0].program[2]`.
    path: String,
    parent: String,
    /// The key's span, for table entries.
    key_span: Option<Range<usize>>,
    value: &'d Spanned<DeValue<'i>>,
}

/// Where every field of the document is, so that errors can point at lines.
struct Index<'t, 'd, 'i> {
    text: &'t str,
    nodes: Vec<Node<'d, 'i>>,
    /// Node of each path: locating an error stays linear in the size of the file.
    by_path: HashMap<String, usize>,
}

impl<'t, 'd, 'i> Index<'t, 'd, 'i> {
    /// Walks the document with an explicit stack: no recursion, whatever the nesting.
    fn new(text: &'t str, doc: &'d Spanned<DeTable<'i>>) -> Self {
        let mut nodes = Vec::new();
        let mut stack = Vec::new();
        push_entries(&mut stack, "", doc.get_ref());
        while let Some(node) = stack.pop() {
            match node.value.get_ref() {
                DeValue::Table(t) => push_entries(&mut stack, &node.path, t),
                DeValue::Array(a) => {
                    for (i, value) in a.iter().enumerate() {
                        let (path, parent) = (format!("{}[{i}]", node.path), node.path.clone());
                        stack.push(Node {
                            path,
                            parent,
                            key_span: None,
                            value,
                        });
                    }
                }
                _ => {}
            }
            nodes.push(node);
        }
        let mut by_path = HashMap::with_capacity(nodes.len());
        for (i, n) in nodes.iter().enumerate() {
            by_path.entry(n.path.clone()).or_insert(i);
        }
        Index {
            text,
            nodes,
            by_path,
        }
    }

    fn node(&self, path: &str) -> Option<&Node<'d, 'i>> {
        self.by_path.get(path).map(|&i| &self.nodes[i])
    }

    /// An error about `path`, at the path's value in the file, or at its nearest written
    /// ancestor when the value is a default.
    fn error_at(&self, path: &str, message: impl Into<String>) -> ScenarioError {
        let mut at = Some(path);
        let mut offset = 0;
        while let Some(p) = at {
            if let Some(n) = self.node(p) {
                offset = n.value.span().start;
                break;
            }
            at = parent_path(p);
        }
        self.error(offset, path, message)
    }

    fn error(&self, offset: usize, path: &str, message: impl Into<String>) -> ScenarioError {
        let (line, column) = position(self.text, offset);
        ScenarioError {
            line,
            column,
            field: path.to_string(),
            message: message.into(),
        }
    }

    /// A type, unit or unknown-field error from serde, located as precisely as the file allows.
    fn type_error(&self, e: &toml::de::Error) -> ScenarioError {
        let message = e.message();
        let span = e.span().unwrap_or(0..0);
        let Some(mut node) = self.innermost(&span) else {
            return self.error(span.start, "", message);
        };
        // serde buffers the internally tagged `Op`s, so an error inside an op only carries the
        // span of the op list around it (for `[[tasks.program]]` also the first op's span): find
        // the op by deserializing the list's ops one at a time, down through loop bodies.
        if is_op_list(&node.parent) {
            node = self.node(&node.parent).unwrap_or(node);
        }
        while let Some(op) = self.failing_op(node) {
            node = op;
        }
        self.narrow(node, message)
    }

    /// Points at the key or value of `node` that the message names, when exactly one matches.
    fn narrow(&self, node: &Node, message: &str) -> ScenarioError {
        if let Some(key) = unknown_field(message) {
            // The key's table is `node` or, for a `[[a.b]]` header that gives both the same
            // span, one of its ancestors.
            let mut table = Some(node.path.as_str());
            while let Some(t) = table {
                if let Some(key_span) = self
                    .node(&child_path(t, key))
                    .and_then(|n| n.key_span.clone())
                {
                    return self.error(key_span.start, t, message);
                }
                table = parent_path(t);
            }
        }
        // Quoted values appear before ", expected ..."; after it come the allowed ones.
        let said = message.split(", expected").next().unwrap_or("");
        let mut named = self.nodes.iter().filter(|n| {
            n.parent == node.path
                && quoted_forms(n.value.get_ref())
                    .iter()
                    .any(|q| said.contains(q.as_str()))
        });
        match (named.next(), named.next()) {
            (Some(child), None) => self.error(child.value.span().start, &child.path, message),
            _ => self.error(node.value.span().start, &node.path, message),
        }
    }

    /// The first op that does not deserialize, in `node` if it is an op list, else in its loop body.
    fn failing_op(&self, node: &Node) -> Option<&Node<'d, 'i>> {
        let list = if is_op_list(&node.path) {
            node.path.clone()
        } else {
            format!("{}.body", node.path)
        };
        (0..)
            .map_while(|i| self.node(&format!("{list}[{i}]")))
            .find(|item| !deserializes_as_op(item.value))
    }

    /// The deepest node whose value or key span holds `span`; None for the document itself.
    fn innermost(&self, span: &Range<usize>) -> Option<&Node<'d, 'i>> {
        if span.is_empty() {
            return None;
        }
        let holds = |s: &Range<usize>| s.start <= span.start && span.end <= s.end;
        self.nodes
            .iter()
            .filter_map(|n| {
                let value_span = n.value.span();
                let len = if holds(&value_span) {
                    value_span.len()
                } else {
                    n.key_span.as_ref().filter(|k| holds(k))?.len()
                };
                Some((len, usize::MAX - n.path.len(), n))
            })
            .min_by_key(|(len, shallowness, _)| (*len, *shallowness))
            .map(|(_, _, n)| n)
    }
}

fn push_entries<'d, 'i>(stack: &mut Vec<Node<'d, 'i>>, path: &str, table: &'d DeTable<'i>) {
    for (key, value) in table.iter() {
        let child = child_path(path, key.get_ref());
        stack.push(Node {
            path: child,
            parent: path.to_string(),
            key_span: Some(key.span()),
            value,
        });
    }
}

/// `a.b[2]` -> `a.b` -> `a` -> `` (the document) -> None.
fn parent_path(path: &str) -> Option<&str> {
    if path.is_empty() {
        return None;
    }
    Some(path.rfind(['.', '[']).map_or("", |i| &path[..i]))
}

fn child_path(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_string()
    } else {
        format!("{parent}.{key}")
    }
}

/// `tasks[N].program`, or the `body` of an op in an op list.
fn is_op_list(path: &str) -> bool {
    if let Some(task) = path.strip_suffix(".program") {
        return task.starts_with("tasks[") && !task.contains('.');
    }
    match path
        .strip_suffix(".body")
        .and_then(|op| op.rsplit_once('['))
    {
        Some((list, _)) => is_op_list(list),
        None => false,
    }
}

fn deserializes_as_op(value: &Spanned<DeValue<'_>>) -> bool {
    match value.get_ref() {
        DeValue::Table(t) => {
            let table = Spanned::new(value.span(), t.clone());
            Op::deserialize(toml::de::Deserializer::from(table)).is_ok()
        }
        _ => false,
    }
}

/// The forms in which serde and the unit parsers quote a scalar in their messages.
fn quoted_forms(value: &DeValue<'_>) -> Vec<String> {
    match value {
        DeValue::String(s) => vec![format!("{s:?}"), format!("`{s}`")],
        DeValue::Integer(i) => vec![format!("`{}`", i.as_str())],
        DeValue::Float(f) => vec![format!("`{}`", f.as_str())],
        DeValue::Boolean(b) => vec![format!("`{b}`")],
        _ => Vec::new(),
    }
}

/// The key of serde's "unknown field `X`, expected ..." message.
fn unknown_field(message: &str) -> Option<&str> {
    message.strip_prefix("unknown field `")?.split('`').next()
}

pub(super) type Check = Result<(), ScenarioError>;

/// Semantic checks, in the order of the file's sections (each op's own in ops.rs).
pub(super) struct Checker<'a> {
    index: &'a Index<'a, 'a, 'a>,
    scenario: &'a Scenario,
    pub(super) budget: &'a Budget,
    /// Every memcg name ("/" and the expanded `[[memcgs]]`), made once for all references.
    memcg_names: OnceCell<HashSet<String>>,
    /// `[[files]]` by name.
    files: OnceCell<HashMap<&'a str, &'a FileSpec>>,
}

impl<'a> Checker<'a> {
    pub(super) fn ensure(&self, ok: bool, path: &str, message: impl FnOnce() -> String) -> Check {
        if ok {
            Ok(())
        } else {
            Err(self.index.error_at(path, message()))
        }
    }

    fn scenario(&self) -> Check {
        let s = self.scenario;
        self.ensure(!s.title.trim().is_empty(), "title", || {
            "the title must not be empty".into()
        })?;
        self.machine()?;
        self.sysctl()?;
        self.variants()?;
        self.devices()?;
        self.files()?;
        // Before anything is expanded: replicas, clients and sizes against the budget.
        self.budget_counts()?;
        self.memcgs()?;
        let marks = self.tasks()?;
        self.run(&marks)?;
        self.expect()?;
        self.lesson()
    }

    fn expect(&self) -> Check {
        let s = self.scenario;
        let variants: Vec<&str> = s.variants.iter().map(|v| v.name.as_str()).collect();
        let tasks: Vec<&str> = s.tasks.iter().map(|t| t.name.as_str()).collect();
        super::expect::check(&s.expect, &s.lesson, &variants, &tasks)
            .map_err(|(path, message)| self.index.error_at(&path, message))
    }

    /// The resource budget (see `budget.rs`), checked on the written counts and sizes, so that
    /// nothing is expanded or allocated past it. All sums saturate.
    fn budget_counts(&self) -> Check {
        let (s, b) = (self.scenario, self.budget);
        let frame = PAGE_SIZE * u64::from(s.machine.frame_scale.max(1));
        let frames = |size: Size| size.bytes().div_ceil(frame);
        let over = |what: &str, n: u64, limit: u64, name: &str| {
            format!("{what} {n}; the limit is {limit} ({name}, see the README's resource budget)")
        };
        // Memcgs: each entry's replicas, then the total.
        let mut memcgs = 0u64;
        for (k, m) in s.memcgs.iter().enumerate() {
            let n = u64::from(m.replicas.unwrap_or(1));
            let path = format!("memcgs[{k}].replicas");
            self.ensure(n <= b.memcgs, &path, || {
                over("replicas is", n, b.memcgs, "MAX_MEMCGS")
            })?;
            memcgs = memcgs.saturating_add(n);
            let path = if m.replicas.is_some() {
                path
            } else {
                format!("memcgs[{k}]")
            };
            self.ensure(memcgs <= b.memcgs, &path, || {
                over("memcgs up to here number", memcgs, b.memcgs, "MAX_MEMCGS")
            })?;
        }
        // Tasks: replicas x clients; their ops and anon regions.
        let (mut tasks, mut ops) = (0u64, 0u64);
        let mut space = 0u64;
        for (i, t) in s.tasks.iter().enumerate() {
            let replicas = u64::from(t.replicas.unwrap_or(1));
            let clients = u64::from(t.clients);
            self.ensure(replicas <= b.tasks, &format!("tasks[{i}].replicas"), || {
                over("replicas is", replicas, b.tasks, "MAX_TASKS")
            })?;
            self.ensure(clients <= b.tasks, &format!("tasks[{i}].clients"), || {
                over("clients is", clients, b.tasks, "MAX_TASKS")
            })?;
            tasks = tasks.saturating_add(replicas.saturating_mul(clients));
            self.ensure(tasks <= b.tasks, &format!("tasks[{i}]"), || {
                over(
                    "tasks (replicas x clients) up to here number",
                    tasks,
                    b.tasks,
                    "MAX_TASKS",
                )
            })?;
            let (n, private, shared) = program_counts(&t.program, &frames);
            ops = ops.saturating_add(n.saturating_mul(replicas));
            self.ensure(ops <= b.ops, &format!("tasks[{i}].program"), || {
                over(
                    "ops (loop bodies and replicas included) up to here number",
                    ops,
                    b.ops,
                    "MAX_OPS",
                )
            })?;
            let anon = private
                .saturating_mul(clients)
                .saturating_add(shared)
                .saturating_mul(replicas);
            space = space.saturating_add(anon);
            self.ensure(
                space <= b.space_frames,
                &format!("tasks[{i}].program"),
                || {
                    over(
                    "frames of files, swap and anon regions (each client's own) up to here number",
                    space,
                    b.space_frames,
                    "MAX_SPACE_FRAMES",
                )
                },
            )?;
        }
        // Files and swap: per-page tables too.
        let mut sized: Vec<(String, Size)> = s
            .files
            .iter()
            .enumerate()
            .map(|(i, f)| (format!("files[{i}].size"), f.size))
            .collect();
        if let Some(sw) = &s.machine.swap {
            sized.push(("machine.swap.size".into(), sw.size));
        }
        for (path, size) in sized {
            space = space.saturating_add(frames(size));
            self.ensure(space <= b.space_frames, &path, || {
                over(
                    "frames of files, swap and anon regions up to here number",
                    space,
                    b.space_frames,
                    "MAX_SPACE_FRAMES",
                )
            })?;
        }
        // Samples of the time series.
        let r = &s.run;
        if r.sample_interval.ns() > 0 {
            let samples = r.duration.ns() / r.sample_interval.ns();
            let path = if self.index.node("run.sample_interval").is_some() {
                "run.sample_interval"
            } else {
                "run.duration"
            };
            self.ensure(samples <= b.samples, path, || {
                over(
                    "run.duration / run.sample_interval is",
                    samples,
                    b.samples,
                    "MAX_SAMPLES",
                ) + "; use a longer sample_interval"
            })?;
        }
        Ok(())
    }

    fn lesson(&self) -> Check {
        lesson::check(&self.scenario.lesson, self.scenario.run.duration)
            .map_err(|p| self.index.error_at(&p.path, p.message))
    }

    fn machine(&self) -> Check {
        let m = &self.scenario.machine;
        let scale = m.frame_scale;
        self.ensure(scale.is_power_of_two(), "machine.frame_scale", || {
            format!("frame_scale must be a power of two >= 1 (1, 2, 4, ...), got {scale}")
        })?;
        let ram = m.ram.bytes();
        self.size("machine.ram", m.ram)?;
        self.ensure(ram >= MIN_RAM, "machine.ram", || {
            format!("ram must be at least 16MiB, got {}", m.ram)
        })?;
        let frame = PAGE_SIZE * u64::from(scale);
        self.ensure(ram % frame == 0, "machine.ram", || {
            format!("ram must be a multiple of the page size (4KiB) times frame_scale ({frame} bytes), got {ram} bytes")
        })?;
        let frames = ram / frame;
        let limit = self.budget.frames;
        self.ensure(frames <= limit, "machine.ram", || {
            format!(
                "ram / (4KiB x frame_scale) is {frames} frames; the limit is {limit} (MAX_FRAMES, \
                 see the README's resource budget): raise machine.frame_scale"
            )
        })?;
        if let Some(swap) = &m.swap {
            self.size("machine.swap.size", swap.size)?;
            self.device_exists("machine.swap.device", &swap.device, "")?;
        }
        if let Some(cpus) = m.cpus {
            self.ensure((1..=4096).contains(&cpus), "machine.cpus", || {
                format!("cpus must be between 1 and 4096, got {cpus}")
            })?;
        }
        Ok(())
    }

    fn sysctl(&self) -> Check {
        let s = &self.scenario.sysctl;
        self.ensure(s.swappiness <= 200, "sysctl.swappiness", || {
            format!(
                "swappiness must be 0..=200 (kernels before 5.8 refuse values above 100), got {}",
                s.swappiness
            )
        })?;
        self.ensure(s.page_cluster <= 31, "sysctl.page_cluster", || {
            format!(
                "page_cluster is log2 of the swap readahead window in pages, 0..=31 (vm.page-cluster), got {}",
                s.page_cluster
            )
        })?;
        // The sysctl's own bounds (SYSCTL_ONE..=3000 since the 2021 raise from 1000): also
        // keeps ram_pages x factor in range.
        self.ensure(
            (1..=3000).contains(&s.watermark_scale_factor),
            "sysctl.watermark_scale_factor",
            || {
                format!(
                    "watermark_scale_factor is in 1/10000 of memory, 1..=3000, got {}",
                    s.watermark_scale_factor
                )
            },
        )?;
        self.ensure(s.dirty_ratio <= 100, "sysctl.dirty_ratio", || {
            format!(
                "dirty_ratio is a percentage, 0..=100, got {}",
                s.dirty_ratio
            )
        })?;
        self.ensure(
            s.dirty_background_ratio <= 100,
            "sysctl.dirty_background_ratio",
            || {
                format!(
                    "dirty_background_ratio is a percentage, 0..=100, got {}",
                    s.dirty_background_ratio
                )
            },
        )?;
        // Point at whichever of the two the file wrote; a default is not the mistake.
        let path = if self.index.node("sysctl.dirty_background_ratio").is_some() {
            "sysctl.dirty_background_ratio"
        } else {
            "sysctl.dirty_ratio"
        };
        self.ensure(s.dirty_background_ratio < s.dirty_ratio, path, || {
            format!(
                "dirty_background_ratio ({}) must be less than dirty_ratio ({})",
                s.dirty_background_ratio, s.dirty_ratio
            )
        })
    }

    fn variants(&self) -> Check {
        let variants = &self.scenario.variants;
        self.ensure(!variants.is_empty(), "variants", || {
            "at least one [[variants]] is needed".into()
        })?;
        self.unique_names(variants.iter().map(|v| v.name.as_str()), "variant", |i| {
            format!("variants[{i}].name")
        })?;
        for (i, v) in variants.iter().enumerate() {
            variant::preset(&v.preset)
                .map_err(|e| self.index.error_at(&format!("variants[{i}].preset"), e))?;
            let mut flags = variant::Flags::default();
            for (name, on) in &v.flags {
                flags.set(name, *on).map_err(|e| {
                    self.index
                        .error_at(&format!("variants[{i}].flags.{name}"), e)
                })?;
            }
            if let Some(sw) = v.sysctl.swappiness {
                self.ensure(sw <= 200, &format!("variants[{i}].sysctl.swappiness"), || {
                    format!(
                        "swappiness must be 0..=200 (kernels before 5.8 refuse values above 100), got {sw}"
                    )
                })?;
            }
        }
        Ok(())
    }

    fn devices(&self) -> Check {
        let devices = &self.scenario.devices;
        self.unique_names(devices.iter().map(|d| d.name.as_str()), "device", |i| {
            format!("devices[{i}].name")
        })?;
        for (i, d) in devices.iter().enumerate() {
            if let Some(bw) = d.bandwidth {
                self.size(&format!("devices[{i}].bandwidth"), bw)?;
                self.ensure(bw.bytes() > 0, &format!("devices[{i}].bandwidth"), || {
                    "bandwidth must be > 0".into()
                })?;
            }
            if let Some(c) = d.capacity {
                self.size(&format!("devices[{i}].capacity"), c)?;
                self.ensure(
                    d.kind == DeviceKind::Hdd,
                    &format!("devices[{i}].capacity"),
                    || "capacity applies to kind = \"hdd\" only (seek distances)".into(),
                )?;
                self.ensure(
                    c.bytes() >= crate::devices::PAGE_BYTES,
                    &format!("devices[{i}].capacity"),
                    || "capacity must be at least one page (4KiB)".into(),
                )?;
            }
            if let Some(q) = d.write_queue {
                self.size(&format!("devices[{i}].write_queue"), q)?;
                let queued = matches!(d.kind, DeviceKind::Hdd | DeviceKind::Ssd | DeviceKind::Nvme);
                self.ensure(queued, &format!("devices[{i}].write_queue"), || {
                    "write_queue applies to kind = \"hdd\", \"ssd\" or \"nvme\" (zram, pmem and ramdisk complete writes synchronously)".into()
                })?;
            }
            let parallelism_ok = d.parallelism.is_none_or(|p| p >= 1);
            self.ensure(parallelism_ok, &format!("devices[{i}].parallelism"), || {
                "parallelism must be >= 1".into()
            })?;
            let ratio_ok = d.compression_ratio.is_none_or(|r| r.is_finite() && r > 0.0);
            self.ensure(ratio_ok, &format!("devices[{i}].compression_ratio"), || {
                "compression_ratio must be a finite number > 0".into()
            })?;
        }
        Ok(())
    }

    fn files(&self) -> Check {
        let files = &self.scenario.files;
        self.unique_names(files.iter().map(|f| f.name.as_str()), "file", |i| {
            format!("files[{i}].name")
        })?;
        for (i, f) in files.iter().enumerate() {
            self.size(&format!("files[{i}].size"), f.size)?;
            if !f.tmpfs {
                let hint = if f.device == "tmpfs" {
                    "; for a file in memory set tmpfs = true"
                } else {
                    ""
                };
                self.device_exists(&format!("files[{i}].device"), &f.device, hint)?;
            }
        }
        Ok(())
    }

    /// `[[memcgs]]`: replicas >= 1; names unique (after `{i}` substitution) and not the
    /// root's; each parent declared earlier (or "/"); sizes in range.
    fn memcgs(&self) -> Check {
        let s = self.scenario;
        for (k, m) in s.memcgs.iter().enumerate() {
            self.ensure(
                m.replicas.is_none_or(|r| r >= 1),
                &format!("memcgs[{k}].replicas"),
                || "replicas must be >= 1".into(),
            )?;
            for (what, v) in [
                ("min", m.min),
                ("low", m.low),
                ("high", m.high),
                ("max", m.max),
            ] {
                if let Some(v) = v {
                    self.size(&format!("memcgs[{k}].{what}"), v)?;
                }
            }
        }
        // Each name's depth below the root.
        let mut seen: HashMap<String, u64> = HashMap::new();
        seen.insert("/".to_string(), 0);
        for (k, m) in s.expanded_memcgs() {
            let path = format!("memcgs[{k}].name");
            self.name(&path, &m.name, "memcg")?;
            self.ensure(m.name != "/", &path, || {
                "\"/\" is the root memcg, which always exists; give the memcg another name".into()
            })?;
            let parent = m.parent.clone().unwrap_or_else(|| "/".to_string());
            let Some(&up) = seen.get(&parent) else {
                return Err(self.index.error_at(&format!("memcgs[{k}].parent"), format!(
                    "unknown parent memcg {parent:?}; a parent must be \"/\" or a memcg declared before this one"
                )));
            };
            let depth = up + 1;
            let limit = self.budget.memcg_depth;
            self.ensure(depth <= limit, &format!("memcgs[{k}].parent"), || {
                format!(
                    "memcg {:?} is {depth} levels below the root; the limit is {limit} \
                     (MAX_MEMCG_DEPTH, see the README's resource budget)",
                    m.name
                )
            })?;
            let dup = seen.insert(m.name.clone(), depth).is_some();
            self.ensure(!dup, &path, || {
                let hint = if s.memcgs[k].replicas.is_some() {
                    "; with replicas the name must contain {i}"
                } else {
                    ""
                };
                format!(
                    "duplicate memcg name {:?}; names must be unique{hint}",
                    m.name
                )
            })?;
        }
        Ok(())
    }

    /// A memcg name written in a task (`{i}` substituted for each of `replicas`).
    pub(super) fn memcg_ref(&self, path: &str, name: &str, replicas: u32) -> Check {
        let known = self.memcg_names.get_or_init(|| {
            std::iter::once("/".to_string())
                .chain(
                    self.scenario
                        .expanded_memcgs()
                        .into_iter()
                        .map(|(_, m)| m.name),
                )
                .collect()
        });
        for i in 0..replicas.max(1) {
            let n = name.replace("{i}", &i.to_string());
            self.ensure(known.contains(&n), path, || {
                let mut names: Vec<&str> = known.iter().map(|s| s.as_str()).collect();
                names.sort_unstable();
                let shown = if names.len() > 8 {
                    format!("{} ... ({} in all)", names[..8].join(", "), names.len())
                } else {
                    names.join(", ")
                };
                format!("unknown memcg {n:?}; declared: {shown}")
            })?;
        }
        Ok(())
    }

    /// Checks every task and returns the names of all marks.
    fn tasks(&self) -> Result<HashSet<&'a str>, ScenarioError> {
        let tasks = &self.scenario.tasks;
        self.ensure(!tasks.is_empty(), "tasks", || {
            "at least one [[tasks]] is needed".into()
        })?;
        for (i, t) in tasks.iter().enumerate() {
            self.ensure(
                t.replicas.is_none_or(|r| r >= 1),
                &format!("tasks[{i}].replicas"),
                || "replicas must be >= 1".into(),
            )?;
        }
        // Reports and tables key task results by name (replicas expanded).
        let expanded = self.scenario.expanded_tasks();
        let mut seen = HashSet::new();
        for (k, t) in &expanded {
            let path = format!("tasks[{k}].name");
            self.name(&path, &t.name, "task")?;
            self.ensure(seen.insert(t.name.clone()), &path, || {
                let hint = if tasks[*k].replicas.is_some() {
                    "; with replicas the name must contain {i}"
                } else {
                    ""
                };
                format!(
                    "duplicate task name {:?}; names must be unique{hint}",
                    t.name
                )
            })?;
        }
        let mut marks = HashSet::new();
        let mut held = HashMap::new();
        let mut truncated = HashMap::new();
        let mut segments = HashMap::new();
        for (i, t) in tasks.iter().enumerate() {
            self.ensure(t.clients >= 1, &format!("tasks[{i}].clients"), || {
                "clients must be >= 1".into()
            })?;
            let replicas = t.replicas.unwrap_or(1);
            if let Some(m) = &t.memcg {
                self.memcg_ref(&format!("tasks[{i}].memcg"), m, replicas)?;
            }
            let mut regions = HashSet::new();
            let mut walk = Walk {
                regions: &mut regions,
                read_only: HashSet::new(),
                anon: HashSet::new(),
                marks: &mut marks,
                held: &mut held,
                truncated: &mut truncated,
                segments: &mut segments,
                replicas,
                pages: HashMap::new(),
            };
            self.program(&t.program, &format!("tasks[{i}].program"), true, &mut walk)?;
        }
        let mut clashes: Vec<_> = truncated
            .iter()
            .filter_map(|(file, at)| held.get(file).map(|h| (at, file, h)))
            .collect();
        clashes.sort();
        if let Some((at, file, (held_at, how))) = clashes.first() {
            return Err(self.index.error_at(
                at,
                format!(
                    "file {file:?} is truncated here but {how} at {held_at}; a truncated file \
                     may be neither mapped (its pages past the new end would be a SIGBUS) nor \
                     cached in a buffer pool (the pool would keep its blocks and write them back)"
                ),
            ));
        }
        Ok(marks)
    }

    fn run(&self, marks: &HashSet<&str>) -> Check {
        let r = &self.scenario.run;
        self.ensure(r.duration.ns() > 0, "run.duration", || {
            "the run duration must be > 0".into()
        })?;
        self.ensure(r.sample_interval.ns() > 0, "run.sample_interval", || {
            "sample_interval must be > 0".into()
        })?;
        if let Some(mark) = &r.measure_from {
            self.ensure(marks.contains(mark.as_str()), "run.measure_from", || {
                format!(
                    "no task has a mark named {mark:?}; marks: {}",
                    sorted_list(marks.iter().copied())
                )
            })?;
        }
        Ok(())
    }

    /// `top_level`: the ops are a task's own program, where a never-ending loop may come last.
    pub(super) fn program(
        &self,
        ops: &'a [Op],
        path: &str,
        top_level: bool,
        walk: &mut Walk<'_, 'a>,
    ) -> Check {
        for (i, op) in ops.iter().enumerate() {
            let last = i + 1 == ops.len();
            self.op(op, &format!("{path}[{i}]"), top_level && last, walk)?;
        }
        Ok(())
    }

    fn op(&self, op: &'a Op, path: &str, may_run_forever: bool, walk: &mut Walk<'_, 'a>) -> Check {
        op.rules().check(self, path, may_run_forever, walk)
    }

    /// A touch, read or write with `count` accesses that may each take no virtual time
    /// (`takes_time` false) stays within the budget of accesses at one instant.
    pub(super) fn free_accesses(&self, path: &str, count: Option<u64>, takes_time: bool) -> Check {
        let Some(n) = count else {
            return Ok(());
        };
        let limit = self.budget.free_accesses;
        self.ensure(takes_time || n <= limit, &format!("{path}.count"), || {
            format!(
                "count is {n} accesses that may each take no virtual time (cpu = 0, rate = 0), \
                 so all could happen at one instant; the limit is {limit} (MAX_FREE_ACCESSES, \
                 see the README's resource budget): give cpu > 0 or rate > 0"
            )
        })
    }

    /// Accesses and ops `op` may make at one instant of virtual time (0 when each of them is
    /// sure to take time; saturating): a touch without `count` accesses its regions once.
    fn instant_work(&self, op: &Op, walk: &Walk<'_, 'a>) -> u64 {
        if op.takes_time() {
            return 0;
        }
        match op {
            Op::Touch(Touch { regions, count, .. }) => count.unwrap_or_else(|| {
                regions
                    .iter()
                    .map(|r| walk.pages.get(r.as_str()).copied().unwrap_or(1))
                    .fold(0u64, u64::saturating_add)
            }),
            Op::Read(Read {
                file,
                offset,
                size,
                count,
                ..
            })
            | Op::Write(Write {
                file,
                offset,
                size,
                count,
                ..
            }) => count.unwrap_or_else(|| {
                let len = size.map(Size::bytes).unwrap_or_else(|| {
                    let f = self.files.get().and_then(|m| m.get(file.as_str()));
                    f.map_or(0, |f| f.size.bytes().saturating_sub(offset.bytes()))
                });
                len.div_ceil(PAGE_SIZE).max(1)
            }),
            Op::Loop(l) => self.loop_instant_work(l, walk),
            _ => 1,
        }
    }

    /// [`Self::instant_work`] of a loop: count x its body's.
    pub(super) fn loop_instant_work(&self, l: &Loop, walk: &Walk<'_, 'a>) -> u64 {
        if l.takes_time() {
            return 0;
        }
        let per_iteration = l
            .body
            .iter()
            .map(|o| self.instant_work(o, walk).max(1))
            .fold(0u64, u64::saturating_add);
        l.count.unwrap_or(u64::MAX).saturating_mul(per_iteration)
    }

    pub(super) fn mmap_range(
        &self,
        path: &str,
        file: &FileSpec,
        offset: Size,
        size: Option<Size>,
    ) -> Check {
        let (offset, file_size) = (offset.bytes(), file.size.bytes());
        self.ensure(offset % PAGE_SIZE == 0, &format!("{path}.offset"), || {
            format!("an mmap offset must be a multiple of the page size (4096 bytes), got {offset}")
        })?;
        self.ensure(offset <= file_size, &format!("{path}.offset"), || {
            format!(
                "offset {offset} is past the end of file {:?} ({file_size} bytes)",
                file.name
            )
        })?;
        let len = size.map_or(file_size - offset, Size::bytes);
        self.ensure(offset.checked_add(len).is_some_and(|end| end <= file_size), &format!("{path}.size"), || {
            format!("offset + size ({offset} + {len} bytes) must be within file {:?} ({file_size} bytes)", file.name)
        })?;
        self.ensure(len > 0, path, || {
            "the mapping is empty; give a size > 0 or an offset before the end of the file".into()
        })
    }

    pub(super) fn theta_and_rate(&self, path: &str, theta: f64, rate: f64) -> Check {
        self.ensure(
            theta > 0.0 && theta < 10.0,
            &format!("{path}.theta"),
            || format!("zipf theta must be in (0, 10), got {theta}"),
        )?;
        self.ensure(
            rate >= 0.0 && rate.is_finite(),
            &format!("{path}.rate"),
            || format!("rate must be a finite number >= 0 (0 = unlimited), got {rate}"),
        )
    }

    pub(super) fn defined_region(&self, path: &str, name: &str, walk: &Walk<'_, 'a>) -> Check {
        self.ensure(walk.regions.contains(name), path, || {
            format!(
                "region {name:?} is not defined earlier in this task's program by an anon or mmap op; defined: {}",
                sorted_list(walk.regions.iter().copied())
            )
        })
    }

    pub(super) fn declared_file(
        &self,
        path: &str,
        name: &str,
    ) -> Result<&'a FileSpec, ScenarioError> {
        let files = &self.scenario.files;
        let by_name = self
            .files
            .get_or_init(|| files.iter().rev().map(|f| (f.name.as_str(), f)).collect());
        by_name.get(name).copied().ok_or_else(|| {
            let declared = sorted_list(files.iter().map(|f| f.name.as_str()));
            self.index.error_at(
                path,
                format!("unknown file {name:?}; declared [[files]]: {declared}"),
            )
        })
    }

    fn device_exists(&self, path: &str, name: &str, hint: &str) -> Check {
        let devices = &self.scenario.devices;
        self.ensure(devices.iter().any(|d| d.name == name), path, || {
            let declared = sorted_list(devices.iter().map(|d| d.name.as_str()));
            format!("unknown device {name:?}; declared [[devices]]: {declared}{hint}")
        })
    }

    pub(super) fn size(&self, path: &str, size: Size) -> Check {
        self.ensure(size.bytes() <= MAX_SIZE, path, || {
            format!("sizes are limited to 64TiB, got {} bytes", size.bytes())
        })
    }

    pub(super) fn name(&self, path: &str, name: &str, what: &str) -> Check {
        self.ensure(!name.trim().is_empty(), path, || {
            format!("a {what} name must not be empty")
        })
    }

    fn unique_names<'n>(
        &self,
        names: impl Iterator<Item = &'n str>,
        what: &str,
        path_of: impl Fn(usize) -> String,
    ) -> Check {
        let mut seen = HashSet::new();
        for (i, name) in names.enumerate() {
            self.name(&path_of(i), name, what)?;
            self.ensure(seen.insert(name), &path_of(i), || {
                format!("duplicate {what} name {name:?}; names must be unique")
            })?;
        }
        Ok(())
    }
}

/// What a task's program has defined so far, and the marks of all tasks.
pub(super) struct Walk<'w, 'a> {
    pub(super) regions: &'w mut HashSet<&'a str>,
    /// Regions mapped without write permission (prot "r" or "rx").
    pub(super) read_only: HashSet<&'a str>,
    /// Regions made by an anon op (a buffer pool must be one).
    pub(super) anon: HashSet<&'a str>,
    pub(super) marks: &'w mut HashSet<&'a str>,
    /// Files mmapped or read through a buffer pool, and files truncated, anywhere in the
    /// scenario, with the first op's path and what holds the file: the two may not meet (a
    /// page past the new end of a mapped file would be a SIGBUS; a pool would keep the blocks
    /// and write them back).
    pub(super) held: &'w mut HashMap<&'a str, (String, &'static str)>,
    pub(super) truncated: &'w mut HashMap<&'a str, String>,
    /// Each file's `drop_behind` segment size, with the first op's path: one size a file, as
    /// every writer's segments are counted along the file's one append cursor.
    pub(super) segments: &'w mut HashMap<&'a str, (u64, String)>,
    /// The task's replicas (`{i}` in memcg names takes each value below it).
    pub(super) replicas: u32,
    /// Each region's size in 4 KiB pages: what a touch without `count` accesses.
    pub(super) pages: HashMap<&'a str, u64>,
}

/// A program's ops (loop bodies included), and the frames of its private and shared anon
/// regions (each counted once, however often its op runs). Saturating.
fn program_counts(ops: &[Op], frames: &impl Fn(Size) -> u64) -> (u64, u64, u64) {
    let (mut n, mut private, mut shared) = (0u64, 0u64, 0u64);
    for op in ops {
        n = n.saturating_add(1);
        match op {
            Op::Anon(a) if a.shared => shared = shared.saturating_add(frames(a.size)),
            Op::Anon(a) => private = private.saturating_add(frames(a.size)),
            Op::Loop(Loop { body, .. }) => {
                let (a, b, c) = program_counts(body, frames);
                n = n.saturating_add(a);
                private = private.saturating_add(b);
                shared = shared.saturating_add(c);
            }
            _ => {}
        }
    }
    (n, private, shared)
}

fn sorted_list<'n>(names: impl Iterator<Item = &'n str>) -> String {
    let mut names: Vec<&str> = names.collect();
    if names.is_empty() {
        return "(none)".to_string();
    }
    names.sort_unstable();
    names.join(", ")
}
