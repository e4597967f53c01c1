import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LOGOUT_BROADCAST_REPEATS_MS } from '@/config/constants';
import { AuthProvider } from '@/lib/auth';
import { readSession, storeSession } from '@/lib/session';
import { fakeServer, OK, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { staffMe } from '../admin-fixtures';
import { overview } from '../admin-release-fixtures';
import { AdminFrame } from './admin-frame';
import { AdminOverview } from './admin-overview';

beforeEach(() => storeSession(tokenPair(), user({ email: 'grace@example.com' }), true));

function renderFrame(me: ReturnType<typeof staffMe>, onSignedOut = vi.fn()) {
  return renderScreen(
    <AuthProvider onSignedOut={onSignedOut} onChange={() => {}}>
      <AdminFrame me={me}>
        <AdminOverview me={me} />
      </AdminFrame>
    </AuthProvider>,
    '/admin',
  );
}

const navLinks = () =>
  within(screen.getByRole('navigation', { name: 'Console' }))
    .getAllByRole('link')
    .map((a) => a.textContent);

describe('the console frame', () => {
  it.each([
    ['support', ['Overview', 'Support', 'Customers', 'Releases']],
    ['finance', ['Overview', 'Support', 'Customers', 'Releases']],
    ['admin', ['Overview', 'Support', 'Customers', 'Staff', 'API keys', 'Audit trail', 'Releases']],
  ] as const)('a %s sees the screens of the role: %j', async (role, links) => {
    fakeServer({
      'get-self': () => ({ json: { user: user(), token_pair: tokenPair(), error: OK } }),
      GetOverview: () => ({ json: { ...overview(), error: OK } }),
    });
    await renderFrame(staffMe(role));
    expect(navLinks()).toEqual(links);
    expect(screen.getByTestId('admin-staff-email').textContent).toBe('grace@example.com');
    expect(screen.getByTestId('admin-staff-role').textContent).toBe(role[0]?.toUpperCase() + role.slice(1));
  });

  it('the overview lists what the role may do', async () => {
    fakeServer({
      'get-self': () => ({ json: { user: user(), token_pair: tokenPair(), error: OK } }),
      GetOverview: () => ({ json: { ...overview(), error: OK } }),
    });
    await renderFrame(staffMe('support'));
    const can = screen.getByRole('list', { name: 'What your role may do', hidden: true });
    expect(within(can).getByText('Grant goodwill dial time')).toBeTruthy();
    expect(within(can).queryByText('Refund payments')).toBeNull();
  });

  it('warns while OPERATOR_TOKEN is set, and only then', async () => {
    fakeServer({
      'get-self': () => ({ json: { user: user(), token_pair: tokenPair(), error: OK } }),
      GetOverview: () => ({ json: { ...overview(), error: OK } }),
    });
    const { unmount } = await renderFrame(staffMe('admin', { legacy_key_set: true }));
    expect(screen.getByText(/^OPERATOR_TOKEN is set:/)).toBeTruthy();
    unmount();
    await renderFrame(staffMe('admin'));
    expect(screen.queryByText(/^OPERATOR_TOKEN is set:/)).toBeNull();
  });

  it('signs out: the session is revoked and forgotten', async () => {
    const server = fakeServer({
      'get-self': () => ({ json: { user: user(), token_pair: tokenPair(), error: OK } }),
      GetOverview: () => ({ json: { ...overview(), error: OK } }),
      logout: () => ({ json: { error: OK } }),
    });
    const onSignedOut = vi.fn();
    await renderFrame(staffMe('support'), onSignedOut);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Sign out' })));
    // The logout is told to the other tabs again at 100, 300 and 500 ms: all within this test.
    await settle(LOGOUT_BROADCAST_REPEATS_MS.at(-1) ?? 0);
    await settle(50);
    expect(server.count('logout')).toBe(1);
    expect(readSession().refreshToken).toBeNull();
    expect(onSignedOut).toHaveBeenCalled();
  });
});
