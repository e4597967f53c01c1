import { useDraggable, useDroppable } from '@dnd-kit/core';
import type { FlexibleLicenseCard } from '@portal/contract';
import { ArrowDownAZIcon, ArrowUpZAIcon } from 'lucide-react';
import * as React from 'react';
import { SearchField } from '@/components/form/search-field';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import type { SortDirection } from '../flexible-licenses-cards';
import { SLOT_TEXT } from '../flexible-licenses-slots';
import { FLEX_TEXT } from '../flexible-licenses-text';
import { AVAILABLE_ID, type DragData } from './flexible-licenses-dnd';
import { LicenseCardBody, licenseLabel } from './flexible-licenses-license-card';
import { dragStyle } from './flexible-licenses-slot';

export interface AvailableListProps {
  cards: readonly FlexibleLicenseCard[];
  search: string;
  onSearchChange: (search: string) => void;
  sort: SortDirection;
  onToggleSort: () => void;
  /** a slot's card is being dragged: the list becomes the place to drop it to remove it */
  removing: boolean;
  cardFollowsDrag: boolean;
  busy: boolean;
}

/** "Available Robot Licenses": search, the sort toggle, and the cards to drag into a slot. */
export function AvailableList({
  cards,
  search,
  onSearchChange,
  sort,
  onToggleSort,
  removing,
  cardFollowsDrag,
  busy,
}: AvailableListProps) {
  const headingId = React.useId();
  const { setNodeRef, isOver } = useDroppable({ id: AVAILABLE_ID });
  return (
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-3">
      <h2 id={headingId} className="text-lg font-semibold">
        {FLEX_TEXT.available}
      </h2>
      <div className="flex items-center gap-2">
        <SearchField
          label={FLEX_TEXT.searchLabel}
          placeholder={FLEX_TEXT.searchPlaceholder}
          value={search}
          onChange={(e) => onSearchChange(e.target.value)}
          className="min-w-0 flex-1"
        />
        <Button
          type="button"
          variant="outline"
          onClick={onToggleSort}
          aria-label={sort === 'asc' ? 'Sorted A to Z; sort Z to A' : 'Sorted Z to A; sort A to Z'}
        >
          {sort === 'asc' ? <ArrowDownAZIcon aria-hidden /> : <ArrowUpZAIcon aria-hidden />}
          {sort === 'asc' ? 'A-Z' : 'Z-A'}
        </Button>
      </div>
      <div
        ref={setNodeRef}
        data-testid="available-licenses"
        data-removing={removing}
        className={cn(
          'relative min-h-40 rounded-xl transition-colors',
          removing && 'outline-2 outline-offset-4 outline-dashed outline-destructive/60',
          removing && isOver && 'bg-destructive/5',
        )}
      >
        {removing && (
          <div
            data-testid="remove-drop-zone"
            className="pointer-events-none absolute inset-0 z-10 flex items-center justify-center rounded-xl bg-background/85 text-center text-sm font-medium"
          >
            {isOver ? SLOT_TEXT.releaseToRemove : SLOT_TEXT.releaseHereToRemove}
          </div>
        )}
        {cards.length === 0 ? (
          <p className="py-8 text-center text-sm text-muted-foreground">{FLEX_TEXT.noMatches}</p>
        ) : (
          <ul className="grid grid-cols-1 gap-3 xl:grid-cols-2" aria-label={FLEX_TEXT.available}>
            {cards.map((card) => (
              <AvailableCard key={card.id} card={card} followsDrag={cardFollowsDrag} disabled={busy} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function AvailableCard({
  card,
  followsDrag,
  disabled,
}: {
  card: FlexibleLicenseCard;
  followsDrag: boolean;
  disabled: boolean;
}) {
  const data: DragData = { source: { from: 'available', robot_id: card.robot_id }, card };
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({
    id: `available:${card.id}`,
    data,
    disabled,
  });
  return (
    <li>
      {/* biome-ignore lint/a11y/useSemanticElements: a card with a list inside; a <button> may hold phrasing content only, and its own Space click would fight the keyboard sensor */}
      <div
        ref={setNodeRef}
        {...attributes}
        {...listeners}
        role="button"
        tabIndex={disabled ? -1 : 0}
        aria-label={`${licenseLabel(card)} license by ${card.manufacturer}`}
        data-testid="available-card"
        style={dragStyle(transform, followsDrag)}
        className={cn(
          'h-full cursor-grab touch-manipulation rounded-xl border bg-card p-3 text-card-foreground shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
          isDragging && !followsDrag && 'opacity-40',
          isDragging && followsDrag && 'cursor-grabbing shadow-lg',
        )}
      >
        <LicenseCardBody card={card} />
      </div>
    </li>
  );
}
