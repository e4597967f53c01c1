import type { PaymentProduct } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { approvedDrivers } from './flexible-license.approved.ts';

const product = (metadata: Record<string, string>): Pick<PaymentProduct, 'metadata'> => ({ metadata });
const driver = (uuid: string, model: string, extra: Record<string, string> = {}) =>
  product({ BOW_SORTING: 'driver', BOW_UUID: uuid, model, manufacturer: 'Maker', ...extra });

describe('approvedDrivers (docs/decisions/022)', () => {
  it.each<[string, Pick<PaymentProduct, 'metadata'>[], string[]]>([
    ['a driver of a supported model', [driver('driver-nao', 'Nao')], ['driver-nao']],
    ['matched case-insensitively, trimmed', [driver(' driver-nao ', ' nAO ')], ['driver-nao']],
    ['not an unsupported model', [driver('driver-roomba', 'Roomba')], []],
    ['not a product without BOW_UUID', [product({ BOW_SORTING: 'driver', model: 'Nao' })], []],
    ['not a product without model metadata', [product({ BOW_SORTING: 'driver', BOW_UUID: 'driver-nao' })], []],
    ['not a plan', [product({ BOW_SORTING: 'subscription', BOW_UUID: 'x', model: 'Nao' })], []],
    ['not a time package', [product({ BOW_PRICING: 'onetime', BOW_UUID: 'x', model: 'Nao' })], []],
    [
      'one entry for a robot id listed twice',
      [driver('driver-nao', 'Nao'), driver('driver-nao', 'Nao')],
      ['driver-nao'],
    ],
  ])('%s', (_name, products, ids) => {
    expect([...approvedDrivers(products, ['Nao', 'Pepper']).keys()]).toEqual(ids);
  });

  it('keeps the model and manufacturer the license is named after', () => {
    expect(approvedDrivers([driver('driver-pepper', 'Pepper')], ['Pepper']).get('driver-pepper')).toEqual({
      robotId: 'driver-pepper',
      model: 'Pepper',
      manufacturer: 'Maker',
    });
  });
});
