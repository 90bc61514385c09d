// Exports: the time series as CSV, the counters and series as JSON, the
// results table as Markdown, chart SVG text, and a download helper.
import type { RunFrame, RunInfo } from '../engine/protocol';
import type { RunReport, TableRow } from './report';
import { kernelCells, type KernelRun } from './kernelRun';

const LIST_COLUMNS = ['inactive_anon', 'active_anon', 'inactive_file', 'active_file', 'unevictable', 'free'];

/** Header of a series row, each column's unit in its name: virtual time (ns), the six list
 *  sizes and the counters (pages), the two reclaim costs (the kernel's lruvec cost units). */
export function seriesHeader(counterNames: string[]): string[] {
  return ['variant', 't_ns', ...LIST_COLUMNS.map((c) => `${c}_pages`), 'anon_cost_units', 'file_cost_units', ...counterNames.map((c) => `${c}_pages`)];
}

/** One row of the engine's series (frames) in pages, following `seriesHeader`. */
function rowValues(row: ArrayLike<number>, scale: number, counters: number): number[] {
  const out = [row[0]!];
  for (let i = 1; i <= 6; i++) out.push(row[i]! * scale);
  out.push(row[7]!, row[8]!);
  for (let i = 0; i < counters; i++) out.push(row[9 + i]! * scale);
  return out;
}

const csvCell = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

export function seriesCsv(runs: RunInfo[], series: ArrayLike<number>[][], counterNames: string[]): string {
  const lines = [seriesHeader(counterNames).join(',')];
  runs.forEach((run, r) => {
    for (const row of series[r] ?? []) lines.push([csvCell(run.variant), ...rowValues(row, run.scale, counterNames.length)].join(','));
  });
  return `${lines.join('\n')}\n`;
}

export interface StateExport {
  scenario: string;
  runs: {
    variant: string;
    preset: string;
    scale: number;
    now_ns: number;
    finished: boolean;
    /** Whole-run counters so far (pages), /proc/vmstat names. */
    counters: Record<string, number>;
    lists: Record<string, number>;
    series: { columns: string[]; rows: number[][] };
  }[];
}

export function stateJson(scenario: string, runs: RunInfo[], frames: RunFrame[], series: ArrayLike<number>[][], counterNames: string[]): string {
  const doc: StateExport = {
    scenario,
    runs: runs.map((run, r) => {
      const f = frames[r]!;
      return {
        variant: run.variant,
        preset: run.preset,
        scale: run.scale,
        now_ns: f.nowNs,
        finished: f.finished,
        counters: Object.fromEntries(counterNames.map((n, i) => [n, f.counters[i]!])),
        lists: Object.fromEntries(LIST_COLUMNS.map((n, i) => [n, f.lru[i]!])),
        series: { columns: seriesHeader(counterNames).slice(1), rows: (series[r] ?? []).map((row) => rowValues(row, run.scale, counterNames.length)) },
      };
    }),
  };
  return `${JSON.stringify(doc, null, 1)}\n`;
}

const mdCell = (s: string) => s.replace(/\|/g, '\\|');

/** The before/after table as GitHub Markdown. */
export function resultsMarkdown(title: string, reports: RunReport[], rows: TableRow[], kernels: KernelRun[] = []): string {
  // Real kernel runs (issue #27 §2): rows built over [...reports, ...kernels], a column each.
  const head = [
    'metric (measured window)',
    ...reports.map((r) => `${r.variant} (${r.preset}, swappiness ${r.swappiness})`),
    ...kernels.map((k) => `real kernel ${k.report.variant} (${k.kernel.name} ${k.kernel.release}, ${k.accelerator}, swappiness ${k.report.swappiness})`),
  ];
  const lines = [`### ${mdCell(title)}`, '', `| ${head.map(mdCell).join(' | ')} |`, `|${head.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`];
  const text = (v: number, digits: number) => (Number.isFinite(v) ? v.toLocaleString('en-US', { maximumFractionDigits: digits }) : '—');
  for (const row of rows) {
    const cells = row.values.slice(0, reports.length).map((v, i) => (i === 0 || !Number.isFinite(v) || row.changes[i] === '—' ? text(v, row.digits) : `${text(v, row.digits)} (${row.changes[i]})`));
    const kcells = kernelCells(row, reports, kernels).map((c) => (Number.isFinite(c.ratio) ? `${text(c.value, row.digits)} (×${text(c.ratio, 2)} of the model)` : text(c.value, row.digits)));
    lines.push(`| ${[row.label, ...cells, ...kcells].map(mdCell).join(' | ')} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** A standalone SVG document of an inline <svg> (namespace, size, colours resolved inline). */
export function svgText(svg: SVGSVGElement): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const vb = svg.viewBox.baseVal;
  if (vb && vb.width > 0) {
    copy.setAttribute('width', String(vb.width));
    copy.setAttribute('height', String(vb.height));
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
}

/** Save a blob under a file name (Blob URL + <a download>). */
export function download(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadText(name: string, text: string, type: string): void {
  download(name, new Blob([text], { type }));
}
