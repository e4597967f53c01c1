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

/** A model as the screens show it: the model name and, where the model has one, its version badge. */
export interface ModelDisplay {
  model: string;
  /** the version badge, when the model has one */
  version?: string;
}

/** spec/001 §2 Display mapping; every other model shows as it is spelled. */
const MODEL_DISPLAY: Readonly<Record<string, ModelDisplay>> = {
  Tiago_Steel: { model: 'Tiago', version: 'Steel' },
  Tiago_Titanium: { model: 'Tiago', version: 'Titanium' },
  'Tiago++': { model: 'Tiago', version: '++' },
  Artus_Hand: { model: 'Artus Hand' },
};

/** How a model is shown on a card: Tiago_Steel as Tiago with version Steel, Artus_Hand as "Artus Hand"... */
export function displayModel(model: string): ModelDisplay {
  return MODEL_DISPLAY[model] ?? { model };
}

/**
 * A model, or a product named after one, as one line of text (toasts, the cart, Payment Successful,
 * receipts, mails): "Tiago_Steel driver" -> "Tiago Steel driver", "Artus_Hand" -> "Artus Hand".
 * Tiago++ keeps its spelling, which already reads as the model and its "++" version.
 */
export function robotDisplayName(name: string): string {
  return name.replace(/[A-Za-z0-9+]+(?:_[A-Za-z0-9+]+)*/g, (word) => {
    const shown = MODEL_DISPLAY[word];
    if (!shown || word === 'Tiago++') return word;
    return shown.version ? `${shown.model} ${shown.version}` : shown.model;
  });
}
