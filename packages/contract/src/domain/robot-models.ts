/** The robot models the portal sells and licenses (spec/001 §2 Add Robot and Flexible License Management). */

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
 * the filter always keeps) is taken as both. The server refuses a flexible license for any other model.
 */
export const SUPPORTED_ROBOT_MODELS: readonly string[] = ROBOT_MAKES;
