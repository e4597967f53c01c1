import { SUPPORTED_ROBOT_MODELS } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { kindOf, loadCatalogue } from './catalogue.ts';

/** The committed catalogue (catalogue.json) against the rules of the catalogue and of spec/001 §2. */
describe('the committed catalogue', () => {
  const catalogue = loadCatalogue();
  const drivers = catalogue.products.filter((p) => kindOf(p) === 'driver');

  it.each(SUPPORTED_ROBOT_MODELS.filter((m) => m !== 'Generic'))(
    'sells a driver for the supported model %s, yearly in GBP',
    (model) => {
      const product = drivers.find((p) => p.metadata.model === model);
      expect(product, `no driver product for ${model}`).toBeDefined();
      expect(product?.prices.some((p) => p.currency === 'gbp' && p.recurring?.interval === 'year')).toBe(true);
    },
  );

  it('sells no driver for a model off the supported list', () => {
    expect(drivers.map((p) => p.metadata.model).filter((m) => !SUPPORTED_ROBOT_MODELS.includes(m ?? ''))).toEqual([]);
  });

  it.each([
    ['a driver without its model', 'prod_driver_nao', { model: '' }, 'metadata.model: required'],
    [
      'a plan without its slot count',
      'prod_standard',
      { BOW_FLEX_SLOTS: 'two' },
      'BOW_FLEX_SLOTS: must be a whole number',
    ],
  ])('refuses %s', (_name, id, metadata, message) => {
    const broken = structuredClone(catalogue);
    const product = broken.products.find((p) => p.id === id);
    if (!product) throw new Error(`no ${id}`);
    Object.assign(product.metadata, metadata);
    expect(() => loadCatalogue(broken)).toThrow(message);
  });
});
