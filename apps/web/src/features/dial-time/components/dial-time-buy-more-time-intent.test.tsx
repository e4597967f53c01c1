import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { storeSession } from '@/lib/session';
import { tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { serveDialTime } from '@/test/subscription-fixtures';
import { DialTimePanel } from './dial-time-panel';

// The dialog's code never arrives here: the button stays the stand-in, whose handlers are tested.
vi.mock('./dial-time-buy-more-time-dialog', () => new Promise(() => {}));

const EMAIL = 'ada@example.com';

beforeEach(() => storeSession(tokenPair(), user(), true));

describe('Buy More Time asks for what its dialog shows on intent (decision 047)', () => {
  it.each([
    ['pointed at', (button: HTMLElement) => fireEvent.pointerEnter(button)],
    ['focused', (button: HTMLElement) => fireEvent.focus(button)],
    ['pressed', (button: HTMLElement) => fireEvent.click(button)],
  ])('asks for the tier and the catalogue when the button is %s, not with the panel', async (_how, intent) => {
    const server = serveDialTime('Lite Subscription');
    await renderScreen(<DialTimePanel email={EMAIL} userId="u-1" />);
    await settle();
    const button = screen.getByRole('button', { name: 'Buy More Time' });
    expect(server.count('CHECK_REMAINING_TIME')).toBe(1);
    expect(server.count('GetActiveUserSubscription')).toBe(0);
    expect(server.count('GetProducts')).toBe(0);

    intent(button);
    await vi.waitFor(() => expect(server.count('GetProducts')).toBe(1));
    expect(server.count('GetActiveUserSubscription')).toBe(1);
    expect(server.calls.find((c) => c.action === 'GetActiveUserSubscription')?.body.email).toBe(EMAIL);

    // Fresh answers are not asked for again by the next intent.
    fireEvent.pointerEnter(button);
    await settle();
    expect(server.count('GetProducts')).toBe(1);
    expect(server.count('GetActiveUserSubscription')).toBe(1);
  });
});
