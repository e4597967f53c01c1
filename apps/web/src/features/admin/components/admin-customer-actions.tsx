import {
  type CustomerView,
  MAX_FLEX_SLOTS,
  OverrideKind,
  type Permission,
  roleCan,
  TIERS,
  type TierName,
} from '@portal/contract';
import { useNavigate } from '@tanstack/react-router';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { FormField, fieldProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { formatMoney } from '../admin-text';
import { downloadText } from '../api/admin-audit';
import { deleteCustomer, exportCustomer, useCustomerAction } from '../api/admin-customers';
import type { StaffMe } from '../api/admin-me';
import { AdminReasonDialog } from './admin-reason-dialog';

export type ActionMe = Pick<StaffMe, 'role' | 'goodwill_max_minutes'>;

/** A whole number in [min, max] typed into a field, else the message naming the rule. */
function wholeError(label: string, value: string, min: number, max: number): string | undefined {
  if (!value.trim()) return `${label} is required`;
  const n = Number(value);
  if (!Number.isInteger(n)) return `${label} must be a whole number`;
  if (n < min) return `${label} must be at least ${min}`;
  if (n > max) return `${label} must be at most ${max}`;
  return undefined;
}

function NumberField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  hint?: string;
}) {
  return (
    <FormField id={props.id} label={props.label} error={props.error} hint={props.hint}>
      <Input
        {...fieldProps(props.id, props.error)}
        inputMode="numeric"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </FormField>
  );
}

const can = (me: ActionMe, permission: Permission) => roleCan(me.role, permission);

