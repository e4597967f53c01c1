import { useDraggable, useDroppable } from '@dnd-kit/core';
import type { FlexibleLicenseCard } from '@portal/contract';
import { XIcon } from 'lucide-react';
import type * as React from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { SLOT_TEXT, type SlotDrag, slotPrompt } from '../flexible-licenses-slots';
import { FLEX_TEXT } from '../flexible-licenses-text';
import { type DragData, slotTargetId } from './flexible-licenses-dnd';
import { LicenseCardBody, licenseLabel } from './flexible-licenses-license-card';

/** Moves an element with the drag when no overlay is drawn (screens under 1024 px). */
export function dragStyle(
  transform: { x: number; y: number } | null,
  followsPointer: boolean,
): React.CSSProperties | undefined {
  if (!transform || !followsPointer) return undefined;
  return { transform: `translate3d(${transform.x}px, ${transform.y}px, 0)`, zIndex: 20, position: 'relative' };
}

export interface SlotItemProps {
  slotId: number;
  card: FlexibleLicenseCard | undefined;
  unsynced: boolean;
  removalPending: boolean;
  drag: SlotDrag;
  /** the saved license's state: its pairing code, or the robot it is paired with */
  license?: { pairCode: string; paired: boolean; robotName: string } | undefined;
  /** no overlay is drawn, so the card itself follows the drag */
  cardFollowsDrag: boolean;
  busy: boolean;
  onOpen: () => void;
  onRemove: () => void;
}

/** One slot of "Selected Robot Licenses": a drop target, holding a draggable card or a prompt. */
export function SlotItem({
  slotId,
  card,
  unsynced,
  removalPending,
  drag,
  license,
  cardFollowsDrag,
  busy,
  onOpen,
  onRemove,
}: SlotItemProps) {
  const { setNodeRef } = useDroppable({ id: slotTargetId(slotId) });
  const prompt = slotPrompt({ filled: Boolean(card), removalPending, drag });
  const dragging = drag !== 'none';
  return (
    <li
      ref={setNodeRef}
      data-testid="flex-slot"
      data-slot-id={slotId}
      data-drop={drag}
      className={cn(
        'relative flex flex-col gap-2 rounded-xl border bg-card p-3 transition-colors',
        !card && 'border-dashed',
        unsynced && 'border-amber-500/70',
        drag === 'over-valid' && 'border-primary bg-primary/5 ring-2 ring-primary/40',
        drag === 'over-invalid' && 'border-destructive bg-destructive/5 ring-2 ring-destructive/40',
      )}
    >
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-medium text-muted-foreground">{FLEX_TEXT.slot(slotId)}</h3>
        {unsynced && (
          <Badge variant="outline" className="border-amber-500/70 text-amber-700 dark:text-amber-300">
            {SLOT_TEXT.unsynced}
          </Badge>
        )}
      </div>
      {card ? (
        <>
          <SlotCard slotId={slotId} card={card} followsDrag={cardFollowsDrag} disabled={busy} onOpen={onOpen} />
          <Button
            type="button"
            variant="ghost"
            size="icon"
            className="absolute top-9 right-2 size-8"
            aria-label={`Remove ${licenseLabel(card)} license from ${FLEX_TEXT.slot(slotId)}`}
            disabled={busy}
            onClick={onRemove}
          >
            <XIcon aria-hidden />
          </Button>
          {!unsynced && license && (
            <p className="text-xs text-muted-foreground" data-testid="slot-license">
              {license.paired ? (
                FLEX_TEXT.paired(license.robotName)
              ) : license.pairCode ? (
                <>
                  {FLEX_TEXT.pairingCode}:{' '}
                  <span className="font-mono font-medium text-foreground">{license.pairCode}</span>
                </>
              ) : null}
            </p>
          )}
          <p className={cn('text-xs', dragging ? 'font-medium text-foreground' : 'text-muted-foreground')}>
            {prompt.text}
          </p>
        </>
      ) : (
        <button
          type="button"
          disabled={busy}
          onClick={onOpen}
          className={cn(
            'flex min-h-20 flex-col items-center justify-center gap-1 rounded-lg px-3 py-4 text-center text-sm transition-colors hover:bg-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:opacity-50',
            dragging ? 'font-medium' : 'text-muted-foreground',
          )}
        >
          <span>{prompt.text}</span>
          {prompt.detail && <span className="text-xs">{prompt.detail}</span>}
        </button>
      )}
    </li>
  );
}

function SlotCard({
  slotId,
  card,
  followsDrag,
  disabled,
  onOpen,
}: {
  slotId: number;
  card: FlexibleLicenseCard;
  followsDrag: boolean;
  disabled: boolean;
  onOpen: () => void;
}) {
  const data: DragData = { source: { from: 'slot', slot_id: slotId, robot_id: card.robot_id }, card };
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({
    id: `slot-card:${slotId}`,
    data,
    disabled,
  });
  return (
    // biome-ignore lint/a11y/useSemanticElements: a card with a list inside; a <button> may hold phrasing content only, and its own Space click would fight the keyboard sensor
    <div
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      role="button"
      tabIndex={disabled ? -1 : 0}
      aria-label={`${licenseLabel(card)} license in ${FLEX_TEXT.slot(slotId)}`}
      data-testid="slot-card"
      onClick={onOpen}
      onKeyDown={(event) => {
        // Enter opens the choice of replacing or removing; Space picks the card up (keyboard sensor).
        if (event.key === 'Enter' && !isDragging) {
          event.preventDefault();
          onOpen();
          return;
        }
        listeners?.onKeyDown?.(event);
      }}
      style={dragStyle(transform, followsDrag)}
      className={cn(
        'cursor-grab touch-manipulation rounded-lg border bg-background p-2 pr-10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
        isDragging && !followsDrag && 'opacity-40',
        isDragging && followsDrag && 'cursor-grabbing shadow-lg',
      )}
    >
      <LicenseCardBody card={card} compact />
    </div>
  );
}
