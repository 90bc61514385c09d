// The experiment as the user set it up: scenario, variants, compare mode, knobs, flag overrides,
// hand-edited text and speed; and the scenario source and run names the engine loads from it.
import { useMemo, useRef, useState } from 'react';
import type { Knobs } from '../components/Controls';
import type { EngineState } from '../engine/useEngine';
import { speedAt } from '../format';
import { NO_FLAGS, type SideFlags } from '../lib/flags';
import type { LinkState } from '../lib/link';
import { setupOf } from '../lib/knobs';
import { variantNames } from '../lib/scenarioText';
import { useTraceNames } from '../engine/core';
import type { ScenarioSource, TraceBytes } from '../engine/protocol';
import { SCENARIOS, type ScenarioFile } from '../scenarios';

/** A trace a bundled scenario (a lesson) replays, as the page holds it: its bytes under the name
 *  the scenario gives it, and where they came from (the file given, or the page's URL). */
export interface HeldTrace {
  trace: TraceBytes;
  /** The file's own name when given, or the URL it was fetched from. */
  from: string;
  given: boolean;
  /** Counts the traces supplied, so that one replaced by another loads the scenario again. */
  seq: number;
}

/** A trace the user gave the page (dropped, or a shipped one picked): the scenario the engine
 *  built to replay it, its bytes, and the miss-ratio point opened from its curve (null: the
 *  scenario as built). */
export interface TraceSetup {
  file: ScenarioFile;
  trace: TraceBytes;
  format: 'oracleGeneral' | 'csv';
  mrcPages: number | null;
}

const NONE: readonly string[] = [];

export const DEFAULT_SPEED_STEP = 10; // 250 ms of virtual time per second

