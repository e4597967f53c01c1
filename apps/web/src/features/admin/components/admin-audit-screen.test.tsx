import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { storeSession } from '@/lib/session';
import { failure, fakeServer, OK, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { auditEntry } from '../admin-fixtures';
import type { AuditSearch } from '../admin-search';
import { AdminAuditScreen } from './admin-audit-screen';

// Staff calls go with the session (packages/client): the tests' browser has one.
beforeEach(() => storeSession(tokenPair(), user({ email: 'grace@example.com' }), true));

function render(search: AuditSearch = {}, onSearchChange = vi.fn()) {
  return renderScreen(<AdminAuditScreen search={search} onSearchChange={onSearchChange} />);
}

describe('Audit trail screen', () => {
  it('lists entries newest first with actor, action, customer, changes, reason and origin', async () => {
    fakeServer({
      ListAudit: () => ({
        json: {
          entries: [
            auditEntry(9, {
              action: 'api_key.revoke',
              actor_label: 'grace@example.com',
              subject_email: 'ada@example.com',
              changes: { revoked_at: { before: 0, after: 1_700_000_000_000 } },
              reason: 'leaked in a log',
            }),
            auditEntry(8, { kind: 'security', action: 'auth.sign_in', actor_kind: 'customer', anonymised: true }),
          ],
          next_before_seq: 0,
          error: OK,
        },
      }),
    });
    await render();
    const table = await screen.findByRole('region', { name: 'Audit entries table' });
    const [, first, second] = within(table).getAllByRole('row');
    expect(first?.textContent).toContain('api_key.revoke');
    expect(first?.textContent).toContain('ada@example.com');
    expect(first?.textContent).toMatch(/revoked_at: 0 →\s+became 1700000000000/);
    expect(first?.textContent).toContain('leaked in a log');
    expect(first?.textContent).toContain('127.0.0.1');
    expect(second?.textContent).toContain('auth.sign_in');
    expect(second?.textContent).toContain('security');
    expect(second?.textContent).toContain('Anonymised');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('sends the filters of the address, and "Load more" asks for what came before the last entry', async () => {
    const server = fakeServer({
      ListAudit: (call) =>
        call.body.before_seq
          ? { json: { entries: [auditEntry(3)], next_before_seq: 0, error: OK } }
          : { json: { entries: [auditEntry(5), auditEntry(4)], next_before_seq: 4, error: OK } },
    });
    await render({ actor: 'grace@example.com', action: 'staff.', from: '2026-11-01', to: '2026-11-02' });
    await screen.findByRole('region', { name: 'Audit entries table' });
    expect(server.calls[0]?.body).toMatchObject({
      actor: 'grace@example.com',
      audit_action: 'staff.',
      from: Date.UTC(2026, 10, 1),
      to: Date.UTC(2026, 10, 3),
    });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Load more' })));
    await settle();
    expect(server.calls[1]?.body.before_seq).toBe(4);
    expect(screen.getAllByTestId('audit-entry')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('applying the filters hands them to the address (trimmed, empty ones dropped)', async () => {
    fakeServer({ ListAudit: () => ({ json: { entries: [], next_before_seq: 0, error: OK } }) });
    const onSearchChange = vi.fn();
    await render({}, onSearchChange);
    expect(await screen.findByText('No entries match these filters.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Action'), { target: { value: ' api_key.create ' } });
    fireEvent.change(screen.getByLabelText('Customer'), { target: { value: '   ' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Apply filters' })));
    expect(onSearchChange).toHaveBeenCalledWith({ action: 'api_key.create' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Clear' })));
    expect(onSearchChange).toHaveBeenLastCalledWith({});
  });

  it('a refused filter is named under its field', async () => {
    fakeServer({
      ListAudit: () => ({
        status: 400,
        json: failure(109, 'audit_action: Audit action must be at most 80 characters'),
      }),
    });
    await render({ action: 'x' });
    expect(await screen.findByText('Audit action must be at most 80 characters')).toBeTruthy();
    expect(screen.getByLabelText('Action').getAttribute('aria-invalid')).toBe('true');
  });

  it('"Export CSV" downloads the export of the same filters as a file', async () => {
    const server = fakeServer({
      ListAudit: () => ({ json: { entries: [auditEntry(1)], next_before_seq: 0, error: OK } }),
      ExportAudit: () => ({
        json: {
          filename: 'audit-2026-11-27.csv',
          csv: 'seq,at\n1,2026-11-20T12:01:00Z\n',
          rows: 1,
          truncated: false,
          error: OK,
        },
      }),
    });
    const created: Blob[] = [];
    vi.stubGlobal(
      'URL',
      class extends URL {
        static override createObjectURL(blob: Blob) {
          created.push(blob);
          return 'blob:csv';
        }
        static override revokeObjectURL() {}
      },
    );
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    await render({ customer: 'ada@example.com' });
    await screen.findByRole('region', { name: 'Audit entries table' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Export CSV' })));
    await settle();
    expect(server.calls.find((c) => c.action === 'ExportAudit')?.body).toMatchObject({ customer: 'ada@example.com' });
    expect(clicks).toEqual(['audit-2026-11-27.csv']);
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(created[0] as Blob);
    });
    expect(text).toBe('seq,at\n1,2026-11-20T12:01:00Z\n');
  });
});
