//! Scenario files written in code, for tests: the machine, devices, files and variants a test
//! needs are named once here instead of each test file carrying its own copy of the TOML.
//! The builder writes TOML text, so every test still goes through the parser (and its error
//! locations); task programs stay TOML op lists, which are what each test is about.
use reclaim_core::scenario::{parse, Scenario};

/// A `[[tasks]]` entry: a name, a program (a TOML op list) and the optional keys.
#[derive(Debug, Clone)]
pub struct Task {
    lines: Vec<String>,
    program: String,
}

impl Task {
    pub fn new(name: &str, program: &str) -> Self {
        Task {
            lines: vec![format!("name = {}", quote(name))],
            program: program.to_string(),
        }
    }

    pub fn memcg(self, memcg: &str) -> Self {
        self.key("memcg", &quote(memcg))
    }

    pub fn clients(self, n: u32) -> Self {
        self.key("clients", &n.to_string())
    }

    pub fn replicas(self, n: u32) -> Self {
        self.key("replicas", &n.to_string())
    }

    pub fn start(self, at: &str) -> Self {
        self.key("start", &quote(at))
    }

    /// Any other key, `value` written as TOML.
    pub fn key(mut self, key: &str, value: &str) -> Self {
        self.lines.push(format!("{key} = {value}"));
        self
    }
}

/// A scenario file built section by section. Sections are written in the order the shipped
/// scenarios use: title and seed, `[machine]`, `[sysctl]`, `[[devices]]`, `[[files]]`,
/// `[[variants]]`, `[[memcgs]]`, `[[tasks]]`, `[run]`, then any raw text (`[[lesson]]` steps).
#[derive(Debug, Clone)]
pub struct ScenarioBuilder {
    top: Vec<String>,
    machine: Vec<String>,
    sysctl: Vec<String>,
    devices: Vec<String>,
    files: Vec<String>,
    variants: Vec<String>,
    memcgs: Vec<String>,
    tasks: Vec<String>,
    run: Vec<String>,
    tail: String,
}

impl ScenarioBuilder {
    /// A scenario titled `title`; everything else is added.
    pub fn new(title: &str) -> Self {
        ScenarioBuilder {
            top: vec![format!("title = {}", quote(title))],
            machine: Vec::new(),
            sysctl: Vec::new(),
            devices: Vec::new(),
            files: Vec::new(),
            variants: Vec::new(),
            memcgs: Vec::new(),
            tasks: Vec::new(),
            run: Vec::new(),
            tail: String::new(),
        }
    }

    pub fn seed(mut self, seed: u64) -> Self {
        self.top.push(format!("seed = {seed}"));
        self
    }

    /// `machine.ram`.
    pub fn ram(self, size: &str) -> Self {
        self.machine("ram", &quote(size))
    }

    pub fn frame_scale(self, scale: u32) -> Self {
        self.machine("frame_scale", &scale.to_string())
    }

    /// Swap of `size` on the device `device`.
    pub fn swap(self, device: &str, size: &str) -> Self {
        let value = format!("{{ device = {}, size = {} }}", quote(device), quote(size));
        self.machine("swap", &value)
    }

    pub fn cpus(self, cpus: u32) -> Self {
        self.machine("cpus", &cpus.to_string())
    }

    /// Any other `[machine]` key, `value` written as TOML.
    pub fn machine(mut self, key: &str, value: &str) -> Self {
        self.machine.push(format!("{key} = {value}"));
        self
    }

    /// A `[sysctl]` key, `value` written as TOML.
    pub fn sysctl(mut self, key: &str, value: &str) -> Self {
        self.sysctl.push(format!("{key} = {value}"));
        self
    }

    /// A device of `kind` ("hdd", "ssd", "nvme", "zram", ...) with its defaults.
    pub fn device(mut self, name: &str, kind: &str) -> Self {
        self.devices
            .push(format!("name = {}\nkind = {}", quote(name), quote(kind)));
        self
    }

    /// A file of `size` on the device `device`.
    pub fn file(mut self, name: &str, size: &str, device: &str) -> Self {
        self.files.push(format!(
            "name = {}\nsize = {}\ndevice = {}",
            quote(name),
            quote(size),
            quote(device)
        ));
        self
    }

