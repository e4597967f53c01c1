import {
  type Announcements,
  type CollisionDetection,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  MouseSensor,
  pointerWithin,
  TouchSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import type { FlexibleLicenseCard } from '@portal/contract';
import {
  type DragSource,
  type DropTarget,
  dropResult,
  nextKeyboardTarget,
  type SlotSelection,
} from '../flexible-licenses-slots';
import { FLEX_TEXT } from '../flexible-licenses-text';
import { licenseLabel } from './flexible-licenses-license-card';

/** Ids of the drop targets: `slot:N` and the available list. */
export const AVAILABLE_ID = 'available';
export const slotTargetId = (slotId: number) => `slot:${slotId}`;

/** What a draggable carries: where it comes from and the card it shows. */
export interface DragData {
  source: DragSource;
  card: FlexibleLicenseCard;
}

export function targetOf(id: UniqueIdentifier | undefined | null): DropTarget {
  if (id === undefined || id === null) return null;
  if (id === AVAILABLE_ID) return { to: 'available' };
  const match = /^slot:(\d+)$/.exec(String(id));
  return match ? { to: 'slot', slot_id: Number(match[1]) } : null;
}

const targetName = (target: DropTarget) =>
  !target ? 'no drop target' : target.to === 'available' ? FLEX_TEXT.available : FLEX_TEXT.slot(target.slot_id);

/**
 * The target under the pointer, for a mouse or a finger. The keyboard has no pointer: the target
 * under the moved card's centre counts (the arrow keys put that centre on a target's centre).
 */
export const collisionDetection: CollisionDetection = (args) => {
  if (args.pointerCoordinates) return pointerWithin(args);
  const r = args.collisionRect;
  return pointerWithin({ ...args, pointerCoordinates: { x: r.left + r.width / 2, y: r.top + r.height / 2 } });
};

/**
 * Arrow keys jump from target to target: down and right to the next slot (then the available
 * list), up and left back, wrapping around, so a keyboard user reaches every slot in a few presses.
 */
export function keyboardCoordinates(slotCount: number): KeyboardCoordinateGetter {
  const order = [...Array.from({ length: slotCount }, (_, i) => slotTargetId(i)), AVAILABLE_ID];
  return (event, { context }) => {
    const step =
      event.code === 'ArrowDown' || event.code === 'ArrowRight'
        ? 1
        : event.code === 'ArrowUp' || event.code === 'ArrowLeft'
          ? -1
          : 0;
    if (step === 0) return undefined;
    event.preventDefault();
    const current = context.over ? order.indexOf(String(context.over.id)) : -1;
    const next = order[nextKeyboardTarget(current, order.length, step)];
    const rect = next ? context.droppableRects.get(next) : undefined;
    const moving = context.collisionRect;
    if (!rect || !moving) return undefined;
    return {
      x: rect.left + rect.width / 2 - moving.width / 2,
      y: rect.top + rect.height / 2 - moving.height / 2,
    };
  };
}

/**
 * Mouse after a few pixels (so a click stays a click), touch after a short press (so a swipe still
 * scrolls), and the keyboard: Space picks up and drops, Escape cancels; Enter is left to the card's
 * own action.
 */
export function useBoardSensors(slotCount: number) {
  return useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 8 } }),
    useSensor(KeyboardSensor, {
      coordinateGetter: keyboardCoordinates(slotCount),
      keyboardCodes: { start: ['Space'], cancel: ['Escape'], end: ['Space', 'Enter'] },
    }),
  );
}

const dataOf = (active: { data: { current?: unknown } }) => active.data.current as DragData | undefined;

/** What a screen reader hears while a license is dragged. */
export function announcements(selection: () => SlotSelection): Announcements {
  const label = (active: { data: { current?: unknown } }) => {
    const card = dataOf(active)?.card;
    return card ? `${licenseLabel(card)} license` : 'License';
  };
  return {
    onDragStart: ({ active }) => `Picked up ${label(active)}.`,
    onDragOver: ({ active, over }) => {
      const target = targetOf(over?.id);
      const source = dataOf(active)?.source;
      // Still where it was picked up: nothing new to say (and "Picked up" stays to be heard).
      const home =
        (source?.from === 'available' && target?.to === 'available') ||
        (source?.from === 'slot' && target?.to === 'slot' && target.slot_id === source.slot_id);
      if (home) return undefined;
      return target ? `${label(active)} is over ${targetName(target)}.` : `${label(active)} is over no drop target.`;
    },
    onDragEnd: ({ active, over }) => {
      const data = dataOf(active);
      const target = targetOf(over?.id);
      if (!data) return undefined;
      const { kind } = dropResult(selection(), data.source, target);
      const from = data.source.from === 'slot' ? FLEX_TEXT.slot(data.source.slot_id) : '';
      switch (kind) {
        case 'place':
          return `${label(active)} placed in ${targetName(target)}.`;
        case 'move':
          return `${label(active)} moved from ${from} to ${targetName(target)}.`;
        case 'remove':
          return `${label(active)} removed from ${from}.`;
        case 'invalid':
          return `Invalid drop target: ${targetName(target)} already holds the ${label(active)}.`;
        default:
          return `${label(active)} dropped. Nothing changed.`;
      }
    },
    onDragCancel: ({ active }) => `Dragging the ${label(active)} was cancelled.`,
  };
}
