// A kernel term with its glossary explanation on hover and on keyboard focus (lib/glossary).
import { useId, type ReactNode, type SyntheticEvent } from 'react';
import { explain } from '../lib/glossary';
import './extra.css';

/** Widest explanation (px, as .term-tip's max-width) plus a margin. */
const TIP_PX = 308;

/** Anchor the explanation at the term's right end when it would run off the right of the page.
 *  A term that wraps onto two lines anchors the explanation at its first line's start (or, flipped,
 *  its last line's end): its bounding box, spanning both lines, starts further left than that. */
function place(e: SyntheticEvent<HTMLSpanElement>) {
  const lines = e.currentTarget.getClientRects();
  const r = e.currentTarget.getBoundingClientRect();
  const [first, last] = [lines[0] ?? r, lines[lines.length - 1] ?? r];
  const flip = first.left + TIP_PX > document.documentElement.clientWidth && last.right - TIP_PX >= 0;
  e.currentTarget.toggleAttribute('data-flip', flip);
}

export function GlossaryTerm({ term, children }: { term: string; children: ReactNode }) {
  const id = useId();
  const text = explain(term);
  if (!text) return <>{children}</>;
  return (
    <span className="term" tabIndex={0} aria-describedby={id} data-term={term} onMouseEnter={place} onFocus={place}>
      {children}
      <span className="term-tip" role="tooltip" id={id}>
        {text}
      </span>
    </span>
  );
}
