import { ONE_DAY_S, type SharedRobotEntry } from '@portal/contract';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeSession } from '@/lib/session';
import { failure, fakeServer, OK, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { ShareCard } from './robots-share-card';

const EMAIL = 'ada@example.com';
const LICENSE = 'lic-1';

const entry = (sharee: string, licenseId = LICENSE, end = Date.UTC(2026, 5, 1, 12)): SharedRobotEntry => ({
  sharee_email: sharee,
  license: {
    robot_id: 'robot-1',
    asset_id: '',
    robot_make: 'Nao',
    robot_model: 'Nao',
    pair_code: '',
    paired_status: true,
    isFlexible: false,
    robot_license: { license_id: licenseId, start_date: 0, duration: 1, end_date: end },
  },
});

const sharing = (entries: SharedRobotEntry[]) => ({ json: { error: OK, owner_email: EMAIL, sharees_robots: entries } });

beforeEach(() => {
  storeSession(tokenPair(), user({ email: EMAIL }), true);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const recipientBox = () => screen.getByRole('textbox', { name: 'Recipient email' }) as HTMLInputElement;
const shareButton = () => screen.getByRole('button', { name: 'Share robot' });
const entries = () => screen.queryAllByTestId('share-entry').map((li) => li.textContent);

async function submit() {
  await act(async () => {
    fireEvent.click(shareButton());
  });
  await settle();
}

describe('Share card', () => {
  it("lists this license's shares only, and adds a new one for the chosen period", async () => {
    const server = fakeServer({
      GETSHAREDLICENSES: () => sharing([entry('bob@example.com'), entry('carol@example.com', 'other-license')]),
      SHARELICENSE: (call) =>
        sharing([entry('bob@example.com'), entry(String(call.body.recipient_email), LICENSE, Date.UTC(2026, 6, 1))]),
    });
    await renderScreen(<ShareCard email={EMAIL} licenseId={LICENSE} paired />);
    await screen.findByText('bob@example.com');
    expect(entries()).toEqual([expect.stringContaining('bob@example.com')]);

    fireEvent.change(recipientBox(), { target: { value: ' Dan@Example.com ' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Share for' }), { target: { value: '30' } });
    await submit();

    const sent = server.calls.find((c) => c.action === 'SHARELICENSE');
    expect(sent?.body).toMatchObject({
      license_id: LICENSE,
      recipient_email: 'dan@example.com',
      duration: 30 * ONE_DAY_S,
    });
    expect(entries()).toEqual([expect.stringContaining('bob@example.com'), expect.stringContaining('dan@example.com')]);
    expect(screen.getByText('Robot shared with dan@example.com')).toBeTruthy();
    expect(recipientBox().value).toBe('');
  });

  it('sends the time up to the last second of the chosen day', async () => {
    // Only the date is fixed: the screen's promises and timers run as usual.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 2, 5, 14, 0, 0));
    const server = fakeServer({ GETSHAREDLICENSES: () => sharing([]), SHARELICENSE: () => sharing([]) });
    await renderScreen(<ShareCard email={EMAIL} licenseId={LICENSE} paired />);
    fireEvent.change(recipientBox(), { target: { value: 'dan@example.com' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Share for' }), { target: { value: 'until' } });
    const until = screen.getByLabelText('Last day of the share') as HTMLInputElement;
    expect([until.min, until.max]).toEqual(['2026-03-05', '2027-03-05']);
    fireEvent.change(until, { target: { value: '2026-03-08' } });
    await submit();
    const expected = (new Date(2026, 2, 8, 23, 59, 59).getTime() - new Date(2026, 2, 5, 14, 0, 0).getTime()) / 1000;
    expect(server.calls.find((c) => c.action === 'SHARELICENSE')?.body.duration).toBe(expected);
  });

  it('refuses a malformed address and a missing day before asking the server', async () => {
    const server = fakeServer({ GETSHAREDLICENSES: () => sharing([]) });
    await renderScreen(<ShareCard email={EMAIL} licenseId={LICENSE} paired />);
    fireEvent.change(recipientBox(), { target: { value: 'not-an-email' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Share for' }), { target: { value: 'until' } });
    await submit();
    expect(server.count('SHARELICENSE')).toBe(0);
    expect(recipientBox().getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Invalid email address')).toBeTruthy();
    expect(screen.getByText('Choose the last day of the share')).toBeTruthy();
  });

  it("shows the server's refusal on the field it names and in a toast", async () => {
    fakeServer({
      GETSHAREDLICENSES: () => sharing([entry('bob@example.com')]),
      SHARELICENSE: () => ({
        status: 400,
        json: failure(
          109,
          'recipient_email: This robot is already shared with this address. Stop that share first to change it.',
        ),
      }),
    });
    await renderScreen(<ShareCard email={EMAIL} licenseId={LICENSE} paired />);
    fireEvent.change(recipientBox(), { target: { value: 'bob@example.com' } });
    await submit();
    expect(recipientBox().getAttribute('aria-invalid')).toBe('true');
    const message = 'This robot is already shared with this address. Stop that share first to change it.';
    expect(screen.getAllByText(message)).toHaveLength(2);
    expect(screen.getByText('Failed to share robot')).toBeTruthy();
    expect(recipientBox().value).toBe('bob@example.com');
  });

  it('stops a share only after confirmation', async () => {
    const server = fakeServer({
      GETSHAREDLICENSES: () => sharing([entry('bob@example.com'), entry('carol@example.com')]),
      STOPSHAREDLICENSE: () => sharing([entry('carol@example.com')]),
    });
    await renderScreen(<ShareCard email={EMAIL} licenseId={LICENSE} paired />);
    const stop = await screen.findByRole('button', { name: 'Stop sharing with bob@example.com' });
    await act(async () => {
      fireEvent.click(stop);
    });
    const dialog = screen.getByRole('dialog', { name: 'Stop sharing with bob@example.com?' });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    });
    expect(server.count('STOPSHAREDLICENSE')).toBe(0);

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Stop sharing with bob@example.com' }));
    });
    await act(async () => {
      fireEvent.click(
        within(screen.getByRole('dialog', { name: 'Stop sharing with bob@example.com?' })).getByRole('button', {
          name: 'Stop sharing',
        }),
      );
    });
    await settle();
    expect(server.calls.find((c) => c.action === 'STOPSHAREDLICENSE')?.body).toMatchObject({
      license_id: LICENSE,
      recipient_email: 'bob@example.com',
    });
    expect(entries()).toEqual([expect.stringContaining('carol@example.com')]);
    expect(screen.getByText('Stopped sharing with bob@example.com')).toBeTruthy();
  });

  it('offers no form for an unpaired license but still lists its shares', async () => {
    fakeServer({ GETSHAREDLICENSES: () => sharing([entry('bob@example.com')]) });
    await renderScreen(<ShareCard email={EMAIL} licenseId={LICENSE} paired={false} />);
    expect(screen.getByText('Pair this robot to share it.')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Recipient email' })).toBeNull();
    await screen.findByText('bob@example.com');
    expect(entries()).toHaveLength(1);
  });
});
