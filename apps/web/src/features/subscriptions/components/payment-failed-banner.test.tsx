import { OK } from '@portal/contract';
import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { redirectBrowser } from '@/lib/redirect';
import { storeSession } from '@/lib/session';
import { fakeServer, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { PastDueBanner } from './past-due-banner';
import { PAYMENT_FAILED_TEXT } from './payment-failed-banner';

vi.mock('@/lib/redirect', () => ({ redirectBrowser: vi.fn() }));

const EMAIL = 'ada@example.com';
const PORTAL = 'https://billing.example.test/session/1';

beforeEach(() => storeSession(tokenPair(), user(), true));

function serve(paymentFailedAt: number) {
  return fakeServer({
    CHECK_REMAINING_TIME: () => ({
      json: {
        error: OK,
        user_time: { subscription_type: 'Standard Subscription', payment_failed_at: paymentFailedAt },
      },
    }),
    GetCustomerID: () => ({ json: { error: OK, customer_id: 'cus_1' } }),
    CreateBillingPortalSession: () => ({ json: { error: OK, session: { session_url: PORTAL } } }),
  });
}

describe('the past-due banner (issue 31)', () => {
  it('asks for a new card while a renewal has failed; Update Payment Info opens the billing portal', async () => {
    const server = serve(Date.UTC(2026, 10, 20));
    await renderScreen(<PastDueBanner email={EMAIL} userId="u-1" />);
    const banner = await screen.findByRole('region', { name: PAYMENT_FAILED_TEXT.title });
    expect(banner.textContent).toContain(PAYMENT_FAILED_TEXT.body);
    fireEvent.click(screen.getByRole('button', { name: 'Update Payment Info' }));
    await vi.waitFor(() => expect(redirectBrowser).toHaveBeenCalledWith(PORTAL));
    expect(server.count('CreateBillingPortalSession')).toBe(1);
  });

  it('is not there when no payment failed', async () => {
    const server = serve(0);
    await renderScreen(<PastDueBanner email={EMAIL} userId="u-1" />);
    await settle();
    expect(server.count('CHECK_REMAINING_TIME')).toBe(1);
    expect(screen.queryByRole('region', { name: PAYMENT_FAILED_TEXT.title })).toBeNull();
  });
});
