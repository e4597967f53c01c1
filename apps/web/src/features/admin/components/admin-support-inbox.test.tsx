import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { storeSession } from '@/lib/session';
import { failure, fakeServer, OK, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { inboxRequest, staffMe, staffMember, supportTicket } from '../admin-fixtures';
import { AdminSupportInbox } from './admin-support-inbox';
import { AdminSupportTicket } from './admin-support-ticket';

beforeEach(() => storeSession(tokenPair(), user({ email: 'grace@example.com' }), true));

const ME = staffMe('support', { user_id: '66666666-6666-4666-8666-666666666666' });

describe('support inbox', () => {
  it('lists requests with status, customer and assignee; filters by status and "assigned to me"', async () => {
    const server = fakeServer({
      ListSupportRequests: () => ({
        json: {
          requests: [
            inboxRequest(),
            inboxRequest({
              ticket_id: 'SR-WXYZ-2345',
              subject: 'Refund please',
              status: 'waiting',
              assignee_user_id: ME.user_id,
              assignee_email: 'grace@example.com',
            }),
          ],
          total: 2,
          error: OK,
        },
      }),
    });
    await renderScreen(<AdminSupportInbox me={ME} />);
    const table = await screen.findByRole('region', { name: 'Support requests table' });
    const [, first, second] = within(table).getAllByRole('row');
    expect(first?.textContent).toContain('Robot will not pair');
    expect(first?.textContent).toContain('New');
    expect(first?.textContent).toContain('casey@example.com');
    expect(first?.textContent).toContain('Unassigned');
    expect(second?.textContent).toContain('Waiting on customer');
    expect(second?.textContent).toContain('grace@example.com');
    expect(
      within(first as HTMLElement)
        .getByRole('link', { name: 'Robot will not pair' })
        .getAttribute('href'),
    ).toBe('/admin/support/SR-ABCD-EFGH');
    expect(server.calls[0]?.body).not.toHaveProperty('status');

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'open' } });
    await settle();
    expect(server.calls.at(-1)?.body).toMatchObject({ status: 'open' });
    await act(async () => fireEvent.click(screen.getByLabelText('Assigned to me')));
    await settle();
    expect(server.calls.at(-1)?.body).toMatchObject({ status: 'open', assignee_user_id: ME.user_id });
  });

  it('says when nothing matches, and when the role may not read it', async () => {
    fakeServer({ ListSupportRequests: () => ({ json: { requests: [], total: 0, error: OK } }) });
    await renderScreen(<AdminSupportInbox me={ME} />);
    expect(await screen.findByText('No requests match.')).toBeTruthy();
  });

  it('a refusal reads as such', async () => {
    fakeServer({ ListSupportRequests: () => ({ status: 403, json: failure(8, 'role') }) });
    await renderScreen(<AdminSupportInbox me={ME} />);
    expect(await screen.findByText('Your role does not allow this. Ask an admin if you need it.')).toBeTruthy();
  });
});

