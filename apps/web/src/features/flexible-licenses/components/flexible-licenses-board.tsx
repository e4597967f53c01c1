import { DndContext, type DragEndEvent, type DragOverEvent, DragOverlay, type DragStartEvent } from '@dnd-kit/core';
import type { FlexibleLicenseCard, PaymentProduct, RobotLicense } from '@portal/contract';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { ERROR_TOAST_MS } from '@/config/constants';
import { readLocal, writeLocal } from '@/lib/safe-storage';
import { toast } from '@/lib/toast';
import type { FlexSlots } from '../api/flexible-licenses-get-slots';
import { useClearSlots, useUpdateSlots } from '../api/flexible-licenses-save-slots';
import {
  cardInSlot,
  flexCardsFromProducts,
  type SortDirection,
  searchLicenseCards,
  sortLicenseCards,
  toggleSortDirection,
} from '../flexible-licenses-cards';
import {
  clearAllDisabled,
  type DropTarget,
  dropResult,
  filledSlotCount,
  isRemovalPending,
  isSlotUnsynced,
  placeInSlot,
  removeFromSlot,
  type SlotEntry,
  selectionFromServer,
  slotDragState,
  slotsUsedText,
  syncSummary,
  updateDisabled,
  updateSlotsPayload,
} from '../flexible-licenses-slots';
import { FLEX_TEXT, SKIP_SYNC_CONFIRM_KEY } from '../flexible-licenses-text';
import { useLargeScreen } from '../hooks/flexible-licenses-use-large-screen';
import { AvailableList } from './flexible-licenses-available';
import { ConfirmClearDialog, ConfirmSyncDialog, SelectLicenseDialog } from './flexible-licenses-dialogs';
import { announcements, collisionDetection, type DragData, targetOf, useBoardSensors } from './flexible-licenses-dnd';
import { LicenseCardBody, licenseLabel } from './flexible-licenses-license-card';
import { SlotItem } from './flexible-licenses-slot';

export interface FlexBoardProps {
  email: string;
  userId: string;
  slots: FlexSlots;
  products: readonly PaymentProduct[];
  licenses: readonly RobotLicense[];
}

/**
 * The slots and the available licenses (spec/001 §2, §4, §5): a working selection edited by drag
 * and drop, the dialog or the remove buttons, against the saved one; Update and Clear All save it.
 */
