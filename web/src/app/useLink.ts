// The page's state as a link: a link in the URL is decoded (nothing loads before it is) and
// restored, the address bar follows the state, and another link pasted in starts over.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { EngineState } from '../engine/useEngine';
import type { EmbedParams } from '../lib/embed';
import { anyFlags } from '../lib/flags';
import { decodeLink, encodeLink, isLinkHash, linkErrorText, traceBytes, traceData, type LinkState, type LinkTrace, type View } from '../lib/link';
import { checkLinkedScenario } from '../lib/linkCheck';
import { freezeUrlState, loadDraft, useUrlState } from '../lib/urlState';
import { SCENARIOS } from '../scenarios';
import type { Setup, TraceSetup } from './useSetup';
import { buildTrace, type TraceModel } from './useTrace';

interface LinkDeps {
  embed: EmbedParams;
  setup: Setup;
  state: EngineState;
  nowNs: number;
  seeking: boolean;
  seekAfterLoad: (ns: number) => void;
  trace: TraceModel;
}

export function useLink({ embed, setup, state, nowNs, seeking, seekAfterLoad, trace }: LinkDeps) {
  const initialHash = useRef(location.hash);
  /** 'decoding' while a link in the URL is read: nothing loads before it is. */
  const [boot, setBoot] = useState<'decoding' | 'done'>(() => (isLinkHash(initialHash.current) ? 'decoding' : 'done'));
  const [linkError, setLinkError] = useState<string | null>(null);
  const [linkView, setLinkView] = useState<View | null>(null);
  const embedView: View = embed.view ?? linkView ?? 'lru';
  const { sideFlags, setSideFlags } = setup;

  // Flags the engine does not know (from a link) are dropped, with a message naming them.
  useEffect(() => {
    if (!state.kernel) return;
    const known = state.kernel.flags.map((f) => f.name);
    const unknown = sideFlags.flatMap((o) => Object.keys(o)).filter((n) => !known.includes(n));
    if (unknown.length === 0) return;
    const keep = (o: Record<string, boolean>) => Object.fromEntries(Object.entries(o).filter(([n]) => known.includes(n)));
    setSideFlags([keep(sideFlags[0]), keep(sideFlags[1])]);
    setLinkError(`This link names kernel flags this engine does not know: ${unknown.map((n) => JSON.stringify(n)).join(', ')} (known: ${known.join(', ')}); they were left out.`);
  }, [state.kernel, sideFlags, setSideFlags]);

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

  // A link in the URL: restore its state (or explain why not and keep the default page).
  const restore = useRef(setup.restore);
  restore.current = setup.restore;
  const openTrace = useRef(setup.openTrace);
  openTrace.current = setup.openTrace;
  const awaitTrace = useRef(trace.awaitTrace);
  awaitTrace.current = trace.awaitTrace;
  useEffect(() => {
    if (boot !== 'decoding') return;
    let live = true;
    decodeLink(initialHash.current, SCENARIOS.map((f) => f.name))
      .then(async (s) => {
        if (s.trace) {
          // A trace's scenario: the engine builds it again from the trace (the link carries it
          // when small), then the rest of the state applies; the engine checks it as it loads.
          const lt = s.trace;
          const apply = (t: TraceSetup) => {
            setLinkError(null);
            openTrace.current({ ...t, mrcPages: lt.mrcPages ?? null });
            restore.current(s);
            if (s.timeNs > 0) seekAfterLoad(s.timeNs);
          };
          if (lt.data === undefined) {
            awaitTrace.current(lt.name, apply);
            if (live) setLinkError(`This link replays the trace ${lt.name}, too large to travel in a link: drop that file onto the page (or choose it under Tools → Your trace) to open it.`);
            return;
          }
          const t = await buildTrace(lt.name, lt.format, await traceBytes(lt.data)).catch((e: unknown) => {
            throw new Error(e instanceof Error ? e.message : String(e));
          });
          if (live) apply(t);
          return;
        }
        await checkLinkedScenario(s, SCENARIOS.find((f) => f.name === s.scenario)!.text);
        if (!live) return;
        restore.current(s);
        setLinkView(s.view);
        if (s.timeNs > 0) seekAfterLoad(s.timeNs);
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
  }, [boot, seekAfterLoad]);

  const { scenarioName, knobs, edited, compare, a, b, variant, variantB, speedStep, runFlags, swapPair, file } = setup;
  const shown = setup.traceOpen ? setup.trace : null;
  // The trace as a link carries it (compressed once per trace), or null: too large.
  const carried = useRef<{ bytes: Uint8Array; data: Promise<string | null> } | null>(null);
  const traceOfLink = async (t: TraceSetup): Promise<LinkTrace> => {
    if (carried.current?.bytes !== t.trace.bytes) carried.current = { bytes: t.trace.bytes, data: traceData(t.trace.bytes) };
    const data = await carried.current.data;
    return { name: t.trace.name, format: t.format, ...(t.mrcPages !== null ? { mrcPages: t.mrcPages } : {}), ...(data !== null ? { data } : {}) };
  };
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
  const makeLink = async () => encodeLink({ ...linkState(), ...(shown ? { trace: await traceOfLink(shown) } : {}) });
  // Typed but not run before a reload: the editor opens on it (read once per scenario).
  const restoredDraft = useMemo(() => (file && boot === 'done' ? loadDraft(file.name, edited ?? file.text) : null), [file?.name, boot]); // eslint-disable-line react-hooks/exhaustive-deps
  // The address bar follows the state (not in an embed: its URL is the host's to keep).
  const stateKey = JSON.stringify([scenarioName, knobs, edited, compare, a, b, variant, variantB, speedStep, runFlags, swapPair, shown?.mrcPages ?? null, seeking ? -1 : nowNs]);
  useUrlState(!embed.embed && boot === 'done' && !seeking, stateKey, makeLink);

  return { boot, linkError, setLinkError, embedView, makeLink, restoredDraft };
}
