import { describe, expect, it } from 'vitest';
import { checkoutReturnUrls } from './checkout';

describe('checkoutReturnUrls (spec/001 §7 HandlePurchase)', () => {
  it.each([
    [
      'https://portal.example.test',
      'https://portal.example.test/dashboard/cart/success',
      'https://portal.example.test/dashboard/cart/cancel',
    ],
    [
      'http://localhost:5173',
      'http://localhost:5173/dashboard/cart/success',
      'http://localhost:5173/dashboard/cart/cancel',
    ],
  ])('%s', (origin, success_url, cancel_url) => {
    expect(checkoutReturnUrls(origin)).toEqual({ success_url, cancel_url });
  });
});
