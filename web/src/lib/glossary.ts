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
  scan_file: 'SCAN_FILE: get_scan_count scans only the file lists this time (no swap, or plenty of inactive file pages).',
  scan_anon: 'SCAN_ANON: get_scan_count scans only the anon lists this time.',
  scan_equal: 'SCAN_EQUAL: get_scan_count scans anon and file in proportion to their list sizes, without weighing them.',
  get_scan_count: 'get_scan_count (mm/vmscan.c): each time reclaim runs, decides how many pages to scan from the anon and from the file lists; the balance view shows its last decision.',
  active_list: 'Active list: pages used more than once while resident. Reclaim does not free from it; aging first moves its tail to the inactive list.',
  inactive_list: 'Inactive list: where reclaim looks for pages to free, from its tail. A page on it that is used again is activated.',
  working_set: 'Working set: the pages a workload keeps using. The kernel tells refaults of its pages from those of pages used once by the refault distance.',
  page_cache: 'Page cache: file contents kept in memory (file pages). Reclaim drops clean ones and must write dirty ones first.',
  shadow_entry: 'Shadow entry: what an evicted page leaves in its page-cache slot: when it was evicted, from which the refault distance is computed if it comes back.',
  direct_reclaim: 'Direct reclaim: an allocating task reclaims memory itself, and waits while it does, because kswapd has not kept enough free.',
  watermark: 'Watermarks (min, low, high): free-memory levels. Below low kswapd wakes and reclaims until free memory is above high; below min, allocations reclaim directly.',
  flushers: 'Flusher threads: write dirty page-cache pages back to their files in the background (writeback).',
  pg_referenced: 'PG_referenced: a page flag recording one recent use. A page on the inactive list that has it and is used again is activated.',
  pg_reclaim: 'PG_reclaim: a page flag set by reclaim on a dirty page it could not free: when its writeback ends, the page is moved to the inactive tail to be freed next (pgrotated).',
  young_pte: 'Young PTE (accessed bit): the CPU marks a page table entry when the page is used through it; reclaim tests and clears the mark to see whether a mapped page was used since.',
  major_fault: 'Major fault (pgmajfault): an access to a page not in memory, which waits for a read from disk or swap.',
  minor_fault: 'Minor fault: a page fault served without IO, the page being in memory already.',
  pgscan: 'pgscan (_kswapd, _direct, _anon, _file): pages reclaim took off the inactive lists to look at, whether it freed them or not.',
  pgsteal: 'pgsteal (_kswapd, _direct, _anon, _file): pages reclaim freed.',
  pgactivate: 'pgactivate: pages moved to an active list.',
  pgdeactivate: 'pgdeactivate: pages moved from an active list to its inactive list by aging.',
  pgrotated: 'pgrotated: pages moved to the tail of the inactive list when their writeback ended (they had PG_reclaim), so reclaim frees them next.',
  pswpout: 'pswpout: pages written to swap.',
  pswpin: 'pswpin: pages read back from swap.',
  allocstall: 'allocstall: how often allocations had to enter direct reclaim.',
  nr_vmscan_write: 'nr_vmscan_write: dirty pages reclaim wrote out itself (pageout), one at a time, instead of leaving them to the flushers.',
  nr_vmscan_immediate_reclaim: 'nr_vmscan_immediate_reclaim: dirty pages reclaim met and tagged PG_reclaim, to be freed as soon as their writeback ends.',
  workingset_refault: 'workingset_refault_anon/_file: evicted pages needed again whose shadow entry was still there.',
  workingset_activate: 'workingset_activate_anon/_file: refaults whose refault distance fitted the working set, activated on return.',
  workingset_restore: 'workingset_restore_anon/_file: refaults of pages that were in the working set (active) when they were evicted.',
  mglru: 'Multi-gen LRU (MGLRU, 6.1+): instead of two lists per type, generations from young to old; aging adds a young generation, eviction takes from the oldest.',
  generation: 'Generation (MGLRU): pages grouped by how recently they were found used; aging creates a new young one, reclaim evicts from the oldest.',
  memcg: 'Memory cgroup (memcg): a group of tasks whose memory is counted and limited together, with LRU lists of its own.',
  anon: 'Anon (anonymous memory): heap, stack and shared memory, with no file behind it; reclaiming it means writing it to swap.',
  swap: 'Swap: a disk area where reclaim writes anon pages so their memory can be reused; using such a page again reads it back (a swap-in).',
  madv_random: 'MADV_RANDOM: an madvise hint that a mapping is accessed at random (no readahead). Since 6.3 (vma_has_recency) reclaim also ignores the accessed bits of such a mapping.',
  fadv_noreuse: 'POSIX_FADV_NOREUSE: a posix_fadvise hint that file data will be used once. Since 6.3 (vma_has_recency) reclaim ignores the accessed bits of a mapping of such a file.',
  memory_reclaim: 'memory.reclaim (cgroup v2): writing an amount asks the kernel to reclaim that much from the cgroup and its descendants (proactive reclaim).',
};

/**
 * How captions name the glossary's terms: phrase -> term. Matched case-insensitively as whole
 * words, the longest phrase first, so 'inactive file list' is not read as 'active file list'.
 */