export function useSetup(state: EngineState) {
  const [scenarioName, setScenarioName] = useState(SCENARIOS[0]?.name ?? '');
  const [variant, setVariant] = useState<string | null>(null);
  const [compare, setCompare] = useState(false);
  const [variantB, setVariantB] = useState<string | null>(null);
  const [knobs, setKnobs] = useState<Knobs>({});
  /** Compare one kernel (the chosen variant) at two swappiness values (null: off). */
  const [swapPair, setSwapPair] = useState<[number, number] | null>(null);
  /** Flag overrides of side A (the run, or the first of two) and side B (its compare partner). */
  const [sideFlags, setSideFlags] = useState<SideFlags>(NO_FLAGS);
  /** The scenario text as edited by hand (null: the file as it is). */
  const [edited, setEdited] = useState<string | null>(null);
  const [speedStep, setSpeedStep] = useState(DEFAULT_SPEED_STEP);
  /** The trace scenario, kept while another scenario is open (its curve stays computed). */
  const [trace, setTrace] = useState<TraceSetup | null>(null);
  /** Traces a bundled scenario replays (a lesson's), by the name it gives them: fetched when the
   *  page serves them, else given by the user; kept for the page's life. */
  const [held, setHeld] = useState<Record<string, HeldTrace>>({});

  const traceOpen = trace !== null && trace.file.name === scenarioName;
  const file = traceOpen ? trace.file : (SCENARIOS.find((s) => s.name === scenarioName) ?? null);
  /** Another scenario, from its defaults. */
  const open = (n: string) => {
    setScenarioName(n);
    setVariant(null);
    setVariantB(null);
    setKnobs({});
    setEdited(null);
    setSideFlags(NO_FLAGS);
    setSwapPair(null);
  };
  /** A trace's scenario, from its defaults (`mrcPages`: one point of its curve, `variant` in it). */
  const openTrace = (t: TraceSetup, variant: string | null = null) => {
    open(t.file.name);
    setVariant(variant);
    setCompare(false);
    setTrace(t);
  };
  /** A decoded link's setup. */
  const restore = (s: LinkState) => {
    setScenarioName(s.scenario);
    setKnobs(s.knobs);
    setEdited(s.edited);
    setCompare(s.compare);
    setVariant(s.variants[0] ?? null);
    setVariantB(s.variants[1] ?? null);
    setSpeedStep(s.speedStep);
    setSideFlags([s.flags?.[0] ?? {}, s.flags?.[1] ?? {}]);
    setSwapPair(s.swapPair ?? null);
  };

  const text = file ? (edited ?? file.text) : '';
  // The traces a bundled scenario names, as the engine reads the text (null until it has said);
  // until each is held the engine is not asked to build it (the page shows which file it needs
  // instead).
  const namesKnown = useTraceNames(file && !traceOpen ? text : null);
  const namedTraces = namesKnown ?? NONE;
  const missingTraces = namedTraces.filter((n) => !held[n]);
  const heldTraces = namedTraces.flatMap((n) => (held[n] ? [held[n]] : []));
  const heldKey = namedTraces.map((n) => (held[n] ? `${n}#${held[n].seq}` : '')).join('\u0000');
  /** Supply trace `name` of a bundled scenario (its bytes, fetched from `from` or given in the
   *  file of that name), replacing the one held before. */
  const supplied = useRef(0);
  const supplyTrace = (name: string, bytes: Uint8Array, from: string, given: boolean) => {
    const seq = ++supplied.current;
    setHeld((h) => ({ ...h, [name]: { trace: { name, bytes }, from, given, seq } }));
  };
  // A knob comparison runs two copies of the chosen variant, each with its own swappiness: the
  // engine builds them (and names them) from the setup.
  const pairBase = swapPair ? (variant ?? variantNames(text)[0] ?? null) : null;
  const pairKey = swapPair && pairBase ? JSON.stringify([pairBase, swapPair]) : '';
  const knobsKey = JSON.stringify(knobs);
  const source: ScenarioSource | null = useMemo(() => {
    if (!file || namesKnown === null) return null;
    if (namedTraces.some((n) => !held[n])) return null;
    const pair = pairKey ? (JSON.parse(pairKey) as [string, [number, number]]) : null;
    const t = traceOpen ? trace : null;
    return {
      name: file.name,
      text,
      setup: setupOf(JSON.parse(knobsKey), pair && { variant: pair[0], swappiness: pair[1] }),
      ...(t ? { traces: [t.trace], ...(t.mrcPages !== null ? { mrcPages: t.mrcPages } : {}) } : {}),
      ...(namedTraces.length > 0 ? { traces: namedTraces.map((n) => held[n]!.trace) } : {}),
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `held` counts through heldKey
  }, [file, text, knobsKey, pairKey, traceOpen, trace, namesKnown, heldKey]);

  // The picker offers the file's own variants (in a knob comparison too), as the engine read them.
  const variants = state.scenario === scenarioName ? (state.file?.variants ?? []) : [];
  const a = variant ?? variants[0]?.name ?? null;
  const b = variantB ?? variants.find((v) => v.name !== a)?.name ?? a;
  // Until the user picks, the engine runs the first variant (no reload when its name arrives);
  // a knob comparison runs both of the pair.
  const wanted = pairKey ? [] : compare ? (a && b ? [a, b] : []) : variant ? [variant] : [];
  const wantedKey = wanted.join('\u0000');
  // A knob comparison runs both sides with side A's flag overrides: the pair differs in swappiness only.
  const runFlags = compare ? sideFlags : swapPair ? [sideFlags[0], sideFlags[0]] : [sideFlags[0]];
  const flagsKey = JSON.stringify(runFlags);

  return {
    scenarioName,
    file,
    variant,
    setVariant,
    variantB,
    setVariantB,
    compare,
    setCompare,
    knobs,
    setKnobs,
    swapPair,
    setSwapPair,
    sideFlags,
    setSideFlags,
    edited,
    setEdited,
    speedStep,
    setSpeedStep,
    speed: speedAt(speedStep),
    open,
    restore,
    trace,
    traceOpen,
    openTrace,
    namedTraces,
    missingTraces,
    heldTraces,
    supplyTrace,
    source,
    variants,
    a,
    b,
    wantedKey,
    runFlags,
    flagsKey,
  };
}

export type Setup = ReturnType<typeof useSetup>;
