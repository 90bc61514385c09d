// Short explanations of the kernel terms the page and its lessons use, shown on hover or focus
// (components/GlossaryTerm). One place, so every view and lesson explains a term the same way.

export const GLOSSARY: Record<string, string> = {
  active_anon: 'Active anon list: anonymous memory (heap, stack; no file behind it) used recently. Reclaim moves its tail to the inactive list before it can swap it out.',
  inactive_anon: 'Inactive anon list: anonymous pages that are candidates for reclaim; evicting one writes it to swap.',
  inactive_file: 'Inactive file list: page-cache pages that are candidates for reclaim; a clean one is simply dropped (read back from its file if needed again).',
  active_file: 'Active file list: page-cache pages accessed more than once recently; protected from reclaim until they age to the inactive list.',
  scanned: 'Scanned: pages reclaim looked at on this inactive list per second (pgscan), whether it freed them or not.',
  refilled: 'Refilled (both): the active lists are aged by moving their tails to the inactive lists; the engine counts those scans for anon and file together, so both active rows show the same rate.',
  add: 'add: a new page enters a list at its head (a fault or a read).',
  activate: 'activate: a page used again is promoted to the active list.',
  deactivate: 'deactivate: aging moves a page from an active list to its inactive list.',
  rotate: 'rotate: reclaim found the page referenced (or under writeback) and put it back instead of evicting it.',
  evict: 'evict: reclaim frees the page (written to swap first if it is dirty anon).',
  refault: 'refault: a page evicted earlier is needed again and read back; a shadow entry tells the kernel how long it was gone.',
  free: 'free: the owner released the page (unmap, exit, truncate).',
  swappiness: 'vm.swappiness (0–200): how the kernel weighs anon against file when it splits a scan; anon gets swappiness, file 200 − swappiness. Kernels before 5.8 accept at most 100.',
  gains: 'Gains s : 200 − s: MGLRU’s controller weighs the refault rates of anon and file by swappiness (s) and 200 − s before choosing which type to evict from.',
  kswapd: 'kswapd: the kernel thread that reclaims in the background when free memory falls below the low watermark, until it is above high.',
  refault_distance: 'Refault distance: how many evictions happened between a page’s eviction and its refault; if it is smaller than the workingset, the page is activated on return.',
  scan_fract: 'SCAN_FRACT: get_scan_count splits the scan between anon and file by their costs and swappiness.',
};

/** The explanation of `term`, or undefined for a term the glossary does not know. */
export function explain(term: string): string | undefined {
  return GLOSSARY[term];
}
