import { dialSummary } from '@portal/contract';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PoolPie } from './dial-time-pie';

// 455 of 500 durable minutes left (91 %), 1,760 of 3,000 perishable (59 %): the case that once
// shared one circle.
const time = {
  total_durable_time: 500,
  used_durable_time: 45,
  total_perishable_time: 3000,
  used_perishable_time: 1240,
  has_infinite_time: false,
};
const summary = dialSummary(time);

describe('PoolPie', () => {
  it('draws each pool against its own total, with its percentage as the text alternative', () => {
    render(
      <>
        <PoolPie pool="durable" summary={summary} />
        <PoolPie pool="perishable" summary={summary} />
      </>,
    );
    const durable = screen.getByRole('img', { name: 'Durable time: 91% remaining' });
    const perishable = screen.getByRole('img', { name: 'Perishable time: 59% remaining' });
    // 91 % and 59 % of a turn are both more than half: each wedge takes the large arc.
    expect(durable.querySelector('path')?.getAttribute('d')).toMatch(/ A 46 46 0 1 1 /);
    expect(perishable.querySelector('path')?.getAttribute('d')).toMatch(/ A 46 46 0 1 1 /);
  });

  it('an empty pool shows the disc alone', () => {
    render(<PoolPie pool="durable" summary={dialSummary({ ...time, total_durable_time: 0 })} />);
    const pie = screen.getByRole('img', { name: 'Durable time: 0% remaining' });
    expect(pie.querySelector('path')).toBeNull();
    expect(pie.querySelector('circle')).not.toBeNull();
  });
});
