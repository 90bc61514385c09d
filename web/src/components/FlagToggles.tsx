// Per-flag toggles of one run's kernel: every behaviour flag the engine exports, checked as
// the run has it; a toggle overrides the variant for this side only and names the kernel
// "custom" (e.g. "linux-5.8 + refault_scan_anon off").
import { useId } from 'react';
import type { FlagOverrides, KernelInfo, RunInfo } from '../engine/protocol';
import { flagsByVersion, flagTitle, kernelLabel, setFlag } from '../lib/flags';
import './extra.css';

interface Props {
  kernel: KernelInfo | null;
  /** 0: the first (or only) run, 1: its compare partner. */
  side: number;
  /** The loaded run of this side (its preset and the variant's own flags). */
  run: RunInfo | undefined;
  overrides: FlagOverrides;
  onChange(o: FlagOverrides): void;
  disabled: boolean;
}

export function FlagToggles({ kernel, side, run, overrides, onChange, disabled }: Props) {
  const id = useId();
  const base = run?.kernel?.baseFlags;
  if (!kernel || !run || !base) return null;
  const flags = { ...base, ...overrides };
  const custom = Object.keys(overrides).some((n) => overrides[n] !== base[n]);
  const label = kernelLabel(kernel, run.preset, flags);
  return (
    <fieldset className="flag-toggles" data-testid={`flags-${side}`} aria-describedby={`${id}-label`}>
      <legend>
        Kernel of <strong>{run.variant}</strong>:{' '}
        <span className="tag" id={`${id}-label`} data-testid={`flags-${side}-label`}>
          {label}
        </span>{' '}
        {custom && (
          <span className="custom-tag" data-testid={`flags-${side}-custom`}>
            custom
          </span>
        )}{' '}
        <button type="button" className="ghost small-button" disabled={disabled || !custom} onClick={() => onChange({})} aria-label={`Variant's flags: restore those of ${run.variant}`} data-testid={`flags-${side}-restore`}>
          Variant&apos;s flags
        </button>
      </legend>
      <div className="flag-grid">
        {flagsByVersion(kernel).map((f) => {
          const on = !!flags[f.name];
          const changed = f.name in overrides && overrides[f.name] !== base[f.name];
          return (
            <label key={f.name} className={changed ? 'flag changed' : 'flag'} title={flagTitle(f)}>
              <input
                type="checkbox"
                checked={on}
                disabled={disabled}
                onChange={(e) => onChange(setFlag(overrides, base, f.name, e.target.checked))}
                aria-describedby={`${id}-${f.name}`}
                data-testid={`flag-${side}-${f.name}`}
              />
              <code>{f.name}</code> <span className="muted small">{f.version}</span>
              <span className="muted small flag-doc" id={`${id}-${f.name}`}>
                {f.doc}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
