/** How robots are named, pictured, filtered, sorted and paged (spec/001 §2 Robot Manager and Add Robot). */

/** Known robot models with images; any other model shows the generic logo. */
export const KNOWN_ROBOT_MODELS = [
  'MiroE',
  'Pepper',
  'PepperV2',
  'CyberPi',
  'Tiago',
  'Tiago++',
  'Tiago_Steel',
  'Tiago_Titanium',
  'SID1',
  'Artus_Hand',
  'Nao',
  'NaoV2',
  'Roboy',
  'Youbot',
  'Ohbot',
  'ReemC',
  'HSR',
  'iCub',
  'Sanbot',
  'Rhino',
  'x30',
  'Lite3',
  'Generic',
] as const;
export type KnownRobotModel = (typeof KNOWN_ROBOT_MODELS)[number];

/** The spec's robot makes list. */
export const ROBOT_MAKES = [
  'Nao',
  'Pepper',
  'Tiago++',
  'Tiago_Steel',
  'Tiago_Titanium',
  'Generic',
  'Rhino',
  'Artus_Hand',
  'SID1',
] as const;

/**
 * The supported-model list of Add Robot and the approved list of flexible licenses. The spec names
 * neither list's members; its "robot makes" list (which names models, and holds the Generic entry
 * the filter always keeps) is taken as both.
 */
export const SUPPORTED_ROBOT_MODELS: readonly string[] = ROBOT_MAKES;

export const GENERIC_MODEL = 'Generic';

/** Where the web app serves model images. */
export const ROBOT_IMAGE_BASE = '/images/robots/';

/** File name of a model's image: lower case, "++" as "-plus-plus", "_" as "-" (Tiago++ -> tiago-plus-plus.svg). */
export function robotImageFile(model: KnownRobotModel): string {
  return `${model.toLowerCase().replace(/\+\+/g, '-plus-plus').replace(/_/g, '-')}.svg`;
}

function knownModel(model: string | null | undefined): KnownRobotModel | undefined {
  const m = (model ?? '').trim().toLowerCase();
  return KNOWN_ROBOT_MODELS.find((k) => k.toLowerCase() === m);
}

/** The image of a model (case-insensitive), or the generic logo for an unknown model. */
export function robotImage(model: string | null | undefined): string {
  return `${ROBOT_IMAGE_BASE}${robotImageFile(knownModel(model) ?? GENERIC_MODEL)}`;
}

export interface ModelDisplay {
  model: string;
  /** the version badge, when the model has one */
  version?: string;
}

const DISPLAY: Record<string, ModelDisplay> = {
  Tiago_Steel: { model: 'Tiago', version: 'Steel' },
  Tiago_Titanium: { model: 'Tiago', version: 'Titanium' },
  'Tiago++': { model: 'Tiago', version: '++' },
  Artus_Hand: { model: 'Artus Hand' },
};

/** How a model is shown: Tiago_Steel as Tiago with version Steel, Artus_Hand as "Artus Hand"... */
export function displayModel(model: string): ModelDisplay {
  return DISPLAY[model] ?? { model };
}

/** A robot card's status line when it has no pairing code. */
export function robotStatusLabel(available: boolean | undefined): 'Active' | 'Inactive' {
  return available ? 'Active' : 'Inactive';
}

export type PairingFilter = 'all' | 'paired' | 'unpaired';

/** The Robot Manager's filter badges All, Paired, Unpaired. An entry with a pairing code is unpaired. */
export function matchesPairingFilter(item: { pair_code?: string | null }, filter: PairingFilter): boolean {
  if (filter === 'all') return true;
  const unpaired = Boolean(item.pair_code);
  return filter === 'unpaired' ? unpaired : !unpaired;
}

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

export type RobotSort = 'model' | 'make';

export const ROBOT_SORT_OPTIONS: readonly { value: RobotSort; label: string }[] = [
  { value: 'model', label: 'A-Z: Model' },
  { value: 'make', label: 'A-Z: Make' },
];
export const DEFAULT_ROBOT_SORT: RobotSort = 'model';

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
} as const;