export function FlexBoard({ email, userId, slots, products, licenses }: FlexBoardProps) {
  const saved = React.useMemo(
    () => selectionFromServer(slots.user_slots, slots.user_slot_amount),
    [slots.user_slots, slots.user_slot_amount],
  );
  // Edits live here until a save; null follows the saved selection (after a save, a refetch).
  const [edits, setEdits] = React.useState<SlotEntry[] | null>(null);
  const working = edits && edits.length === saved.length ? edits : saved;
  const workingRef = React.useRef(working);
  workingRef.current = working;

  const cards = React.useMemo(
    () => flexCardsFromProducts(products, slots.approved_robot_ids),
    [products, slots.approved_robot_ids],
  );
  const [search, setSearch] = React.useState('');
  const [sort, setSort] = React.useState<SortDirection>('asc');
  const shown = React.useMemo(() => sortLicenseCards(searchLicenseCards(cards, search), sort), [cards, search, sort]);

  const [dialogSlot, setDialogSlot] = React.useState<number | null>(null);
  const [confirm, setConfirm] = React.useState<'sync' | 'clear' | null>(null);
  const [dragging, setDragging] = React.useState<DragData | null>(null);
  const [over, setOver] = React.useState<DropTarget>(null);

  const update = useUpdateSlots(email, userId);
  const clear = useClearSlots(email, userId);
  const busy = update.isPending || clear.isPending;
  const large = useLargeScreen();
  const sensors = useBoardSensors(saved.length);
  const accessibility = React.useMemo(
    () => ({
      announcements: announcements(() => workingRef.current),
      screenReaderInstructions: { draggable: FLEX_TEXT.dragInstructions },
    }),
    [],
  );

  const licenseById = React.useMemo(() => new Map(licenses.map((l) => [l.robot_license.license_id, l])), [licenses]);
  const savedLicense = (slotId: number) => {
    const saved = slots.user_slots.find((s) => s.slot_id === slotId);
    const l = saved?.license_id ? licenseById.get(saved.license_id) : undefined;
    return l && { pairCode: l.pair_code, paired: isPaired(l), robotName: saved?.paired_robot_name ?? '' };
  };
  const summary = React.useMemo(
    () =>
      syncSummary({
        saved: slots.user_slots,
        working,
        model: (robotId) => {
          const card = cards.find((c) => c.robot_id === robotId);
          return card ? licenseLabel(card) : robotId;
        },
        paired: (licenseId) => {
          const l = licenseById.get(licenseId);
          return l ? isPaired(l) : false;
        },
      }),
    [slots.user_slots, working, cards, licenseById],
  );

  const edit = (next: SlotEntry[]) => setEdits(next);

  const sync = () =>
    update.mutate(updateSlotsPayload(working, Date.now()), {
      onSuccess: () => {
        setEdits(null);
        toast.success(FLEX_TEXT.updated);
      },
      onError: () =>
        toast.error(FLEX_TEXT.updateFailed, { description: FLEX_TEXT.updateFailedDetail, duration: ERROR_TOAST_MS }),
    });
  const requestSync = () => {
    if (readLocal(SKIP_SYNC_CONFIRM_KEY) === 'true') sync();
    else setConfirm('sync');
  };
  const clearAll = () =>
    clear.mutate(undefined, {
      onSuccess: () => {
        setEdits(null);
        toast.success(FLEX_TEXT.cleared);
      },
      onError: () =>
        toast.error(FLEX_TEXT.clearFailed, { description: FLEX_TEXT.clearFailedDetail, duration: ERROR_TOAST_MS }),
    });

  const onDragStart = (event: DragStartEvent) => setDragging((event.active.data.current as DragData) ?? null);
  const onDragOver = (event: DragOverEvent) => setOver(targetOf(event.over?.id));
  const endDrag = () => {
    setDragging(null);
    setOver(null);
  };
  const onDragEnd = (event: DragEndEvent) => {
    const data = event.active.data.current as DragData | undefined;
    endDrag();
    if (!data) return;
    const result = dropResult(working, data.source, targetOf(event.over?.id));
    if (result.kind === 'place' || result.kind === 'move' || result.kind === 'remove') edit(result.selection);
  };

  const dialogCard =
    dialogSlot === null ? undefined : cardInSlot(working[dialogSlot] ?? { slot_id: -1, robot_id: '' }, cards);

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collisionDetection}
      accessibility={accessibility}
      onDragStart={onDragStart}
      onDragOver={onDragOver}
      onDragEnd={onDragEnd}
      onDragCancel={endDrag}
    >
      <div className="grid grid-cols-1 gap-8 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <section aria-labelledby="flex-selected-heading" className="flex min-w-0 flex-col gap-3">
          <div className="flex flex-wrap gap-2">
            <Button
              type="button"
              disabled={updateDisabled(working, saved, update.isPending) || clear.isPending}
              onClick={requestSync}
            >
              {update.isPending ? FLEX_TEXT.updating : FLEX_TEXT.update}
            </Button>
            <Button
              type="button"
              variant="outline"
              disabled={clearAllDisabled(working, clear.isPending) || update.isPending}
              onClick={() => setConfirm('clear')}
            >
              {clear.isPending ? FLEX_TEXT.clearing : FLEX_TEXT.clearAll}
            </Button>
          </div>
          <div className="flex flex-wrap items-baseline justify-between gap-x-3">
            <h2 id="flex-selected-heading" className="text-lg font-semibold">
              {FLEX_TEXT.selected}
            </h2>
            <p className="text-sm text-muted-foreground" data-testid="slots-used">
              {slotsUsedText(working)}
            </p>
          </div>
          <ol className="flex flex-col gap-3" aria-labelledby="flex-selected-heading">
            {working.map((entry) => {
              const card = cardInSlot(entry, cards);
              const drag =
                dragging && over?.to === 'slot' && over.slot_id === entry.slot_id
                  ? slotDragState(working, dragging.source, entry.slot_id)
                  : 'none';
              return (
                <SlotItem
                  key={entry.slot_id}
                  slotId={entry.slot_id}
                  card={card}
                  unsynced={isSlotUnsynced(working, saved, entry.slot_id)}
                  removalPending={isRemovalPending(working, saved, entry.slot_id)}
                  drag={drag}
                  license={savedLicense(entry.slot_id)}
                  cardFollowsDrag={!large}
                  busy={busy}
                  onOpen={() => setDialogSlot(entry.slot_id)}
                  onRemove={() => edit(removeFromSlot(working, entry.slot_id))}
                />
              );
            })}
          </ol>
        </section>
        <AvailableList
          cards={shown}
          search={search}
          onSearchChange={setSearch}
          sort={sort}
          onToggleSort={() => setSort(toggleSortDirection)}
          removing={dragging?.source.from === 'slot'}
          cardFollowsDrag={!large}
          busy={busy}
        />
      </div>
      {large && <DragOverlay dropAnimation={null}>{dragging && <DragPreview card={dragging.card} />}</DragOverlay>}
      <SelectLicenseDialog
        slotId={dialogSlot}
        current={dialogCard}
        cards={cards}
        onSelect={(card) => {
          if (dialogSlot !== null) edit(placeInSlot(working, dialogSlot, card.robot_id));
          setDialogSlot(null);
        }}
        onRemove={() => {
          if (dialogSlot !== null) edit(removeFromSlot(working, dialogSlot));
          setDialogSlot(null);
        }}
        onClose={() => setDialogSlot(null)}
      />
      <ConfirmSyncDialog
        open={confirm === 'sync'}
        count={filledSlotCount(working)}
        summary={summary}
        onClose={() => setConfirm(null)}
        onConfirm={(dontShowAgain) => {
          if (dontShowAgain) writeLocal(SKIP_SYNC_CONFIRM_KEY, 'true');
          sync();
        }}
      />
      <ConfirmClearDialog open={confirm === 'clear'} onClose={() => setConfirm(null)} onConfirm={clearAll} />
    </DndContext>
  );
}

const isPaired = (l: RobotLicense) => l.paired_status || Boolean(l.robot_id);

/** The card under the pointer while dragging, on large screens. */
function DragPreview({ card }: { card: FlexibleLicenseCard }) {
  return (
    <div className="w-72 cursor-grabbing rounded-xl border bg-card p-3 shadow-xl" data-testid="drag-overlay">
      <LicenseCardBody card={card} compact />
    </div>
  );
}