export const CAPTION_PHRASES: Record<string, string> = {
  kswapd: 'kswapd',
  swappiness: 'swappiness',
  'refault distance': 'refault_distance',
  'refault distances': 'refault_distance',
  refault: 'refault',
  refaults: 'refault',
  SCAN_FRACT: 'scan_fract',
  SCAN_FILE: 'scan_file',
  SCAN_ANON: 'scan_anon',
  SCAN_EQUAL: 'scan_equal',
  get_scan_count: 'get_scan_count',
  'active anon list': 'active_anon',
  'active anon': 'active_anon',
  'inactive anon list': 'inactive_anon',
  'inactive anon': 'inactive_anon',
  'active file list': 'active_file',
  'active file': 'active_file',
  'inactive file list': 'inactive_file',
  'inactive file': 'inactive_file',
  'active list': 'active_list',
  'active lists': 'active_list',
  'inactive list': 'inactive_list',
  'inactive lists': 'inactive_list',
  activated: 'activate',
  deactivated: 'deactivate',
  deactivates: 'deactivate',
  deactivation: 'deactivate',
  'working set': 'working_set',
  'page cache': 'page_cache',
  'page-cache': 'page_cache',
  'shadow entry': 'shadow_entry',
  'shadow entries': 'shadow_entry',
  'direct reclaim': 'direct_reclaim',
  'low watermark': 'watermark',
  watermark: 'watermark',
  flushers: 'flushers',
  PG_referenced: 'pg_referenced',
  PG_reclaim: 'pg_reclaim',
  'young PTE': 'young_pte',
  'accessed bit': 'young_pte',
  'accessed bits': 'young_pte',
  'major faults': 'major_fault',
  'major fault': 'major_fault',
  pgmajfault: 'major_fault',
  'minor fault': 'minor_fault',
  pgscan: 'pgscan',
  pgscan_anon: 'pgscan',
  pgscan_file: 'pgscan',
  pgscan_kswapd: 'pgscan',
  pgscan_direct: 'pgscan',
  pgsteal: 'pgsteal',
  pgsteal_anon: 'pgsteal',
  pgsteal_file: 'pgsteal',
  pgsteal_kswapd: 'pgsteal',
  pgsteal_direct: 'pgsteal',
  pgactivate: 'pgactivate',
  pgdeactivate: 'pgdeactivate',
  pgrotated: 'pgrotated',
  pswpout: 'pswpout',
  pswpin: 'pswpin',
  allocstall: 'allocstall',
  nr_vmscan_write: 'nr_vmscan_write',
  nr_vmscan_immediate_reclaim: 'nr_vmscan_immediate_reclaim',
  workingset_refault_file: 'workingset_refault',
  workingset_refault_anon: 'workingset_refault',
  workingset_activate_file: 'workingset_activate',
  workingset_activate_anon: 'workingset_activate',
  workingset_restore_file: 'workingset_restore',
  workingset_restore_anon: 'workingset_restore',
  'multi-gen LRU': 'mglru',
  MGLRU: 'mglru',
  'young generation': 'generation',
  'oldest generation': 'generation',
  'old generation': 'generation',
  generation: 'generation',
  generations: 'generation',
  memcg: 'memcg',
  memcgs: 'memcg',
  'memory cgroup': 'memcg',
  'memory cgroups': 'memcg',
  'memory.reclaim': 'memory_reclaim',
  anon: 'anon',
  swap: 'swap',
  MADV_RANDOM: 'madv_random',
  POSIX_FADV_NOREUSE: 'fadv_noreuse',
  FADV_NOREUSE: 'fadv_noreuse',
};

/** A caption cut into plain text and the glossary terms it names. */
export type CaptionPart = string | { term: string; text: string };

const PHRASES = Object.entries(CAPTION_PHRASES)
  .map(([phrase, term]) => ({ phrase: phrase.toLowerCase(), term }))
  .sort((a, b) => b.phrase.length - a.phrase.length);

const wordChar = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_]/.test(c);

/**
 * Cut `text` (a lesson caption) into parts, marking the first mention of each glossary term.
 * The parts' text joined is `text` again: nothing is added or dropped.
 */
export function markTerms(text: string): CaptionPart[] {
  const lower = text.toLowerCase();
  const parts: CaptionPart[] = [];
  const seen = new Set<string>();
  let plain = 0;
  let i = 0;
  while (i < text.length) {
    const hit = wordChar(text[i - 1])
      ? undefined
      : PHRASES.find((p) => lower.startsWith(p.phrase, i) && !wordChar(text[i + p.phrase.length]));
    if (!hit) {
      i++;
      continue;
    }
    // A later mention stays plain, whole ('refault distance' again is not half a 'refault').
    if (seen.has(hit.term)) {
      i += hit.phrase.length;
      continue;
    }
    if (plain < i) parts.push(text.slice(plain, i));
    parts.push({ term: hit.term, text: text.slice(i, i + hit.phrase.length) });
    seen.add(hit.term);
    i += hit.phrase.length;
    plain = i;
  }
  if (plain < text.length) parts.push(text.slice(plain));
  return parts;
}

/** The explanation of `term`, or undefined for a term the glossary does not know. */
export function explain(term: string): string | undefined {
  return GLOSSARY[term];
}
