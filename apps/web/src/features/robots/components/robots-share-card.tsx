import { isClientError } from '@portal/client';
import { normalisedEmail, type SharedRobotEntry } from '@portal/contract';
import { Loader2Icon, Share2Icon, UserXIcon } from 'lucide-react';
import * as React from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { ERROR_TOAST_MS } from '@/config/constants';
import { formatDateTime } from '@/lib/dates';
import { toast } from '@/lib/toast';
import { useShares } from '../api/robots-get-shares';
import { useShareLicense } from '../api/robots-share';
import { useStopSharing } from '../api/robots-stop-share';
import {
  latestUntilValue,
  localDateValue,
  SHARE_PERIODS,
  type SharePeriod,
  shareDurationS,
  sharesOfLicense,
} from '../robots-share-period';

export const SHARE_TEXT = {
  title: 'Share',
  description:
    'Let a colleague see this robot on their dashboard for a while. They cannot change it, and you can stop sharing at any time.',
  hint: 'We email them. Someone without an account is invited to sign up with this address, and sees the robot once they have.',
  notPaired: 'Pair this robot to share it.',
  listTitle: 'Shared with',
  none: 'This robot is not shared with anyone.',
  loading: 'Loading shares...',
  shared: (email: string) => `Robot shared with ${email}`,
  shareFailed: 'Failed to share robot',
  stopped: (email: string) => `Stopped sharing with ${email}`,
  stopFailed: 'Failed to stop sharing',
  stopTitle: (email: string) => `Stop sharing with ${email}?`,
  stopBody: 'They lose access to this robot straight away. You can share it with them again later.',
} as const;

const FALLBACK_ERROR = 'An unexpected error occurred. Please try again.';
const messageOf = (err: unknown) => (err instanceof Error && err.message ? err.message : FALLBACK_ERROR);

function StopSharingButton({ entry, licenseId, email }: { entry: SharedRobotEntry; licenseId: string; email: string }) {
  const stop = useStopSharing(email);
  const recipient = entry.sharee_email;

  const confirm = () =>
    stop.mutateAsync({ licenseId, recipientEmail: recipient }).then(
      () => {
        toast.success(SHARE_TEXT.stopped(recipient));
      },
      (err: unknown) => {
        toast.error(SHARE_TEXT.stopFailed, { description: messageOf(err), duration: ERROR_TOAST_MS });
      },
    );

  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline" size="sm" className="w-fit" aria-label={`Stop sharing with ${recipient}`}>
          <UserXIcon aria-hidden />
          Stop sharing
        </Button>
      }
      title={SHARE_TEXT.stopTitle(recipient)}
      titleClassName="break-all"
      description={SHARE_TEXT.stopBody}
      confirmLabel="Stop sharing"
      pendingLabel="Stopping..."
      onConfirm={confirm}
    />
  );
}

