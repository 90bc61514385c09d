// The page's state, composed from one hook per concern; EmbedApp and FullApp render it.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useEngine } from '../engine/useEngine';
import { useReports } from '../engine/useReports';
import { parseEmbedParams } from '../lib/embed';
import { countersNamed, currentStep, type LessonStep } from '../lib/lesson';
import { VIEWS } from '../lib/link';
import { useExports } from './useExports';
import { useHostApi } from './useHostApi';
import { useCommands } from './useCommands';
import { useKeys } from './useKeys';
import { useDrop, useKernelRuns } from './useKernelRuns';
import { useLink } from './useLink';
import { runPhase, useAhead, useSeek } from './useSeek';
import { useSetup } from './useSetup';
import { useTrace } from './useTrace';
import { useTransport } from './useTransport';

const NO_STEPS: LessonStep[] = [];

/** No expectations (one array, so effects that depend on it do not rerun). */
const NO_EXPECT: string[] = [];

export function useApp() {
  const engine = useEngine();
  const { state, load, setPlaying, step, setSpeed, reset } = engine;
  const embed = useMemo(() => parseEmbedParams(location.search), []);
  const setup = useSetup(state);
  const phase = runPhase(state);
  const { frames, broken, finished, nowNs } = phase;
  // A scenario whose trace the page does not hold waits for the user: the runs the engine still
  // holds are the previous scenario's, not to be played under this one's name.
  const waitsForTrace = setup.missingTraces.length > 0;
  const ready = phase.ready && !waitsForTrace;
  const { seek, seeking, seekTo, seekAfterLoad } = useSeek(state, engine.seek);
  const trace = useTrace(setup);
  const link = useLink({ embed, setup, state, nowNs, seeking, seekAfterLoad, trace });
  const { boot } = link;
  const kernel = useKernelRuns(setup);
  // A trace dropped anywhere on the page (useTrace reads it).
  const dropTrace = useRef(trace.load);
  dropTrace.current = trace.load;
  useDrop(!embed.embed, kernel.loadKernelRef, kernel.onFilesDropped, link.setLinkError, dropTrace);
  /** Another scenario, from its defaults (a kernel run of the previous one no longer fits). */
  const openScenario = (n: string) => {
    setup.open(n);
    kernel.clear();
  };
  const { file, source, speed, wantedKey, flagsKey } = setup;

  // An embed runs the results only when its view shows them (the results, the charts' rounds):
  // elsewhere the results workers would take a core from the live runs' seeks for nothing.
  const view = link.embedView;
  const showsResults = !embed.embed || view === 'results' || (view === 'charts' && (embed.chart ?? 'rounds') === 'rounds');
  const reports = useReports(boot === 'done' && showsResults ? source : null);
  // The file's expectations, as the engine read them (none until it has loaded this scenario).
  const expect = (state.scenario === file?.name && state.file?.expect) || NO_EXPECT;
  const [theme, setTheme] = useState<'light' | 'dark'>(() =>
    typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
  );
  useEffect(() => setSpeed(speed), [speed, setSpeed]);
  useEffect(() => {
    if (waitsForTrace) setPlaying(false);
  }, [waitsForTrace, setPlaying]);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  // (Re)load whenever the scenario, its knobs, the variants or compare mode change.
  useEffect(() => {
    if (source && boot === 'done') load(source, wantedKey ? wantedKey.split('\u0000') : [], JSON.parse(flagsKey));
  }, [source, wantedKey, flagsKey, load, boot]);

  const stepNs = Math.max(1_000_000, Math.round(speed / 10));
  // Embed autoplay: once, when the linked state is in place.
  const autoplayed = useRef(false);
  useEffect(() => {
    if (embed.embed && embed.autoplay && !autoplayed.current && ready && !seeking && !finished && boot === 'done') {
      autoplayed.current = true;
      setPlaying(true);
    }
  }, [embed, ready, seeking, finished, boot, setPlaying]);
  // A knob comparison sets the lesson aside (parts.tsx): no step to pause at or step through.
  const lessonSteps = (!embed.embed || embed.lesson) && !setup.swapPair ? state.lesson : NO_STEPS;
  useAhead(state, lessonSteps, seeking, engine.ahead);
  // The counters the caption of the step shown names (the stage shows each of them).
  const caption = lessonSteps[currentStep(lessonSteps, nowNs)]?.caption ?? '';
  const namedCounters = useMemo(() => countersNamed(caption, state.counterNames), [caption, state.counterNames]);
  const transport = useTransport({ ready, finished, seeking, playing: state.playing, nowNs, stepNs, lessonSteps, setPlaying, step, seekTo });
  // Loaded, the link restored and no seek running: keys and host commands apply now, else wait.
  const idle = ready && !seeking && boot === 'done';
  const commands = useCommands(idle);
  useKeys({ togglePlay: transport.togglePlay, go: transport.go, reset, setSpeedStep: setup.setSpeedStep, run: commands.run });

  const endNs = state.runs[0]?.endNs ?? 0;
  const reportsFit = reports.scenario === source;
  // Where the runs really end: the results worker's report of each run's variant (runs stop when
  // every task has exited), or the moment they all finished; null until one of them is known.
  const reportEnds = state.runs.map((r) => (reportsFit ? reports.reports.find((x) => x.variant === r.variant)?.virtual_s : undefined));
  const realEndNs = finished ? nowNs : reportEnds.length > 0 && reportEnds.every((s) => s !== undefined) ? Math.round(Math.max(...(reportEnds as number[])) * 1e9) : null;
  // The scrubber spans the furthest time reached by this setup (scenario text, variants,
  // flags); a replay or Reset keeps it, a new setup starts again at 0. Frames of the previous
  // setup (still shown until its load lands) do not count.
  const setupKey = `${source?.name}\u0000${source?.text}\u0000${JSON.stringify(source?.setup)}\u0000${wantedKey}\u0000${flagsKey}`;
  const furthest = useRef({ key: '', loads: 0, ns: 0 });
  if (furthest.current.key !== setupKey) furthest.current = { key: setupKey, loads: state.loads, ns: 0 };
  if (ready && state.loads > furthest.current.loads && nowNs > furthest.current.ns) furthest.current.ns = nowNs;
  const scrubMax = Math.max(furthest.current.ns, seek?.toNs ?? 0);
  const status = boot === 'done' && waitsForTrace ? 'waiting for the trace' : state.phase === 'error' || broken ? 'error' : !ready || seeking || boot !== 'done' ? 'loading' : finished ? 'finished' : state.playing ? 'running' : 'paused';

  useHostApi({ embed, idle, run: commands.run, ready, finished, seeking, status, nowNs, stepNs, lessonSteps, setPlaying, go: transport.go, pauseAndSeek: transport.pauseAndSeek, setKnobs: setup.setKnobs });
  // The views an embed of this state can show: generations and memcg only where they exist.
  const embedViews = VIEWS.filter((v) => (v === 'gens' ? frames.some((f) => f.gens) : v === 'memcg' ? frames.some((f) => f.memcg) : true));
  const resultsReady = reports.status === 'done' && reportsFit;
  const exports = useExports({
    state,
    scenarioName: setup.scenarioName,
    title: file?.title ?? setup.scenarioName,
    source,
    reports,
    kernelRuns: kernel.kernelRuns,
    nowNs,
    ready,
    seeking,
    finished,
    makeLink: link.makeLink,
    setPlaying,
    step,
    seekTo,
  });

  return {
    engine,
    state,
    embed,
    setup,
    link,
    kernel,
    trace,
    openScenario,
    reports,
    reportsFit,
    expect,
    theme,
    setTheme,
    frames,
    broken,
    ready,
    finished,
    nowNs,
    seek,
    seeking,
    stepNs,
    namedCounters,
    transport,
    endNs,
    realEndNs,
    scrubMax,
    status,
    embedViews,
    resultsReady,
    exports,
  };
}

export type AppModel = ReturnType<typeof useApp>;