describe('support request', () => {
  it('shows the thread and the customer beside it, with a link to the customer view', async () => {
    fakeServer({ GetSupportRequest: () => ({ json: supportTicket() }) });
    await renderScreen(<AdminSupportTicket ticketId="SR-ABCD-EFGH" me={ME} />);
    expect(await screen.findByRole('heading', { name: 'Robot will not pair', level: 1 })).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Thread' })).getByText('It shows no code.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'casey@example.com' }).getAttribute('href')).toBe(
      '/admin/customers/33333333-3333-4333-8333-333333333333',
    );
    expect(screen.getByText('No active plan (Standard).')).toBeTruthy();
  });

  it('an empty reply is refused before any call; a reply is sent and the thread grows', async () => {
    let ticket = supportTicket();
    const server = fakeServer({
      GetSupportRequest: () => ({ json: ticket }),
      ReplySupportRequest: (call) => {
        ticket = supportTicket({
          status: 'waiting',
          thread: [
            { author: 'customer', author_email: 'casey@example.com', body: 'It shows no code.', at: 1 },
            { author: 'staff', author_email: 'grace@example.com', body: String(call.body.message), at: 2 },
          ],
        });
        return { json: { request: ticket.request, error: OK } };
      },
    });
    await renderScreen(<AdminSupportTicket ticketId="SR-ABCD-EFGH" me={ME} />);
    await screen.findByLabelText('Reply');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send reply' })));
    expect(screen.getByText('Message is required')).toBeTruthy();
    expect(server.count('ReplySupportRequest')).toBe(0);
    fireEvent.change(screen.getByLabelText('Reply'), { target: { value: 'Try the code in the app.' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send reply' })));
    await settle();
    expect(server.calls.find((c) => c.action === 'ReplySupportRequest')?.body).toMatchObject({
      ticket_id: 'SR-ABCD-EFGH',
      message: 'Try the code in the app.',
    });
    expect(await screen.findByText('Reply sent')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Thread' })).getByText('Try the code in the app.')).toBeTruthy();
  });

  it('status and assignee change only after the confirm dialog', async () => {
    let ticket = supportTicket();
    const server = fakeServer({
      GetSupportRequest: () => ({ json: ticket }),
      SetSupportStatus: () => {
        ticket = supportTicket({ ...ticket.request, status: 'closed' });
        return { json: { request: ticket.request, error: OK } };
      },
      AssignSupportRequest: () => {
        ticket = supportTicket({
          ...ticket.request,
          assignee_user_id: ME.user_id,
          assignee_email: 'grace@example.com',
        });
        return { json: { request: ticket.request, error: OK } };
      },
    });
    await renderScreen(<AdminSupportTicket ticketId="SR-ABCD-EFGH" me={ME} />);
    fireEvent.change(await screen.findByLabelText('Set status'), { target: { value: 'closed' } });
    const dialog = await screen.findByRole('dialog', { name: 'Change the status?' });
    expect(dialog.textContent).toContain('becomes "Closed" (now "New")');
    expect(server.count('SetSupportStatus')).toBe(0);
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Change status' })));
    await settle();
    expect(server.calls.find((c) => c.action === 'SetSupportStatus')?.body).toMatchObject({ status: 'closed' });

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Assign to me' })));
    const assign = await screen.findByRole('dialog', { name: 'Assign this request?' });
    await act(async () => fireEvent.click(within(assign).getByRole('button', { name: 'Assign' })));
    await settle();
    expect(server.calls.find((c) => c.action === 'AssignSupportRequest')?.body).toMatchObject({
      assignee_user_id: ME.user_id,
    });
    expect(screen.getByTestId('ticket-assignee').textContent).toBe('Assigned to grace@example.com');
  });

  it('an admin assigns to any staff member, through the confirm dialog', async () => {
    const admin = staffMe('admin');
    let ticket = supportTicket();
    const server = fakeServer({
      GetSupportRequest: () => ({ json: ticket }),
      ListStaff: () => ({ json: { staff: [staffMember()], error: OK } }),
      AssignSupportRequest: (call) => {
        ticket = supportTicket({
          ...ticket.request,
          assignee_user_id: String(call.body.assignee_user_id),
          assignee_email: 'ada@example.com',
        });
        return { json: { request: ticket.request, error: OK } };
      },
    });
    await renderScreen(<AdminSupportTicket ticketId="SR-ABCD-EFGH" me={admin} />);
    await screen.findByRole('option', { name: 'ada@example.com' });
    fireEvent.change(screen.getByLabelText('Assign to'), { target: { value: staffMember().user_id } });
    const dialog = await screen.findByRole('dialog', { name: 'Assign this request?' });
    expect(dialog.textContent).toContain('assigned to ada@example.com (now nobody)');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Assign' })));
    await settle();
    expect(server.calls.find((c) => c.action === 'AssignSupportRequest')?.body).toMatchObject({
      assignee_user_id: staffMember().user_id,
    });
    expect(screen.getByTestId('ticket-assignee').textContent).toBe('Assigned to ada@example.com');
  });

  it('support has no staff list to pick from (assign to me or unassign)', async () => {
    const server = fakeServer({ GetSupportRequest: () => ({ json: supportTicket() }) });
    await renderScreen(<AdminSupportTicket ticketId="SR-ABCD-EFGH" me={ME} />);
    await screen.findByRole('button', { name: 'Assign to me' });
    expect(screen.queryByLabelText('Assign to')).toBeNull();
    expect(server.count('ListStaff')).toBe(0);
  });
});