/** The account's actions, each shown to the roles that have its permission (the server decides anyway). */
export function AdminCustomerActions({ customer, me }: { customer: CustomerView; me: ActionMe }) {
  const { profile } = customer;
  const action = useCustomerAction(profile.user_id);
  const navigate = useNavigate();
  const who = profile.email;
  const [minutes, setMinutes] = React.useState('');
  const [model, setModel] = React.useState('');
  const [tier, setTier] = React.useState<TierName>('Standard Subscription');
  const [overrideKind, setOverrideKind] = React.useState<0 | 1 | 2>(OverrideKind.Other);
  const [days, setDays] = React.useState('365');
  const [slots, setSlots] = React.useState('');
  const [typed, setTyped] = React.useState('');
  const minutesMax = me.role === 'support' ? me.goodwill_max_minutes : 100_000;
  const isStaff = profile.staff_role !== null;

  const buttons: React.ReactNode[] = [];
  const button = (label: string, destructive = false) => (
    <Button variant={destructive ? 'destructive' : 'outline'} size="sm">
      {label}
    </Button>
  );

  if (can(me, 'accounts.disable') && !profile.email_verified)
    buttons.push(
      <AdminReasonDialog
        key="verify"
        trigger={button('Verify email')}
        title="Verify this email address?"
        effect={`${who} is marked verified without the customer opening a link.`}
        confirmLabel="Verify email"
        failureTitle="Email not verified"
        run={async (reason) => {
          await action.mutateAsync({ action: 'VerifyEmail', body: { reason } });
          return { title: 'Email verified' };
        }}
      />,
    );
  if (can(me, 'verification.resend') && !profile.email_verified)
    buttons.push(
      <AdminReasonDialog
        key="resend"
        trigger={button('Resend verification')}
        title="Resend the verification mail?"
        effect={`A new verification link goes to ${who}; earlier links stop working.`}
        confirmLabel="Resend"
        failureTitle="Verification mail not sent"
        run={async (reason) => {
          await action.mutateAsync({ action: 'ResendVerification', body: { reason } });
          return { title: 'Verification mail sent' };
        }}
      />,
    );
  if (can(me, 'accounts.disable'))
    buttons.push(
      profile.disabled_at ? (
        <AdminReasonDialog
          key="enable"
          trigger={button('Enable account')}
          title="Enable this account?"
          effect={`${who} can sign in again.`}
          confirmLabel="Enable account"
          failureTitle="Account not enabled"
          run={async (reason) => {
            await action.mutateAsync({ action: 'EnableAccount', body: { reason } });
            return { title: 'Account enabled' };
          }}
        />
      ) : (
        <AdminReasonDialog
          key="disable"
          trigger={button('Disable account', true)}
          variant="destructive"
          title="Disable this account?"
          effect={`${who} can no longer sign in, and every session of theirs ends now.`}
          confirmLabel="Disable account"
          failureTitle="Account not disabled"
          run={async (reason) => {
            await action.mutateAsync({ action: 'DisableAccount', body: { reason } });
            return { title: 'Account disabled' };
          }}
        />
      ),
    );
  if (can(me, 'sessions.revoke'))
    buttons.push(
      <AdminReasonDialog
        key="revoke"
        trigger={button('Revoke sessions')}
        variant="destructive"
        title="Revoke every session?"
        effect={`${who} is signed out everywhere (portal and hubs); the password stays.`}
        confirmLabel="Revoke sessions"
        failureTitle="Sessions not revoked"
        run={async (reason) => {
          await action.mutateAsync({ action: 'RevokeSessions', body: { reason } });
          return { title: 'Sessions revoked' };
        }}
      />,
    );
  if (can(me, 'dial_time.goodwill'))
    buttons.push(
      <AdminReasonDialog
        key="minutes"
        trigger={button('Grant dial time')}
        title="Grant dial time?"
        effect={`Durable dial minutes are added to ${who}'s balance; they do not expire.`}
        confirmLabel="Grant minutes"
        failureTitle="Dial time not granted"
        checks={[{ name: 'minutes', check: () => wholeError('Minutes', minutes, 1, minutesMax) }]}
        onClosed={() => setMinutes('')}
        fields={(errors) => (
          <NumberField
            id="grant-minutes"
            label="Minutes"
            value={minutes}
            onChange={setMinutes}
            error={errors.minutes}
            hint={
              me.role === 'support'
                ? `Support grants at most ${me.goodwill_max_minutes} minutes at once.`
                : `At most ${minutesMax} minutes at once.`
            }
          />
        )}
        run={async (reason) => {
          await action.mutateAsync({ action: 'GrantDialTime', body: { reason, minutes: Number(minutes) } });
          return { title: 'Dial time granted', description: `${minutes} minutes were added.` };
        }}
      />,
    );
  if (can(me, 'licenses.grant'))
    buttons.push(
      <AdminReasonDialog
        key="licence"
        trigger={button('Grant licence')}
        title="Grant a robot licence?"
        effect={`${who} gets an unpaired licence for the model, with a pairing code.`}
        confirmLabel="Grant licence"
        failureTitle="Licence not granted"
        checks={[{ name: 'model', check: () => (model.trim() ? undefined : 'Model is required') }]}
        onClosed={() => setModel('')}
        fields={(errors) => (
          <FormField id="grant-model" label="Robot model" error={errors.model}>
            <Input
              {...fieldProps('grant-model', errors.model)}
              value={model}
              onChange={(e) => setModel(e.target.value)}
            />
          </FormField>
        )}
        run={async (reason) => {
          const answer = await action.mutateAsync({ action: 'GrantLicense', body: { reason, model: model.trim() } });
          return { title: 'Licence granted', description: `Pairing code ${answer.pair_code ?? ''}` };
        }}
      />,
    );
  if (can(me, 'subscriptions.grant')) {
    buttons.push(
      <AdminReasonDialog
        key="grant-sub"
        trigger={button('Grant subscription')}
        title="Grant a subscription?"
        effect={`${who} gets the tier without payment, from now; earlier grants end.`}
        confirmLabel="Grant subscription"
        failureTitle="Subscription not granted"
        checks={[{ name: 'duration_s', check: () => wholeError('Days', days, 1, 3650) }]}
        fields={(errors) => (
          <>
            <FormField id="grant-tier" label="Tier">
              <NativeSelect id="grant-tier" value={tier} onChange={(e) => setTier(e.target.value as TierName)}>
                {TIERS.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
            <FormField id="grant-kind" label="Kind">
              <NativeSelect
                id="grant-kind"
                value={overrideKind}
                onChange={(e) => setOverrideKind(Number(e.target.value) as 0 | 1 | 2)}
              >
                <option value={OverrideKind.FreeTrial}>Free trial</option>
                <option value={OverrideKind.BowOverride}>Override</option>
                <option value={OverrideKind.Other}>Other</option>
              </NativeSelect>
            </FormField>
            <NumberField id="grant-days" label="Days" value={days} onChange={setDays} error={errors.duration_s} />
          </>
        )}
        run={async (reason) => {
          await action.mutateAsync({
            action: 'GrantSubscription',
            body: { reason, tier, override_kind: overrideKind, duration_s: Number(days) * 86_400 },
          });
          return { title: 'Subscription granted' };
        }}
      />,
    );
    // EndSubscription ends grants only (a paid plan is the customer's): offered while one is in force.
    if (customer.subscriptions.some((sub) => sub.status === 'active' && sub.overrideReason !== OverrideKind.None))
      buttons.push(
        <AdminReasonDialog
          key="end-sub"
          trigger={button('End granted subscription', true)}
          variant="destructive"
          title="End the granted subscription?"
          effect={`${who}'s granted subscriptions end now; a paid plan is not touched.`}
          confirmLabel="End subscription"
          failureTitle="Subscription not ended"
          run={async (reason) => {
            await action.mutateAsync({ action: 'EndSubscription', body: { reason } });
            return { title: 'Subscription ended' };
          }}
        />,
      );
  }
  if (can(me, 'slots.set'))
    buttons.push(
      <AdminReasonDialog
        key="slots"
        trigger={button('Set slot grant')}
        title="Set the slot grant?"
        effect={`The customer has the larger of the plan's count (${customer.slots.plan}) and the grant. Leave the field empty to clear the grant.`}
        confirmLabel="Set slot grant"
        failureTitle="Slot grant not set"
        checks={[
          { name: 'amount', check: () => (slots.trim() ? wholeError('Slots', slots, 0, MAX_FLEX_SLOTS) : undefined) },
        ]}
        onClosed={() => setSlots('')}
        fields={(errors) => (
          <NumberField
            id="slot-grant"
            label="Granted slots"
            value={slots}
            onChange={setSlots}
            error={errors.amount}
            hint={`0 to ${MAX_FLEX_SLOTS}; empty clears the grant (now ${customer.slots.granted ?? 'none'}).`}
          />
        )}
        run={async (reason) => {
          const amount = slots.trim() ? Number(slots) : null;
          await action.mutateAsync({ action: 'SetSlotGrant', body: { reason, amount } });
          return { title: amount === null ? 'Slot grant cleared' : 'Slot grant set' };
        }}
      />,
    );
  if (can(me, 'customers.read'))
    buttons.push(
      <AdminReasonDialog
        key="export"
        trigger={button('Export data')}
        title="Export this customer's data?"
        effect="A JSON file with the account, licences, robots, dial-time ledger, payments, support requests and security events downloads. The export is recorded."
        confirmLabel="Export"
        failureTitle="Data not exported"
        run={async (reason) => {
          const answer = await exportCustomer(profile.user_id, reason);
          downloadText(answer.filename, JSON.stringify(answer.data, null, 2), 'application/json');
          return { title: 'Data exported', description: answer.filename };
        }}
      />,
    );
  if (can(me, 'accounts.disable') && !isStaff)
    buttons.push(
      <AdminReasonDialog
        key="delete"
        trigger={button('Delete account', true)}
        variant="destructive"
        title="Delete this account?"
        effect={
          <>
            Only at the customer's request. Their subscriptions are cancelled at the provider and everything the account
            owns is deleted; this cannot be undone. Type <strong className="break-all">{who}</strong> to confirm.
          </>
        }
        confirmLabel="Delete account"
        confirmDisabled={typed.trim().toLowerCase() !== who.toLowerCase()}
        failureTitle="Account not deleted"
        onClosed={() => setTyped('')}
        fields={() => (
          <FormField id="delete-confirm" label="The customer's email">
            <Input id="delete-confirm" autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} />
          </FormField>
        )}
        run={async (reason) => {
          await deleteCustomer(profile.user_id, reason);
          await navigate({ to: '/admin/$', params: { _splat: 'customers' } });
          return { title: 'Account deleted', description: who };
        }}
      />,
    );

  return buttons.length ? (
    <div className="flex flex-wrap gap-2">{buttons}</div>
  ) : (
    <p className="text-sm text-muted-foreground">Your role has no actions on an account.</p>
  );
}

