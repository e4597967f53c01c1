import { displayModel, robotDisplayName, SUPPORTED_ROBOT_MODELS } from '@portal/contract';
import { GENERIC_MODEL } from '@/lib/robot-models';
import type { RobotSort } from './add-robot-search';

/** Add Robot's grid (spec/001 §2): which catalogue robots it lists, in what order, 8 to a page. */

export interface MakeAndModel {
  make: string;
  model: string;
}

const isGeneric = (model: string) => model.trim().toLowerCase() === GENERIC_MODEL.toLowerCase();

/**
 * Add Robot's list: only supported models (case-insensitive), then the "Filter by Model" text
 * matched case-insensitively against the model (as stored or as shown). Generic is always kept.
 */
export function filterAddRobotItems<T extends MakeAndModel>(
  items: readonly T[],
  query: string,
  supported: readonly string[] = SUPPORTED_ROBOT_MODELS,
): T[] {
  const allowed = new Set(supported.map((m) => m.toLowerCase()));
  const q = query.trim().toLowerCase();
  return items.filter((item) => {
    if (!allowed.has(item.model.trim().toLowerCase())) return false;
    if (!q || isGeneric(item.model)) return true;
    return item.model.toLowerCase().includes(q) || displayModel(item.model).model.toLowerCase().includes(q);
  });
}

/** Whether a filter is set and leaves no model but Generic: Add Robot then says so and offers to clear it. */
export function filterMatchesNoModel(shown: readonly MakeAndModel[], query: string): boolean {
  return query.trim() !== '' && shown.every((item) => isGeneric(item.model));
}

export type { RobotSort } from './add-robot-search';
export { DEFAULT_ROBOT_SORT } from './add-robot-search';

export const ROBOT_SORT_OPTIONS: readonly { value: RobotSort; label: string }[] = [
  { value: 'model', label: 'A-Z: Model' },
  { value: 'make', label: 'A-Z: Make' },
];

const compareText = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base', numeric: true });

/** A-Z by model or by make, case-insensitive; ties go by the other field. Does not change its input. */
export function sortRobots<T extends MakeAndModel>(items: readonly T[], by: RobotSort): T[] {
  const other: RobotSort = by === 'model' ? 'make' : 'model';
  return [...items].sort((a, b) => compareText(a[by], b[by]) || compareText(a[other], b[other]));
}

export interface RobotPage<T> {
  items: T[];
  /** 1-based, clamped to the pages that exist */
  page: number;
  pageCount: number;
  /** the trailing "Is your Robot not in the list?" card, shown on a page of fewer than 8 */
  showGenericCard: boolean;
}

/** One page of Add Robot's grid (the screen shows 8 per page). */
export function paginateRobots<T>(items: readonly T[], page: number, pageSize: number): RobotPage<T> {
  const pageCount = Math.max(1, Math.ceil(items.length / pageSize));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pageCount);
  const slice = items.slice((current - 1) * pageSize, current * pageSize);
  return { items: slice, page: current, pageCount, showGenericCard: slice.length < pageSize };
}

export const ADD_ROBOT_TEXT = {
  title: 'Add Robot',
  filterPlaceholder: 'Filter by Model',
  license: 'BOW Commercial License',
  licenseLines: ['- Support', '- 1 Physical Robot License'],
  notListed: 'Is your Robot not in the list?',
  getInTouch: 'Get in touch',
  clearFilter: 'Clear filter',
} as const;

/** Add Robot's empty filter line: "No robot models match 'zzz'". */
export function noModelMatchMessage(query: string): string {
  return `No robot models match '${query.trim()}'`;
}

/** The success toast of Add Robot's price button. */
export function addedToCartMessage(productName: string): string {
  return `You have successfully added ${robotDisplayName(productName)} to your cart.`;
}
