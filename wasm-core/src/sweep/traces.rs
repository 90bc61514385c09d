//! The native shells' side of trace replay: a trace file read in place (`pread`, never whole)
//! and the traces a scenario names, found relative to the scenario file.
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::Arc;

use crate::scenario::trace::TraceSource;
use crate::scenario::{Budget, Scenario};

/// A trace file, read at offsets as the reader asks.
pub struct FileTrace {
    file: std::fs::File,
    len: u64,
}

impl FileTrace {
    pub fn open(path: &Path) -> Result<FileTrace, String> {
        let file = std::fs::File::open(path)
            .map_err(|e| format!("cannot open trace {}: {e}", path.display()))?;
        let len = file
            .metadata()
            .map_err(|e| format!("cannot read trace {}: {e}", path.display()))?
            .len();
        Ok(FileTrace { file, len })
    }
}

impl TraceSource for FileTrace {
    fn len(&self) -> u64 {
        self.len
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, String> {
        FileExt::read_at(&self.file, buf, offset).map_err(|e| format!("read error: {e}"))
    }
}

/// Supply every trace `scn` names from the files of those names relative to `dir` (the
/// scenario file's folder); each is refused unread when longer than the budget allows.
pub fn attach(scn: &mut Scenario, dir: &Path, budget: &Budget) -> Result<(), String> {
    for name in scn.trace_names() {
        let src = FileTrace::open(&dir.join(&name))?;
        scn.traces.insert(&name, Arc::new(src), budget)?;
    }
    Ok(())
}

/// The bytes of trace `name` at `path`, for a shell that ships them (`sweep::mrc::load_bytes`):
/// opened once and read once, at most the budget and a byte, so that one whose length says
/// less than it holds (it grew, or is a pipe) is refused by what was read, not read whole.
pub fn read_bytes(path: &Path, name: &str, budget: &Budget) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let src = FileTrace::open(path)?;
    crate::scenario::trace::check_len(name, src.len, budget)?;
    let mut bytes = Vec::new();
    (&src.file)
        .take(budget.trace_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read trace {}: {e}", path.display()))?;
    if bytes.len() as u64 > budget.trace_bytes {
        return Err(format!(
            "trace {name:?} is more than {} bytes, though its length said {} when it was \
             opened (the limit: MAX_TRACE_BYTES, see docs/scenarios.md, resource budget; the \
             CLI's --no-budget lifts it)",
            budget.trace_bytes, src.len
        ));
    }
    Ok(bytes)
}
