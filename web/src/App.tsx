import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { BalanceView } from './components/BalanceView';
import { RefaultView } from './components/RefaultView';
import { CounterCharts, RoundsChart } from './components/Charts';
import { Controls, type Knobs } from './components/Controls';
import { DiffTable } from './components/DiffTable';
import { FitFrame } from './components/FitFrame';
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
import { SweepPanel } from './components/SweepPanel';
import type { KernelInfo, RunInfo, ScenarioSource } from './engine/protocol';
import { useEngine, WATCHDOG_MS } from './engine/useEngine';
import { useReports } from './engine/useReports';
import { useKernelAssessment } from './engine/useKernelAssessment';
import { formatNs, speedAt } from './format';
import { applySet, parseControlMessage, parseEmbedParams } from './lib/embed';
import { HostChannel, hostStatus, lessonTarget } from './lib/hostApi';
import { KernelOverlay, type KernelError } from './components/KernelOverlay';
import { isJsonFile, KernelRunError, mergeRuns, mismatch, readKernelFile, type KernelRun } from './lib/kernelRun';
import { keyAction } from './lib/keys';
import { freezeUrlState, loadDraft, saveDraft, useUrlState } from './lib/urlState';
import { download, downloadText, resultsMarkdown, seriesCsv, stateJson } from './lib/exports';
import { figurePng, figureSvg, linkOfImage } from './lib/figure';
import { ClipCancelled, recordClip } from './lib/clip';
import { ClipExport } from './components/ClipExport';
import { anyFlags, isCustom, kernelLabel, NO_FLAGS, swappinessNote, type SideFlags } from './lib/flags';
import { decodeLink, encodeLink, isLinkHash, LinkError, linkErrorText, VIEWS, type LinkState, type View } from './lib/link';
import type { LessonStep } from './lib/lesson';
import { ratesOf } from './lib/rates';
import { resultsTable } from './lib/report';
import { applyOverrides, deviceNames, expectTexts, pairName, swappinessPair, variantNames, variantPresets } from './lib/scenarioText';
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

/** Scenario text the core refused, where the runs would be (they are not shown: nothing plays). */
function RunError({ error }: { error: string }) {
  return (
    <section className="run-error error" role="alert" aria-label="The scenario did not load" data-testid="engine-error">
      <strong>Nothing to run: </strong>
      {error}
    </section>
  );
}

export const DEFAULT_SPEED_STEP = 10; // 250 ms of virtual time per second
/** localStorage key: the first-visit line was dismissed. */
const INTRO_KEY = 'reclaim-lab-intro-seen';

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

const NO_STEPS: LessonStep[] = [];

