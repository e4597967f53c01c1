import { describe, expect, it } from 'vitest';
import { DATA_USAGE_ROWS } from './privacy-data-usage';

describe('DATA_USAGE_ROWS', () => {
  it('has the seven rows of spec/000', () => {
    expect(DATA_USAGE_ROWS).toHaveLength(7);
  });

  it.each(DATA_USAGE_ROWS.map((row) => ({ purpose: row.purpose, row })))(
    '$purpose is kept 2 years then anonymised',
    ({ row }) => {
      expect(row.data).not.toBe('');
      expect(row.basis).toMatch(/Retained for 2 years, then anonymised\.$/);
    },
  );
});
