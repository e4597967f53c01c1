import { act, fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '@/lib/auth';
import { failure, fakeServer, OK, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { ENROLMENT_LINK_UNUSABLE } from '../admin-text';
import { AdminEnrolPage } from './admin-enrol-page';

const startRegistration = vi.fn();
vi.mock('@simplewebauthn/browser', () => ({ startRegistration: (...args: unknown[]) => startRegistration(...args) }));

const TOKEN = 'abcdefghijklmnopqrstuvwx';
const OPTIONS = {
  challenge: 'Y2hhbGxlbmdl',
  rp: { name: 'Robot Portal', id: 'localhost' },
  user: { id: 'dXNlcg', name: 'new@example.com', displayName: 'new@example.com' },
  pubKeyCredParams: [{ alg: -7, type: 'public-key' }],
};
const CREDENTIAL = {
  id: 'Y3JlZA',
  rawId: 'Y3JlZA',
  type: 'public-key',
  response: { clientDataJSON: 'e30', attestationObject: 'o2NmbXRkbm9uZQ', transports: ['internal'] },
  clientExtensionResults: {},
};
const linkOpen = () => ({ json: { email: 'new@example.com', role: 'support', options: OPTIONS, error: OK } });

beforeEach(() => {
  startRegistration.mockReset();
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
});

function renderPage(token: string | undefined) {
  return renderScreen(
    <AuthProvider onSignedOut={() => {}} onChange={() => {}}>
      <AdminEnrolPage token={token} />
    </AuthProvider>,
    '/admin/enrol',
  );
}

describe('staff enrolment', () => {
  it('a link without a token says what to do', async () => {
    const server = fakeServer({});
    await renderPage(undefined);
    expect(await screen.findByText(ENROLMENT_LINK_UNUSABLE)).toBeTruthy();
    expect(server.calls).toEqual([]);
  });

  it('an unknown, used or expired link (404 naming the token) says to ask an admin for a new one', async () => {
    fakeServer({
      StaffEnrolmentOptions: () => ({
        status: 404,
        json: failure(
          103,
          'enrolment_token: this enrolment link is unknown, used or expired; ask an admin for a new one',
        ),
      }),
    });
    await renderPage(TOKEN);
    expect(await screen.findByText('This link cannot be used')).toBeTruthy();
    expect(screen.getByText(ENROLMENT_LINK_UNUSABLE)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Register a passkey' })).toBeNull();
  });

  it('shows who the link is for and the role; the passkey needs a name', async () => {
    const server = fakeServer({ StaffEnrolmentOptions: linkOpen });
    await renderPage(TOKEN);
    expect((await screen.findByTestId('enrol-email')).textContent).toBe('new@example.com');
    expect(screen.getByTestId('enrol-role').textContent).toBe('Support');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Register a passkey' })));
    expect(screen.getByLabelText('Passkey name').getAttribute('aria-invalid')).toBe('true');
    expect(startRegistration).not.toHaveBeenCalled();
    expect(server.count('StaffEnrol')).toBe(0);
  });

  it('registers the passkey, signs the staff member in and goes to /admin', async () => {
    const pair = tokenPair();
    startRegistration.mockResolvedValue(CREDENTIAL);
    const server = fakeServer({
      StaffEnrolmentOptions: linkOpen,
      StaffEnrol: () => ({ json: { user: user({ email: 'new@example.com' }), token_pair: pair, error: OK } }),
    });
    const { router } = await renderPage(TOKEN);
    fireEvent.change(await screen.findByLabelText('Passkey name'), { target: { value: ' Work laptop ' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Register a passkey' })));
    await settle(60);
    expect(startRegistration).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    expect(server.calls.find((c) => c.action === 'StaffEnrol')?.body).toMatchObject({
      enrolment_token: TOKEN,
      name: 'Work laptop',
      credential: { id: 'Y3JlZA' },
    });
    expect(sessionStorage.getItem('refresh_token')).toBe(pair.refresh_token);
    expect(router.state.location.pathname).toBe('/admin');
  });

  it('a closed prompt says nothing was registered and asks the link for a fresh challenge', async () => {
    startRegistration.mockRejectedValue(Object.assign(new Error('cancelled'), { name: 'NotAllowedError' }));
    const server = fakeServer({ StaffEnrolmentOptions: linkOpen });
    await renderPage(TOKEN);
    fireEvent.change(await screen.findByLabelText('Passkey name'), { target: { value: 'Phone' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Register a passkey' })));
    await settle();
    expect(screen.getByText('Passkey not registered')).toBeTruthy();
    expect(screen.getByText(/the prompt was closed or timed out/)).toBeTruthy();
    expect(server.count('StaffEnrolmentOptions')).toBe(2);
    expect(server.count('StaffEnrol')).toBe(0);
  });

  it('a link used meanwhile reads as unusable', async () => {
    startRegistration.mockResolvedValue(CREDENTIAL);
    fakeServer({
      StaffEnrolmentOptions: linkOpen,
      StaffEnrol: () => ({
        status: 404,
        json: failure(103, 'enrolment_token: this enrolment link was used meanwhile'),
      }),
    });
    await renderPage(TOKEN);
    fireEvent.change(await screen.findByLabelText('Passkey name'), { target: { value: 'Phone' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Register a passkey' })));
    await settle();
    expect(screen.getByText(ENROLMENT_LINK_UNUSABLE)).toBeTruthy();
  });
});