    /// A tmpfs file of `size`.
    pub fn tmpfs(self, name: &str, size: &str) -> Self {
        self.tmpfs_on(name, size, "tmpfs")
    }

    /// A tmpfs file of `size` whose `device` key names `device` (a tmpfs file ignores it).
    pub fn tmpfs_on(mut self, name: &str, size: &str, device: &str) -> Self {
        self.files.push(format!(
            "name = {}\nsize = {}\ndevice = {}\ntmpfs = true",
            quote(name),
            quote(size),
            quote(device)
        ));
        self
    }

    /// A variant on `preset` without flag overrides.
    pub fn variant(self, name: &str, preset: &str) -> Self {
        self.variant_with(name, preset, &[])
    }

    /// A variant on `preset` with more keys (`flags`, `sysctl`), values written as TOML.
    pub fn variant_with(mut self, name: &str, preset: &str, keys: &[(&str, &str)]) -> Self {
        let mut v = format!("name = {}\npreset = {}", quote(name), quote(preset));
        for (key, value) in keys {
            v += &format!("\n{key} = {value}");
        }
        self.variants.push(v);
        self
    }

    /// A memcg under the root with the given limits (`min`, `low`, `high`, `max`: sizes).
    pub fn memcg(mut self, name: &str, limits: &[(&str, &str)]) -> Self {
        let mut m = format!("name = {}", quote(name));
        for (key, size) in limits {
            m += &format!("\n{key} = {}", quote(size));
        }
        self.memcgs.push(m);
        self
    }

    /// A memcg under `parent` with the given limits, as [`Self::memcg`].
    pub fn memcg_in(mut self, name: &str, parent: &str, limits: &[(&str, &str)]) -> Self {
        let mut m = format!("name = {}\nparent = {}", quote(name), quote(parent));
        for (key, size) in limits {
            m += &format!("\n{key} = {}", quote(size));
        }
        self.memcgs.push(m);
        self
    }

    /// A task with a name and a program only.
    pub fn task(self, name: &str, program: &str) -> Self {
        self.task_spec(Task::new(name, program))
    }

    pub fn task_spec(mut self, t: Task) -> Self {
        let mut text = t.lines.join("\n");
        text += &format!("\nprogram = {}", t.program);
        self.tasks.push(text);
        self
    }

    /// `run.duration`.
    pub fn duration(self, d: &str) -> Self {
        self.run("duration", &quote(d))
    }

    pub fn measure_from(self, mark: &str) -> Self {
        self.run("measure_from", &quote(mark))
    }

    /// Any other `[run]` key, `value` written as TOML.
    pub fn run(mut self, key: &str, value: &str) -> Self {
        self.run.push(format!("{key} = {value}"));
        self
    }

    /// Text written after `[run]` as it is (`[[lesson]]` steps, `[[expect]]`).
    pub fn tail(mut self, text: &str) -> Self {
        self.tail += text;
        self
    }

    /// The scenario file.
    pub fn toml(&self) -> String {
        let mut out = String::new();
        let lines = |out: &mut String, lines: &[String]| {
            for l in lines {
                out.push_str(l);
                out.push('\n');
            }
        };
        let table = |out: &mut String, header: &str, body: &[String]| {
            if !body.is_empty() {
                out.push_str(header);
                out.push('\n');
                lines(out, body);
            }
        };
        let array = |out: &mut String, header: &str, items: &[String]| {
            for item in items {
                out.push_str(header);
                out.push('\n');
                out.push_str(item);
                out.push('\n');
            }
        };
        lines(&mut out, &self.top);
        table(&mut out, "[machine]", &self.machine);
        table(&mut out, "[sysctl]", &self.sysctl);
        array(&mut out, "[[devices]]", &self.devices);
        array(&mut out, "[[files]]", &self.files);
        array(&mut out, "[[variants]]", &self.variants);
        array(&mut out, "[[memcgs]]", &self.memcgs);
        array(&mut out, "[[tasks]]", &self.tasks);
        table(&mut out, "[run]", &self.run);
        out.push_str(&self.tail);
        out
    }

    /// The scenario file, parsed; panics with the parser's message.
    pub fn parse(&self) -> Scenario {
        let text = self.toml();
        parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
    }
}

/// `s` as a TOML basic string.
pub fn quote(s: &str) -> String {
    format!("{s:?}")
}
