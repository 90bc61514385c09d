// The balance view: what the run's kernel balances anon against file on (its era's inputs, as
// the engine reports them), the branch get_scan_count took on its last call and why.
import type { RunFrame, RunInfo } from '../engine/protocol';
import { formatCount } from '../format';
import { explainBalance } from '../lib/explain';
import { ANON_COLOR, FILE_COLOR } from '../lib/palette';

function Bar({ label, value, total, color, testId }: { label: string; value: number; total: number; color: string; testId: string }) {
  const pct = total > 0 ? (value / total) * 100 : 0;
  return (
    <div className="bar-row">
      <span className="bar-label">{label}</span>
      <span className="bar-track" role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(pct)}>
        <span className="bar-fill" style={{ width: `${pct}%`, background: color }} />
      </span>
      <span className="bar-value" data-testid={testId}>
        {formatCount(value)}
      </span>
    </div>
  );
}

const ANON = ANON_COLOR;
const FILE = FILE_COLOR;

export function BalanceView({ info, frame, testPrefix }: { info: RunInfo; frame: RunFrame; testPrefix: string }) {
  const v = frame.balance;
  const d = v.last;
  const heading = (
    <h3>
      Balance <span className="muted">— {info.variant}</span>
    </h3>
  );
  // The multi-gen LRU does not use get_scan_count: point at its own controller.
  if (v.era === 'mglru') {
    return (
      <section className="balance" aria-label={`Scan balance of ${info.variant}`} data-era={v.era}>
        {heading}
        <p className="explain" data-testid={`${testPrefix}balance-explain`}>
          {explainBalance(v)}{' '}
          <a href={`#${testPrefix}gens`} data-testid={`${testPrefix}balance-gens-link`} onClick={(e) => {
            const el = document.querySelector(`[data-testid="${testPrefix}gens"]`);
            if (el) {
              e.preventDefault();
              el.scrollIntoView({ block: 'nearest' });
            }
          }}>
            Go to the generations view
          </a>
        </p>
      </section>
    );
  }
  // The inputs of this era, at the last decision (live before reclaim has run).
  const scanned = d ? d.recentScanned : v.recentScanned;
  const rotated = d ? d.recentRotated : v.recentRotated;
  const costs = d ? [d.anonCost, d.fileCost] : [v.anonCost, v.fileCost];
  const [a, f] = d ? d.shares : [0, 0];
  const inputTotal = Math.max(...scanned, ...rotated);
  return (
    <section className="balance" aria-label={`Scan balance of ${info.variant}`} data-era={v.era} data-reason={d?.reason ?? 'none'}>
      {heading}
      <p className="decision">
        <span className="tag" data-testid={`${testPrefix}balance-kind`}>
          {d ? d.balance : 'none yet'}
        </span>{' '}
        {d && (
          <>
            <span className="muted" data-testid={`${testPrefix}balance-reason`}>{d.reason.replace(/_/g, ' ')}</span>{' '}
            priority <strong data-testid={`${testPrefix}balance-priority`}>{d.priority}</strong>{' '}
          </>
        )}
        swappiness <strong data-testid={`${testPrefix}balance-swappiness`}>{v.swappiness}</strong>
      </p>
      <p className="muted balance-source" data-testid={`${testPrefix}balance-source`}>
        {v.source}
      </p>
      {v.era === 'rotation' ? (
        <div data-testid={`${testPrefix}balance-inputs`} data-era="rotation">
          <Bar label="anon scanned" value={scanned[0]} total={inputTotal} color={ANON} testId={`${testPrefix}anon-scanned`} />
          <Bar label="anon rotated" value={rotated[0]} total={inputTotal} color={ANON} testId={`${testPrefix}anon-rotated`} />
          <Bar label="file scanned" value={scanned[1]} total={inputTotal} color={FILE} testId={`${testPrefix}file-scanned`} />
          <Bar label="file rotated" value={rotated[1]} total={inputTotal} color={FILE} testId={`${testPrefix}file-rotated`} />
        </div>
      ) : (
        <div data-testid={`${testPrefix}balance-inputs`} data-era="cost">
          <Bar label="anon cost" value={costs[0]!} total={costs[0]! + costs[1]!} color={ANON} testId={`${testPrefix}anon-cost`} />
          <Bar label="file cost" value={costs[1]!} total={costs[0]! + costs[1]!} color={FILE} testId={`${testPrefix}file-cost`} />
          <p className="muted small">Both costs halve once their sum exceeds a quarter of the LRU (lru_note_cost).</p>
        </div>
      )}
      {d?.balance === 'SCAN_FRACT' && (
        <p className="muted small" data-testid={`${testPrefix}balance-weights`}>
          weights ap {formatCount(d.fraction[0])}, fp {formatCount(d.fraction[1])} (denominator {formatCount(d.denominator)})
        </p>
      )}
      <Bar label="anon scan %" value={Math.round(a * 100)} total={100} color={ANON} testId={`${testPrefix}anon-share`} />
      <Bar label="file scan %" value={Math.round(f * 100)} total={100} color={FILE} testId={`${testPrefix}file-share`} />
      <p className="explain" data-testid={`${testPrefix}balance-explain`}>
        {explainBalance(v)}
      </p>
    </section>
  );
}
