import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { storeSession } from '@/lib/session';
import { failure, fakeServer, OK, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { apiKey } from '../admin-fixtures';
import { AdminApiKeysScreen } from './admin-api-keys-screen';

// Staff calls go with the session (packages/client): the tests' browser has one.
beforeEach(() => storeSession(tokenPair(), user({ email: 'grace@example.com' }), true));

const LIVE = apiKey();
const REVOKED = apiKey({
  key_id: '44444444-4444-4444-8444-444444444444',
  name: 'Old export',
  role: 'finance',
  last_used_at: Date.UTC(2026, 10, 2, 8, 0),
  revoked_at: Date.UTC(2026, 10, 3, 8, 0),
});

describe('API keys screen', () => {
  it('lists keys with role, prefix, last use and status; only a live key can be revoked', async () => {
    fakeServer({ ListApiKeys: () => ({ json: { keys: [LIVE, REVOKED], legacy_key_set: true, error: OK } }) });
    await renderScreen(<AdminApiKeysScreen />);
    const table = await screen.findByRole('region', { name: 'API keys table' });
    const [, live, revoked] = within(table).getAllByRole('row');
    expect(live?.textContent).toContain('Nightly sync');
    expect(live?.textContent).toContain('rpk_abcd…');
    expect(live?.textContent).toContain('Never');
    expect(live?.textContent).toContain('Active');
    expect(revoked?.textContent).toContain('Finance');
    expect(revoked?.textContent).toMatch(/Revoked 2026-11-03/);
    expect(within(live as HTMLElement).getByRole('button', { name: 'Revoke API key Nightly sync' })).toBeTruthy();
    expect(within(revoked as HTMLElement).queryByRole('button')).toBeNull();
    expect(screen.getByText('OPERATOR_TOKEN works as the key "legacy"')).toBeTruthy();
  });

  it('says when there is no key yet', async () => {
    fakeServer({ ListApiKeys: () => ({ json: { keys: [], legacy_key_set: false, error: OK } }) });
    await renderScreen(<AdminApiKeysScreen />);
    expect(await screen.findByText('No API keys yet. Create one above.')).toBeTruthy();
  });

  it('a role short of the permission reads as such, with no retry', async () => {
    fakeServer({ ListApiKeys: () => ({ status: 403, json: failure(8, 'role: admin needed') }) });
    await renderScreen(<AdminApiKeysScreen />);
    expect(await screen.findByText('Your role does not allow this. Ask an admin if you need it.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('creates a key and shows its secret once, with the note, until dismissed', async () => {
    const server = fakeServer({
      ListApiKeys: () => ({ json: { keys: [], legacy_key_set: false, error: OK } }),
      CreateApiKey: (call) => ({
        json: {
          key: apiKey({ name: String(call.body.name), role: 'admin' }),
          secret: 'rpk_abcd_secret_1234',
          error: OK,
        },
      }),
    });
    await renderScreen(<AdminApiKeysScreen />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Billing export' } });
    fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'admin' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Create key' })));
    await settle();
    expect(server.calls.find((c) => c.action === 'CreateApiKey')?.body).toMatchObject({
      name: 'Billing export',
      role: 'admin',
    });
    const secret = screen.getByRole('region', { name: 'New API key' });
    expect(secret.textContent).toContain('it is shown only once');
    expect((within(secret).getByLabelText('Secret') as HTMLInputElement).value).toBe('rpk_abcd_secret_1234');
    await act(async () => fireEvent.click(within(secret).getByRole('button', { name: 'I have copied it' })));
    expect(screen.queryByRole('region', { name: 'New API key' })).toBeNull();
    expect(screen.queryByDisplayValue('rpk_abcd_secret_1234')).toBeNull();
  });

  it('an empty name is refused before any call; a server refusal sits under the name', async () => {
    const server = fakeServer({
      ListApiKeys: () => ({ json: { keys: [], legacy_key_set: false, error: OK } }),
      CreateApiKey: () => ({ status: 400, json: failure(109, 'name: Name must be at most 80 characters') }),
    });
    await renderScreen(<AdminApiKeysScreen />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Create key' })));
    expect(screen.getByText('Name is required')).toBeTruthy();
    expect(server.count('CreateApiKey')).toBe(0);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'x' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Create key' })));
    await settle();
    expect(screen.getByText('Name must be at most 80 characters')).toBeTruthy();
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
  });

  it('revokes through the confirm dialog', async () => {
    const server = fakeServer({
      ListApiKeys: () => ({ json: { keys: [LIVE], legacy_key_set: false, error: OK } }),
      RevokeApiKey: () => ({ json: { key: { ...LIVE, revoked_at: Date.now() }, error: OK } }),
    });
    await renderScreen(<AdminApiKeysScreen />);
    const revoke = await screen.findByRole('button', { name: 'Revoke API key Nightly sync' });
    await act(async () => fireEvent.click(revoke));
    const dialog = screen.getByRole('dialog', { name: 'Revoke this API key?' });
    expect(server.count('RevokeApiKey')).toBe(0);
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke key' })));
    await settle();
    expect(server.calls.find((c) => c.action === 'RevokeApiKey')?.body.key_id).toBe(LIVE.key_id);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.count('ListApiKeys')).toBe(2);
  });
});
