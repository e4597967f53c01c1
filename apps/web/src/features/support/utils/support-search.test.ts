import { describe, expect, it } from 'vitest';
import { supportFormDefaults, supportSearchSchema } from './support-search';

describe('supportSearchSchema', () => {
  it.each([
    [{}, {}],
    [
      { topic: 'robot_not_listed', model: 'Unitree G1' },
      { topic: 'robot_not_listed', model: 'Unitree G1' },
    ],
    [{ topic: 'billing' }, { topic: 'billing' }],
    [{ topic: 'sales' }, {}],
    [{ topic: 3, model: 42 }, {}],
    [{ model: '   ' }, {}],
    [{ model: 'x'.repeat(201) }, {}],
    [{ model: '  Spot  ' }, { model: 'Spot' }],
    [{ ticket: 'SR-ABCD-2345' }, { ticket: 'SR-ABCD-2345' }],
    [{ ticket: ' sr-abcd-2345 ' }, { ticket: 'SR-ABCD-2345' }],
    [{ ticket: 'SR-ABCD-2340' }, {}],
    [{ ticket: 'SR-ABCD' }, {}],
    [{ ticket: 7 }, {}],
  ])('%j -> %j', (raw, expected) => {
    const parsed = supportSearchSchema.read(raw);
    expect(Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined))).toEqual(expected);
  });
});

describe('supportFormDefaults', () => {
  it.each([
    [{}, { category: 'general', subject: '', message: '', robot_model: '' }],
    [
      { topic: 'robot_not_listed' as const, model: 'Unitree G1' },
      { category: 'robot_not_listed', subject: 'Robot not listed: Unitree G1', message: '', robot_model: 'Unitree G1' },
    ],
    [
      { topic: 'robot_not_listed' as const },
      { category: 'robot_not_listed', subject: '', message: '', robot_model: '' },
    ],
    [
      { topic: 'technical' as const, model: 'Spot' },
      { category: 'technical', subject: '', message: '', robot_model: 'Spot' },
    ],
  ])('%j', (search, expected) => {
    expect(supportFormDefaults(search)).toEqual(expected);
  });
});
