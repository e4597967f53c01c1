import { displayModel, type Robot, type RobotLicense, remainingDaysUntil } from '@portal/contract';
import { Link } from '@tanstack/react-router';
import { ArrowLeftIcon, KeyRoundIcon, RefreshCwIcon, UnlinkIcon } from 'lucide-react';
import * as React from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { RobotArtwork } from '@/components/robot-artwork';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { LOADER_DELAY_MS } from '@/config/constants';
import { env } from '@/config/env';
import { useDelayedFlag } from '@/hooks/use-delayed-flag';
import { formatDateGB } from '@/lib/dates';
import { useLicenses } from '@/lib/robot-licenses';
import { robotImage } from '@/lib/robot-models';
import { useRobots } from '@/lib/robots';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import { useRegeneratePairCode } from '../api/robots-regenerate-pair-code';
import { useUnpair } from '../api/robots-unpair';
import { useLiveRobotEvents } from '../hooks/robots-use-live-events';
import { findManagedRobot, licensesWithRobot, licenseUseOf, robotStatusLabel } from '../robots-cards';
import { PAIRING_CODE_LABEL } from './robots-card';
import { RobotsErrorState } from './robots-error-state';
import { LastSeen, LiveIndicator, UnusedNotice } from './robots-last-seen';
import { ShareCard } from './robots-share-card';
import { RobotStatus } from './robots-status';

export const MANAGE_TEXT = {
  back: 'Back to Robot Manager',
  notFoundTitle: 'Robot not found',
  notFound: 'None of your robots has this ID. It may have been unpaired, or it belongs to another account.',
  sharedTitle: 'This robot is shared with you',
  shared: 'Only its owner can manage it. You can see it under Shared Robots on your dashboard.',
  unpairTitle: 'Unpair this robot?',
  unpairBody:
    'The robot loses this license and can no longer be used with it until it is paired again. The license gets a new pairing code, which you can enter in the Hub to pair this or another robot.',
  unpaired: 'Robot unpaired',
  regenerated: 'New pairing code created',
} as const;

function Field({ label, children, className }: { label: string; children: React.ReactNode; className?: string }) {
  return (
    <div className={cn('flex flex-col gap-0.5', className)}>
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

function BackLink() {
  return (
    <Button asChild variant="outline" className="w-fit">
      <Link to="/dashboard">
        <ArrowLeftIcon />
        {MANAGE_TEXT.back}
      </Link>
    </Button>
  );
}

function Notice({ title, body }: { title: string; body: string }) {
  return (
    <Card className="max-w-xl">
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{body}</CardDescription>
      </CardHeader>
      <CardContent>
        <BackLink />
      </CardContent>
    </Card>
  );
}

function RobotDetails({ robot, license }: { robot: Robot | undefined; license: RobotLicense }) {
  const rawModel = robot?.model || license.robot_model;
  const shown = displayModel(rawModel);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Robot</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 sm:flex-row">
        <RobotArtwork
          src={robotImage(rawModel)}
          alt={`${shown.model || 'Robot'} illustration`}
          size={120}
          className="size-28 shrink-0"
        />
        <dl className="grid min-w-0 flex-1 grid-cols-1 gap-3 sm:grid-cols-2">
          <Field label="Name">{robot?.name || '-'}</Field>
          <Field label="Make">{robot?.make || license.robot_make || '-'}</Field>
          <Field label="Model">
            <span className="inline-flex items-center gap-2">
              {shown.model || '-'}
              {shown.version && <Badge variant="secondary">{shown.version}</Badge>}
            </span>
          </Field>
          <Field label="Joined">{robot?.join_date ? formatDateGB(robot.join_date) : '-'}</Field>
          <Field label="Hardware hash" className="sm:col-span-2">
            <span className="font-mono text-xs break-all">{robot?.hardware_hash || '-'}</span>
          </Field>
          <Field label="Robot ID" className="sm:col-span-2">
            <span className="font-mono text-xs break-all">{license.robot_id || robot?.robot_id || '-'}</span>
          </Field>
        </dl>
      </CardContent>
    </Card>
  );
}

function LicenseDetails({ license }: { license: RobotLicense }) {
  const l = license.robot_license;
  const days = remainingDaysUntil(l.end_date, Date.now());
  return (
    <Card>
      <CardHeader>
        <CardTitle>License</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <Field label="License ID" className="sm:col-span-2">
            <span className="font-mono text-xs break-all">{l.license_id}</span>
          </Field>
          <Field label="Start date">{l.start_date ? formatDateGB(l.start_date) : '-'}</Field>
          <Field label="End date">{l.end_date ? formatDateGB(l.end_date) : '-'}</Field>
          <Field label="Remaining">
            {days} {days === 1 ? 'day' : 'days'}
          </Field>
          <Field label="Type">{license.isFlexible ? 'Flexible license' : 'Robot license'}</Field>
        </dl>
      </CardContent>
    </Card>
  );
}

function UnpairButton({ onConfirm }: { onConfirm: () => Promise<unknown> }) {
  return (
    <ConfirmDialog
      trigger={
        <Button variant="destructive" className="w-fit">
          <UnlinkIcon />
          Unpair robot
        </Button>
      }
      title={MANAGE_TEXT.unpairTitle}
      description={MANAGE_TEXT.unpairBody}
      confirmLabel="Unpair robot"
      pendingLabel="Unpairing..."
      onConfirm={onConfirm}
    />
  );
}

function PairingCard({
  license,
  robot,
  email,
  onReleased,
}: {
  license: RobotLicense;
  robot: Robot | undefined;
  email: string;
  onReleased: (license: RobotLicense) => void;
}) {
  const unpair = useUnpair(email);
  const regenerate = useRegeneratePairCode(email);
  const paired = license.robot_id !== '' && !license.pair_code;

  const doUnpair = () =>
    unpair.mutateAsync(license.robot_license.license_id).then(
      (next) => {
        toast.success(MANAGE_TEXT.unpaired);
        onReleased(next ?? { ...license, robot_id: '', paired_status: false });
      },
      (err: Error) => {
        toast.error(err.message);
      },
    );

  const doRegenerate = () =>
    regenerate.mutateAsync(license.robot_license.license_id).then(
      (next) => {
        toast.success(MANAGE_TEXT.regenerated);
        if (next) onReleased(next);
      },
      (err: Error) => {
        toast.error(err.message);
      },
    );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Status and pairing</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Field label="Availability">
            {paired ? <RobotStatus status={robotStatusLabel(robot?.robot_state.available)} /> : '-'}
          </Field>
          <Field label="Pairing">
            <Badge variant={paired ? 'success' : 'outline'}>{paired ? 'Paired' : 'Unpaired'}</Badge>
          </Field>
          <Field label="Last seen">
            <LastSeen ms={robot?.last_seen ?? 0} bare className="text-sm text-foreground" />
          </Field>
          {!paired && license.pair_code && (
            <Field label={PAIRING_CODE_LABEL} className="sm:col-span-2">
              <span
                className="inline-flex items-center gap-2 font-mono text-xl font-semibold tracking-widest"
                data-testid="pair-code"
              >
                <KeyRoundIcon aria-hidden className="size-4 text-muted-foreground" />
                {license.pair_code}
              </span>
              <span className="mt-1 block text-xs text-muted-foreground">
                Enter this code in the Hub on the robot's computer to pair it with this license.
              </span>
            </Field>
          )}
        </dl>
        <UnusedNotice use={licenseUseOf(license, robot, Date.now())} className="mt-4" />
        <div className="mt-4 flex flex-wrap gap-2">
          {paired ? (
            <UnpairButton onConfirm={doUnpair} />
          ) : (
            <Button variant="outline" onClick={() => void doRegenerate()} disabled={regenerate.isPending}>
              <RefreshCwIcon className={cn(regenerate.isPending && 'animate-spin')} />
              {regenerate.isPending ? 'Regenerating...' : 'Regenerate pairing code'}
            </Button>
          )}
        </div>
      </CardContent>
    </Card>
  );
}

