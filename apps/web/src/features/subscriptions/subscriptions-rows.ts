import type { PaymentProduct, Robot, RobotDriverSubscription, RobotLicense, UserSubscription } from '@portal/contract';
import { displayModel } from '@portal/contract';
import {
  type DisplayStatus,
  displayStatus,
  expiryMs,
  formatDuration,
  type OverrideBadge,
  overrideBadge,
  productNameFor,
  statusLabel,
} from './subscriptions-table';

/**
 * What the Robot Driver Subscriptions table and the Subscription Items table show, joined from
 * the subscriptions, the user's licenses (which robot each is paired with) and the catalogue.
 */

/** A licence as these tables need it: its robot once paired, else its pairing code. */
export interface LicenseRef {
  robotId: string;
  pairCode: string;
  model: string;
}

export function licensesById(licenses: readonly RobotLicense[]): Map<string, LicenseRef> {
  return new Map(
    licenses.map((l) => [
      l.robot_license.license_id,
      { robotId: l.robot_id, pairCode: l.pair_code, model: l.robot_model },
    ]),
  );
}

/** A robot model as people read it: "Tiago_Steel" is "Tiago Steel", "Artus_Hand" "Artus Hand". */
export function modelLabel(model: string): string {
  const shown = displayModel(model);
  return shown.version ? `${shown.model} ${shown.version}` : shown.model;
}

export interface DriverRow {
  id: string;
  /** what Manage Subscription opens: the provider's subscription, or the row itself when it has none */
  subscriptionId: string;
  product: string;
  model: string;
  /** the paired robot; '' while the licence is unpaired or unknown */
  robotId: string;
  status: string;
  display: DisplayStatus | undefined;
  statusLabel: string;
  badge: OverrideBadge | undefined;
  /** cancelled by the customer: it keeps working until it expires */
  cancelAtPeriodEnd: boolean;
  durationS: number;
  duration: string;
  createdAtMs: number;
  expiresAtMs: number;
}

type Product = Pick<PaymentProduct, 'id' | 'name' | 'metadata'>;

export function driverRows(
  subscriptions: readonly RobotDriverSubscription[],
  licenses: ReadonlyMap<string, LicenseRef>,
  products: readonly Product[],
): DriverRow[] {
  return subscriptions.map((s) => {
    const license = licenses.get(s.robot_license_id);
    const product = products.find((p) => p.id === s.asset_id || p.metadata?.BOW_UUID === s.asset_id);
    const model = license?.model || product?.metadata?.model || '';
    return {
      id: s.uuid,
      subscriptionId: s.stripe_id || s.uuid,
      product: productNameFor(s.asset_id, products),
      model: model ? modelLabel(model) : '',
      robotId: license?.robotId ?? '',
      status: s.status,
      display: displayStatus(s.status),
      statusLabel: statusLabel(s.status),
      badge: overrideBadge(s.overrideReason),
      cancelAtPeriodEnd: s.cancel_at_period_end && displayStatus(s.status) === 'Active',
      durationS: s.duration,
      duration: formatDuration(s.duration),
      createdAtMs: s.created_at,
      expiresAtMs: expiryMs(s.created_at, s.duration),
    };
  });
}

/** Status ascending is the table's default order: Active, Cancelled, Expired, Inactive, Pending. */
export function compareStatus(a: Pick<DriverRow, 'statusLabel'>, b: Pick<DriverRow, 'statusLabel'>): number {
  return a.statusLabel.localeCompare(b.statusLabel, 'en');
}

/** The table's filter: the robot model contains the text, ignoring case. */
export function matchesModel(row: Pick<DriverRow, 'model'>, text: string): boolean {
  const needle = text.trim().toLowerCase();
  return needle === '' || row.model.toLowerCase().includes(needle);
}

export interface ItemRow {
  key: string;
  sku: string;
  id: string;
  /** the paired robot's name, else the pairing code, else '' (a plan has no robot) */
  robot: string;
  robotId: string;
  /** a plan item has no robot to view */
  viewable: boolean;
}

/**
 * The Subscription Items of one provider subscription: its plan (SKU the tier) and its robot
 * drivers (SKU the driver product, ID the licence, the robot's name or the pairing code).
 */
export function itemRows(
  subscription: {
    user_subscriptions: readonly UserSubscription[];
    robot_driver_subscriptions: readonly RobotDriverSubscription[];
  },
  licenses: ReadonlyMap<string, LicenseRef>,
  robots: readonly Pick<Robot, 'robot_id' | 'name'>[],
): ItemRow[] {
  const names = new Map(robots.map((r) => [r.robot_id, r.name]));
  const plans = subscription.user_subscriptions.map((s) => ({
    key: s.uuid,
    sku: s.subscription_tier,
    id: s.uuid,
    robot: '',
    robotId: '',
    viewable: false,
  }));
  const drivers = subscription.robot_driver_subscriptions.map((s) => {
    const license = licenses.get(s.robot_license_id);
    const robotId = license?.robotId ?? '';
    return {
      key: s.uuid,
      sku: s.asset_id || s.type,
      id: s.robot_license_id || s.uuid,
      robot: (robotId && names.get(robotId)) || license?.pairCode || '',
      robotId,
      viewable: true,
    };
  });
  return [...plans, ...drivers];
}
