import type { MySupportRequest, MySupportRequestSummary } from '@portal/contract';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { storeSession } from '@/lib/session';
import { failure, fakeServer, OK, tokenPair, user } from '@/test/fake-server';
import { renderScreen, settle } from '@/test/render-screen';
import { SupportRequests } from './support-requests';

const EMAIL = 'ada@example.com';
const AT = Date.UTC(2026, 10, 20, 9, 30);

const summary = (over: Partial<MySupportRequestSummary> = {}): MySupportRequestSummary => ({
  ticket_id: 'SR-ABCD-2345',
  category: 'technical',
  subject: 'My robot stalls',
  status: 'waiting',
  created_at: AT,
  last_message_at: AT + 3_600_000,
  messages: 2,
  ...over,
});

const thread = (over: Partial<MySupportRequest> = {}): MySupportRequest => ({
  ...summary(),
  robot_model: 'Pepper',
  thread: [
    { author: 'customer', body: 'It stops after ten minutes.', at: AT },
    { author: 'staff', body: 'Please update the hub to 1.4.', at: AT + 3_600_000 },
  ],
  ...over,
});

beforeEach(() => {
  storeSession(tokenPair(), user({ email: EMAIL }), true);
});

async function openFirst() {
  const button = await screen.findByRole('button', { name: /My robot stalls/ });
  await act(async () => {
    fireEvent.click(button);
  });
  await screen.findByRole('list', { name: 'Messages of SR-ABCD-2345' });
}

describe('Your requests on /dashboard/support', () => {
  it('lists the requests with their status, and opens one to its thread', async () => {
    const server = fakeServer({
      ListMySupportRequests: () => ({
        json: {
          requests: [summary(), summary({ ticket_id: 'SR-WXYZ-2345', subject: 'Invoice', status: 'closed' })],
          error: OK,
        },
      }),
      GetMySupportRequest: () => ({ json: { request: thread(), error: OK } }),
    });
    await renderScreen(<SupportRequests email={EMAIL} />);
    const list = await screen.findByRole('list', { name: 'Your support requests' });
    const first = within(list).getByRole('button', { name: /My robot stalls/ });
    expect(first.textContent).toContain('SR-ABCD-2345');
    expect(first.textContent).toContain('Answered');
    expect(within(list).getByRole('button', { name: /Invoice/ }).textContent).toContain('Closed');
    expect(first.getAttribute('aria-expanded')).toBe('false');
    expect(server.count('GetMySupportRequest')).toBe(0);

    await openFirst();
    expect(first.getAttribute('aria-expanded')).toBe('true');
    expect(server.calls.find((c) => c.action === 'GetMySupportRequest')?.body.ticket_id).toBe('SR-ABCD-2345');
    const messages = within(screen.getByRole('list', { name: 'Messages of SR-ABCD-2345' })).getAllByRole('listitem');
    expect(messages.map((m) => m.textContent)).toEqual([
      expect.stringMatching(/^You.*It stops after ten minutes\.$/),
      expect.stringMatching(/^Support team.*Please update the hub to 1\.4\.$/),
    ]);
  });

  it('opens the request a mail linked to (?ticket=)', async () => {
    fakeServer({
      ListMySupportRequests: () => ({ json: { requests: [summary()], error: OK } }),
      GetMySupportRequest: () => ({ json: { request: thread(), error: OK } }),
    });
    await renderScreen(<SupportRequests email={EMAIL} initialTicket="SR-ABCD-2345" />);
    expect(await screen.findByRole('list', { name: 'Messages of SR-ABCD-2345' })).toBeTruthy();
  });

  it('checks the answer as the form checks a message, sends it, and shows the request open again', async () => {
    let status: MySupportRequest['status'] = 'waiting';
    const server = fakeServer({
      ListMySupportRequests: () => ({ json: { requests: [summary({ status })], error: OK } }),
      GetMySupportRequest: () => ({ json: { request: thread({ status }), error: OK } }),
      ReplyToMySupportRequest: (call) => {
        status = 'open';
        const answered = thread({ status, messages: 3 });
        answered.thread.push({ author: 'customer', body: String(call.body.message), at: AT + 7_200_000 });
        return { json: { request: answered, error: OK } };
      },
    });
    await renderScreen(<SupportRequests email={EMAIL} />);
    await openFirst();
    const box = screen.getByLabelText('Your answer') as HTMLTextAreaElement;
    const send = screen.getByRole('button', { name: 'Send answer' });

    fireEvent.change(box, { target: { value: 'Thanks' } });
    await act(async () => {
      fireEvent.click(send);
    });
    expect(screen.getByRole('alert').textContent).toBe('Message must be at least 10 characters');
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(server.count('ReplyToMySupportRequest')).toBe(0);

    fireEvent.change(box, { target: { value: 'Updated the hub, it still stalls.' } });
    await act(async () => {
      fireEvent.click(send);
    });
    await settle();
    expect(server.calls.find((c) => c.action === 'ReplyToMySupportRequest')?.body).toMatchObject({
      ticket_id: 'SR-ABCD-2345',
      message: 'Updated the hub, it still stalls.',
    });
    expect(await screen.findByText('Answer sent. The request is open again.')).toBeTruthy();
    expect(box.value).toBe('');
    const messages = within(screen.getByRole('list', { name: 'Messages of SR-ABCD-2345' })).getAllByRole('listitem');
    expect(messages.at(-1)?.textContent).toMatch(/^You.*Updated the hub, it still stalls\.$/);
    // The list is read again and shows the status the server now has.
    await vi.waitFor(() => expect(server.count('ListMySupportRequests')).toBe(2));
    await vi.waitFor(() =>
      expect(screen.getByRole('button', { name: /My robot stalls/ }).textContent).toContain('Open'),
    );
  });

  it('a refused answer keeps the text and says why', async () => {
    fakeServer({
      ListMySupportRequests: () => ({ json: { requests: [summary()], error: OK } }),
      GetMySupportRequest: () => ({ json: { request: thread(), error: OK } }),
      ReplyToMySupportRequest: () => ({ status: 429, json: failure(105, 'Too many answers. Please try again later.') }),
    });
    await renderScreen(<SupportRequests email={EMAIL} />);
    await openFirst();
    const box = screen.getByLabelText('Your answer') as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: 'Updated the hub, it still stalls.' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send answer' }));
    });
    await settle();
    expect(await screen.findByText('Failed to send your answer')).toBeTruthy();
    expect(box.value).toBe('Updated the hub, it still stalls.');
  });

  it('says so when there is no request yet', async () => {
    fakeServer({ ListMySupportRequests: () => ({ json: { requests: [], error: OK } }) });
    await renderScreen(<SupportRequests email={EMAIL} />);
    expect(await screen.findByText('You have not sent a support request yet.')).toBeTruthy();
  });
});
