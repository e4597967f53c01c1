import {
  type InboxRequestWithThread,
  SETTABLE_SUPPORT_STATUSES,
  type SettableSupportStatus,
  type SupportCustomerContext,
} from '@portal/contract';
import { Link } from '@tanstack/react-router';
import { Loader2Icon } from 'lucide-react';
import * as React from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldProps } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { ERROR_TOAST_MS } from '@/config/constants';
import { serverFieldError } from '@/lib/server-field-error';
import { toast } from '@/lib/toast';
import { formatInstant, formatMoney, SUPPORT_STATUS_NAMES } from '../admin-text';
import type { StaffMe } from '../api/admin-me';
import { useStaff } from '../api/admin-staff';
import { useTicket, useTicketMutation } from '../api/admin-support';
import { AdminLoadError } from './admin-load-error';
import { AdminSupportStatusBadge } from './admin-support-status-badge';

type Me = Pick<StaffMe, 'user_id' | 'email' | 'permissions'>;

function failed(title: string, err: unknown) {
  toast.error(title, {
    description: err instanceof Error ? err.message : 'Please try again.',
    duration: ERROR_TOAST_MS,
  });
}

function Thread({ request }: { request: InboxRequestWithThread }) {
  return (
    <ol aria-label="Thread" className="grid gap-3">
      {request.thread.map((message, i) => (
        <li
          // biome-ignore lint/suspicious/noArrayIndexKey: a thread only grows at its end
          key={i}
          className={`rounded-md border p-3 ${message.author === 'staff' ? 'bg-muted/50 sm:ml-8' : 'sm:mr-8'}`}
        >
          <p className="mb-1 flex flex-wrap gap-x-2 text-xs text-muted-foreground">
            <span className="font-medium text-foreground">
              {message.author === 'staff' ? `Support (${message.author_email || 'API key'})` : message.author_email}
            </span>
            <span>{formatInstant(message.at)}</span>
          </p>
          <p className="text-sm break-words whitespace-pre-wrap">{message.body}</p>
        </li>
      ))}
    </ol>
  );
}

function ReplyForm({ ticketId }: { ticketId: string }) {
  const change = useTicketMutation(ticketId);
  const [message, setMessage] = React.useState('');
  const [error, setError] = React.useState<string>();

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (change.isPending) return;
    if (!message.trim()) {
      setError('Message is required');
      return;
    }
    setError(undefined);
    try {
      await change.mutateAsync({ kind: 'reply', message: message.trim() });
      setMessage('');
      toast.success('Reply sent', { description: 'The customer was mailed and sees it in the portal.' });
    } catch (err) {
      const onMessage = serverFieldError(err, 'message');
      setError(onMessage);
      if (!onMessage) failed('Reply not sent', err);
    }
  }

  return (
    <form noValidate onSubmit={submit} className="grid gap-3">
      <FormField
        id="ticket-reply"
        label="Reply"
        error={error}
        hint="Goes to the customer by mail and on /dashboard/support; the request then waits on them."
      >
        <Textarea
          {...fieldProps('ticket-reply', error)}
          rows={5}
          value={message}
          onChange={(e) => {
            setMessage(e.target.value);
            setError(undefined);
          }}
        />
      </FormField>
      <Button type="submit" className="w-fit" disabled={change.isPending} aria-busy={change.isPending || undefined}>
        {change.isPending && <Loader2Icon className="animate-spin" aria-hidden />}
        Send reply
      </Button>
    </form>
  );
}

