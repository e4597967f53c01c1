import type { UsageHistory, UsageRangeDays } from '@portal/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import * as React from 'react';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { storeSession } from '@/lib/session';
import { failure, fakeServer, never, OK, type SeenCall, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { UsageScreen } from './usage-screen';

const EMAIL = 'ada@example.com';
const A = '3f2b9c1e-8d4a-4f5b-9a7c-1e2d3c4b5a69';
const B = '0a1b2c3d-1111-4222-8333-444455556666';

const HISTORY: UsageHistory = {
  from: '2025-02-09',
  to: '2025-03-10',
  time_zone: 'UTC',
  total_minutes: 27,
  robots: [
    {
      robot_id: A,
      short_id: A.slice(0, 8),
      model: 'Pepper',
      name: 'Desk, "Lobby" Pepper',
      owned: true,
      total_minutes: 22,
    },
    { robot_id: B, short_id: B.slice(0, 8), model: 'Nao', name: '', owned: false, total_minutes: 5 },
  ],
  usage: [
    { day: '2025-03-09', robot_id: A, minutes: 12 },
    { day: '2025-03-09', robot_id: B, minutes: 5 },
    { day: '2025-03-10', robot_id: A, minutes: 10 },
  ],
  events: [
    { day: '2025-02-20', kind: 'allocation', minutes: 600 },
    { day: '2025-03-01', kind: 'purchase', minutes: 300 },
  ],
};
const EMPTY: UsageHistory = { ...HISTORY, total_minutes: 0, robots: [], usage: [], events: [] };

const answer = (history: UsageHistory) => ({ json: { error: OK, ...history } });

/** The screen under a parent that keeps the range, as the route does with the address. */
function Harness({ onDays }: { onDays?: (d: UsageRangeDays) => void }) {
  const [days, setDays] = React.useState<UsageRangeDays>(30);
  return (
    <UsageScreen
      email={EMAIL}
      days={days}
      onDaysChange={(d) => {
        onDays?.(d);
        setDays(d);
      }}
    />
  );
}

beforeEach(() => {
  storeSession(tokenPair(), user(), true);
});

const downloadButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Download CSV' });
const pressed = () => screen.getAllByRole('button', { pressed: true }).map((b) => b.textContent);

function readBlob(blob: Blob | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!blob) return reject(new Error('no file was made'));
    const reader = new FileReader();
    // Decoded by hand: a text read drops the byte order mark the file must start with.
    reader.onload = () => resolve(new TextDecoder('utf-8', { ignoreBOM: true }).decode(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

const daysAsked = (calls: SeenCall[]) => calls.filter((c) => c.action === 'GET_USAGE_HISTORY').map((c) => c.body.days);

describe('UsageScreen', () => {
  it('shows the loading state while the history loads', async () => {
    fakeServer({ GET_USAGE_HISTORY: never });
    await renderScreen(<Harness />);
    expect(screen.getByRole('status').textContent).toBe('Loading usage...');
    expect(downloadButton().disabled).toBe(true);
  });

  it('shows the error state, and Try again loads the history', async () => {
    let fail = true;
    fakeServer({
      GET_USAGE_HISTORY: () => (fail ? { status: 500, json: failure(1, 'boom') } : answer(HISTORY)),
    });
    await renderScreen(<Harness />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to load dial time usage');
    fail = false;
    await act(async () => {
      fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    });
    await screen.findByTestId('usage-totals');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('names each robot with its total, and the grand total', async () => {
    fakeServer({ GET_USAGE_HISTORY: () => answer(HISTORY) });
    await renderScreen(<Harness />);
    const totals = await screen.findByTestId('usage-totals');
    expect(
      within(totals)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Desk, "Lobby" PepperPepper22 minutes', 'Nao · 0a1b2c3d5 minutes']);
    expect(screen.getByText('27 minutes').parentElement?.textContent).toBe('Total: 27 minutes');
  });

  it('keeps the table for screen readers and shows it on demand', async () => {
    fakeServer({ GET_USAGE_HISTORY: () => answer(HISTORY) });
    await renderScreen(<Harness />);
    const tables = await screen.findByTestId('usage-tables');
    expect(tables.classList.contains('sr-only')).toBe(true);
    const used = screen.getByRole('table', { name: 'Minutes used per day, by robot' });
    expect(
      within(used)
        .getAllByRole('row')
        .map((r) =>
          within(r)
            .queryAllByRole('cell')
            .map((c) => c.textContent),
        ),
    ).toEqual([
      [],
      ['10/03/2025', 'Desk, "Lobby" Pepper', '10'],
      ['09/03/2025', 'Desk, "Lobby" Pepper', '12'],
      ['09/03/2025', 'Nao · 0a1b2c3d', '5'],
    ]);
    const added = screen.getByRole('table', { name: 'Minutes added' });
    expect(
      within(added)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['01/03/2025', 'Time purchased', '300', '20/02/2025', 'Yearly allocation', '600']);

    const toggle = screen.getByRole('button', { name: 'Show table' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await act(async () => {
      fireEvent.click(toggle);
    });
    expect(tables.classList.contains('sr-only')).toBe(false);
    expect(screen.getByRole('button', { name: 'Hide table' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('switches the range and asks the server for it', async () => {
    const server = fakeServer({
      GET_USAGE_HISTORY: (call) => answer(call.body.days === 90 ? { ...HISTORY, from: '2024-12-11' } : HISTORY),
    });
    const onDays = vi.fn();
    await renderScreen(<Harness onDays={onDays} />);
    await screen.findByTestId('usage-totals');
    expect(pressed()).toEqual(['30 days']);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '90 days' }));
    });
    await settle();
    expect(onDays).toHaveBeenCalledWith(90);
    expect(pressed()).toEqual(['90 days']);
    await waitFor(() => expect(screen.queryByText(/^11\/12\/2024/)).not.toBeNull());
    expect(daysAsked(server.calls)).toEqual([30, 90]);
  });

  it('shows the empty state when nothing was used, with nothing to download', async () => {
    fakeServer({ GET_USAGE_HISTORY: () => answer(EMPTY) });
    await renderScreen(<Harness />);
    const empty = await screen.findByTestId('usage-empty');
    expect(empty.textContent).toContain('No dial time used in the last 30 days.');
    expect(screen.queryByTestId('usage-totals')).toBeNull();
    expect(downloadButton().disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Show table' })).toBeNull();
  });

  it('downloads the CSV of the same data', async () => {
    fakeServer({ GET_USAGE_HISTORY: () => answer(HISTORY) });
    // jsdom has no object URLs: the created Blob is kept to read back.
    const blobs: Blob[] = [];
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = (b: Blob) => {
      blobs.push(b);
      return 'blob:usage';
    };
    URL.revokeObjectURL = () => {};
    onTestFinished(() => {
      URL.createObjectURL = createObjectURL;
      URL.revokeObjectURL = revokeObjectURL;
    });
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    await renderScreen(<Harness />);
    await screen.findByTestId('usage-totals');
    await act(async () => {
      fireEvent.click(downloadButton());
    });
    expect(clicked.map((a) => [a.download, a.getAttribute('href')])).toEqual([
      ['dial-time-usage-30-days-to-2025-03-10.csv', 'blob:usage'],
    ]);
    const text = await readBlob(blobs[0]);
    expect(text?.split('\r\n')).toEqual([
      '\uFEFFDay (UTC),Robot,Model,Robot ID,Minutes',
      `2025-03-10,"Desk, ""Lobby"" Pepper",Pepper,${A},10`,
      `2025-03-09,"Desk, ""Lobby"" Pepper",Pepper,${A},12`,
      `2025-03-09,Nao · 0a1b2c3d,Nao,${B},5`,
    ]);
  });
});