function ShareList({ email, licenseId }: { email: string; licenseId: string }) {
  const shares = useShares(email);
  let body: React.ReactNode;
  if (shares.data) {
    const mine = sharesOfLicense(shares.data, licenseId);
    body =
      mine.length === 0 ? (
        <p className="text-sm text-muted-foreground">{SHARE_TEXT.none}</p>
      ) : (
        <ul className="divide-y rounded-md border">
          {mine.map((entry) => (
            <li
              key={entry.sharee_email}
              className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between"
              data-testid="share-entry"
            >
              <div className="flex min-w-0 flex-col">
                <span className="text-sm font-medium break-all">{entry.sharee_email}</span>
                <span className="text-xs text-muted-foreground">
                  Until {formatDateTime(entry.license.robot_license.end_date)}
                </span>
              </div>
              <StopSharingButton entry={entry} licenseId={licenseId} email={email} />
            </li>
          ))}
        </ul>
      );
  } else if (shares.error) {
    body = (
      <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-destructive">
        {shares.error.message}
        <Button variant="outline" size="sm" onClick={() => void shares.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else {
    body = (
      <p role="status" className="text-sm text-muted-foreground">
        {SHARE_TEXT.loading}
      </p>
    );
  }
  return (
    <section aria-labelledby="share-list-title" className="flex flex-col gap-3">
      <h3 id="share-list-title" className="text-sm font-semibold">
        {SHARE_TEXT.listTitle}
      </h3>
      {body}
    </section>
  );
}

interface FieldErrors {
  recipient?: string;
  until?: string;
}

function ShareForm({ email, licenseId }: { email: string; licenseId: string }) {
  const share = useShareLicense(email);
  const [recipient, setRecipient] = React.useState('');
  const [period, setPeriod] = React.useState<SharePeriod>('7');
  const [until, setUntil] = React.useState('');
  const [errors, setErrors] = React.useState<FieldErrors>({});
  const today = localDateValue(Date.now());

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const next: FieldErrors = {};
    const address = normalisedEmail.safeParse(recipient);
    if (!address.success) next.recipient = address.error.issues[0]?.message ?? 'Invalid email address';
    const duration = shareDurationS(period, until, Date.now());
    if ('error' in duration) next.until = duration.error;
    setErrors(next);
    if (!address.success || 'error' in duration) return;
    share.mutate(
      { licenseId, recipientEmail: address.data, durationS: duration.durationS },
      {
        onSuccess: () => {
          toast.success(SHARE_TEXT.shared(address.data));
          setRecipient('');
        },
        onError: (err) => {
          const message = messageOf(err);
          if (isClientError(err) && err.fields.includes('recipient_email')) setErrors({ recipient: message });
          if (isClientError(err) && err.fields.includes('duration')) setErrors({ until: message });
          toast.error(SHARE_TEXT.shareFailed, { description: message, duration: ERROR_TOAST_MS });
        },
      },
    );
  };

  return (
    <form noValidate onSubmit={submit} className="grid gap-4" aria-label="Share this robot">
      <div className="grid items-start gap-4 md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <FormField id="share-recipient" label="Recipient email" error={errors.recipient}>
          <Input
            {...fieldProps('share-recipient', errors.recipient)}
            type="email"
            autoComplete="off"
            inputMode="email"
            placeholder="colleague@example.com"
            value={recipient}
            onChange={(e) => setRecipient(e.target.value)}
          />
        </FormField>
        <FormField id="share-period" label="Share for">
          <NativeSelect
            id="share-period"
            value={period}
            onChange={(e) => {
              setPeriod(e.target.value as SharePeriod);
              setErrors((prev) => ({ ...prev, until: undefined }));
            }}
          >
            {SHARE_PERIODS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </NativeSelect>
        </FormField>
      </div>
      {period === 'until' && (
        <FormField id="share-until" label="Last day of the share" error={errors.until} className="sm:max-w-xs">
          <Input
            {...fieldProps('share-until', errors.until)}
            type="date"
            min={today}
            max={latestUntilValue(Date.now())}
            value={until}
            onChange={(e) => setUntil(e.target.value)}
          />
        </FormField>
      )}
      <div className="flex flex-col-reverse items-stretch gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-xs text-muted-foreground">{SHARE_TEXT.hint}</p>
        <Button type="submit" className="shrink-0" disabled={share.isPending} aria-busy={share.isPending || undefined}>
          {share.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <Share2Icon aria-hidden />}
          {share.isPending ? 'Sharing...' : 'Share robot'}
        </Button>
      </div>
    </form>
  );
}

/**
 * The manage page's Share section (issue 12 item 5, docs/decisions/023): share the robot's license
 * with an address for a listed period or up to a chosen day, see the live shares and stop one.
 * A license that is not paired cannot be shared, but its shares can still be stopped.
 */
export function ShareCard({ email, licenseId, paired }: { email: string; licenseId: string; paired: boolean }) {
  return (
    <Card role="region" aria-labelledby="share-title">
      <CardHeader>
        <CardTitle id="share-title">{SHARE_TEXT.title}</CardTitle>
        <CardDescription>{SHARE_TEXT.description}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {paired ? (
          <ShareForm email={email} licenseId={licenseId} />
        ) : (
          <p className="text-sm text-muted-foreground">{SHARE_TEXT.notPaired}</p>
        )}
        <ShareList email={email} licenseId={licenseId} />
      </CardContent>
    </Card>
  );
}
