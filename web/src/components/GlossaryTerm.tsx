// A kernel term with its glossary explanation on hover and on keyboard focus (lib/glossary).
import { useId, type ReactNode, type SyntheticEvent } from 'react';
import { explain } from '../lib/glossary';
import './extra.css';

/** Widest explanation (px, as .term-tip's max-width) plus a margin. */
const TIP_PX = 308;

/** Anchor the explanation at the term's right end when it would run off the right of the page. */
function place(e: SyntheticEvent<HTMLSpanElement>) {
  const r = e.currentTarget.getBoundingClientRect();
  const flip = r.left + TIP_PX > document.documentElement.clientWidth && r.right - TIP_PX >= 0;
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
