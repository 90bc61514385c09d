import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { BalanceView } from './components/BalanceView';
import { CounterCharts, RoundsChart } from './components/Charts';
import { Controls, type Knobs } from './components/Controls';
import { DiffTable } from './components/DiffTable';
import { FlagToggles } from './components/FlagToggles';
import { GenerationsView } from './components/GenerationsView';
import { LessonPanel } from './components/LessonPanel';
import { LruView } from './components/LruView';
import { MemcgLruView } from './components/MemcgLruView';
import { ResultsPanel } from './components/ResultsPanel';
import { RunCounters } from './components/RunCounters';
import { ScenarioEditor } from './components/ScenarioEditor';
import { Scrubber } from './components/Scrubber';
import { SharePanel, type Exporters } from './components/SharePanel';
import type { KernelInfo, RunInfo, ScenarioSource } from './engine/protocol';
import { useEngine, WATCHDOG_MS } from './engine/useEngine';
import { useReports } from './engine/useReports';
import { formatNs, speedAt } from './format';
import { applySet, parseControlMessage, parseEmbedParams } from './lib/embed';
import { download, downloadText, resultsMarkdown, seriesCsv, stateJson, svgText } from './lib/exports';
import { anyFlags, isCustom, kernelLabel, NO_FLAGS, swappinessNote, type SideFlags } from './lib/flags';
import { decodeLink, encodeLink, isLinkHash, LinkError, linkErrorText, type LinkState, type View } from './lib/link';
import { ratesOf } from './lib/rates';
import { resultsTable } from './lib/report';
import { applyOverrides, deviceNames, expectTexts, variantNames } from './lib/scenarioText';
import { checkLinkedScenario } from './lib/linkCheck';
import { SCENARIOS } from './scenarios';

/** A seek goes in this many steps at most, so a long replay shows its progress. */
const SEEK_PARTS = 20;

/** A run's kernel as a title: "linux-5.8 + refault_scan_anon off" and a "custom" mark. */
function RunKernel({ run, kernel, testId }: { run: RunInfo; kernel: KernelInfo | null; testId: string }) {
  const custom = isCustom(run);
  return (
    <span className="muted" data-testid={testId} data-custom={custom}>
      ({kernelLabel(kernel, run.preset, run.kernel?.flags)}){custom && <span className="custom-tag run-kernel-custom">custom</span>}
    </span>
  );
}

export const DEFAULT_SPEED_STEP = 10; // 250 ms of virtual time per second

/** A link's state checked against the bundled scenario: unknown variants or devices are errors. */
function checkAgainstScenario(s: LinkState): void {
  const file = SCENARIOS.find((f) => f.name === s.scenario)!;
  const text = s.edited ?? file.text;
  const known = variantNames(text);
  const unknown = s.variants.find((v) => !known.includes(v));
  if (unknown !== undefined) throw new LinkError(`the link names an unknown variant ${JSON.stringify(unknown)} of ${s.scenario} (known: ${known.join(', ')})`);
  const devices = deviceNames(text);
  for (const d of [s.knobs.swapDevice, s.knobs.fileDevice]) {
    if (d !== undefined && !devices.includes(d)) throw new LinkError(`the link names an unknown device ${JSON.stringify(d)} of ${s.scenario} (known: ${devices.join(', ')})`);
  }
}

/** Where to go in virtual time, once the engine has done `load` loads. */
interface Seek {
  ns: number;
  load: number;
  /** Virtual time the seek started from (0 for a replay), for its progress. */
  from: number;
}

