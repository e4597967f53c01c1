import type { ArtifactOS } from '@portal/contract';
import { BookOpenIcon, LaptopIcon, MonitorIcon, TerminalIcon, TriangleAlertIcon } from 'lucide-react';
import * as React from 'react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { formatDateGB } from '@/lib/dates';
import { cn } from '@/lib/utils';
import { useAssets } from '../api/downloads-get-assets';
import { type DownloadsView, downloadsView, type Offer, type OsCard, osChoice } from '../downloads-options';
import { type DetectedPlatform, type PlatformId, platformOption } from '../downloads-platform';
import { formatVersion } from '../downloads-versions';
import { useDetectedPlatform } from '../hooks/downloads-use-detected-platform';
import { DownloadsLicenseDialog } from './downloads-license-dialog';

export const DOWNLOADS_LOADING = 'Loading downloads...';

const OS_ICON: Record<ArtifactOS, React.ComponentType<{ className?: string }>> = {
  windows: MonitorIcon,
  mac: LaptopIcon,
  linux: TerminalIcon,
};

function describeDetected(d: DetectedPlatform): string {
  const os = d.os === 'other' ? 'an operating system we do not recognise' : d.os === 'Mac' ? 'macOS' : d.os;
  const bits = d.bitness === 64 ? '64-bit' : '32-bit (x86)';
  return `We detected ${os}, ${bits}${d.architecture ? `, ${d.architecture}` : ''}.`;
}

function Message({ children }: { children: React.ReactNode }) {
  return (
    <p role="status" className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
      {children}
    </p>
  );
}

function OsPicker({
  cards,
  value,
  onChange,
}: {
  cards: OsCard[];
  value: ArtifactOS;
  onChange: (os: ArtifactOS) => void;
}) {
  const labelId = React.useId();
  return (
    <div className="flex flex-col gap-3">
      <h2 id={labelId} className="text-lg font-semibold">
        Choose your operating system
      </h2>
      <RadioGroup
        aria-labelledby={labelId}
        value={value}
        onValueChange={(v) => onChange(v as ArtifactOS)}
        className="grid-cols-1 md:grid-cols-3"
      >
        {cards.map((card) => {
          const Icon = OS_ICON[card.os.id];
          const id = `os-${card.os.id}`;
          const selected = card.os.id === value;
          return (
            <label
              key={card.os.id}
              htmlFor={id}
              className={cn(
                'flex cursor-pointer flex-col gap-2 rounded-xl border-2 bg-card p-4 transition-colors hover:bg-accent/40',
                selected ? 'border-primary' : 'border-border',
              )}
              data-testid={`os-card-${card.os.id}`}
            >
              <span className="flex items-center gap-2">
                <RadioGroupItem value={card.os.id} id={id} />
                <Icon className="size-5 text-muted-foreground" aria-hidden />
                <span className="font-semibold">{card.os.name}</span>
                {card.badge && (
                  <Badge variant="secondary" className="ml-auto">
                    {card.badge}
                  </Badge>
                )}
              </span>
              <span className="text-sm text-muted-foreground">{card.os.description}</span>
              <span className="text-xs text-muted-foreground">
                SDK version <span className="font-mono text-foreground">{card.sdkVersion}</span>
              </span>
            </label>
          );
        })}
      </RadioGroup>
    </div>
  );
}

function PlatformPicker({
  offers,
  value,
  onChange,
}: {
  offers: Offer[];
  value: PlatformId;
  onChange: (p: PlatformId) => void;
}) {
  const labelId = React.useId();
  return (
    <div className="flex flex-col gap-2">
      <h3 id={labelId} className="text-sm font-medium">
        Package
      </h3>
      <RadioGroup
        aria-labelledby={labelId}
        value={value}
        onValueChange={(v) => onChange(v as PlatformId)}
        className="gap-2"
      >
        {offers.map((offer) => {
          const option = platformOption(offer.platform);
          const id = `platform-${offer.platform}`;
          return (
            <label key={offer.platform} htmlFor={id} className="flex cursor-pointer items-center gap-3 text-sm">
              <RadioGroupItem value={offer.platform} id={id} />
              <span>
                <span className="font-medium">{option.label}</span>
                <span className="text-muted-foreground"> - {option.description}</span>
              </span>
            </label>
          );
        })}
      </RadioGroup>
    </div>
  );
}

