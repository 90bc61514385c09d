// The URL follows the page state: the link of the current state is written into the address
// bar with history.replaceState (no new history entry, no hashchange), at most every
// `URL_DELAY_MS`, so a reload or going back to the page keeps it. Unsaved scenario text (typed in
// the editor, not yet run) is kept in sessionStorage per scenario: it survives a reload of
// the tab but does not leak into other tabs or into links.
import { useEffect, useRef } from 'react';

export const URL_DELAY_MS = 400;

/** The hash this page last wrote; any other hash in the address bar came from a navigation
 *  (a link pasted or opened), which the writer must never overwrite with the old state. */
let lastWritten: string | null = null;
/** Set once a navigation to another state is under way (the page is about to reload). */
let frozen = false;

/** Stop writing the URL: a link was navigated to and the page reloads to open it. */
export function freezeUrlState(): void {
  frozen = true;
}

/** Keep `location.hash` on `encode()`'s result whenever `key` changes (throttled, last state wins). */
export function useUrlState(enabled: boolean, key: string, encode: () => Promise<string>): void {
  const latest = useRef(encode);
  latest.current = encode;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    if (!enabled || timer.current !== null) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      const seen = location.hash;
      if (frozen || (lastWritten !== null && seen !== lastWritten)) return;
      latest
        .current()
        .then((hash) => {
          // The hash changed while the link was being made: a navigation, not ours. Leave it.
          if (frozen || location.hash !== seen) return;
          if (`#${hash}` !== location.hash) history.replaceState(history.state, '', `${location.pathname}${location.search}#${hash}`);
          lastWritten = location.hash;
        })
        .catch(() => {}); // a state too big for a link stays out of the URL; "Copy link" says why
    }, URL_DELAY_MS);
  }, [enabled, key]);
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );
}

const draftKey = (scenario: string) => `reclaimlab:draft:${scenario}`;

/** The unsaved draft of a scenario's text, if it was typed over `base` (the text it was typed from). */
export function loadDraft(scenario: string, base: string): string | null {
  try {
    const raw = sessionStorage.getItem(draftKey(scenario));
    if (!raw) return null;
    const d = JSON.parse(raw) as { base?: unknown; text?: unknown };
    return d.base === base && typeof d.text === 'string' && d.text !== base ? d.text : null;
  } catch {
    return null;
  }
}

/** Keep (or, when it equals `base`, forget) the draft of a scenario's text. */
export function saveDraft(scenario: string, base: string, text: string): void {
  try {
    if (text === base) sessionStorage.removeItem(draftKey(scenario));
    else sessionStorage.setItem(draftKey(scenario), JSON.stringify({ base, text }));
  } catch {
    // storage full or disabled: the draft lives until the tab closes, as before
  }
}
