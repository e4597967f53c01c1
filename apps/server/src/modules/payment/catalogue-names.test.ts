import { robotDisplayName } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import catalogueFile from './catalogue.json' with { type: 'json' };

/**
 * Every catalogue product as the toasts, the cart, Payment Successful, receipts and mails name it
 * (spec/001 §2 Display mapping). A product added to catalogue.json must be added here.
 */
const SHOWN: Record<string, string> = {
  'Lite Subscription': 'Lite Subscription',
  'Standard Subscription': 'Standard Subscription',
  'Pro Subscription': 'Pro Subscription',
  'Pepper driver': 'Pepper driver',
  'Nao driver': 'Nao driver',
  'Tiago_Steel driver': 'Tiago Steel driver',
  'Tiago++ driver': 'Tiago++ driver',
  'Artus_Hand driver': 'Artus Hand driver',
  'Tiago_Titanium driver': 'Tiago Titanium driver',
  'Rhino driver': 'Rhino driver',
  'SID1 driver': 'SID1 driver',
  '60 dial minutes': '60 dial minutes',
  '300 dial minutes': '300 dial minutes',
  '1200 dial minutes': '1200 dial minutes',
};

describe('catalogue product names as shown', () => {
  it.each(catalogueFile.products.map((p) => p.name))('%s', (name) => {
    expect(SHOWN[name], `${name} is missing from the table`).toBeDefined();
    expect(robotDisplayName(name)).toBe(SHOWN[name]);
  });
});
