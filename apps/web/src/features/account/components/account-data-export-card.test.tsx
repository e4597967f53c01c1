import { act, fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { storeSession } from '@/lib/session';
import { failure, fakeServer, OK, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { AccountDataExportCard } from './account-data-export-card';

beforeEach(() => {
  storeSession(tokenPair(), user({ email: 'ada@example.com' }), true);
});

/** A whole export of an account with nothing yet: the client checks the answer against the contract. */
const data = {
  format_version: 1,
  exported_at: '2026-11-27T21:00:00.000Z',
  account: { ...user({ email: 'ada@example.com' }), disabled: false },
  licenses: { email: 'ada@example.com', asset_licenses: [], robot_licenses: [], shared_robot_licenses: [] },
  robots: [],
  subscriptions: { user_subscriptions: [], robot_driver_subscriptions: [] },
  dial_time: { balance: { total_time: 0 }, ledger: [] },
  payments: [],
  support_requests: [],
  security_events: [],
};

async function download(server: { count: (action: string) => number }) {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Download my data' }));
  });
  await vi.waitFor(() => expect(server.count('ExportMyData')).toBe(1));
  await settle();
}

describe('Download my data (profile page)', () => {
  it('saves the export as robot-portal-data-<date>.json holding the JSON document', async () => {
    const server = fakeServer({
      ExportMyData: () => ({ json: { filename: 'robot-portal-data-2026-11-27.json', data, error: OK } }),
    });
    const save = vi.fn();
    await renderScreen(<AccountDataExportCard save={save} />);
    await download(server);
    await vi.waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    const [filename, json] = save.mock.calls[0] as [string, string];
    expect(filename).toBe('robot-portal-data-2026-11-27.json');
    expect(JSON.parse(json)).toMatchObject(data);
    expect(await screen.findByText('Your data is downloading')).toBeTruthy();
  });

  it('a file name of another shape is not used', async () => {
    const server = fakeServer({ ExportMyData: () => ({ json: { filename: '../../evil.exe', data, error: OK } }) });
    const save = vi.fn();
    await renderScreen(<AccountDataExportCard save={save} />);
    await download(server);
    await vi.waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(save.mock.calls[0]?.[0]).toMatch(/^robot-portal-data-\d{4}-\d{2}-\d{2}\.json$/);
  });

  it('a refused export saves nothing and says why', async () => {
    const server = fakeServer({
      ExportMyData: () => ({ status: 429, json: failure(105, 'Too many data exports. Please try again later.') }),
    });
    const save = vi.fn();
    await renderScreen(<AccountDataExportCard save={save} />);
    await download(server);
    expect(save).not.toHaveBeenCalled();
    expect(await screen.findByText('Failed to export your data')).toBeTruthy();
    expect(screen.getByText('Too many data exports. Please try again later.')).toBeTruthy();
  });

  it('the browser download: a link to a blob of the JSON, clicked and removed', async () => {
    const { saveJsonFile } = await import('./account-data-export-card');
    const created: Blob[] = [];
    // jsdom has no blob addresses: these two stand in for the browser's, and go after the test.
    const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
    URL.createObjectURL = (b: Blob) => {
      created.push(b);
      return 'blob:x';
    };
    URL.revokeObjectURL = () => {};
    const clicked: { download: string; href: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ download: this.download, href: this.href });
    });
    saveJsonFile('robot-portal-data-2026-11-27.json', '{"a":1}');
    expect(clicked).toEqual([{ download: 'robot-portal-data-2026-11-27.json', href: 'blob:x' }]);
    expect([created[0]?.size, created[0]?.type]).toEqual([7, 'application/json']);
    expect(document.querySelector('a[download]')).toBeNull();
    click.mockRestore();
    URL.createObjectURL = original.create;
    URL.revokeObjectURL = original.revoke;
  });
});
