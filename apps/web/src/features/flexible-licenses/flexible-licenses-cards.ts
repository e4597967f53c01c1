import { type FlexibleLicenseCard, type PaymentProduct, ProductSorting } from '@portal/contract';
import { robotImage } from '@/lib/robot-models';
import type { SlotEntry } from './flexible-licenses-slots';

/** The license cards of Flexible License Management (spec/001 §2): built from the catalogue, searched and sorted. */

/** Every license card lists these first, whatever the product adds. */
const FIXED_LICENSE_FEATURES = ['Support', '1 Physical Robot License'] as const;

type CardLike = Pick<FlexibleLicenseCard, 'manufacturer' | 'modelName' | 'description' | 'robotType' | 'features'>;

/** Case-insensitive match on manufacturer, model name, description, any robot type or any feature. */
export function searchLicenseCards<C extends CardLike>(cards: readonly C[], query: string): C[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...cards];
  const has = (text: string) => text.toLowerCase().includes(q);
  return cards.filter(
    (c) =>
      has(c.manufacturer) || has(c.modelName) || has(c.description) || c.robotType.some(has) || c.features.some(has),
  );
}

export type SortDirection = 'asc' | 'desc';

export function toggleSortDirection(direction: SortDirection): SortDirection {
  return direction === 'asc' ? 'desc' : 'asc';
}

/** Sorted by manufacturer plus model name, ascending or descending; does not change its input. */
export function sortLicenseCards<C extends Pick<CardLike, 'manufacturer' | 'modelName'>>(
  cards: readonly C[],
  direction: SortDirection,
): C[] {
  const key = (c: C) => `${c.manufacturer} ${c.modelName}`;
  const sign = direction === 'asc' ? 1 : -1;
  return [...cards].sort((a, b) => sign * key(a).localeCompare(key(b), 'en', { sensitivity: 'base', numeric: true }));
}

const splitList = (text: string | undefined, separator: string) =>
  (text ?? '')
    .split(separator)
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * License cards from the catalogue's driver products whose robot id (BOW_UUID) is on the server's
 * approved list (GetSlots' approved_robot_ids, docs/decisions/022): the screen applies no model rule
 * of its own. The model is the product's `model` metadata ("Pepper driver" drives Pepper). Features
 * always start with "Support" and "1 Physical Robot License".
 */
export function flexCardsFromProducts(
  products: readonly PaymentProduct[],
  approvedRobotIds: readonly string[],
): FlexibleLicenseCard[] {
  const approved = new Set(approvedRobotIds.filter(Boolean));
  return products
    .filter((p) => p.metadata.BOW_SORTING === ProductSorting.Driver && approved.has(p.metadata.BOW_UUID?.trim() ?? ''))
    .map((p) => {
      const extras = splitList(p.metadata.features, ',');
      const model = p.metadata.model?.trim() || p.name.trim();
      return {
        id: p.id,
        robot_id: p.metadata.BOW_UUID?.trim() ?? '',
        manufacturer: p.metadata.manufacturer?.trim() ?? '',
        modelName: model,
        description: p.description,
        robotType: splitList(p.metadata.robotType, ','),
        features: [...new Set<string>([...FIXED_LICENSE_FEATURES, ...extras])],
        img: robotImage(model),
      };
    });
}

/** The card a slot shows, tagged with its slot; undefined for an empty slot or an unknown robot. */
export function cardInSlot(entry: SlotEntry, cards: readonly FlexibleLicenseCard[]): FlexibleLicenseCard | undefined {
  if (!entry.robot_id) return undefined;
  const card = cards.find((c) => c.robot_id === entry.robot_id);
  return card && { ...card, slot_id: entry.slot_id, cardId: `slot-${entry.slot_id}-${card.id}` };
}
