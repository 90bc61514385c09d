// The embed's charts view (loaded with it): one chart of the runs at a time, large; the link's
// `chart=` fixes which, else tabs pick one.
import * as Tabs from '@radix-ui/react-tabs';
import { CounterCharts, RoundsChart } from '../components/Charts';
import type { EmbedChart } from '../lib/embed';
import type { AppModel } from './useApp';

const CHART_LABELS: Record<EmbedChart, string> = { counters: 'Counters', free: 'Free memory', cost: 'Balance inputs', rounds: 'Rounds' };

/** One chart of the runs, large. */
function chartOf(m: AppModel, chart: EmbedChart) {
  const { state, frames } = m;
  return chart === 'rounds' ? (
    m.reportsFit && <RoundsChart reports={m.reports.columns.map((c) => c.report)} />
  ) : (
    <CounterCharts runs={state.runs} frames={frames} series={state.series} only={chart} />
  );
}

/** `tabs`: the charts to pick from (null: `chart` alone, no tabs). */
export function EmbedCharts({ m, chart, tabs, onPick }: { m: AppModel; chart: EmbedChart; tabs: EmbedChart[] | null; onPick(c: EmbedChart): void }) {
  if (!tabs) return chartOf(m, chart);
  return (
    <Tabs.Root className="embed-chart-tabs" value={chart} onValueChange={(v) => onPick(v as EmbedChart)}>
      <Tabs.List className="tabs-list" aria-label="Which chart">
        {tabs.map((c) => (
          <Tabs.Trigger key={c} value={c} className="tab" data-testid={`embed-chart-tab-${c}`}>
            {CHART_LABELS[c]}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      <Tabs.Content value={chart} className="embed-chart">
        {chartOf(m, chart)}
      </Tabs.Content>
    </Tabs.Root>
  );
}
