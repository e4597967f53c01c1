import { type CustomerView, roleCan, type SubscriptionBase, type UsageHistory } from '@portal/contract';
import { Link } from '@tanstack/react-router';
import * as React from 'react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatChangeValue, formatInstant, formatMoney, ROLE_LABELS } from '../admin-text';
import { useCustomer } from '../api/admin-customers';
import { type ActionMe, AdminCustomerActions, AdminRefundAction, AdminUnpairAction } from './admin-customer-actions';
import { AdminLoadError } from './admin-load-error';
import { AdminSupportStatusBadge } from './admin-support-status-badge';
import { AdminTableRegion } from './admin-table-region';

/** The usage chart a route hands in (the customer's own, features/usage; a feature imports no other). */
export type UsageChartComponent = React.ComponentType<{ history: UsageHistory }>;

const cell = 'p-2 align-top';

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="grid min-w-0 grid-cols-1 gap-3">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

const None = ({ children }: { children: React.ReactNode }) => (
  <p className="text-sm text-muted-foreground">{children}</p>
);

function Profile({ customer }: { customer: CustomerView }) {
  const p = customer.profile;
  const rows: [string, React.ReactNode][] = [
    ['Name', p.name || '—'],
    ['Organisation', p.company || '—'],
    ['Country', p.country || '—'],
    ['Profession', p.profession || '—'],
    ['Joined', formatInstant(p.joined_at)],
    ['Last active', formatInstant(p.last_active_at)],
    ['Email', p.email_verified ? 'Verified' : 'Not verified'],
    ['Account', p.disabled_at ? `Disabled since ${formatInstant(p.disabled_at)}` : 'Enabled'],
  ];
  return (
    <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="break-words" data-testid={`profile-${label.toLowerCase().replace(' ', '-')}`}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function subscriptionState(s: SubscriptionBase): string {
  const parts: string[] = [s.status];
  if (s.payment_failed_at) parts.push(`past due since ${formatInstant(s.payment_failed_at)}`);
  if (s.cancel_at_period_end) parts.push('ends at period end');
  if (s.overrideReason !== 99) parts.push('granted');
  return parts.join(' · ');
}

function Subscriptions({ customer }: { customer: CustomerView }) {
  const all = [
    ...customer.subscriptions.map((s) => ({ s, what: s.subscription_tier })),
    ...customer.robot_driver_subscriptions.map((s) => ({ s, what: `Driver ${s.robot_license_id || s.asset_id}` })),
  ];
  if (!all.length) return <None>No subscriptions: the customer is on {customer.tier}.</None>;
  return (
    <AdminTableRegion label="Subscriptions table">
      <TableHeader>
        <TableRow>
          <TableHead>Subscription</TableHead>
          <TableHead>State</TableHead>
          <TableHead>Started</TableHead>
          <TableHead>Ends</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {all.map(({ s, what }) => (
          <TableRow key={s.uuid}>
            <TableCell className={cell}>{what}</TableCell>
            <TableCell className={cell}>{subscriptionState(s)}</TableCell>
            <TableCell className={`${cell} whitespace-nowrap`}>{formatInstant(s.created_at)}</TableCell>
            <TableCell className={`${cell} whitespace-nowrap`}>
              {formatInstant(s.created_at + s.duration * 1000)}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </AdminTableRegion>
  );
}

function Licences({ customer }: { customer: CustomerView }) {
  const own = customer.licenses.robot_licenses.map((l) => ({ l, kind: l.isFlexible ? 'Flexible' : 'Own' }));
  const shared = customer.licenses.shared_robot_licenses.map((l) => ({ l, kind: 'Shared with them' }));
  const all = [...own, ...shared];
  const now = Date.now();
  return (
    <>
      <p className="text-sm" data-testid="customer-slots">
        Flexible slots: plan {customer.slots.plan}, grant {customer.slots.granted ?? 'none'}, effective{' '}
        <strong>{customer.slots.effective}</strong>
      </p>
      {all.length ? (
        <AdminTableRegion label="Licences table">
          <TableHeader>
            <TableRow>
              <TableHead>Licence</TableHead>
              <TableHead>Kind</TableHead>
              <TableHead>Robot</TableHead>
              <TableHead>Until</TableHead>
              <TableHead>State</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {all.map(({ l, kind }) => (
              <TableRow key={`${kind}-${l.robot_license.license_id}`} data-licence={l.robot_license.license_id}>
                <TableCell className={cell}>
                  {l.robot_make === l.robot_model ? l.robot_model : `${l.robot_make} ${l.robot_model}`}
                  <span className="block font-mono text-xs text-muted-foreground">{l.robot_license.license_id}</span>
                </TableCell>
                <TableCell className={cell}>{kind}</TableCell>
                <TableCell className={`${cell} break-all`}>
                  {l.paired_status ? l.robot_id : `Unpaired${l.pair_code ? ` (code ${l.pair_code})` : ''}`}
                </TableCell>
                <TableCell className={`${cell} whitespace-nowrap`}>{formatInstant(l.robot_license.end_date)}</TableCell>
                <TableCell className={cell}>
                  {l.robot_license.end_date && l.robot_license.end_date <= now ? 'Ended' : 'Active'}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </AdminTableRegion>
      ) : (
        <None>No licences.</None>
      )}
    </>
  );
}

function Robots({ customer, me }: { customer: CustomerView; me: ActionMe }) {
  if (!customer.robots.length) return <None>No robots.</None>;
  const unpair = roleCan(me.role, 'robots.unpair');
  return (
    <AdminTableRegion label="Robots table">
      <TableHeader>
        <TableRow>
          <TableHead>Robot</TableHead>
          <TableHead>Availability</TableHead>
          <TableHead>Last seen</TableHead>
          {unpair && <TableHead>Action</TableHead>}
        </TableRow>
      </TableHeader>
      <TableBody>
        {customer.robots.map((r) => (
          <TableRow key={r.robot_id}>
            <TableCell className={cell}>
              {r.name || `${r.make} ${r.model}`}
              <span className="block font-mono text-xs break-all text-muted-foreground">{r.robot_id}</span>
            </TableCell>
            <TableCell className={cell}>
              <Badge variant={r.robot_state.available ? 'default' : 'outline'}>
                {r.robot_state.available ? 'Online' : 'Offline'}
              </Badge>
            </TableCell>
            <TableCell className={`${cell} whitespace-nowrap`}>{formatInstant(r.last_seen)}</TableCell>
            {unpair && (
              <TableCell className={cell}>
                {r.license.license_id && <AdminUnpairAction userId={customer.profile.user_id} robot={r} />}
              </TableCell>
            )}
          </TableRow>
        ))}
      </TableBody>
    </AdminTableRegion>
  );
}

function DialTime({ customer, UsageChart }: { customer: CustomerView; UsageChart?: UsageChartComponent | undefined }) {
  const t = customer.time;
  const durable = t.total_durable_time - t.used_durable_time;
  const perishable = t.total_perishable_time - t.used_perishable_time;
  return (
    <>
      <p className="text-sm" data-testid="customer-minutes">
        {t.has_infinite_time ? 'Unlimited dial time' : `${t.total_time} minutes left`} · durable {durable} · perishable{' '}
        {perishable} · used {customer.usage.from} to {customer.usage.to}: {customer.usage.total_minutes} minutes
      </p>
      {UsageChart && customer.usage.total_minutes > 0 && (
        <figure className="grid gap-1" data-testid="customer-usage-chart">
          <figcaption className="text-sm font-medium">
            Minutes used per day and robot, {customer.usage.from} to {customer.usage.to}
          </figcaption>
          <React.Suspense fallback={<Skeleton className="h-[300px] w-full" />}>
            <UsageChart history={customer.usage} />
          </React.Suspense>
        </figure>
      )}
      {customer.ledger.length ? (
        <AdminTableRegion label="Dial-time ledger table">
          <TableHeader>
            <TableRow>
              <TableHead>When</TableHead>
              <TableHead>Kind</TableHead>
              <TableHead>Minutes</TableHead>
              <TableHead>Durable</TableHead>
              <TableHead>Perishable</TableHead>
              <TableHead>Reason</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {customer.ledger.map((row, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: ledger rows have no id of their own
              <TableRow key={i}>
                <TableCell className={`${cell} whitespace-nowrap`}>{formatInstant(row.at)}</TableCell>
                <TableCell className={cell}>{row.kind}</TableCell>
                <TableCell className={cell}>{row.minutes}</TableCell>
                <TableCell className={cell}>{row.durable}</TableCell>
                <TableCell className={cell}>{row.perishable}</TableCell>
                <TableCell className={`${cell} break-words`}>{row.reason || '—'}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </AdminTableRegion>
      ) : (
        <None>No ledger entries.</None>
      )}
    </>
  );
}

function Payments({ customer, me }: { customer: CustomerView; me: ActionMe }) {
  if (!customer.payments.length) return <None>No payments.</None>;
  const refund = roleCan(me.role, 'payments.refund');
  return (
    <AdminTableRegion label="Payments table">
      <TableHeader>
        <TableRow>
          <TableHead>Payment</TableHead>
          <TableHead>Amount</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Refunds</TableHead>
          <TableHead>Dispute</TableHead>
          {refund && <TableHead>Action</TableHead>}
        </TableRow>
      </TableHeader>
      <TableBody>
        {customer.payments.map((p) => (
          <TableRow key={p.payment_id} data-payment={p.payment_id}>
            <TableCell className={cell}>
              {p.description || p.kind}
              <span className="block text-xs text-muted-foreground">{formatInstant(p.created_at)}</span>
              <span className="block font-mono text-xs break-all text-muted-foreground">{p.payment_id}</span>
            </TableCell>
            <TableCell className={`${cell} whitespace-nowrap`}>{formatMoney(p.amount, p.currency)}</TableCell>
            <TableCell className={cell}>
              {p.status}
              {p.revoked ? ' · grant taken back' : ''}
            </TableCell>
            <TableCell className={cell}>
              {p.refunds.length
                ? p.refunds.map((r) => (
                    <span key={r.refund_id} className="block whitespace-nowrap">
                      {formatMoney(r.amount, p.currency)} ({r.source}) {formatInstant(r.created_at)}
                    </span>
                  ))
                : '—'}
            </TableCell>
            <TableCell className={cell}>{p.dispute_status || '—'}</TableCell>
            {refund && (
              <TableCell className={cell}>
                {p.status === 'paid' && p.refunded_amount < p.amount && (
                  <AdminRefundAction userId={customer.profile.user_id} payment={p} />
                )}
              </TableCell>
            )}
          </TableRow>
        ))}
      </TableBody>
    </AdminTableRegion>
  );
}

function Access({ customer }: { customer: CustomerView }) {
  return (
    <div className="grid gap-3 text-sm">
      {customer.sessions.length ? (
        <AdminTableRegion label="Sessions table">
          <TableHeader>
            <TableRow>
              <TableHead>Session</TableHead>
              <TableHead>Address</TableHead>
              <TableHead>Started</TableHead>
              <TableHead>Last used</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {customer.sessions.map((s) => (
              <TableRow key={s.session_id}>
                <TableCell className={`${cell} max-w-64 break-words`}>
                  {s.target} · {s.user_agent || 'unknown browser'}
                </TableCell>
                <TableCell className={cell}>{s.address || '—'}</TableCell>
                <TableCell className={`${cell} whitespace-nowrap`}>{formatInstant(s.started_at)}</TableCell>
                <TableCell className={`${cell} whitespace-nowrap`}>{formatInstant(s.last_used_at)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </AdminTableRegion>
      ) : (
        <None>No live sessions.</None>
      )}
      <p>
        Passkeys: {customer.passkeys.length ? customer.passkeys.map((p) => p.name || 'Unnamed').join(', ') : 'none'}
      </p>
    </div>
  );
}

function SupportRequests({ customer, me }: { customer: CustomerView; me: ActionMe }) {
  if (!customer.support_requests.length) return <None>No support requests.</None>;
  const inbox = roleCan(me.role, 'support.answer');
  return (
    <ul className="grid gap-2 text-sm">
      {customer.support_requests.map((r) => (
        <li key={r.id} className="flex flex-wrap items-center gap-2">
          {inbox ? (
            <Link
              to="/admin/$"
              params={{ _splat: `support/${r.ticket_id}` }}
              className="font-mono underline underline-offset-4"
            >
              {r.ticket_id}
            </Link>
          ) : (
            <span className="font-mono">{r.ticket_id}</span>
          )}
          <span className="break-words">{r.subject}</span>
          <AdminSupportStatusBadge status={r.status} />
          <span className="text-muted-foreground">{formatInstant(r.created_at)}</span>
        </li>
      ))}
    </ul>
  );
}

function Timeline({ customer }: { customer: CustomerView }) {
  if (!customer.audit.length) return <None>Nothing recorded yet.</None>;
  return (
    <AdminTableRegion label="Audit timeline table">
      <TableHeader>
        <TableRow>
          <TableHead>When</TableHead>
          <TableHead>Who</TableHead>
          <TableHead>Action</TableHead>
          <TableHead>Change</TableHead>
          <TableHead>Reason</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {customer.audit.map((e) => (
          <TableRow key={e.seq}>
            <TableCell className={`${cell} whitespace-nowrap`}>{formatInstant(e.at)}</TableCell>
            <TableCell className={`${cell} break-all`}>{e.actor_label || e.actor_kind}</TableCell>
            <TableCell className={cell}>{e.action}</TableCell>
            <TableCell className={`${cell} max-w-64 break-words`}>
              {Object.entries(e.changes)
                .map(([field, c]) => `${field}: ${formatChangeValue(c.before)} → ${formatChangeValue(c.after)}`)
                .join('; ') || '—'}
            </TableCell>
            <TableCell className={`${cell} break-words`}>{e.reason || '—'}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </AdminTableRegion>
  );
}

/** One customer whole, as GetCustomer answers, with the actions the staff member's role may take. */
export function AdminCustomerView({
  userId,
  me,
  usageChart,
}: {
  userId: string;
  me: ActionMe;
  /** the dial-time usage chart, drawn when the customer used minutes */
  usageChart?: UsageChartComponent | undefined;
}) {
  const query = useCustomer(userId);
  if (query.isError)
    return (
      <AdminLoadError
        title="The customer could not be loaded"
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    );
  const customer = query.data;
  if (!customer)
    return (
      <div className="grid gap-2" role="status" aria-label="Loading the customer">
        <Skeleton className="h-8 w-1/2" />
        <Skeleton className="h-32 w-full" />
      </div>
    );
  const p = customer.profile;
  return (
    <>
      <div className="grid gap-1">
        <Link
          to="/admin/$"
          params={{ _splat: 'customers' }}
          className="w-fit text-sm text-muted-foreground underline-offset-4 hover:underline"
        >
          ← Customers
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight break-all">{p.email}</h1>
        <p className="flex flex-wrap items-center gap-2">
          <Badge variant="secondary" data-testid="customer-tier">
            {customer.tier}
          </Badge>
          {!p.email_verified && <Badge variant="outline">Unverified</Badge>}
          {p.disabled_at ? <Badge variant="destructive">Disabled</Badge> : null}
          {p.staff_role && <Badge variant="outline">Staff: {ROLE_LABELS[p.staff_role]}</Badge>}
        </p>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Actions</CardTitle>
        </CardHeader>
        <CardContent>
          <AdminCustomerActions customer={customer} me={me} />
        </CardContent>
      </Card>
      <Section id="customer-profile" title="Profile">
        <Profile customer={customer} />
      </Section>
      <Section id="customer-subscriptions" title="Tier and subscriptions">
        <Subscriptions customer={customer} />
      </Section>
      <Section id="customer-licences" title="Licences">
        <Licences customer={customer} />
      </Section>
      <Section id="customer-robots" title="Robots">
        <Robots customer={customer} me={me} />
      </Section>
      <Section id="customer-time" title="Dial time">
        <DialTime customer={customer} UsageChart={usageChart} />
      </Section>
      {customer.payments_visible && (
        <Section id="customer-payments" title="Payments">
          <Payments customer={customer} me={me} />
        </Section>
      )}
      <Section id="customer-access" title="Sessions and passkeys">
        <Access customer={customer} />
      </Section>
      <Section id="customer-support" title="Support requests">
        <SupportRequests customer={customer} me={me} />
      </Section>
      <Section id="customer-audit" title="Audit timeline">
        <Timeline customer={customer} />
      </Section>
    </>
  );
}
