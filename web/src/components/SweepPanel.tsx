// A sweep's table as a heatmap: open the CSV `reclaim sweep` wrote, pick a metric and two
// axes; the other axes are selectors. Each cell links to its run on this page (D3 scales,
// React renders). The values are the table's: nothing is recomputed here.
import { scaleBand, scaleSequential, interpolateViridis } from 'd3';
import { useEffect, useMemo, useState } from 'react';
import { encodeLink } from '../lib/link';
import { guessScenario, heatmap, readSweep, rowLink, values, type SweepTable } from '../lib/sweep';
import type { ScenarioFile } from '../scenarios';
import './sweep.css';

const CELL = 56;
const MARGIN = { left: 90, top: 28, right: 12, bottom: 36 };

const fmt = (v: number) => (Math.abs(v) >= 1000 || Number.isInteger(v) ? Math.round(v).toLocaleString('en-US') : v.toPrecision(3));

function pick<T>(list: readonly T[], want: T | undefined, fallback: number): T | undefined {
  return want !== undefined && list.includes(want) ? want : list[fallback] ?? list[0];
}

export function SweepPanel({ scenarios, speedStep }: { scenarios: readonly ScenarioFile[]; speedStep: number }) {
  const [table, setTable] = useState<SweepTable | null>(null);
  const [fileName, setFileName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [scenario, setScenario] = useState<string>('');
  const [metric, setMetric] = useState<string>();
  const [xAxis, setXAxis] = useState<string>();
  const [yAxis, setYAxis] = useState<string>();
  const [fixed, setFixed] = useState<Record<string, string>>({});
  const [links, setLinks] = useState<Record<number, string>>({});

  const open = async (file: File) => {
    setFileName(file.name);
    try {
      const t = readSweep(await file.text());
      setTable(t);
      setError(null);
      setScenario((s) => guessScenario(file.name, scenarios.map((f) => f.name)) ?? (s || scenarios[0]?.name || ''));
    } catch (e) {
      setTable(null);
      setError(`${file.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  // Axes with more than one value can be the heatmap's; variant and seed count as axes.
  const varying = useMemo(() => (table ? table.axes.filter((a) => values(table, a).length > 1) : []), [table]);
  const m = table ? pick(table.metrics, metric, Math.max(0, table.metrics.indexOf('virtual_s'))) : undefined;
  const x = pick(varying, xAxis, 0);
  const y = pick(varying.filter((a) => a !== x), yAxis === x ? undefined : yAxis, 0) ?? x;
  const others = table ? table.axes.filter((a) => a !== x && a !== y) : [];
  const fixedNow = useMemo(() => {
    const f: Record<string, string> = {};
    if (table) for (const a of others) f[a] = pick(values(table, a), fixed[a], 0)!;
    return f;
  }, [table, others.join(','), fixed]); // eslint-disable-line react-hooks/exhaustive-deps
  const map = useMemo(() => (table && m && x && y ? heatmap(table, m, x, y, fixedNow) : null), [table, m, x, y, fixedNow]);

  // Each cell's link to its run, encoded once the cells are known.
  const file = scenarios.find((f) => f.name === scenario);
  useEffect(() => {
    let live = true;
    setLinks({});
    if (!table || !map || !file) return;
    const rows = map.cells.map((c) => c.row).filter((r): r is number => r !== null);
    Promise.all(rows.map(async (r) => [r, `#${await encodeLink(rowLink(table, r, file.name, speedStep))}`] as const)).then(
      (pairs) => live && setLinks(Object.fromEntries(pairs)),
      (e) => live && setError(`links: ${e instanceof Error ? e.message : String(e)}`),
    );
    return () => {
      live = false;
    };
  }, [table, map, file, speedStep]);

  const xs = map?.xs ?? [];
  const ys = map?.ys ?? [];
  const width = MARGIN.left + MARGIN.right + CELL * xs.length;
  const height = MARGIN.top + MARGIN.bottom + CELL * ys.length;
  const sx = scaleBand<string>().domain(xs).range([MARGIN.left, width - MARGIN.right]).padding(0.04);
  const sy = scaleBand<string>().domain(ys).range([MARGIN.top, height - MARGIN.bottom]).padding(0.04);
  // Viridis is light at its top: dark text there.
  const light = (v: number) => (map?.domain ? (v - map.domain[0]) / (map.domain[1] - map.domain[0] || 1) > 0.6 : false);
  const color = scaleSequential(interpolateViridis).domain(map?.domain && map.domain[0] !== map.domain[1] ? map.domain : [0, 1]);

  return (
    <details className="sweep-panel" data-testid="sweep-panel">
      <summary>Sweep table: a heatmap of a reclaim sweep CSV</summary>
      <p className="muted small">
        Open the CSV of <code>npm run reclaim -- sweep FILE --set swappiness=0,60,200 …</code> (or a reclaimlab DataFrame saved with{' '}
        <code>to_csv(index=False)</code>). Click a cell to open that run here.
      </p>
      <label>
        CSV file{' '}
        <input type="file" accept=".csv,text/csv" data-testid="sweep-file" onChange={(e) => e.currentTarget.files?.[0] && void open(e.currentTarget.files[0])} />
      </label>
      {error && (
        <p className="error" role="alert" data-testid="sweep-error">
          {error}
        </p>
      )}
      {table && (
        <div className="sweep-controls" data-testid="sweep-controls">
          <label>
            scenario{' '}
            <select value={scenario} data-testid="sweep-scenario" onChange={(e) => setScenario(e.target.value)}>
              {scenarios.map((f) => (
                <option key={f.name} value={f.name}>
                  {f.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            metric{' '}
            <select value={m} data-testid="sweep-metric" onChange={(e) => setMetric(e.target.value)}>
              {table.metrics.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </label>
          <label>
            x{' '}
            <select value={x} data-testid="sweep-x" onChange={(e) => setXAxis(e.target.value)}>
              {varying.map((a) => (
                <option key={a}>{a}</option>
              ))}
            </select>
          </label>
          <label>
            y{' '}
            <select value={y} data-testid="sweep-y" onChange={(e) => setYAxis(e.target.value)}>
              {varying.filter((a) => a !== x).map((a) => (
                <option key={a}>{a}</option>
              ))}
            </select>
          </label>
          {others.map((a) => (
            <label key={a}>
              {a}{' '}
              <select value={fixedNow[a]} data-testid={`sweep-fix-${a}`} onChange={(e) => setFixed({ ...fixed, [a]: e.target.value })}>
                {values(table, a).map((v) => (
                  <option key={v}>{v}</option>
                ))}
              </select>
            </label>
          ))}
        </div>
      )}
      {table && varying.length < 2 && <p className="muted">This table varies {varying.length === 0 ? 'no axis' : `only ${varying[0]}`}: a heatmap needs two axes with more than one value.</p>}
      {map && x && y && x !== y && (
        <figure className="sweep-heatmap">
          <svg width={width} height={height} role="img" aria-label={`${m} over ${x} and ${y}`} data-testid="sweep-heatmap">
            {map.cells.map((c) => {
              const rect = (
                <rect
                  x={sx(c.x)}
                  y={sy(c.y)}
                  width={sx.bandwidth()}
                  height={sy.bandwidth()}
                  fill={c.value === null ? '#ddd' : color(c.value)}
                  data-testid="sweep-cell"
                  data-x={c.x}
                  data-y={c.y}
                  data-value={c.value ?? ''}
                >
                  <title>{`${x}=${c.x}, ${y}=${c.y}: ${c.value !== null ? `${m} ${c.value}` : c.error ? `failed: ${c.error}` : 'no run'}`}</title>
                </rect>
              );
              const text = c.value !== null && (
                <text x={sx(c.x)! + sx.bandwidth() / 2} y={sy(c.y)! + sy.bandwidth() / 2} dy="0.35em" textAnchor="middle" fontSize={10} fill={light(c.value) ? '#000' : '#fff'} pointerEvents="none">
                  {fmt(c.value)}
                </text>
              );
              const href = c.row !== null ? links[c.row] : undefined;
              return href ? (
                <a key={`${c.x}|${c.y}`} href={href} target="_blank" rel="noreferrer" data-testid="sweep-cell-link">
                  {rect}
                  {text}
                </a>
              ) : (
                <g key={`${c.x}|${c.y}`}>
                  {rect}
                  {text}
                </g>
              );
            })}
            {xs.map((v) => (
              <text key={`x${v}`} x={sx(v)! + sx.bandwidth() / 2} y={height - MARGIN.bottom + 14} textAnchor="middle" fontSize={11}>
                {v}
              </text>
            ))}
            <text x={(MARGIN.left + width - MARGIN.right) / 2} y={height - 6} textAnchor="middle" fontSize={11} fontWeight="bold">
              {x}
            </text>
            {ys.map((v) => (
              <text key={`y${v}`} x={MARGIN.left - 6} y={sy(v)! + sy.bandwidth() / 2} dy="0.35em" textAnchor="end" fontSize={11}>
                {v}
              </text>
            ))}
            <text x={4} y={MARGIN.top - 10} fontSize={11} fontWeight="bold">
              {y} ↓
            </text>
          </svg>
          <figcaption className="muted small" data-testid="sweep-caption">
            {m}
            {map.domain ? `: ${fmt(map.domain[0])} (dark) to ${fmt(map.domain[1])} (light)` : ': no values'}; grey: failed or not run. {fileName}
          </figcaption>
        </figure>
      )}
    </details>
  );
}
