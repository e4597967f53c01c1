import type { ReleasePlatform, ReleaseView } from '@portal/contract';
import * as React from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { FormField, fieldProps } from '@/components/ui/form-field';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Textarea } from '@/components/ui/textarea';
import { ERROR_TOAST_MS } from '@/config/constants';
import { serverFieldError } from '@/lib/server-field-error';
import { toast } from '@/lib/toast';
import { formatInstant } from '../admin-text';
import { useReleases, useSetWithdrawnMutation } from '../api/admin-releases';
import { AdminLoadError, AdminLoadingRows } from './admin-load-error';
import { platformKey, platformLabel } from './admin-release-platforms';
import { AdminReleaseUpload } from './admin-release-upload';
import { AdminTableRegion } from './admin-table-region';

/** A size as people read it: 88 bytes, 12.4 MB (KB = 1,000 bytes, as the bundle budgets count). */
export function formatBytes(bytes: number): string {
  if (bytes < 1_000) return `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1_000;
  let unit = 0;
  while (value >= 1_000 && unit < units.length - 1) {
    value /= 1_000;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** The reason a withdrawal or restoration asks for, as the server checks it (trimmed, 1 to 500 characters). */
function reasonError(reason: string): string | undefined {
  const length = reason.trim().length;
  if (!length) return 'Reason is required';
  if (length > 500) return 'Reason must be at most 500 characters';
  return undefined;
}

/** Withdraw or restore one build, through the confirm dialog, with the reason kept in the audit entry. */
function WithdrawOrRestore({ build, label }: { build: ReleaseView; label: string }) {
  const setWithdrawn = useSetWithdrawnMutation();
  const withdraw = !build.withdrawn_at;
  const id = `release-reason-${build.artifact_id}`;
  const [reason, setReason] = React.useState('');
  const [error, setError] = React.useState<string>();

  async function confirm() {
    const found = reasonError(reason);
    setError(found);
    if (found) return false;
    try {
      await setWithdrawn.mutateAsync({ artifactId: build.artifact_id, withdraw, reason: reason.trim() });
      toast.success(withdraw ? 'Build withdrawn' : 'Build restored', {
        description: withdraw
          ? `${build.version} for ${label} is no longer offered.`
          : `${build.version} for ${label} is offered again when it is the highest version.`,
      });
      setReason('');
    } catch (err) {
      const onReason = serverFieldError(err, 'reason');
      setError(onReason);
      if (!onReason)
        toast.error(withdraw ? 'Build not withdrawn' : 'Build not restored', {
          description: err instanceof Error ? err.message : 'Please try again.',
          duration: ERROR_TOAST_MS,
        });
      return false;
    }
  }

  return (
    <ConfirmDialog
      trigger={
        <Button
          variant="outline"
          size="sm"
          aria-label={`${withdraw ? 'Withdraw' : 'Restore'} ${label} ${build.version}`}
        >
          {withdraw ? 'Withdraw' : 'Restore'}
        </Button>
      }
      onOpenChange={(open) => {
        if (!open) setError(undefined);
      }}
      title={withdraw ? 'Withdraw this build?' : 'Restore this build?'}
      description={
        withdraw
          ? `${build.version} for ${label} stops being offered: Downloads offers the next highest version, and download links already handed out stop working. The file is kept, so it can be restored.`
          : `${build.version} for ${label} can be offered again: customers get it when it is the highest version of its platform that is not withdrawn.`
      }
      confirmLabel={withdraw ? 'Withdraw build' : 'Restore build'}
      variant={withdraw ? 'destructive' : 'default'}
      onConfirm={confirm}
    >
      <FormField id={id} label="Reason" error={error} hint="Kept in the audit trail (at most 500 characters).">
        <Textarea
          {...fieldProps(id, error)}
          aria-describedby={error ? `${id}-error` : `${id}-hint`}
          rows={3}
          value={reason}
          onChange={(e) => {
            setReason(e.target.value);
            setError(undefined);
          }}
        />
      </FormField>
    </ConfirmDialog>
  );
}

function BuildStatus({ build }: { build: ReleaseView }) {
  if (build.withdrawn_at)
    return (
      <div className="grid gap-1">
        <Badge variant="outline" className="w-fit border-destructive/60 text-destructive">
          Withdrawn {formatInstant(build.withdrawn_at)}
        </Badge>
        <span className="text-xs text-muted-foreground">Reason: {build.withdrawn_reason || '—'}</span>
      </div>
    );
  if (build.offered) return <Badge>Offered</Badge>;
  return <Badge variant="secondary">Not offered</Badge>;
}

function PlatformReleases({ platform, canManage }: { platform: ReleasePlatform; canManage: boolean }) {
  const label = platformLabel(platform);
  const titleId = `releases-${platformKey(platform).replace('/', '-')}`;
  const offered = platform.builds.find((b) => b.artifact_id === platform.offered_artifact_id);
  return (
    <section
      aria-labelledby={titleId}
      className="grid min-w-0 grid-cols-1 gap-2"
      data-testid={`releases-${platformKey(platform)}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 id={titleId} className="text-lg font-semibold">
          {label}
        </h2>
        <p className="text-sm text-muted-foreground" data-testid="release-offered">
          {offered ? `Customers are offered ${offered.version}` : 'Customers are offered no build for this platform'}
        </p>
      </div>
      {platform.builds.length ? (
        <AdminTableRegion label={`${label} builds`}>
          <TableHeader>
            <TableRow>
              <TableHead>Version</TableHead>
              <TableHead>File</TableHead>
              <TableHead>Size</TableHead>
              <TableHead>Uploaded</TableHead>
              <TableHead>Status</TableHead>
              {canManage && (
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              )}
            </TableRow>
          </TableHeader>
          <TableBody>
            {platform.builds.map((build) => (
              <TableRow key={build.artifact_id}>
                <TableCell className="font-medium tabular-nums">{build.version}</TableCell>
                <TableCell>
                  <span className="block">{build.file_name}</span>
                  <span className="block font-mono text-xs text-muted-foreground" title={build.checksum}>
                    <span className="sr-only">SHA-256 </span>
                    {build.checksum.slice(0, 12)}…
                  </span>
                </TableCell>
                <TableCell className="tabular-nums">{formatBytes(build.size_bytes)}</TableCell>
                <TableCell>{formatInstant(build.uploaded_at)}</TableCell>
                <TableCell className="whitespace-normal">
                  <BuildStatus build={build} />
                </TableCell>
                {canManage && (
                  <TableCell>
                    <WithdrawOrRestore build={build} label={label} />
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </AdminTableRegion>
      ) : (
        <p className="text-sm text-muted-foreground">No build has been uploaded for this platform.</p>
      )}
    </section>
  );
}

/**
 * Releases: per platform every build of the hub, newest version first, the one customers are
 * offered and the withdrawn ones with their reason. A role that may manage releases uploads,
 * withdraws and restores; the others read.
 */
export function AdminReleasesScreen({ canManage }: { canManage: boolean }) {
  const releases = useReleases();
  return (
    <>
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Releases</h1>
        <p className="text-muted-foreground">The hub builds per platform, and the one the Downloads page offers.</p>
      </div>
      {canManage && <AdminReleaseUpload />}
      {releases.data ? (
        releases.data.map((platform) => (
          <PlatformReleases key={platformKey(platform)} platform={platform} canManage={canManage} />
        ))
      ) : releases.isError ? (
        <AdminLoadError
          title="The releases could not be loaded"
          error={releases.error}
          onRetry={() => void releases.refetch()}
        />
      ) : (
        <AdminLoadingRows label="Loading the releases" />
      )}
    </>
  );
}
