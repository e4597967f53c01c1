import type { UsageEvent, UsageHistory } from '@portal/contract';
import * as React from 'react';
import { Bar, BarChart, CartesianGrid, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { MARKER_COLORS, seriesColor } from '../usage-colors';
import { chartDays, formatAxisDay, formatDay, robotLabel, seriesKey } from '../usage-series';
import { USAGE_TEXT } from '../usage-text';

/** Minutes added on one day, drawn as one marker: allocation alone, or including a purchase or grant. */
function markersByDay(events: readonly UsageEvent[]) {
  const byDay = new Map<string, { minutes: number; credit: boolean }>();
  for (const e of events) {
    const m = byDay.get(e.day) ?? { minutes: 0, credit: false };
    m.minutes += e.minutes;
    m.credit ||= e.kind !== 'allocation';
    byDay.set(e.day, m);
  }
  return [...byDay.entries()];
}

const AXIS_TICK = { fill: 'var(--muted-foreground)', fontSize: 12 };

/**
 * The stacked bar chart of minutes used per day and robot, with dashed lines where minutes were
 * added. Only the usage route loads this module (and recharts with it): see docs/decisions/029.
 */
export function UsageChart({ history }: { history: UsageHistory }) {
  const data = React.useMemo(() => chartDays(history), [history]);
  const markers = React.useMemo(() => markersByDay(history.events), [history.events]);
  return (
    <ResponsiveContainer width="100%" height={300}>
      <BarChart data={data} margin={{ top: 20, right: 24, bottom: 0, left: -16 }} title={USAGE_TEXT.chartTitle}>
        <CartesianGrid vertical={false} stroke="var(--border)" />
        <XAxis
          dataKey="day"
          tickFormatter={formatAxisDay}
          tick={AXIS_TICK}
          tickLine={false}
          axisLine={{ stroke: 'var(--border)' }}
          minTickGap={24}
        />
        <YAxis allowDecimals={false} tick={AXIS_TICK} tickLine={false} axisLine={false} width={56} />
        <Tooltip
          cursor={{ fill: 'var(--muted)', opacity: 0.6 }}
          labelFormatter={(day) => formatDay(String(day))}
          formatter={(value) => `${Number(value).toLocaleString('en-GB')} min`}
          contentStyle={{
            background: 'var(--popover)',
            color: 'var(--popover-foreground)',
            border: '1px solid var(--border)',
            borderRadius: 8,
          }}
          itemStyle={{ color: 'var(--popover-foreground)' }}
        />
        {markers.map(([day, m]) => (
          <ReferenceLine
            key={day}
            x={day}
            stroke={m.credit ? MARKER_COLORS.credit : MARKER_COLORS.allocation}
            strokeDasharray="4 3"
            label={{ value: `+${m.minutes}`, position: 'top', fill: 'var(--foreground)', fontSize: 11 }}
          />
        ))}
        {history.robots.map((robot, i) => (
          <Bar
            key={robot.robot_id}
            dataKey={seriesKey(i)}
            name={robotLabel(robot)}
            stackId="usage"
            fill={seriesColor(i)}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