function greetingName(name: string | undefined): string {
  return name?.trim().split(/\s+/)[0] || 'there';
}

/**
 * /dashboard/robot/manager/{robotID}: a robot of the user's own licenses with its details, license,
 * availability and pairing; the owner can unpair it, then regenerate the license's new code, and
 * share it with colleagues (robots-share-card.tsx).
 */
export function RobotManageScreen({ email, userName, robotId }: { email: string; userName?: string; robotId: string }) {
  // The live stream keeps the page fresh; the spec's polling only while it is down (docs/decisions/031).
  const live = useLiveRobotEvents(email);
  const poll = live !== 'open' && env.robotsPolling;
  const licenses = useLicenses(email, { poll });
  const refs = React.useMemo(
    () => (licenses.data ? licensesWithRobot(licenses.data.robot_licenses) : undefined),
    [licenses.data],
  );
  const robots = useRobots(email, 'paired', refs, { poll });
  // After an unpair the license no longer points at this robot; the page keeps showing it, unpaired.
  const [released, setReleased] = React.useState<{ license: RobotLicense; robot: Robot | undefined }>();
  const pending = licenses.isPending || robots.isPending;
  const showLoader = useDelayedFlag(pending && !released, LOADER_DELAY_MS);

  const found = licenses.data && robots.data ? findManagedRobot(licenses.data, robots.data, robotId) : undefined;
  const current = released ?? (found?.kind === 'own' ? { license: found.license, robot: found.robot } : undefined);
  const title = current
    ? current.robot?.name || displayModel(current.robot?.model || current.license.robot_model).model
    : 'Manage robot';

  let body: React.ReactNode;
  if (current) {
    body = (
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
        <RobotDetails robot={current.robot} license={current.license} />
        <div className="flex flex-col gap-4">
          <PairingCard
            license={current.license}
            robot={current.robot}
            email={email}
            onReleased={(license) => setReleased({ license, robot: current.robot })}
          />
          <LicenseDetails license={current.license} />
        </div>
        <div className="xl:col-span-2">
          <ShareCard
            email={email}
            licenseId={current.license.robot_license.license_id}
            paired={current.license.robot_id !== '' && !current.license.pair_code}
          />
        </div>
      </div>
    );
  } else if (found?.kind === 'shared') {
    body = <Notice title={MANAGE_TEXT.sharedTitle} body={MANAGE_TEXT.shared} />;
  } else if (found?.kind === 'missing') {
    body = <Notice title={MANAGE_TEXT.notFoundTitle} body={MANAGE_TEXT.notFound} />;
  } else if (licenses.error || robots.error) {
    const retry = () => {
      void licenses.refetch();
      if (robots.isError) void robots.refetch();
    };
    body = <RobotsErrorState error={(licenses.error ?? robots.error) as Error} retry={retry} />;
  } else {
    body = (
      <div role="status" aria-live="polite" className="flex min-h-40 items-center justify-center text-muted-foreground">
        {showLoader && 'Loading robot...'}
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-1">
        <p className="text-muted-foreground">Hello {greetingName(userName)}, here is everything about this robot.</p>
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-2xl font-semibold tracking-tight break-words">{title}</h1>
          <LiveIndicator state={live} />
        </div>
      </div>
      {body}
      {current && <BackLink />}
    </div>
  );
}