export function App() {
  const { state, load, setPlaying, step, setSpeed, reset, setPauseAt, stop: stopEngine } = useEngine();
  const embed = useMemo(() => parseEmbedParams(location.search), []);
  const initialHash = useRef(location.hash);
  /** 'decoding' while a link in the URL is read: nothing loads before it is. */
  const [boot, setBoot] = useState<'decoding' | 'done'>(() => (isLinkHash(initialHash.current) ? 'decoding' : 'done'));
  const [linkError, setLinkError] = useState<string | null>(null);
  const [seek, setSeek] = useState<Seek | null>(null);
  const [linkView, setLinkView] = useState<View | null>(null);
  const embedView: View = embed.view ?? linkView ?? 'lru';
  const [scenarioName, setScenarioName] = useState(SCENARIOS[0]?.name ?? '');
  const [variant, setVariant] = useState<string | null>(null);
  const [compare, setCompare] = useState(false);
  const [variantB, setVariantB] = useState<string | null>(null);
  const [knobs, setKnobs] = useState<Knobs>({});
  /** Flag overrides of side A (the run, or the first of two) and side B (its compare partner). */
  const [sideFlags, setSideFlags] = useState<SideFlags>(NO_FLAGS);
  const [flagsOpen, setFlagsOpen] = useState(false);
  /** The scenario text as edited by hand (null: the file as it is). */
  const [edited, setEdited] = useState<string | null>(null);
  const [speedStep, setSpeedStep] = useState(DEFAULT_SPEED_STEP);
  const [theme, setTheme] = useState<'light' | 'dark'>(() =>
    typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
  );

  const file = SCENARIOS.find((s) => s.name === scenarioName) ?? null;
  const source: ScenarioSource | null = useMemo(
    () => (file ? { name: file.name, text: applyOverrides(edited ?? file.text, knobs) } : null),
    [file, knobs, edited],
  );
  const reports = useReports(boot === 'done' ? source : null);
  const expect = useMemo(() => (file ? expectTexts(file.text) : []), [file]);
  const speed = speedAt(speedStep);

  useEffect(() => setSpeed(speed), [speed, setSpeed]);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  // (Re)load whenever the scenario, its knobs, the variants or compare mode change.
  const variants = state.scenario === scenarioName ? state.variants : [];
  const a = variant ?? variants[0]?.name ?? null;
  const b = variantB ?? variants.find((v) => v.name !== a)?.name ?? a;
  // Until the user picks, the engine runs the first variant (no reload when its name arrives).
  const wanted = compare ? (a && b ? [a, b] : []) : variant ? [variant] : [];
  const wantedKey = wanted.join('\u0000');
  // Flags the engine does not know (from a link) are dropped, with a message naming them.
  useEffect(() => {
    if (!state.kernel) return;
    const known = state.kernel.flags.map((f) => f.name);
    const unknown = sideFlags.flatMap((o) => Object.keys(o)).filter((n) => !known.includes(n));
    if (unknown.length === 0) return;
    const keep = (o: Record<string, boolean>) => Object.fromEntries(Object.entries(o).filter(([n]) => known.includes(n)));
    setSideFlags([keep(sideFlags[0]), keep(sideFlags[1])]);
    setLinkError(`This link names kernel flags this engine does not know: ${unknown.map((n) => JSON.stringify(n)).join(', ')} (known: ${known.join(', ')}); they were left out.`);
  }, [state.kernel, sideFlags]);
  const runFlags = compare ? sideFlags : [sideFlags[0]];
  const flagsKey = JSON.stringify(runFlags);
  useEffect(() => {
    if (source && boot === 'done') load(source, wantedKey ? wantedKey.split('\u0000') : [], JSON.parse(flagsKey));
  }, [source, wantedKey, flagsKey, load, boot]);

  // Another link pasted into the address bar of an open page: start over from it.
  useEffect(() => {
    const onHash = () => {
      if (isLinkHash(location.hash) && location.hash !== initialHash.current) location.reload();
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  // A link in the URL: restore its state (or explain why not and keep the default page).
  useEffect(() => {
    if (boot !== 'decoding') return;
    let live = true;
    decodeLink(initialHash.current, SCENARIOS.map((f) => f.name))
      .then(async (s) => {
        checkAgainstScenario(s);
        await checkLinkedScenario(s, SCENARIOS.find((f) => f.name === s.scenario)!.text);
        if (!live) return;
        setScenarioName(s.scenario);
        setKnobs(s.knobs);
        setEdited(s.edited);
        setCompare(s.compare);
        setVariant(s.variants[0] ?? null);
        setVariantB(s.variants[1] ?? null);
        setSpeedStep(s.speedStep);
        setLinkView(s.view);
        setSideFlags([s.flags?.[0] ?? {}, s.flags?.[1] ?? {}]);
        if (s.timeNs > 0) setSeek({ ns: s.timeNs, load: 1, from: 0 });
      })
      .catch((e: unknown) => {
        if (live) setLinkError(`This link could not be opened: ${linkErrorText(e)}. Showing the default page instead.`);
      })
      .finally(() => {
        if (live) setBoot('done');
      });
    return () => {
      live = false;
    };
  }, [boot]);

  const frames = state.frames;
  const ready = state.phase === 'ready' && frames.length > 0 && frames.length === state.runs.length;
  const finished = ready && frames.every((f) => f.finished);
  const stepNs = Math.max(1_000_000, Math.round(speed / 10));

  // Go to a virtual time (a restored link, or a host's seek): step until there, paused.
  // Stepping is exact whatever the step sizes, so the state equals the one linked.
  const seeking = seek !== null;
  useEffect(() => {
    if (!seek || !ready || state.loads < seek.load) return;
    const now = frames[0]!.nowNs;
    if (finished || now >= seek.ns) setSeek(null);
    else step(Math.min(seek.ns - now, Math.max(1_000_000, Math.ceil((seek.ns - seek.from) / SEEK_PARTS))));
  }, [seek, ready, finished, state.loads, state.seq, frames, step]);
  const seekTo = useCallback(
    (ns: number) => {
      const now = frames[0]?.nowNs ?? 0;
      if (ns >= now) setSeek({ ns, load: state.loads, from: now });
      else {
        reset();
        setSeek({ ns, load: state.loads + 1, from: 0 });
      }
    },
    [frames, state.loads, reset],
  );

  // Embed autoplay: once, when the linked state is in place.
  const autoplayed = useRef(false);
  useEffect(() => {
    if (embed.embed && embed.autoplay && !autoplayed.current && ready && !seeking && !finished && boot === 'done') {
      autoplayed.current = true;
      setPlaying(true);
    }
  }, [embed, ready, seeking, finished, boot, setPlaying]);

  const togglePlay = useCallback(() => {
    if (ready && !finished && !seeking) setPlaying(!state.playing);
  }, [ready, finished, seeking, state.playing, setPlaying]);

  // The postMessage API (README): a host page plays, pauses, seeks and sets knobs.
  useEffect(() => {
    const onMessage = (e: MessageEvent) => {
      const m = parseControlMessage(e.data);
      if (!m) return;
      if (m.action === 'play') {
        if (ready && !finished && !seeking) setPlaying(true);
      } else if (m.action === 'pause') setPlaying(false);
      else if (m.action === 'seek') {
        setPlaying(false);
        seekTo(m.ns);
      } else setKnobs((k) => applySet(k, m));
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [ready, finished, seeking, setPlaying, seekTo]);

  // Keyboard: space play/pause, right arrow step, +/- speed, r reset.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA') && (t as HTMLInputElement).type !== 'checkbox') return;
      if (t?.isContentEditable) return; // the scenario editor
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === ' ') {
        e.preventDefault();
        togglePlay();
      } else if (e.key === 'ArrowRight' || e.key === 'ArrowUp') {
        e.preventDefault();
        if (ready && !finished && !seeking) step(stepNs);
      } else if (e.key === '+' || e.key === '=') {
        setSpeedStep((s) => Math.min(24, s + 1));
      } else if (e.key === '-' || e.key === '_') {
        setSpeedStep((s) => Math.max(0, s - 1));
      } else if (e.key === 'r') {
        reset();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [togglePlay, step, stepNs, ready, finished, seeking, reset]);

  const nowNs = frames[0]?.nowNs ?? 0;
  const endNs = state.runs[0]?.endNs ?? 0;
  // The scrubber spans the furthest time reached by this setup (scenario text, variants,
  // flags); a replay or Reset keeps it, a new setup starts again at 0. Frames of the previous
  // setup (still shown until its load lands) do not count.
  const setupKey = `${source?.name}\u0000${source?.text}\u0000${wantedKey}\u0000${flagsKey}`;
  const furthest = useRef({ key: '', loads: 0, ns: 0 });
  if (furthest.current.key !== setupKey) furthest.current = { key: setupKey, loads: state.loads, ns: 0 };
  if (ready && state.loads > furthest.current.loads && nowNs > furthest.current.ns) furthest.current.ns = nowNs;
  const scrubMax = Math.max(furthest.current.ns, seek?.ns ?? 0);
  const status = state.phase === 'error' ? 'error' : !ready || seeking || boot !== 'done' ? 'loading' : finished ? 'finished' : state.playing ? 'running' : 'paused';

  const linkState = (): LinkState => ({
    scenario: scenarioName,
    knobs,
    edited,
    variants: compare ? (a && b ? [a, b] : []) : variant ? [variant] : [],
    compare: compare && !!a && !!b,
    speedStep,
    view: embed.embed ? embedView : null,
    timeNs: nowNs,
    ...(anyFlags(runFlags) ? { flags: runFlags } : {}),
  });
  const makeLink = () => encodeLink(linkState());
  const resultsReady = reports.status === 'done' && reports.text === source?.text;
  const base = `${scenarioName.replace(/\.toml$/, '')}-${Math.round(nowNs / 1e6)}ms`;
  const exporters: Exporters = {
    csv: () => downloadText(`${base}-series.csv`, seriesCsv(state.runs, state.series, state.counterNames), 'text/csv'),
    json: () => downloadText(`${base}.json`, stateJson(scenarioName, state.runs, frames, state.series, state.counterNames), 'application/json'),
    markdown: () => downloadText(`${scenarioName.replace(/\.toml$/, '')}-results.md`, resultsMarkdown(file?.title ?? scenarioName, reports.reports, resultsTable(reports.reports)), 'text/markdown'),
    toml: () => downloadText(scenarioName, source?.text ?? '', 'application/toml'),
    png: () => {
      const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="run-0-lru-canvas"]');
      canvas?.toBlob((blob) => blob && download(`${base}-lru.png`, blob), 'image/png');
    },
    svg: () => {
      const svg = document.querySelector<SVGSVGElement>('[data-testid="chart-counters"] svg[role="img"]');
      if (svg) downloadText(`${base}-counters.svg`, svgText(svg), 'image/svg+xml');
    },
  };

  // Lessons (the scenario's [[lesson]] steps): captions follow the run; next/previous seek.
  const lessonSeek = useCallback(
    (ns: number) => {
      setPlaying(false);
      seekTo(ns);
    },
    [setPlaying, seekTo],
  );
  const lesson = ready && state.lesson.length > 0 && (
    <LessonPanel steps={state.lesson} nowNs={nowNs} ready={!seeking} onSeek={lessonSeek} onPauseAt={setPauseAt} compact={embed.embed} />
  );

  const banner = linkError && (
    <div className="error link-error" role="alert" data-testid="link-error">
      {linkError}{' '}
      <button type="button" className="ghost" onClick={() => setLinkError(null)} aria-label="Dismiss the link message">
        Dismiss
      </button>
    </div>
  );

  if (embed.embed) {
    return (
      <main className="embed" data-testid="embed" data-view={embedView}>
        {banner}
        {state.error && (
          <div className="error" role="alert" data-testid="engine-error">
            {state.error}
          </div>
        )}
        <div className="embed-bar">
          <button type="button" data-testid="play-toggle" onClick={togglePlay} disabled={!ready || finished || seeking} aria-keyshortcuts="Space" aria-label={state.playing ? 'Pause' : 'Play'}>
            {state.playing ? 'Pause' : 'Play'}
          </button>
          <button type="button" data-testid="step" onClick={() => step(stepNs)} disabled={!ready || finished || seeking} aria-keyshortcuts="ArrowRight" aria-label={`Step ${formatNs(stepNs)}`}>
            +{formatNs(stepNs)}
          </button>
          <strong data-testid="virtual-time">{formatNs(nowNs)}</strong>
          <span className="status" data-testid="status">
            {status}
          </span>
          <a className="muted small" href={`${location.pathname}${location.hash}`} target="_blank" rel="noreferrer">
            Reclaim Lab ↗
          </a>
        </div>
        {lesson}
        {ready && embedView !== 'results' && (
          <section className={`embed-views runs-${frames.length}`} aria-label="Runs" data-testid="runs">
            {embedView === 'charts' ? (
              <section className="charts" aria-label="Charts">
                <CounterCharts runs={state.runs} frames={frames} series={state.series} counterNames={state.counterNames} />
              </section>
            ) : (
              state.runs.map((run, i) => (
                <article key={run.variant + i} className="run" data-testid={`run-${i}`} data-variant={run.variant}>
                  <h2>
                    {run.variant} <RunKernel run={run} kernel={state.kernel} testId={`run-${i}-kernel`} />
                  </h2>
                  {embedView === 'gens' && frames[i]!.gens.length > 0 ? (
                    <GenerationsView info={run} frame={frames[i]!} testPrefix={`run-${i}-`} theme={theme} />
                  ) : embedView === 'lru' || embedView === 'gens' ? (
                    <>
                      {embedView === 'gens' && <p className="muted small" data-testid={`run-${i}-no-gens`}>This variant runs the classic active/inactive LRU: no generations.</p>}
                      <LruView info={run} frame={frames[i]!} rates={ratesOf(state.series[i] ?? [], state.counterNames, run.scale)} testPrefix={`run-${i}-`} theme={theme} />
                    </>
                  ) : embedView === 'memcg' ? (
                    frames[i]!.memcg ? (
                      <MemcgLruView info={run} frame={frames[i]!} testPrefix={`run-${i}-`} />
                    ) : (
                      <p className="muted" data-testid={`run-${i}-memcg-none`}>This scenario has no memory cgroups: the memcg LRU view has nothing to show.</p>
                    )
                  ) : (
                    <BalanceView info={run} frame={frames[i]!} testPrefix={`run-${i}-`} />
                  )}
                </article>
              ))
            )}
          </section>
        )}
        {embedView === 'results' && <ResultsPanel reports={reports} expect={expect} />}
      </main>
    );
  }

  return (
    <main className="app">
      <header className="top">
        <div>
          <h1>Reclaim Lab</h1>
          <p className="tagline">Linux page reclaim, simulated page by page.</p>
        </div>
        <div className="top-right">
          <span className="muted">
            engine <span data-testid="engine-version">{state.engineVersion ?? (state.phase === 'error' ? 'not loaded' : 'loading…')}</span>
          </span>
          <button type="button" className="ghost" onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')} aria-label="Switch colour theme" data-testid="theme-toggle">
            {theme === 'dark' ? 'Light theme' : 'Dark theme'}
          </button>
        </div>
      </header>

      {banner}
      {state.error && (
        <div className="error" role="alert" data-testid="engine-error">
          {state.error}
        </div>
      )}
      {state.stalled && (
        <div className="error" role="alert" data-testid="engine-stalled">
          The engine has not answered for {WATCHDOG_MS / 1000} s.{' '}
          <button type="button" data-testid="engine-stop" onClick={stopEngine}>
            Stop
          </button>{' '}
          (restarts the engine and reloads the scenario from its start)
        </div>
      )}

      <Controls
        scenarios={SCENARIOS}
        scenarioName={scenarioName}
        onScenario={(n) => {
          setScenarioName(n);
          setVariant(null);
          setVariantB(null);
          setKnobs({});
          setEdited(null);
          setSideFlags(NO_FLAGS);
        }}
        description={file?.description ?? ''}
        variants={variants}
        variant={a}
        onVariant={(v) => {
          setVariant(v);
          setSideFlags((f) => [{}, f[1]]);
        }}
        compare={compare}
        onCompare={setCompare}
        variantB={b}
        onVariantB={(v) => {
          setVariantB(v);
          setSideFlags((f) => [f[0], {}]);
        }}
        ready={ready && !seeking}
        playing={state.playing}
        finished={finished}
        onPlay={togglePlay}
        onStep={() => step(stepNs)}
        stepNs={stepNs}
        onReset={reset}
        speedStep={speedStep}
        onSpeedStep={setSpeedStep}
        speed={speed}
        nowNs={nowNs}
        endNs={endNs}
        status={status}
        scenarioText={edited ?? file?.text ?? ''}
        knobs={knobs}
        onKnobs={setKnobs}
        scrubber={
          <Scrubber
            nowNs={nowNs}
            maxNs={scrubMax}
            seek={seek && { ns: seek.ns, from: seek.from }}
            enabled={ready || seeking}
            onSeek={(ns) => {
              setPlaying(false);
              seekTo(ns);
            }}
          />
        }
        flagPanel={
          state.kernel &&
          state.runs.length > 0 && (
            // Kept mounted (and its open state held here) while a toggle reloads the runs.
            <details className="flags-panel" data-testid="flags-panel" open={flagsOpen} onToggle={(e) => setFlagsOpen(e.currentTarget.open)}>
              <summary>Kernel flags: override a behaviour of {compare ? 'either run' : 'the run'} (each flag names the kernel version that changed it)</summary>
              <div className="flags-sides">
                {state.runs.map((run, i) => (
                  <FlagToggles
                    key={i}
                    kernel={state.kernel}
                    side={i}
                    run={run}
                    overrides={sideFlags[i] ?? {}}
                    disabled={seeking || !ready}
                    onChange={(o) => setSideFlags((f) => (i === 0 ? [o, f[1]] : [f[0], o]))}
                  />
                ))}
              </div>
            </details>
          )
        }
        swappinessNote={
          <div className="swappiness-notes" aria-live="polite">
            {state.runs.map((run, i) => {
              const note = swappinessNote(kernelLabel(state.kernel, run.preset, run.kernel?.flags), run);
              return (
                note && (
                  <p key={i} className="swappiness-note" data-testid={`swappiness-note-${i}`}>
                    {state.runs.length > 1 && <strong>{run.variant}: </strong>}
                    {note}
                  </p>
                )
              );
            })}
          </div>
        }
      />

      {lesson}

      <SharePanel makeLink={makeLink} exporters={exporters} ready={ready && !seeking} resultsReady={resultsReady} />

      {file && <ScenarioEditor key={`${file.name}:${boot}`} original={file.text} edited={edited} onApply={setEdited} />}

      {ready && (
        <>
          <section className={`runs runs-${frames.length}`} aria-label="Runs" data-testid="runs" data-seq={state.seq}>
            {state.runs.map((run, i) => (
              <article key={run.variant + i} className="run" data-testid={`run-${i}`} data-variant={run.variant}>
                <h2>
                  {run.variant} <RunKernel run={run} kernel={state.kernel} testId={`run-${i}-kernel`} />{' '}
                  <span className="muted small" data-testid={`run-${i}-time`}>
                    {formatNs(frames[i]!.nowNs)}
                  </span>
                </h2>
                <div className="run-body">
                <LruView
                  info={run}
                  frame={frames[i]!}
                  rates={ratesOf(state.series[i] ?? [], state.counterNames, run.scale)}
                  testPrefix={`run-${i}-`}
                  theme={theme}
                />
                <BalanceView info={run} frame={frames[i]!} testPrefix={`run-${i}-`} />
                {frames[i]!.gens.length > 0 && <GenerationsView info={run} frame={frames[i]!} testPrefix={`run-${i}-`} theme={theme} />}
                </div>
                {frames[i]!.memcg && <MemcgLruView info={run} frame={frames[i]!} testPrefix={`run-${i}-`} />}
                <RunCounters frame={frames[i]!} counterNames={state.counterNames} testPrefix={`run-${i}-`} />
              </article>
            ))}
          </section>
          {frames.length > 1 && <DiffTable runs={state.runs} frames={frames} counterNames={state.counterNames} />}
          <section className="charts" aria-label="Charts">
            <CounterCharts runs={state.runs} frames={frames} series={state.series} counterNames={state.counterNames} />
            {reports.text === source?.text && <RoundsChart reports={reports.reports} />}
          </section>
        </>
      )}

      {anyFlags(runFlags) && (
        <p className="muted small" data-testid="results-flags-note">
          The results table runs the scenario&apos;s variants as written; the kernel flag overrides apply to the live runs above.
        </p>
      )}
      <ResultsPanel reports={reports} expect={expect} />
    </main>
  );
}
