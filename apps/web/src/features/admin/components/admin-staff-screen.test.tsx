import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { storeSession } from '@/lib/session';
import { failure, fakeServer, never, OK, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { staffMember } from '../admin-fixtures';
import { AdminStaffScreen } from './admin-staff-screen';

const ADA = staffMember();
const BOB = staffMember({
  user_id: '33333333-3333-4333-8333-333333333333',
  email: 'bob@example.com',
  name: '',
  role: 'admin',
  passkeys: 0,
  invitation_expires_at: Date.UTC(2026, 10, 28, 10, 0),
});

// Staff calls go with the session (packages/client): the tests' browser has one.
beforeEach(() => storeSession(tokenPair(), user({ email: 'grace@example.com' }), true));

describe('Staff screen', () => {
  it('shows a loading state, then each member with role, passkeys and open invitation', async () => {
    let answer: (value: { json: unknown }) => void = () => {};
    fakeServer({ ListStaff: () => new Promise((resolve) => (answer = resolve)) });
    await renderScreen(<AdminStaffScreen />);
    expect(screen.getByRole('status', { name: 'Loading the staff' })).toBeTruthy();
    await act(async () => answer({ json: { staff: [ADA, BOB], error: OK } }));
    await settle();
    const table = screen.getByRole('region', { name: 'Staff table' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]?.textContent).toContain('ada@example.com');
    expect(rows[1]?.textContent).toContain('Support');
    expect(rows[1]?.textContent).toContain('None');
    expect(rows[2]?.textContent).toContain('Admin');
    expect(rows[2]?.textContent).toMatch(/Until 2026-11-28/);
  });

  it('says when there is nobody, and offers to retry a failed load', async () => {
    let fail = true;
    const server = fakeServer({
      ListStaff: () =>
        fail ? { status: 500, json: failure(1, 'Internal error') } : { json: { staff: [], error: OK } },
    });
    await renderScreen(<AdminStaffScreen />);
    expect(await screen.findByText('The staff could not be loaded')).toBeTruthy();
    fail = false;
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Try again' })));
    expect(await screen.findByText('No staff yet. Invite someone above.')).toBeTruthy();
    expect(server.count('ListStaff')).toBe(2);
  });

  it('invites: the enrolment link is shown to copy, and the mail is mentioned', async () => {
    const server = fakeServer({
      ListStaff: () => ({ json: { staff: [ADA], error: OK } }),
      InviteStaff: () => ({
        json: {
          user_id: 'u-new',
          created: true,
          role: 'finance',
          link: 'http://portal.test/admin/enrol?token=abcdefghijklmnop',
          expires_at: Date.UTC(2026, 10, 29, 9, 0),
          error: OK,
        },
      }),
    });
    await renderScreen(<AdminStaffScreen />);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: ' Fin@Example.com ' } });
    fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'finance' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Invite' })));
    await settle();
    expect(server.calls.find((c) => c.action === 'InviteStaff')?.body).toMatchObject({
      email: 'Fin@Example.com',
      role: 'finance',
    });
    const link = screen.getByRole('region', { name: 'Enrolment link' });
    expect((within(link).getByLabelText('Enrolment link') as HTMLInputElement).value).toBe(
      'http://portal.test/admin/enrol?token=abcdefghijklmnop',
    );
    expect(link.textContent).toContain('fin@example.com');
    expect(link.textContent).toContain('mailed');
    expect(within(link).getByRole('button', { name: 'Copy enrolment link' })).toBeTruthy();
    // The list is asked again: the new member shows with the invitation.
    expect(server.count('ListStaff')).toBe(2);
  });

  it("puts the server's refusal of the email under the email field", async () => {
    fakeServer({
      ListStaff: () => ({ json: { staff: [], error: OK } }),
      InviteStaff: () => ({ status: 400, json: failure(109, 'email: Email must be an email address') }),
    });
    await renderScreen(<AdminStaffScreen />);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'not-an-email' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Invite' })));
    await settle();
    const email = screen.getByLabelText('Email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(email.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Email must be an email address',
    );
    expect(screen.queryByRole('region', { name: 'Enrolment link' })).toBeNull();
  });

  it('changes a role only once the dialog is confirmed, and removes one the same way', async () => {
    const server = fakeServer({
      ListStaff: () => ({ json: { staff: [ADA], error: OK } }),
      SetStaffRole: (call) => ({
        json: { staff: call.body.role ? [{ ...ADA, role: call.body.role }] : [], error: OK },
      }),
    });
    await renderScreen(<AdminStaffScreen />);
    await screen.findByRole('region', { name: 'Staff table' });
    fireEvent.change(screen.getByLabelText('Role of ada@example.com'), { target: { value: 'admin' } });
    const dialog = screen.getByRole('dialog', { name: 'Change this role?' });
    expect(dialog.textContent).toContain('ada@example.com becomes admin (now support)');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' })));
    expect(server.count('SetStaffRole')).toBe(0);
    expect((screen.getByLabelText('Role of ada@example.com') as HTMLSelectElement).value).toBe('support');

    fireEvent.change(screen.getByLabelText('Role of ada@example.com'), { target: { value: 'finance' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Change role' })));
    await settle();
    expect(server.calls.find((c) => c.action === 'SetStaffRole')?.body).toMatchObject({
      user_id: ADA.user_id,
      role: 'finance',
    });

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Remove the role of ada@example.com' })));
    const remove = screen.getByRole('dialog', { name: 'Remove this role?' });
    await act(async () => fireEvent.click(within(remove).getByRole('button', { name: 'Remove role' })));
    await settle();
    expect(server.calls.filter((c) => c.action === 'SetStaffRole').at(-1)?.body.role).toBeNull();
  });

  it('keeps the dialog open and says why when the server refuses (the last admin)', async () => {
    fakeServer({
      ListStaff: () => ({ json: { staff: [{ ...ADA, role: 'admin' }], error: OK } }),
      SetStaffRole: () => ({ status: 409, json: failure(9, 'role: the last admin cannot lose the role') }),
    });
    await renderScreen(<AdminStaffScreen />);
    await screen.findByRole('region', { name: 'Staff table' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Remove the role of ada@example.com' })));
    const dialog = screen.getByRole('dialog', { name: 'Remove this role?' });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Remove role' })));
    await settle();
    expect(await screen.findByText('the last admin cannot lose the role')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Remove this role?' })).toBeTruthy();
  });

  it('holds the invite button while the invitation is on its way', async () => {
    fakeServer({ ListStaff: () => ({ json: { staff: [], error: OK } }), InviteStaff: never });
    await renderScreen(<AdminStaffScreen />);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'x@example.com' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Invite' })));
    expect((screen.getByRole('button', { name: 'Invite' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
