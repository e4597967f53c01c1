import { SUPPORT_STATUSES, type SupportStatus } from '@portal/contract';
import { Link } from '@tanstack/react-router';
import * as React from 'react';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatInstant, SUPPORT_STATUS_NAMES } from '../admin-text';
import type { StaffMe } from '../api/admin-me';
import { type InboxFilter, useInbox } from '../api/admin-support';
import { AdminLoadError, AdminLoadingRows } from './admin-load-error';
import { AdminSupportStatusBadge } from './admin-support-status-badge';
import { AdminTableRegion } from './admin-table-region';

/** The support inbox: every request newest first, by status and "assigned to me". */
export function AdminSupportInbox({ me }: { me: Pick<StaffMe, 'user_id'> }) {
  const [status, setStatus] = React.useState<SupportStatus | ''>('');
  const [mine, setMine] = React.useState(false);
  const filter: InboxFilter = { status: status || undefined, assignee: mine ? me.user_id : undefined };
  const inbox = useInbox(filter);

  return (
    <>
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Support inbox</h1>
        <p className="text-muted-foreground">
          Requests from the contact form, newest first. A reply reaches the customer by mail and in the portal.
        </p>
      </div>
      <fieldset className="flex flex-wrap items-end gap-4">
        <legend className="sr-only">Filters</legend>
        <div className="grid gap-2">
          <Label htmlFor="inbox-status">Status</Label>
          <NativeSelect
            id="inbox-status"
            className="w-48"
            value={status}
            onChange={(e) => setStatus(e.target.value as SupportStatus | '')}
          >
            <option value="">Every status</option>
            {SUPPORT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {SUPPORT_STATUS_NAMES[s]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="flex h-9 items-center gap-2">
          <Checkbox id="inbox-mine" checked={mine} onCheckedChange={(checked) => setMine(checked === true)} />
          <Label htmlFor="inbox-mine">Assigned to me</Label>
        </div>
      </fieldset>
      <section aria-labelledby="inbox-list-title" className="grid min-w-0 grid-cols-1 gap-3">
        <h2 id="inbox-list-title" className="text-lg font-semibold">
          Requests{inbox.data ? ` (${inbox.data.total})` : ''}
        </h2>
        {inbox.data ? (
          inbox.data.requests.length ? (
            <AdminTableRegion label="Support requests table">
              <TableHeader>
                <TableRow>
                  <TableHead>Request</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Customer</TableHead>
                  <TableHead>Assignee</TableHead>
                  <TableHead>Last message</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {inbox.data.requests.map((request) => (
                  <TableRow key={request.ticket_id} data-ticket={request.ticket_id}>
                    <TableCell className="p-2 align-top">
                      <Link
                        to="/admin/$"
                        params={{ _splat: `support/${request.ticket_id}` }}
                        className="font-medium underline-offset-4 hover:underline"
                      >
                        {request.subject}
                      </Link>
                      <span className="block font-mono text-xs text-muted-foreground">{request.ticket_id}</span>
                    </TableCell>
                    <TableCell className="p-2 align-top">
                      <AdminSupportStatusBadge status={request.status} />
                    </TableCell>
                    <TableCell className="p-2 align-top break-all">{request.customer_email}</TableCell>
                    <TableCell className="p-2 align-top break-all">
                      {request.assignee_user_id ? request.assignee_email || 'An API key' : 'Unassigned'}
                    </TableCell>
                    <TableCell className="p-2 align-top whitespace-nowrap">
                      {formatInstant(request.last_message_at)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </AdminTableRegion>
          ) : (
            <p className="text-sm text-muted-foreground">No requests match.</p>
          )
        ) : inbox.isError ? (
          <AdminLoadError
            title="The inbox could not be loaded"
            error={inbox.error}
            onRetry={() => void inbox.refetch()}
          />
        ) : (
          <AdminLoadingRows label="Loading the inbox" />
        )}
      </section>
    </>
  );
}