function DownloadPanel({
  card,
  detected,
  wanted,
  onWanted,
  quickstartUrl,
}: {
  card: OsCard;
  detected: DetectedPlatform;
  wanted: PlatformId | undefined;
  onWanted: (p: PlatformId) => void;
  quickstartUrl: string;
}) {
  const choice = osChoice(card, detected, wanted);
  if (choice.kind === 'message') return <Message>{choice.message}</Message>;
  const { selected } = choice;
  const option = platformOption(selected.platform);
  const file = selected.artifact.path.split('/').pop() ?? selected.artifact.path;
  return (
    <Card>
      <CardContent className="flex flex-col gap-4">
        {choice.offers.length > 1 && (
          <PlatformPicker offers={choice.offers} value={selected.platform} onChange={onWanted} />
        )}
        <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-xs font-medium text-muted-foreground">Platform</dt>
            <dd>
              {option.label} <span className="text-muted-foreground">({option.description})</span>
            </dd>
          </div>
          <div>
            <dt className="text-xs font-medium text-muted-foreground">Version</dt>
            <dd className="font-mono">{formatVersion(selected.artifact.version_info.sdk)}</dd>
          </div>
          <div>
            <dt className="text-xs font-medium text-muted-foreground">Released</dt>
            <dd>{selected.artifact.timestamp ? formatDateGB(selected.artifact.timestamp) : '-'}</dd>
          </div>
          <div className="sm:col-span-3">
            <dt className="text-xs font-medium text-muted-foreground">File</dt>
            <dd className="font-mono text-xs break-all">{file}</dd>
          </div>
          {selected.artifact.checksum && (
            <div className="sm:col-span-3">
              <dt className="text-xs font-medium text-muted-foreground">SHA-256 checksum</dt>
              <dd className="font-mono text-xs break-all" data-testid="artifact-checksum">
                {selected.artifact.checksum}
              </dd>
            </div>
          )}
        </dl>
        <DownloadsLicenseDialog offer={selected} platformLabel={option.label} quickstartUrl={quickstartUrl} />
      </CardContent>
    </Card>
  );
}

function ReadyDownloads({
  view,
  detected,
  quickstartUrl,
}: {
  view: Extract<DownloadsView, { kind: 'ready' }>;
  detected: DetectedPlatform;
  quickstartUrl: string;
}) {
  const [os, setOs] = React.useState<ArtifactOS>(view.defaultOs);
  const [wanted, setWanted] = React.useState<PlatformId | undefined>(view.defaultPlatform);
  const card = view.cards.find((c) => c.os.id === os) ?? view.cards[0];
  return (
    <>
      <OsPicker
        cards={view.cards}
        value={os}
        onChange={(next) => {
          setOs(next);
          setWanted(undefined);
        }}
      />
      {card && (
        <DownloadPanel
          card={card}
          detected={detected}
          wanted={wanted}
          onWanted={setWanted}
          quickstartUrl={quickstartUrl}
        />
      )}
    </>
  );
}

/** /dashboard/downloads (spec/001 §2 Downloads). */
export function DownloadsScreen({ quickstartUrl }: { quickstartUrl: string }) {
  const assets = useAssets();
  const detected = useDetectedPlatform();
  const view = React.useMemo(
    () => (assets.data ? downloadsView(assets.data, detected) : undefined),
    [assets.data, detected],
  );

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Downloads</h1>
      <Card>
        <CardHeader>
          <CardTitle>The Hub</CardTitle>
          <CardDescription>
            The Hub is the desktop application that connects your computer to your robots. It signs you in, registers
            and pairs your robots with their licenses, and lets you dial them from anywhere. Install it on the computer
            you use to work with your robots.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-muted-foreground">{describeDetected(detected)}</p>
          <Button asChild variant="outline" className="w-fit">
            <a href={quickstartUrl} target="_blank" rel="noreferrer">
              <BookOpenIcon />
              Quickstart guide
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </Button>
        </CardContent>
      </Card>

      {assets.isPending && <Message>{DOWNLOADS_LOADING}</Message>}
      {assets.error && !assets.data && (
        <Alert variant="destructive">
          <TriangleAlertIcon />
          <AlertTitle>{assets.error.message}</AlertTitle>
          <AlertDescription>
            <Button variant="outline" size="sm" onClick={() => void assets.refetch()} disabled={assets.isFetching}>
              Try Again
            </Button>
          </AlertDescription>
        </Alert>
      )}
      {view?.kind === 'message' && <Message>{view.message}</Message>}
      {view?.kind === 'ready' && (
        <ReadyDownloads
          key={`${view.defaultOs}:${view.defaultPlatform}`}
          view={view}
          detected={detected}
          quickstartUrl={quickstartUrl}
        />
      )}
    </div>
  );
}
