import { type PaymentProduct, ProductSorting, SUPPORTED_ROBOT_MODELS } from '@portal/contract';

/**
 * The approved list of flexible licenses (spec/001 §5, docs/decisions/022): the catalogue's driver
 * products whose `model` is on the supported-model list. A slot holds the product's BOW_UUID, the
 * catalogue robot id. The server alone decides it; the screen gets the ids with the slots.
 */
export interface ApprovedDriver {
  robotId: string;
  model: string;
  manufacturer: string;
}

export function approvedDrivers(
  products: readonly Pick<PaymentProduct, 'metadata'>[],
  supported: readonly string[] = SUPPORTED_ROBOT_MODELS,
): Map<string, ApprovedDriver> {
  const allowed = new Set(supported.map((m) => m.toLowerCase()));
  const approved = new Map<string, ApprovedDriver>();
  for (const { metadata: m } of products) {
    const robotId = m.BOW_UUID?.trim() ?? '';
    const model = m.model?.trim() ?? '';
    if (m.BOW_SORTING !== ProductSorting.Driver || !robotId || !allowed.has(model.toLowerCase())) continue;
    if (!approved.has(robotId)) approved.set(robotId, { robotId, model, manufacturer: m.manufacturer?.trim() ?? '' });
  }
  return approved;
}