/** Refund one payment, whole or in part (finance and admins). */
export function AdminRefundAction({ userId, payment }: { userId: string; payment: CustomerView['payments'][number] }) {
  const action = useCustomerAction(userId);
  const [amount, setAmount] = React.useState('');
  const left = payment.amount - payment.refunded_amount;
  return (
    <AdminReasonDialog
      trigger={
        <Button variant="outline" size="sm" aria-label={`Refund payment ${payment.payment_id}`}>
          Refund
        </Button>
      }
      variant="destructive"
      title="Refund this payment?"
      effect={`Up to ${formatMoney(left, payment.currency)} goes back through the provider. A whole refund also takes back what the payment granted (its plan or licence).`}
      confirmLabel="Refund"
      failureTitle="Payment not refunded"
      checks={[
        {
          name: 'amount',
          check: () => (amount.trim() ? wholeError('Amount (minor units)', amount, 1, left) : undefined),
        },
      ]}
      onClosed={() => setAmount('')}
      fields={(errors) => (
        <NumberField
          id={`refund-${payment.payment_id}`}
          label="Amount (minor units)"
          value={amount}
          onChange={setAmount}
          error={errors.amount}
          hint={`Empty refunds the whole ${formatMoney(left, payment.currency)}.`}
        />
      )}
      run={async (reason) => {
        await action.mutateAsync({
          action: 'RefundPayment',
          body: { reason, payment_id: payment.payment_id, ...(amount.trim() ? { amount: Number(amount) } : {}) },
        });
        return { title: 'Payment refunded' };
      }}
    />
  );
}

/** Unpair one robot: its licence lets it go and gets a new pairing code. */
export function AdminUnpairAction({ userId, robot }: { userId: string; robot: CustomerView['robots'][number] }) {
  const action = useCustomerAction(userId);
  const name = robot.name || `${robot.make} ${robot.model}`;
  return (
    <AdminReasonDialog
      trigger={
        <Button variant="outline" size="sm" aria-label={`Unpair robot ${name}`}>
          Unpair
        </Button>
      }
      variant="destructive"
      title="Unpair this robot?"
      effect={`${name} lets go of its licence, which gets a new pairing code.`}
      confirmLabel="Unpair"
      failureTitle="Robot not unpaired"
      run={async (reason) => {
        await action.mutateAsync({ action: 'UnpairRobot', body: { reason, robot_id: robot.robot_id } });
        return { title: 'Robot unpaired' };
      }}
    />
  );
}