/** Assign to any staff member: the staff list is an admin's (ListStaff needs staff.manage). */
function StaffAssignee({
  request,
  onPick,
}: {
  request: InboxRequestWithThread;
  onPick: (id: string, label: string) => void;
}) {
  const staff = useStaff();
  const others = (staff.data ?? []).filter((member) => member.user_id !== request.assignee_user_id);
  return (
    <div className="grid gap-2">
      <label htmlFor="ticket-assignee" className="text-sm font-medium">
        Assign to
      </label>
      <NativeSelect
        id="ticket-assignee"
        value=""
        disabled={!staff.data}
        onChange={(e) => {
          const member = others.find((m) => m.user_id === e.target.value);
          if (member) onPick(member.user_id, member.email);
        }}
      >
        <option value="">Choose a staff member…</option>
        {others.map((member) => (
          <option key={member.user_id} value={member.user_id}>
            {member.email}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

function TicketControls({ request, me }: { request: InboxRequestWithThread; me: Me }) {
  const change = useTicketMutation(request.ticket_id);
  const [status, setStatus] = React.useState<SettableSupportStatus | null>(null);
  const [assignee, setAssignee] = React.useState<{ id: string | null; label: string } | null>(null);

  async function apply(run: () => Promise<unknown>, done: string, fail: string) {
    try {
      await run();
      toast.success(done);
    } catch (err) {
      failed(fail, err);
      return false;
    }
  }

  const assignedToMe = request.assignee_user_id === me.user_id;
  return (
    <div className="grid gap-4">
      <div className="grid gap-2">
        <label htmlFor="ticket-status" className="text-sm font-medium">
          Set status
        </label>
        <NativeSelect
          id="ticket-status"
          value=""
          onChange={(e) => e.target.value && setStatus(e.target.value as SettableSupportStatus)}
        >
          <option value="">Choose a status…</option>
          {SETTABLE_SUPPORT_STATUSES.filter((s) => s !== request.status).map((s) => (
            <option key={s} value={s}>
              {SUPPORT_STATUS_NAMES[s]}
            </option>
          ))}
        </NativeSelect>
      </div>
      {me.permissions.includes('staff.manage') && (
        <StaffAssignee request={request} onPick={(id, label) => setAssignee({ id, label })} />
      )}
      <div className="flex flex-wrap gap-2">
        {!assignedToMe && (
          <Button variant="outline" size="sm" onClick={() => setAssignee({ id: me.user_id, label: 'you' })}>
            Assign to me
          </Button>
        )}
        {request.assignee_user_id && (
          <Button variant="outline" size="sm" onClick={() => setAssignee({ id: null, label: 'nobody' })}>
            Unassign
          </Button>
        )}
      </div>
      <ConfirmDialog
        open={status !== null}
        onOpenChange={(open) => !open && setStatus(null)}
        variant="default"
        title="Change the status?"
        description={
          status
            ? `${request.ticket_id} becomes "${SUPPORT_STATUS_NAMES[status]}" (now "${SUPPORT_STATUS_NAMES[request.status]}"). The customer sees it on /dashboard/support.`
            : ''
        }
        confirmLabel="Change status"
        onConfirm={() =>
          status && apply(() => change.mutateAsync({ kind: 'status', status }), 'Status changed', 'Status not changed')
        }
      />
      <ConfirmDialog
        open={assignee !== null}
        onOpenChange={(open) => !open && setAssignee(null)}
        variant="default"
        title={assignee?.id ? 'Assign this request?' : 'Unassign this request?'}
        description={
          assignee
            ? `${request.ticket_id} will be assigned to ${assignee.label} (now ${request.assignee_email || (request.assignee_user_id ? 'an API key' : 'nobody')}).`
            : ''
        }
        confirmLabel={assignee?.id ? 'Assign' : 'Unassign'}
        onConfirm={() =>
          assignee &&
          apply(
            () => change.mutateAsync({ kind: 'assign', assignee: assignee.id }),
            assignee.id ? 'Request assigned' : 'Request unassigned',
            'Assignee not changed',
          )
        }
      />
    </div>
  );
}

function CustomerContext({ customer }: { customer: SupportCustomerContext }) {
  const { profile } = customer;
  const licences = customer.licenses.robot_licenses;
  const plans = customer.subscriptions.user_subscriptions.filter((s) => s.status === 'active');
  return (
    <Card>
      <CardHeader>
        <CardTitle>Customer</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 text-sm">
        <div className="grid gap-1">
          <Link
            to="/admin/$"
            params={{ _splat: `customers/${profile.user_id}` }}
            className="font-medium break-all underline underline-offset-4"
          >
            {profile.email}
          </Link>
          <span>{[profile.name, profile.company].filter(Boolean).join(' · ')}</span>
          <span className="flex flex-wrap gap-1">
            <Badge variant="secondary">{customer.tier}</Badge>
            {!profile.email_validated && <Badge variant="outline">Unverified</Badge>}
            {profile.disabled && <Badge variant="destructive">Disabled</Badge>}
          </span>
        </div>
        <section aria-label="Plan" className="grid gap-1">
          <h3 className="font-medium">Plan</h3>
          {plans.length ? (
            <ul>
              {plans.map((s) => (
                <li key={s.uuid}>
                  {s.subscription_tier}
                  {s.payment_failed_at ? ' · payment failed' : ''}
                  {s.cancel_at_period_end ? ' · ends at period end' : ''}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-muted-foreground">No active plan ({customer.tier}).</p>
          )}
        </section>
        <section aria-label="Robots" className="grid gap-1">
          <h3 className="font-medium">Robots ({customer.robots.length})</h3>
          <ul>
            {customer.robots.map((r) => (
              <li key={r.robot_id} className="break-all">
                {r.name || `${r.make} ${r.model}`} · {r.robot_state.available ? 'online' : 'offline'}
              </li>
            ))}
          </ul>
        </section>
        <section aria-label="Licences" className="grid gap-1">
          <h3 className="font-medium">Licences ({licences.length})</h3>
          <ul>
            {licences.map((l) => (
              <li key={l.robot_license.license_id} className="break-all">
                {l.robot_model || 'Licence'} · {l.paired_status ? 'paired' : 'unpaired'} · until{' '}
                {formatInstant(l.robot_license.end_date)}
              </li>
            ))}
          </ul>
        </section>
        <section aria-label="Recent payments" className="grid gap-1">
          <h3 className="font-medium">Recent payments</h3>
          {customer.payments.length ? (
            <ul>
              {customer.payments.map((p) => (
                <li key={p.payment_id}>
                  {formatInstant(p.created_at)} · {formatMoney(p.amount, p.currency)} · {p.status}
                  {p.refunded_amount ? ` · refunded ${formatMoney(p.refunded_amount, p.currency)}` : ''}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-muted-foreground">None.</p>
          )}
        </section>
      </CardContent>
    </Card>
  );
}

/** One request: its thread, the customer beside it, the reply box, status and assignee. */
export function AdminSupportTicket({ ticketId, me }: { ticketId: string; me: Me }) {
  const ticket = useTicket(ticketId);
  const canAnswer = me.permissions.includes('support.answer');
  if (ticket.isError)
    return (
      <AdminLoadError
        title="The request could not be loaded"
        error={ticket.error}
        onRetry={() => void ticket.refetch()}
      />
    );
  if (!ticket.data)
    return (
      <div className="grid gap-2" role="status" aria-label="Loading the request">
        <Skeleton className="h-8 w-1/2" />
        <Skeleton className="h-32 w-full" />
      </div>
    );
  const { request, customer } = ticket.data;
  return (
    <>
      <div className="grid gap-1">
        <Link
          to="/admin/$"
          params={{ _splat: 'support' }}
          className="w-fit text-sm text-muted-foreground underline-offset-4 hover:underline"
        >
          ← Support inbox
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight break-words">{request.subject}</h1>
        <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
          <span className="font-mono">{request.ticket_id}</span>
          <AdminSupportStatusBadge status={request.status} />
          <span>{request.category}</span>
          {request.robot_model && <span>{request.robot_model}</span>}
          <span data-testid="ticket-assignee">
            {request.assignee_user_id ? `Assigned to ${request.assignee_email || 'an API key'}` : 'Unassigned'}
          </span>
        </p>
      </div>
      <div className="grid min-w-0 gap-6 lg:grid-cols-[1fr_20rem]">
        <div className="grid min-w-0 content-start gap-6">
          <section aria-labelledby="thread-title" className="grid gap-3">
            <h2 id="thread-title" className="text-lg font-semibold">
              Thread
            </h2>
            <Thread request={request} />
          </section>
          {canAnswer && <ReplyForm ticketId={request.ticket_id} />}
        </div>
        <div className="grid min-w-0 content-start gap-6">
          {canAnswer && (
            <Card>
              <CardHeader>
                <CardTitle>Handling</CardTitle>
              </CardHeader>
              <CardContent>
                <TicketControls request={request} me={me} />
              </CardContent>
            </Card>
          )}
          <CustomerContext customer={customer} />
        </div>
      </div>
    </>
  );
}