/** The lesson views (lib/lesson.ts) each embed view shows. */
const EMBED_LESSON_VIEWS: Record<View, readonly string[]> = {
  lru: ['lru'],
  gens: [],
  balance: ['balance'],
  charts: ['charts'],
  results: ['results'],
  memcg: [],
};

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
  /** Compare one kernel (the chosen variant) at two swappiness values (null: off). */
  const [swapPair, setSwapPair] = useState<[number, number] | null>(null);
  const [introSeen, setIntroSeen] = useState(() => {
    try {
      return localStorage.getItem(INTRO_KEY) === '1';
    } catch {
      return false;
    }
  });
  /** Flag overrides of side A (the run, or the first of two) and side B (its compare partner). */
  const [sideFlags, setSideFlags] = useState<SideFlags>(NO_FLAGS);
  const [flagsOpen, setFlagsOpen] = useState(false);
  /** The scenario text as edited by hand (null: the file as it is). */
  const [edited, setEdited] = useState<string | null>(null);
  const [speedStep, setSpeedStep] = useState(DEFAULT_SPEED_STEP);
  /** Real kernel runs overlaid on the model (issue #27 §2), and why the last file was refused. */
  const [kernelRuns, setKernelRuns] = useState<KernelRun[]>([]);
  const [kernelError, setKernelError] = useState<KernelError | null>(null);
  const [theme, setTheme] = useState<'light' | 'dark'>(() =>
    typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
  );

  const file = SCENARIOS.find((s) => s.name === scenarioName) ?? null;
  /** Another scenario, from its defaults (a kernel run of the previous one no longer fits). */
  const openScenario = (n: string) => {
    setScenarioName(n);
    setVariant(null);
    setVariantB(null);
    setKnobs({});
    setEdited(null);
    setSideFlags(NO_FLAGS);
    setSwapPair(null);
    setKernelRuns([]);
    setKernelError(null);
  };
  // A kernel run's JSON (file picker or drop): checked, then overlaid if it is of this scenario;
  // a run of another bundled scenario is offered to open with it.
  // (Checked against the scenario shown when the files have been read, which may be another.)
  const shownNow = useRef({ name: scenarioName, title: '', variants: [] as string[] });
  shownNow.current = { name: scenarioName, title: file?.title ?? scenarioName, variants: variantNames(edited ?? file?.text ?? '') };
  const loadKernel = useRef<(files: File[]) => void>(() => {});
  loadKernel.current = (files: File[]) => {
    void Promise.all(files.map(readKernelFile)).then(
      (lists) => {
        const runs = lists.flat();
        const shown = shownNow.current;
        const why = mismatch(runs, shown);
        if (why === null) {
          setKernelRuns((old) => mergeRuns(old, runs));
          setKernelError(null);
          return;
        }
        const other = SCENARIOS.find((f) => f.title === runs[0]!.report.scenario && f.name !== shown.name);
        const fits = other && runs.every((r) => r.report.scenario === other.title) && mismatch(runs, { title: other.title, variants: variantNames(other.text) }) === null;
        setKernelError({
          text: `${why}.${fits ? '' : ' Open the scenario it ran, then load it again.'}`,
          ...(fits
            ? {
                open: {
                  title: other.title,
                  onOpen: () => {
                    openScenario(other.name);
                    setKernelRuns(runs);
                    setKernelError(null);
                  },
                },
              }
            : {}),
        });
      },
      (e: unknown) => setKernelError({ text: e instanceof KernelRunError ? e.message : `The kernel run could not be read: ${String(e)}` }),
    );
  };
  const baseText = useMemo(() => (file ? applyOverrides(edited ?? file.text, knobs) : ''), [file, knobs, edited]);
  // A knob comparison runs two copies of the chosen variant, each with its own swappiness.
  const pairBase = swapPair ? (variant ?? variantNames(baseText)[0] ?? null) : null;
  const pairText = useMemo(() => (swapPair && pairBase ? swappinessPair(baseText, pairBase, swapPair) : null), [baseText, pairBase, swapPair]);
  const source: ScenarioSource | null = useMemo(() => (file ? { name: file.name, text: pairText ?? baseText } : null), [file, baseText, pairText]);
  const reports = useReports(boot === 'done' ? source : null);
  // The engine's figures (headline rows) over the model's reports and the kernel runs together.
  const kernelAssessment = useKernelAssessment(reports.status === 'done' ? reports.text : null, reports.reports, kernelRuns);
  const expect = useMemo(() => (file ? expectTexts(file.text) : []), [file]);
  const speed = speedAt(speedStep);

  useEffect(() => setSpeed(speed), [speed, setSpeed]);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  // (Re)load whenever the scenario, its knobs, the variants or compare mode change.
  const loadedVariants = state.scenario === scenarioName ? state.variants : [];
  // In a knob comparison the picker still offers the scenario's own variants.
  const variants = pairText ? variantPresets(baseText) : loadedVariants;
  const a = variant ?? variants[0]?.name ?? null;
  const b = variantB ?? variants.find((v) => v.name !== a)?.name ?? a;
  // Until the user picks, the engine runs the first variant (no reload when its name arrives).
  const wanted =
    pairText && pairBase && swapPair
      ? swapPair.map((s) => pairName(pairBase, s))
      : compare
        ? a && b
          ? [a, b]
          : []
        : variant
          ? [variant]
          : [];
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
      // The page writes its own hash with replaceState (no hashchange): this is the user's.
      if (isLinkHash(location.hash)) {
        freezeUrlState();
        location.reload();
      }
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  // An exported figure dropped onto the page: open the state it carries (its `#v1=` link).
  useEffect(() => {
    if (embed.embed) return;
    const over = (e: DragEvent) => {
      if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      const f = e.dataTransfer?.files[0];
      if (!f) return;
      e.preventDefault();
      // A JSON file is a real kernel's run for the overlay; anything else an exported figure.
      const files = [...(e.dataTransfer?.files ?? [])];
      if (files.some(isJsonFile)) {
        loadKernel.current(files);
        document.querySelector('[data-testid="kernel-overlay"]')?.scrollIntoView({ block: 'nearest' });
        return;
      }
      linkOfImage(f)
        .then((link) => {
          const hash = link?.slice(link.indexOf('#')) ?? '';
          if (!link || !isLinkHash(hash)) setLinkError(`${f.name} carries no Reclaim Lab link: only figures exported by this page (PNG or SVG) can be dropped here.`);
          else {
            history.replaceState(history.state, '', `${location.pathname}${location.search}${hash}`);
            location.reload(); // the page starts over from that link
          }
        })
        .catch(() => setLinkError(`${f.name} could not be read.`));
    };
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [embed.embed]);

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
        setSwapPair(s.swapPair ?? null);
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
  // Scenario text the core refused (on a first load too, e.g. a reload of such text): its error
  // stands where the runs would be, and nothing plays.
  // (client.ts words a `scenario` error so; a rejected message leaves the runs as they are.)
  const broken = state.phase !== 'error' && !!state.error?.startsWith('The scenario could not be loaded');
  const ready = state.phase === 'ready' && !broken && frames.length > 0 && frames.length === state.runs.length;
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

  const nowNs = frames[0]?.nowNs ?? 0;
  // Forwards / back, for clicker keys and the host's next/prev: the lesson's steps when the
  // scenario has a lesson (and it is shown), else one step of virtual time.
  const lessonSteps = !embed.embed || embed.lesson ? state.lesson : NO_STEPS;
  const go = useCallback(
    (dir: 1 | -1, unit: 'lesson' | 'time' = lessonSteps.length > 0 ? 'lesson' : 'time', ns = stepNs) => {
      if (!ready || seeking) return;
      if (unit === 'lesson') {
        const to = lessonTarget(lessonSteps, nowNs, dir);
        if (to === null) return;
        setPlaying(false);
        seekTo(to);
      } else if (dir > 0) {
        if (!finished) step(ns);
      } else if (nowNs > 0) {
        setPlaying(false);
        seekTo(Math.max(0, nowNs - ns));
      }
    },
    [lessonSteps, ready, seeking, finished, nowNs, stepNs, step, seekTo, setPlaying],
  );

  // The postMessage API (docs/embedding.md, lib/embed.ts, lib/hostApi.ts): a host page drives the embed
  // and, after a ping, hears back its status, time and lesson step.
  const snapshot = useRef<() => void>(() => {});
  const channel = useMemo(
    () => new HostChannel(embed.host, (msg, origin) => window.parent !== window && window.parent.postMessage(msg, origin)),
    [embed.host],
  );
  useEffect(() => {
    const onMessage = (e: MessageEvent) => {
      if (!channel.accepts(e.origin)) return;
      const m = parseControlMessage(e.data);
      if (!m) return;
      if (m.action === 'play') {
        if (ready && !finished && !seeking) setPlaying(true);
      } else if (m.action === 'pause') setPlaying(false);
      else if (m.action === 'ping') {
        channel.ping(e.origin, m.id);
        snapshot.current(); // the state as it is now, to a host that just said where events go
      }
      else if (m.action === 'step') go(1, 'time', m.ns ?? stepNs);
      else if (m.action === 'next' || m.action === 'prev') go(m.action === 'next' ? 1 : -1);
      else if (m.action === 'seek') {
        setPlaying(false);
        seekTo(m.ns);
      } else setKnobs((k) => applySet(k, m));
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [channel, ready, finished, seeking, setPlaying, seekTo, go, stepNs]);

  // Keyboard (lib/keys.ts): Space play/pause, PageDown/PageUp (clickers) next/previous lesson
  // step, → ↑ / ← one time step forwards/back, +/- speed, r reset; never a key the focused
  // control uses itself.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const action = keyAction(e);
      if (!action) return;
      if (['play', 'next', 'prev', 'forward', 'back'].includes(action)) e.preventDefault();
      if (action === 'play') togglePlay();
      else if (action === 'next') go(1);
      else if (action === 'prev') go(-1);
      else if (action === 'forward') go(1, 'time');
      else if (action === 'back') go(-1, 'time');
      else if (action === 'faster') setSpeedStep((s) => Math.min(24, s + 1));
      else if (action === 'slower') setSpeedStep((s) => Math.max(0, s - 1));
      else reset();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [togglePlay, go, reset]);

  const endNs = state.runs[0]?.endNs ?? 0;
  // Where the runs really end: the results worker's report of each run's variant (runs stop when
  // every task has exited), or the moment they all finished; null until one of them is known.
  const reportEnds = state.runs.map((r) => (reports.text === source?.text ? reports.reports.find((x) => x.variant === r.variant)?.virtual_s : undefined));
  const realEndNs = finished ? nowNs : reportEnds.length > 0 && reportEnds.every((s) => s !== undefined) ? Math.round(Math.max(...(reportEnds as number[])) * 1e9) : null;
  // The scrubber spans the furthest time reached by this setup (scenario text, variants,
  // flags); a replay or Reset keeps it, a new setup starts again at 0. Frames of the previous
  // setup (still shown until its load lands) do not count.
  const setupKey = `${source?.name}\u0000${source?.text}\u0000${wantedKey}\u0000${flagsKey}`;
  const furthest = useRef({ key: '', loads: 0, ns: 0 });
  if (furthest.current.key !== setupKey) furthest.current = { key: setupKey, loads: state.loads, ns: 0 };
  if (ready && state.loads > furthest.current.loads && nowNs > furthest.current.ns) furthest.current.ns = nowNs;
  const scrubMax = Math.max(furthest.current.ns, seek?.ns ?? 0);
  const status = state.phase === 'error' || broken ? 'error' : !ready || seeking || boot !== 'done' ? 'loading' : finished ? 'finished' : state.playing ? 'running' : 'paused';

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
    ...(swapPair ? { swapPair } : {}),
  });
  const makeLink = () => encodeLink(linkState());
  // Typed but not run before a reload: the editor opens on it (read once per scenario).
  const restoredDraft = useMemo(() => (file && boot === 'done' ? loadDraft(file.name, edited ?? file.text) : null), [file?.name, boot]); // eslint-disable-line react-hooks/exhaustive-deps
  // The address bar follows the state (not in an embed: its URL is the host's to keep).
  const stateKey = JSON.stringify([scenarioName, knobs, edited, compare, a, b, variant, variantB, speedStep, runFlags, swapPair, seeking ? -1 : nowNs]);
  useUrlState(!embed.embed && boot === 'done' && !seeking, stateKey, makeLink);

  // Events to the host: ready once, then status, time and lesson step as they change.
  const stepNow = lessonSteps.filter((st) => st.atNs <= nowNs).length;
  const sentReady = useRef(false);
  useEffect(() => {
    if (embed.embed && ready && !sentReady.current) {
      sentReady.current = true;
      channel.ready();
    }
  }, [embed.embed, ready, channel]);
  const hs = hostStatus(status);
  const lessonEvent = () =>
    lessonSteps.length > 0 && channel.send({ event: 'lesson', step: stepNow, of: lessonSteps.length, caption: stepNow > 0 ? lessonSteps[stepNow - 1]!.caption : null });
  snapshot.current = () => {
    channel.send({ event: 'status', status: hs });
    channel.send({ event: 'time', ns: nowNs });
    lessonEvent();
  };
  useEffect(() => {
    channel.send({ event: 'status', status: hs });
  }, [channel, hs]);
  const lastTime = useRef({ at: 0, ns: -1 });
  useEffect(() => {
    // While playing at most 10 time events a second; every time a paused run lands on.
    const t = performance.now();
    if (nowNs === lastTime.current.ns || (hs === 'playing' && t - lastTime.current.at < 100)) return;
    lastTime.current = { at: t, ns: nowNs };
    channel.send({ event: 'time', ns: nowNs });
  }, [channel, nowNs, hs]);
  useEffect(() => {
    if (!seeking) lessonEvent();
  }, [channel, lessonSteps, stepNow, seeking]);
  // The views an embed of this state can show: generations and memcg only where they exist.
  const embedViews = VIEWS.filter((v) => (v === 'gens' ? frames.some((f) => f.gens) : v === 'memcg' ? frames.some((f) => f.memcg) : true));
  const resultsReady = reports.status === 'done' && reports.text === source?.text;
  // File names: a validation scenario's folder becomes part of the name ("validation-thrash-small").
  const stem = scenarioName.replace(/\.toml$/, '').replace(/\//g, '-');
  const base = `${stem}-${Math.round(nowNs / 1e6)}ms`;
  // The image exports: a complete figure carrying the link that reproduces it (lib/figure.ts).
  const figure = async (): Promise<[string, string]> => {
    const link = `${location.origin}${location.pathname}#${await makeLink()}`;
    const kernels = state.runs.map((run) => kernelLabel(state.kernel, run.preset, run.kernel?.flags));
    const svg = figureSvg({ title: file?.title ?? scenarioName, runs: state.runs, kernels, frames, series: state.series, counterNames: state.counterNames, link });
    return [svg, link];
  };
  // The clip export (lib/clip.ts): step through a time range, one figure per frame.
  const live = useRef<{ nowNs: number; ready: boolean; seeking: boolean; finished: boolean; figure(link: string): string } | null>(null);
  live.current = {
    nowNs,
    ready,
    seeking,
    finished,
    figure: (link: string) =>
      figureSvg({ title: file?.title ?? scenarioName, runs: state.runs, kernels: state.runs.map((run) => kernelLabel(state.kernel, run.preset, run.kernel?.flags)), frames, series: state.series, counterNames: state.counterNames, link }),
  };
  const drive = useRef({ step, seekTo });
  drive.current = { step, seekTo };
  const rendered = useRef<(() => void)[]>([]);
  useEffect(() => {
    const w = rendered.current;
    rendered.current = [];
    w.forEach((f) => f());
  });
  const recordClipRange = async (fromNs: number, toNs: number, count: number, onProgress: (n: number) => void, signal: AbortSignal) => {
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
      figure: () => live.current!.figure(link),
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
    csv: () => downloadText(`${base}-series.csv`, seriesCsv(state.runs, state.series, state.counterNames), 'text/csv'),
    json: () => downloadText(`${base}.json`, stateJson(scenarioName, state.runs, frames, state.series, state.counterNames), 'application/json'),
    markdown: () => downloadText(`${stem}-results.md`, resultsMarkdown(file?.title ?? scenarioName, reports.reports, resultsTable([...reports.reports, ...kernelRuns.map((k) => k.report)]), kernelRuns), 'text/markdown'),
    toml: () => downloadText(`${stem}.toml`, source?.text ?? '', 'application/toml'),
    png: async () => {
      const [svg, link] = await figure();
      download(`${base}-figure@2x.png`, await figurePng(svg, link, 2));
    },
    svg: async () => {
      const [svg] = await figure();
      downloadText(`${base}-figure.svg`, svg, 'image/svg+xml');
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
  // An embed shows one view: a step pointing at a view it does not show points nowhere there.
  const embedSteps = useMemo(() => {
    const shown = EMBED_LESSON_VIEWS[embedView];
    return state.lesson.map((st) => (st.highlight && !shown.includes(st.highlight) ? { ...st, highlight: null } : st));
  }, [state.lesson, embedView]);
  const lesson = ready && state.lesson.length > 0 && (!embed.embed || embed.lesson) && (
    <LessonPanel steps={embed.embed ? embedSteps : state.lesson} nowNs={nowNs} ready={!seeking} onSeek={lessonSeek} onPauseAt={setPauseAt} compact={embed.embed} compareOn={compare} knobsChanged={Object.keys(knobs).length > 0} />
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
        <h1 className="sr-only">Reclaim Lab: {file?.title ?? scenarioName}</h1>
        <FitFrame testId="embed-fit">
        {banner}
        {state.error && (broken ? <RunError error={state.error} /> : (
          <div className="error" role="alert" data-testid="engine-error">
            {state.error}
          </div>
        ))}
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
                  {embedView === 'gens' && frames[i]!.gens ? (
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
        {embedView === 'results' && <ResultsPanel reports={reports} expect={expect} knobsChanged={Object.keys(knobs).length > 0} />}
        </FitFrame>
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
          <button type="button" className="ghost" onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')} title="Switch the colour theme" data-testid="theme-toggle">
            {theme === 'dark' ? 'Light theme' : 'Dark theme'}
          </button>
        </div>
      </header>

      {!introSeen && (
        <p className="intro" data-testid="intro">
          <span>
            <strong>New here?</strong> This page simulates how Linux decides which memory pages to free when RAM runs out. Press <strong>Play</strong> (or Space) and
            follow the captions of this first lesson; the seed experiments are further down the Scenario list. Underlined terms explain themselves on hover.
          </span>{' '}
          <button
            type="button"
            className="ghost small-button"
            data-testid="intro-dismiss"
            onClick={() => {
              setIntroSeen(true);
              try {
                localStorage.setItem(INTRO_KEY, '1');
              } catch {
                /* private mode: the line comes back next time */
              }
            }}
          >
            Got it
          </button>
        </p>
      )}
      {banner}
      {state.error && !broken && (
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
        onScenario={openScenario}
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
        realEndNs={realEndNs}
        status={status}
        swapPair={swapPair}
        onSwapPair={setSwapPair}
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

      <SharePanel makeLink={makeLink} exporters={exporters} ready={ready && !seeking} resultsReady={resultsReady} views={embedViews} clip={<ClipExport ready={ready && !seeking} nowNs={nowNs} record={recordClipRange} />} />

      {file && (
        <ScenarioEditor
          key={`${file.name}:${boot}`}
          original={file.text}
          edited={edited}
          onApply={setEdited}
          initialDraft={restoredDraft}
          onDraft={(text) => {
            if (boot === 'done') saveDraft(file.name, edited ?? file.text, text);
          }}
        />
      )}

      {broken && <RunError error={state.error!} />}

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
                {frames[i]!.refault && <RefaultView info={run} view={frames[i]!.refault!} testPrefix={`run-${i}-`} />}
                {frames[i]!.gens && <GenerationsView info={run} frame={frames[i]!} testPrefix={`run-${i}-`} theme={theme} />}
                </div>
                {frames[i]!.memcg && <MemcgLruView info={run} frame={frames[i]!} testPrefix={`run-${i}-`} />}
                <RunCounters frame={frames[i]!} counterNames={state.counterNames} testPrefix={`run-${i}-`} />
              </article>
            ))}
          </section>
          {frames.length > 1 && <DiffTable runs={state.runs} frames={frames} counterNames={state.counterNames} />}
          <section className="charts" aria-label="Charts">
            <CounterCharts runs={state.runs} frames={frames} series={state.series} counterNames={state.counterNames} kernels={kernelRuns} />
            {reports.text === source?.text && <RoundsChart reports={reports.reports} kernels={kernelRuns} />}
          </section>
        </>
      )}

      {anyFlags(runFlags) && (
        <p className="muted small" data-testid="results-flags-note">
          The results table runs the scenario&apos;s variants as written; the kernel flag overrides apply to the live runs above.
        </p>
      )}
      <KernelOverlay
        runs={kernelRuns}
        error={kernelError}
        onFiles={(files) => loadKernel.current(files)}
        onRemove={(i) => setKernelRuns((runs) => runs.filter((_, j) => j !== i))}
        liveVariants={state.runs.map((r) => r.variant)}
        changed={Object.keys(knobs).length > 0 || edited !== null || swapPair !== null}
      />
      <ResultsPanel reports={reports} expect={expect} knobsChanged={Object.keys(knobs).length > 0} kernels={kernelRuns} kernelAssessment={kernelAssessment} />
      <SweepPanel scenarios={SCENARIOS} speedStep={DEFAULT_SPEED_STEP} />
    </main>
  );
}
