import { describe, expect, it } from 'vitest';
import { displayModel, robotDisplayName } from './robot-models.ts';

/** Every product name of the sandbox catalogue (apps/server/src/modules/payment/catalogue.json), as shown. */
const CATALOGUE_NAMES: [string, string][] = [
  ['Lite Subscription', 'Lite Subscription'],
  ['Standard Subscription', 'Standard Subscription'],
  ['Pro Subscription', 'Pro Subscription'],
  ['Pepper driver', 'Pepper driver'],
  ['Nao driver', 'Nao driver'],
  ['Tiago_Steel driver', 'Tiago Steel driver'],
  ['Tiago++ driver', 'Tiago++ driver'],
  ['Artus_Hand driver', 'Artus Hand driver'],
  ['Tiago_Titanium driver', 'Tiago Titanium driver'],
  ['Rhino driver', 'Rhino driver'],
  ['SID1 driver', 'SID1 driver'],
  ['60 dial minutes', '60 dial minutes'],
  ['300 dial minutes', '300 dial minutes'],
  ['1200 dial minutes', '1200 dial minutes'],
];

describe('robotDisplayName (spec/001 §2 Display mapping)', () => {
  it.each(CATALOGUE_NAMES)('%s -> %s', (name, shown) => {
    expect(robotDisplayName(name)).toBe(shown);
  });

  it.each([
    ['Artus_Hand', 'Artus Hand'],
    ['Tiago_Steel', 'Tiago Steel'],
    ['Tiago_Titanium', 'Tiago Titanium'],
    ['Tiago++', 'Tiago++'],
    ['Generic', 'Generic'],
    ['Unknown_Bot', 'Unknown_Bot'],
    ['', ''],
  ])('model %s -> %s', (name, shown) => {
    expect(robotDisplayName(name)).toBe(shown);
  });
});

describe('displayModel', () => {
  it.each([
    ['Tiago_Steel', 'Tiago', 'Steel'],
    ['Tiago_Titanium', 'Tiago', 'Titanium'],
    ['Tiago++', 'Tiago', '++'],
    ['Artus_Hand', 'Artus Hand', undefined],
    ['Pepper', 'Pepper', undefined],
  ])('%s -> %s %s', (raw, model, version) => {
    expect(displayModel(raw)).toEqual(version === undefined ? { model } : { model, version });
  });
});
