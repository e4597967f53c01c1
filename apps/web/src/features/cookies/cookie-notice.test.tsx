import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderScreen } from '@/test/render-screen';
import { COOKIE_NOTICE_CHANNEL, COOKIE_NOTICE_SIGNAL, CookieNotice } from './cookie-notice';
import { COOKIE_NOTICE_COOKIE, hasAcknowledgedCookies } from './cookie-notice-state';

const clearCookie = () => {
  // biome-ignore lint/suspicious/noDocumentCookie: the test resets jsdom's cookie jar.
  document.cookie = `${COOKIE_NOTICE_COOKIE}=; path=/; max-age=0`;
};
const setCookieElsewhere = () => {
  // biome-ignore lint/suspicious/noDocumentCookie: stands for another tab writing the shared cookie.
  document.cookie = `${COOKIE_NOTICE_COOKIE}=true; path=/`;
};
const notice = () => screen.queryByRole('region', { name: 'Cookie notice' });

beforeEach(clearCookie);
afterEach(clearCookie);

describe('the cookie notice (spec/000 §2 Cookie notice)', () => {
  it('shows until OK, which sets the cookie and hides it', async () => {
    await renderScreen(<CookieNotice />);
    expect(notice()).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(notice()).toBeNull();
    expect(hasAcknowledgedCookies(document.cookie)).toBe(true);
  });

  it('does not show once the cookie exists', async () => {
    setCookieElsewhere();
    await renderScreen(<CookieNotice />);
    expect(notice()).toBeNull();
  });

  it("hides when another tab's OK is broadcast", async () => {
    await renderScreen(<CookieNotice />);
    expect(notice()).not.toBeNull();
    setCookieElsewhere();
    const otherTab = new BroadcastChannel(COOKIE_NOTICE_CHANNEL);
    otherTab.postMessage('acknowledged');
    otherTab.close();
    await waitFor(() => expect(notice()).toBeNull());
  });

  it("hides on another tab's storage signal (should the channel's message be lost)", async () => {
    await renderScreen(<CookieNotice />);
    setCookieElsewhere();
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: COOKIE_NOTICE_SIGNAL, newValue: '1' }));
    });
    expect(notice()).toBeNull();
  });

  it('hides on focus when the cookie appeared while the tab was away', async () => {
    await renderScreen(<CookieNotice />);
    setCookieElsewhere();
    expect(notice()).not.toBeNull();
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    expect(notice()).toBeNull();
  });
});
