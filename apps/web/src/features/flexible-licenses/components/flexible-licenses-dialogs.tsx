import type { FlexibleLicenseCard } from '@portal/contract';
import * as React from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { SearchField } from '@/components/form/search-field';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { searchLicenseCards } from '../flexible-licenses-cards';
import { licenseCountText, SYNC_TEXT, type SyncSummary } from '../flexible-licenses-slots';
import { FLEX_TEXT } from '../flexible-licenses-text';
import { LicenseCardBody, licenseLabel } from './flexible-licenses-license-card';

/** "Select Robot License": pick the license for one slot, with its own search; a filled slot can be emptied. */
export function SelectLicenseDialog({
  slotId,
  current,
  cards,
  onSelect,
  onRemove,
  onClose,
}: {
  slotId: number | null;
  current: FlexibleLicenseCard | undefined;
  cards: readonly FlexibleLicenseCard[];
  onSelect: (card: FlexibleLicenseCard) => void;
  onRemove: () => void;
  onClose: () => void;
}) {
  const [search, setSearch] = React.useState('');
  const shown = searchLicenseCards(cards, search);
  const open = slotId !== null;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          setSearch('');
          onClose();
        }
      }}
    >
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{FLEX_TEXT.selectTitle}</DialogTitle>
          <DialogDescription>
            {slotId !== null &&
              (current
                ? `${FLEX_TEXT.slot(slotId)} holds the ${licenseLabel(current)} license. Choose another to replace it, or remove it.`
                : `Choose the robot license for ${FLEX_TEXT.slot(slotId)}.`)}
          </DialogDescription>
        </DialogHeader>
        <SearchField
          label={FLEX_TEXT.searchLabel}
          placeholder={FLEX_TEXT.searchPlaceholder}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        {shown.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground">{FLEX_TEXT.noMatches}</p>
        ) : (
          <ul className="grid max-h-[50dvh] gap-2 overflow-y-auto sm:grid-cols-2" aria-label="Robot licenses">
            {shown.map((card) => (
              <li key={card.id}>
                <button
                  type="button"
                  onClick={() => {
                    setSearch('');
                    onSelect(card);
                  }}
                  aria-current={current?.robot_id === card.robot_id ? 'true' : undefined}
                  className="h-full w-full rounded-lg border p-3 text-left transition-colors hover:bg-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring aria-[current=true]:border-primary"
                >
                  <LicenseCardBody card={card} compact />
                  <span className="sr-only">{`, ${card.description}`}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        {current && (
          <DialogFooter>
            <Button
              type="button"
              variant="outline"
              onClick={() => {
                setSearch('');
                onRemove();
              }}
            >
              {FLEX_TEXT.removeFromSlot}
            </Button>
          </DialogFooter>
        )}
      </DialogContent>
    </Dialog>
  );
}

/**
 * "Confirm Sync": how many licenses and what syncing does, in the spec's words; below them what this
 * sync changes and keeps, slot by slot (docs/decisions/061); and "Don't show this message again".
 */
export function ConfirmSyncDialog({
  open,
  count,
  summary,
  onConfirm,
  onClose,
}: {
  open: boolean;
  count: number;
  summary: SyncSummary;
  onConfirm: (dontShowAgain: boolean) => void;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={FLEX_TEXT.confirmSyncTitle}
      description={FLEX_TEXT.confirmSyncBody(licenseCountText(count))}
      offerDontShowAgain
      confirmLabel={FLEX_TEXT.confirmSync}
      variant="default"
      onConfirm={({ dontShowAgain }) => onConfirm(dontShowAgain)}
    >
      <SyncList heading={SYNC_TEXT.changesHeading} items={summary.changes} testId="sync-changes" />
      <SyncList heading={SYNC_TEXT.keptHeading} items={summary.kept} testId="sync-kept" />
    </ConfirmDialog>
  );
}

function SyncList({ heading, items, testId }: { heading: string; items: readonly string[]; testId: string }) {
  const id = React.useId();
  if (items.length === 0) return null;
  return (
    <section aria-labelledby={id} className="grid gap-1 text-sm" data-testid={testId}>
      <h3 id={id} className="font-medium">
        {heading}
      </h3>
      <ul className="list-disc space-y-0.5 pl-5 text-muted-foreground">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </section>
  );
}

/** "Confirm Clear All": what clearing removes. */
export function ConfirmClearDialog({
  open,
  onConfirm,
  onClose,
}: {
  open: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={FLEX_TEXT.confirmClearTitle}
      description={FLEX_TEXT.confirmClearBody}
      confirmLabel={FLEX_TEXT.clearAll}
      onConfirm={onConfirm}
    />
  );
}
