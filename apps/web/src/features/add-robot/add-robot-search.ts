import { intAtLeast, oneOf, searchParser, text } from '@/lib/search-params';

export type RobotSort = 'model' | 'make';
/** Here rather than with the catalogue: route search readers run in the entry of every page (docs/decisions/025). */
export const DEFAULT_ROBOT_SORT: RobotSort = 'model';

export type AddRobotSearch = {
  page: number;
  filter: string;
  sort: RobotSort;
};

/** Add Robot's page, filter and sort live in the address, so a reload or a shared link shows the same grid. */
export const addRobotSearchSchema = searchParser(
  (raw): AddRobotSearch => ({
    page: intAtLeast(raw.page, 1) ?? 1,
    filter: text(raw.filter, { max: 100 }) ?? '',
    sort: oneOf(['model', 'make'], raw.sort) ?? DEFAULT_ROBOT_SORT,
  }),
);
export const ADD_ROBOT_SEARCH_DEFAULTS: AddRobotSearch = { page: 1, filter: '', sort: DEFAULT_ROBOT_SORT };
