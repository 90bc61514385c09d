// Exports: the time series as CSV, the counters and series as JSON, the
// results table as Markdown, chart SVG text, and a download helper.
import type { RunFrame, RunInfo } from '../engine/protocol';
import { SERIES_COLUMNS, type ListSizes, type Unit } from '../engine/generated/views';
import type { SeriesRow } from '../engine/series';
import type { RunReport, TableRow } from './report';
import { kernelCells, type KernelRun } from './kernelRun';

/** Header of a series row: each engine column with its unit in its name (`pages`, `count` for
 *  events, `units` for the kernel's lruvec costs, `t_ns`), after the variant. */
export function seriesHeader(): string[] {
  return ['variant', ...SERIES_COLUMNS.map((c) => (c.unit === 'ns' ? c.name : `${c.name}_${UNIT_SUFFIX[c.unit]}`))];
}

const UNIT_SUFFIX: Record<Unit, string> = { ns: 'ns', pages: 'pages', count: 'count', cost: 'units' };

const csvCell = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

export function seriesCsv(runs: RunInfo[], series: SeriesRow[][]): string {
  const lines = [seriesHeader().join(',')];
  runs.forEach((run, r) => {
    for (const values of series[r] ?? []) lines.push([csvCell(run.variant), ...values].join(','));
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
    /** Whole-run counters so far (pages; events for the count columns), /proc/vmstat names. */
    counters: Record<string, number>;
    /** List sizes now (pages). */
    lists: ListSizes;
    series: { columns: string[]; rows: number[][] };
  }[];
}

export function stateJson(scenario: string, runs: RunInfo[], frames: RunFrame[], series: SeriesRow[][], counterNames: string[]): string {
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
        lists: f.lists,
        series: { columns: seriesHeader().slice(1), rows: (series[r] ?? []).map((values) => Array.from(values)) },
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
