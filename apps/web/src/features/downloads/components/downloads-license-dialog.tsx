import { LICENSE_AGREEMENT_VERSION } from '@portal/contract';
import { DownloadIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { DOWNLOAD_TOAST_MS } from '@/config/constants';
import { toast } from '@/lib/toast';
import { downloadFailureToast, useDownloadLink } from '../api/downloads-get-download';
import type { Offer } from '../downloads-options';
import { DownloadsLicenseText } from './downloads-license-text';

export const DOWNLOAD_NOW = 'Download Now';
export const DOWNLOAD_STARTED = 'Your download has started';

/** Starts the browser's download of a link without leaving the page. */
function startDownload(link: string) {
  const a = document.createElement('a');
  a.href = link;
  a.download = '';
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}

/**
 * The license dialog of spec/001 §2: "Download Now" stays disabled until the agreement is ticked,
 * and the tick is forgotten whenever the dialog closes.
 */
export function DownloadsLicenseDialog({
  offer,
  platformLabel,
  quickstartUrl,
}: {
  offer: Offer;
  platformLabel: string;
  quickstartUrl: string;
}) {
  const [open, setOpen] = React.useState(false);
  const [accepted, setAccepted] = React.useState(false);
  const download = useDownloadLink();
  const checkboxId = React.useId();

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) setAccepted(false);
  };

  const onDownload = async () => {
    if (!accepted) return;
    try {
      const link = await download.mutateAsync({
        asset: offer.asset,
        artifact: offer.artifact,
        agreementVersion: LICENSE_AGREEMENT_VERSION,
      });
      startDownload(link);
      onOpenChange(false);
      toast.success(DOWNLOAD_STARTED, {
        duration: DOWNLOAD_TOAST_MS,
        description: (
          <span>
            While it downloads, the{' '}
            <a href={quickstartUrl} target="_blank" rel="noreferrer" className="font-medium underline">
              quickstart guide
            </a>{' '}
            shows how to install the Hub and pair your first robot.
          </span>
        ),
      });
    } catch (err) {
      toast.error(downloadFailureToast(err));
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <Button size="lg" className="w-full sm:w-fit" onClick={() => setOpen(true)}>
        <DownloadIcon />
        Download for {platformLabel}
      </Button>
      <DialogContent className="flex max-h-[90dvh] max-w-2xl flex-col">
        <DialogHeader>
          <DialogTitle>License agreement</DialogTitle>
          <DialogDescription>Please read and accept the license agreement to download the Hub.</DialogDescription>
        </DialogHeader>
        <section
          aria-label="License text"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the text scrolls, so keyboard users must be able to focus it
          tabIndex={0}
          className="min-h-0 flex-1 overflow-y-auto rounded-md border bg-muted/40 p-4 sm:max-h-[50dvh]"
        >
          <DownloadsLicenseText />
        </section>
        <div className="flex items-start gap-3">
          <Checkbox
            id={checkboxId}
            checked={accepted}
            onCheckedChange={(value) => setAccepted(value === true)}
            className="mt-0.5"
          />
          <Label htmlFor={checkboxId} className="leading-snug font-normal">
            I have read and agree to the terms of this license agreement
          </Label>
        </div>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button disabled={!accepted || download.isPending} onClick={() => void onDownload()}>
            <DownloadIcon />
            {download.isPending ? 'Preparing download...' : DOWNLOAD_NOW}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
