// The scenario's TOML text in a code editor (CodeMirror 6): TOML highlighting,
// the core's validation error shown inline at its line while typing (checked in
// a worker of its own), "Run this text" (or Ctrl/Cmd+Enter) runs the edited text,
// "Revert" goes back to the file. Tab is left to move the focus (no tab trap);
// the editor's colours come from the app's theme variables (ScenarioEditor.css).
import { useEffect, useRef, useState } from 'react';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { toml } from '@codemirror/legacy-modes/mode/toml';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import { classHighlighter } from '@lezer/highlight';
import { startChecker, type ScenarioChecker } from '../engine/checker';
import type { ScenarioProblem } from '../engine/protocol';
import { problemRange } from '../lib/diagnostic';
import './ScenarioEditor.css';

interface Props {
  original: string;
  edited: string | null;
  onApply(text: string | null): void;
  /** A draft typed before a reload (not yet run): the editor opens on it. */
  initialDraft?: string | null;
  /** Every change of the draft (the page keeps it across a reload). */
  onDraft?(text: string): void;
}

/** The problem shown under the editor: the core's, for the text it was found in. */
interface Shown {
  problem: ScenarioProblem | null;
  text: string;
}

export function ScenarioEditor({ original, edited, onApply, initialDraft, onDraft }: Props) {
  const host = useRef<HTMLDivElement | null>(null);
  const view = useRef<EditorView | null>(null);
  const checker = useRef<ScenarioChecker | null>(null);
  const [draft, setDraft] = useState(initialDraft ?? edited ?? original);
  const [open, setOpen] = useState(initialDraft != null);
  const draftSink = useRef(onDraft);
  draftSink.current = onDraft;
  useEffect(() => {
    draftSink.current?.(draft);
  }, [draft]);
  const [shown, setShown] = useState<Shown | null>(null);
  const apply = useRef<() => void>(() => {});
  apply.current = () => onApply(draft === original ? null : draft);

  // Created when first opened, so a closed editor costs no checking worker.
  useEffect(() => {
    if (!open || view.current || !host.current) return;
    const lint = linter(
      async (v): Promise<Diagnostic[]> => {
        const text = v.state.doc.toString();
        checker.current ??= startChecker();
        let problem: ScenarioProblem | null;
        try {
          problem = (await checker.current.check(text)).problem;
        } catch {
          return []; // the engine is unusable; the page shows why
        }
        if (v.state.doc.toString() !== text) return []; // typed on meanwhile: the next check answers
        setShown({ problem, text });
        if (!problem) return [];
        const { from, to } = problemRange(text, problem.line, problem.column);
        const what = problem.field ? `${problem.field}: ${problem.message}` : problem.message;
        return [{ from, to, severity: 'error', source: 'scenario', message: `line ${problem.line}, column ${problem.column}: ${what}` }];
      },
      { delay: 250 },
    );
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: draft,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightActiveLine(),
          history(),
          keymap.of([{ key: 'Mod-Enter', run: () => (apply.current(), true) }, ...defaultKeymap, ...historyKeymap]),
          StreamLanguage.define(toml),
          syntaxHighlighting(classHighlighter),
          EditorView.lineWrapping, // long captions stay readable
          lintGutter(),
          lint,
          EditorView.contentAttributes.of({ 'aria-label': 'Scenario text (TOML); Ctrl+Enter runs it', 'data-testid': 'scenario-text' }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) setDraft(u.state.doc.toString());
          }),
        ],
      }),
    });
    // The scroller scrolls a long text: reachable by keyboard as its own stop (axe: scrollable-region-focusable).
    v.scrollDOM.tabIndex = 0;
    view.current = v;
  }, [open, draft]);
  // App remounts the editor (key) for another scenario.
  useEffect(
    () => () => {
      view.current?.destroy();
      view.current = null;
      checker.current?.dispose();
      checker.current = null;
    },
    [],
  );

  const setText = (text: string) => {
    const v = view.current;
    if (v) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text } });
    setDraft(text);
  };
  const problem = shown && shown.text === draft ? shown.problem : null;
  const goToProblem = () => {
    const v = view.current;
    if (!v || !problem) return;
    const { from } = problemRange(v.state.doc.toString(), problem.line, problem.column);
    v.dispatch({ selection: { anchor: from }, scrollIntoView: true });
    v.focus();
  };

  return (
    <details className="editor" open={initialDraft != null ? true : undefined} onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary>
        Scenario text{edited !== null && <span className="muted"> (edited)</span>}
        {draft !== (edited ?? original) && <span className="muted" data-testid="scenario-draft"> (not run yet)</span>}
      </summary>
      <div className="code-editor" ref={host} data-open={open} />
      <p className={problem ? 'editor-status error' : 'editor-status muted small'} role="status" data-testid="scenario-problem" data-line={problem?.line ?? ''}>
        {problem
          ? `Line ${problem.line}, column ${problem.column}: ${problem.field ? `${problem.field}: ` : ''}${problem.message}`
          : shown && shown.text === draft
            ? 'The scenario is valid.'
            : 'Checked by the engine as you type; Ctrl+Enter runs the text.'}
        {problem && (
          <>
            {' '}
            <button type="button" className="ghost" onClick={goToProblem} data-testid="scenario-problem-go">
              Go to line {problem.line}
            </button>
          </>
        )}
      </p>
      <div className="knob-buttons">
        <button type="button" onClick={() => apply.current()} data-testid="scenario-text-apply">
          Run this text
        </button>
        <button
          type="button"
          className="ghost"
          onClick={() => {
            setText(original);
            onApply(null);
          }}
          data-testid="scenario-text-revert"
        >
          Revert to the file
        </button>
      </div>
    </details>
  );
}
