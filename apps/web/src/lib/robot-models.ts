/**
 * How a robot model is pictured and named on screen (spec/001 §2): the Robot Manager, Add Robot
 * and the flexible-license cards all show models this way.
 */

/** Known robot models with images; any other model shows the generic logo. */
const KNOWN_ROBOT_MODELS = [
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
type KnownRobotModel = (typeof KNOWN_ROBOT_MODELS)[number];

export const GENERIC_MODEL = 'Generic';

/** Where the web app serves model images (public/images/robots). */
const ROBOT_IMAGE_BASE = '/images/robots/';

/** File name of a model's image: lower case, "++" as "-plus-plus", "_" as "-" (Tiago++ -> tiago-plus-plus.svg). */
function robotImageFile(model: KnownRobotModel): string {
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
