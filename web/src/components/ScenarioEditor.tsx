// The scenario's TOML text, editable: Apply runs the edited text (the engine
// validates it; a bad file gets the engine's line-numbered message), Revert
// goes back to the file.
import { useState } from 'react';

export function ScenarioEditor({ original, edited, onApply }: { original: string; edited: string | null; onApply(text: string | null): void }) {
  const [draft, setDraft] = useState(edited ?? original);
  return (
    <details className="editor">
      <summary>
        Scenario text{edited !== null && <span className="muted"> (edited)</span>}
      </summary>
      <textarea
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        spellCheck={false}
        aria-label="Scenario text (TOML)"
        data-testid="scenario-text"
        rows={18}
      />
      <div className="knob-buttons">
        <button type="button" onClick={() => onApply(draft === original ? null : draft)} data-testid="scenario-text-apply">
          Run this text
        </button>
        <button
          type="button"
          className="ghost"
          onClick={() => {
            setDraft(original);
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
