import { z } from 'zod';
import { DEFAULT_ROBOT_SORT } from './add-robot-catalogue';

/** Add Robot's page, filter and sort live in the address, so a reload or a shared link shows the same grid. */
export const addRobotSearchSchema = z.object({
  page: z.coerce.number().int().min(1).default(1).catch(1),
  filter: z.string().max(100).default('').catch(''),
  sort: z.enum(['model', 'make']).default(DEFAULT_ROBOT_SORT).catch(DEFAULT_ROBOT_SORT),
});
export type AddRobotSearch = z.output<typeof addRobotSearchSchema>;
export const ADD_ROBOT_SEARCH_DEFAULTS: AddRobotSearch = { page: 1, filter: '', sort: DEFAULT_ROBOT_SORT };
