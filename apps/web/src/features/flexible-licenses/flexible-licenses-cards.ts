import {
  type FlexibleLicenseCard,
  type PaymentProduct,
  ProductSorting,
  SUPPORTED_ROBOT_MODELS,
} from '@portal/contract';
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
 * License cards from the catalogue's driver products whose model is approved (by default the
 * supported-model list, matched case-insensitively on the product name). Features always start
 * with "Support" and "1 Physical Robot License".
 */
export function flexCardsFromProducts(
  products: readonly PaymentProduct[],
  approved: readonly string[] = SUPPORTED_ROBOT_MODELS,
): FlexibleLicenseCard[] {
  const allowed = new Set(approved.map((m) => m.toLowerCase()));
  return products
    .filter((p) => p.metadata.BOW_SORTING === ProductSorting.Driver && p.metadata.BOW_UUID)
    .filter((p) => allowed.has(p.name.trim().toLowerCase()))
    .map((p) => {
      const extras = splitList(p.metadata.features, ',');
      return {
        id: p.id,
        robot_id: p.metadata.BOW_UUID ?? '',
        manufacturer: p.metadata.manufacturer ?? '',
        modelName: p.name,
        description: p.description,
        robotType: splitList(p.metadata.robotType, ','),
        features: [...new Set<string>([...FIXED_LICENSE_FEATURES, ...extras])],
        img: robotImage(p.name),
      };
    });
}

/** The card a slot shows, tagged with its slot; undefined for an empty slot or an unknown robot. */
export function cardInSlot(entry: SlotEntry, cards: readonly FlexibleLicenseCard[]): FlexibleLicenseCard | undefined {
  if (!entry.robot_id) return undefined;
  const card = cards.find((c) => c.robot_id === entry.robot_id);
  return card && { ...card, slot_id: entry.slot_id, cardId: `slot-${entry.slot_id}-${card.id}` };
}
