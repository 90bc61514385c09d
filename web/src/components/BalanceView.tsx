// The balance view: anon vs file reclaim cost, the scan shares get_scan_count
// chose on its last call, swappiness, and one plain-language line of why.
import type { RunFrame, RunInfo } from '../engine/protocol';
import { formatCount } from '../format';
import { BALANCE_NAMES, explainBalance, readBalance, scanShares } from '../lib/explain';
import { OKABE_ITO } from '../lib/palette';

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

export function BalanceView({ info, frame, testPrefix }: { info: RunInfo; frame: RunFrame; testPrefix: string }) {
  // The multi-gen LRU does not use get_scan_count: its type choice is the PID controller's,
  // shown in the generations view.
  if (frame.gens.length > 0) {
    return (
      <section className="balance" aria-label={`Scan balance of ${info.variant}`}>
        <h3>
          Balance <span className="muted">— {info.variant}</span>
        </h3>
        <p className="explain" data-testid={`${testPrefix}balance-explain`}>
          This kernel runs the multi-gen LRU: get_scan_count is not used. Which type is evicted is
          decided by the refault rates of the tiers (the PID controller), shown with the
          generations below.
        </p>
      </section>
    );
  }
  const b = readBalance(frame.balance);
  const [a, f] = scanShares(b);
  const costTotal = b.anonCost + b.fileCost;
  return (
    <section className="balance" aria-label={`Scan balance of ${info.variant}`}>
      <h3>
        Balance <span className="muted">— {info.variant}</span>
      </h3>
      <p className="decision">
        <span className="tag" data-testid={`${testPrefix}balance-kind`}>
          {BALANCE_NAMES[b.kind] ?? b.kind}
        </span>{' '}
        swappiness <strong data-testid={`${testPrefix}balance-swappiness`}>{b.swappiness}</strong>
      </p>
      <Bar label="anon cost" value={b.anonCost} total={costTotal} color={OKABE_ITO[0]!} testId={`${testPrefix}anon-cost`} />
      <Bar label="file cost" value={b.fileCost} total={costTotal} color={OKABE_ITO[1]!} testId={`${testPrefix}file-cost`} />
      <Bar label="anon scan %" value={Math.round(a * 100)} total={100} color={OKABE_ITO[0]!} testId={`${testPrefix}anon-share`} />
      <Bar label="file scan %" value={Math.round(f * 100)} total={100} color={OKABE_ITO[1]!} testId={`${testPrefix}file-share`} />
      <p className="explain" data-testid={`${testPrefix}balance-explain`}>
        {explainBalance(b)}
      </p>
    </section>
  );
}
