// A kernel term with its glossary explanation on hover and on keyboard focus (lib/glossary).
import { useId, type ReactNode } from 'react';
import { explain } from '../lib/glossary';

export function GlossaryTerm({ term, children }: { term: string; children: ReactNode }) {
  const id = useId();
  const text = explain(term);
  if (!text) return <>{children}</>;
  return (
    <span className="term" tabIndex={0} aria-describedby={id} data-term={term}>
      {children}
      <span className="term-tip" role="tooltip" id={id}>
        {text}
      </span>
    </span>
  );
}
