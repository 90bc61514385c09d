// The downloads (lib/exports.ts, lib/figure.ts): series CSV, state JSON, results Markdown, the
// scenario TOML, a figure as PNG or SVG carrying its link, and a clip (lib/clip.ts) recorded by
// stepping through a time range, one figure per frame. Their code is loaded when one is asked
// for (an embed never loads it).
import { useEffect, useRef } from 'react';
import type { Exporters } from '../components/SharePanel';
import type { EngineState } from '../engine/useEngine';
import type { ReportsState } from '../engine/useReports';
import type { ScenarioSource } from '../engine/protocol';
import { kernelLabel } from '../lib/flags';
import type { KernelRun } from '../lib/kernelRun';
import { tableRows } from '../lib/report';
import { loadCore } from '../engine/core';

const exportsCode = () => import('../lib/exports');
const figureCode = () => import('../lib/figure');
type FigureCode = Awaited<ReturnType<typeof figureCode>>;

interface ExportDeps {
  state: EngineState;
  scenarioName: string;
  title: string;
  source: ScenarioSource | null;
  reports: ReportsState;
  kernelRuns: KernelRun[];
  nowNs: number;
  ready: boolean;
  seeking: boolean;
  finished: boolean;
  makeLink: () => Promise<string>;
  setPlaying: (on: boolean) => void;
  step: (ns: number) => void;
  seekTo: (ns: number) => void;
}

export function useExports({ state, scenarioName, title, source, reports, kernelRuns, nowNs, ready, seeking, finished, makeLink, setPlaying, step, seekTo }: ExportDeps) {
  const frames = state.frames;
  // File names: a validation scenario's folder becomes part of the name ("validation-thrash-small").
  const stem = scenarioName.replace(/\.toml$/, '').replace(/\//g, '-');
  const base = `${stem}-${Math.round(nowNs / 1e6)}ms`;
  const figureOf = ({ figureSvg }: FigureCode, link: string) =>
    figureSvg({ title, runs: state.runs, kernels: state.runs.map((run) => kernelLabel(state.kernel, run.preset, run.kernel?.flags)), frames, series: state.series, link });
  // The image exports: a complete figure carrying the link that reproduces it.
  const figure = async (): Promise<[string, string, FigureCode]> => {
    const [code, hash] = await Promise.all([figureCode(), makeLink()]);
    const link = `${location.origin}${location.pathname}#${hash}`;
    return [figureOf(code, link), link, code];
  };
  // What the clip recorder reads between its awaits: the latest render's state.
  const live = useRef<{ nowNs: number; ready: boolean; seeking: boolean; finished: boolean; figure(code: FigureCode, link: string): string } | null>(null);
  live.current = { nowNs, ready, seeking, finished, figure: figureOf };
  const drive = useRef({ step, seekTo });
  drive.current = { step, seekTo };
  const rendered = useRef<(() => void)[]>([]);
  useEffect(() => {
    const w = rendered.current;
    rendered.current = [];
    w.forEach((f) => f());
  });
  const recordClipRange = async (fromNs: number, toNs: number, count: number, onProgress: (n: number) => void, signal: AbortSignal) => {
    const [{ ClipCancelled, recordClip }, { download }, code] = await Promise.all([import('../lib/clip'), exportsCode(), figureCode()]);
    const until = async (ok: () => boolean) => {
      for (let t = 0; !ok(); t++) {
        if (signal.aborted) throw new ClipCancelled();
        if (t > 200) throw new Error('the run did not get there');
        await Promise.race([new Promise<void>((r) => rendered.current.push(r)), new Promise((r) => setTimeout(r, 100))]);
      }
    };
    setPlaying(false);
    const link = `${location.origin}${location.pathname}#${await makeLink()}`;
    const at = (i: number) => fromNs + Math.round(((toNs - fromNs) * i) / (count - 1));
    const blob = await recordClip({
      frames: count,
      fps: 10,
      signal,
      onProgress,
      figure: () => live.current!.figure(code, link),
      advance: async (i) => {
        const target = at(i);
        if (i === 0) {
          drive.current.seekTo(target);
          return until(() => live.current!.ready && !live.current!.seeking && (live.current!.nowNs >= target || live.current!.finished));
        }
        for (let k = 0; live.current!.nowNs < target && !live.current!.finished && k < 50; k++) {
          const before = live.current!.nowNs;
          drive.current.step(target - before);
          await until(() => live.current!.nowNs !== before || live.current!.finished);
        }
      },
    });
    download(`${base.replace(/-\d+ms$/, '')}-${Math.round(fromNs / 1e6)}-${Math.round(toNs / 1e6)}ms.webm`, blob);
  };
  const exporters: Exporters = {
    csv: async () => {
      const { downloadText, seriesCsv } = await exportsCode();
      downloadText(`${base}-series.csv`, seriesCsv(state.runs, state.series), 'text/csv');
    },
    json: async () => {
      const { downloadText, stateJson } = await exportsCode();
      downloadText(`${base}.json`, stateJson(scenarioName, state.runs, frames, state.series, state.counterNames), 'application/json');
    },
    markdown: async () => {
      const { downloadText, resultsMarkdown } = await exportsCode();
      downloadText(
        `${stem}-results.md`,
        resultsMarkdown(title, reports.reports, tableRows((await loadCore()).resultsTable([...reports.reports, ...kernelRuns.map((k) => k.report)])), kernelRuns),
        'text/markdown',
      );
    },
    // The scenario as it runs: the file with the setup the engine resolved (knobs, a pair).
    toml: async () => (await exportsCode()).downloadText(`${stem}.toml`, state.text || source?.text || '', 'application/toml'),
    png: async () => {
      const [[svg, link, { figurePng }], { download }] = await Promise.all([figure(), exportsCode()]);
      download(`${base}-figure@2x.png`, await figurePng(svg, link, 2));
    },
    svg: async () => {
      const [[svg], { downloadText }] = await Promise.all([figure(), exportsCode()]);
      downloadText(`${base}-figure.svg`, svg, 'image/svg+xml');
    },
  };
  return { exporters, recordClipRange };
}
