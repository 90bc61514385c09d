// Real kernel runs overlaid on the model (issue #27 §2), and files dropped onto the page: a
// kernel run's JSON is overlaid if it is of the scenario shown (a run of another bundled
// scenario is offered to open with it); an exported figure opens the link it carries.
import { useEffect, useRef, useState } from 'react';
import type { KernelError } from '../components/KernelOverlay';
import { isJsonFile, traceFormat } from '../lib/dropped';
import type { KernelRun } from '../lib/kernelRun';
import { isLinkHash } from '../lib/link';
import { variantNames } from '../lib/scenarioText';
import { SCENARIOS } from '../scenarios';
import type { Setup } from './useSetup';

export function useKernelRuns(setup: Setup) {
  const [kernelRuns, setKernelRuns] = useState<KernelRun[]>([]);
  const [kernelError, setKernelError] = useState<KernelError | null>(null);
  const { scenarioName, file, edited } = setup;
  // (Checked against the scenario shown when the files have been read, which may be another.)
  const shownNow = useRef({ name: scenarioName, title: '', variants: [] as string[] });
  shownNow.current = { name: scenarioName, title: file?.title ?? scenarioName, variants: variantNames(edited ?? file?.text ?? '') };
  const openSetup = useRef(setup.open);
  openSetup.current = setup.open;
  const loadKernel = useRef<(files: File[]) => void>(() => {});
  loadKernel.current = (files: File[]) => {
    // The kernel-run reader is loaded when a file comes (an embed never loads it).
    void import('../lib/kernelRun').then(({ KernelRunError, mergeRuns, mismatch, readKernelFile }) => Promise.all(files.map(readKernelFile)).then(
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
                    openSetup.current(other.name);
                    setKernelRuns(runs);
                    setKernelError(null);
                  },
                },
              }
            : {}),
        });
      },
      (e: unknown) => setKernelError({ text: e instanceof KernelRunError ? e.message : `The kernel run could not be read: ${String(e)}` }),
    ), (e: unknown) => setKernelError({ text: `The kernel-run reader could not be loaded (${String(e)}): reload the page and try again.` }));
  };
  const clear = () => {
    setKernelRuns([]);
    setKernelError(null);
  };
  /** Set by the page: kernel run files were dropped (it opens the panel that shows them). */
  const onFilesDropped = useRef<() => void>(() => {});
  return { kernelRuns, setKernelRuns, kernelError, loadKernel: (files: File[]) => loadKernel.current(files), loadKernelRef: loadKernel, onFilesDropped, clear };
}

/** Files dropped onto the full page: an access trace replayed, kernel runs to the overlay, a
 *  figure's link opened. */
export function useDrop(enabled: boolean, loadKernel: { current: (files: File[]) => void }, onKernelFiles: { current: () => void }, onError: (text: string) => void, onTrace: { current: (file: File) => void }) {
  const error = useRef(onError);
  error.current = onError;
  useEffect(() => {
    if (!enabled) return;
    const over = (e: DragEvent) => {
      if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      const f = e.dataTransfer?.files[0];
      if (!f) return;
      e.preventDefault();
      // A JSON file is a real kernel's run for the overlay; anything else an exported figure.
      const files = [...(e.dataTransfer?.files ?? [])];
      // A trace (.bin, .csv) becomes a scenario of its own; the first one dropped.
      const trace = files.find((x) => traceFormat(x.name) !== null);
      if (trace) {
        onTrace.current(trace);
        return;
      }
      if (files.some(isJsonFile)) {
        loadKernel.current(files);
        onKernelFiles.current();
        return;
      }
      import('../lib/figure')
        .then(({ linkOfImage }) => linkOfImage(f))
        .then((link) => {
          const hash = link?.slice(link.indexOf('#')) ?? '';
          if (!link || !isLinkHash(hash)) error.current(`${f.name} carries no Reclaim Lab link: only figures exported by this page (PNG or SVG) can be dropped here.`);
          else {
            history.replaceState(history.state, '', `${location.pathname}${location.search}${hash}`);
            location.reload(); // the page starts over from that link
          }
        })
        .catch(() => error.current(`${f.name} could not be read.`));
    };
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [enabled, loadKernel, onKernelFiles, onTrace]);
}
