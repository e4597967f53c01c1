import { ApiError, type FlexSlot, type FlexSlotUpdate, type PaymentProduct } from '@portal/contract';
import type { Db, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { LicenseService } from '../license/license.service.ts';
import { type ApprovedDriver, approvedDrivers } from './flexible-license.approved.ts';
import { flexSlotRepository as repo } from './flexible-license.repository.ts';

/** What a change of the slot count did: the slots emptied held these models. */
export interface SlotChange {
  from: number;
  to: number;
  emptied: { slot: number; model: string }[];
}

/** What the slots need from elsewhere: the catalogue the approved list is read from. */
export interface FlexSlotPeers {
  catalogue(): Promise<readonly PaymentProduct[]>;
}

export interface FlexSlotsView {
  user_slots: FlexSlot[];
  user_slot_amount: number;
  approved_robot_ids: string[];
}

/**
 * Flexible license slots (docs/architecture.md#flexible-licenses, docs/decisions/022), mounted twice:
 * /api/flexible_license (GetSlots, UpdateSlots, ClearSlots) and /api/dial_manager (GET_SLOTS,
 * UPDATE_SLOTS, CLEAR_SLOTS). A slot holds the catalogue robot id of an approved driver.
 *
 * Saving does what the screen's Confirm Sync says: in one transaction, every flexible license of the
 * user is deleted (a robot paired with one is released, so the hub can no longer use it) and each
 * filled slot gets a new unpaired flexible license with a pairing code. Saves and clears of one user
 * take a lock first, so two racing saves apply one after the other.
 */
export class FlexSlotService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly licenses: LicenseService,
    private readonly peers: FlexSlotPeers,
  ) {}

  /** How many slots the user has. */
  amount(userId: string): Promise<number> {
    return repo.amount(this.db, userId);
  }

  /** Sets the user's slot count (an operator's grant or a subscription's); answers the new count. */
  async setAmount(userId: string, amount: number, source: Parameters<typeof repo.setAmount>[3]): Promise<number> {
    await this.applyAmount(userId, amount, source);
    return repo.amount(this.db, userId);
  }

  /**
   * Sets the slot count (docs/decisions/019). An operator's count wins: a subscription's never
   * replaces it. When the count shrinks, the highest-numbered slots are emptied and their flexible
   * licenses deleted, so they stop working. Answers the change, or undefined when nothing changed.
   */
  async applyAmount(
    userId: string,
    amount: number,
    source: 'operator' | 'subscription',
  ): Promise<SlotChange | undefined> {
    return this.db.transaction(async (tx) => {
      // The same lock as a save: a save never fills a slot the new count has just taken away.
      await repo.lockUser(tx, userId);
      const current = await repo.allowance(tx, userId);
      if (source === 'subscription' && current?.source === 'operator') return undefined;
      if (current && current.amount === amount && current.source === source) return undefined;
      if (!current && amount === 0 && source === 'subscription') return undefined;
      const now = this.clock.now();
      await repo.setAmount(tx, userId, amount, source, now);
      const removed = await repo.deleteSlotsFrom(tx, userId, amount);
      const licenseIds = removed.flatMap((r) => (r.licenseId ? [r.licenseId] : []));
      const models = new Map((await this.licenses.byIds(tx, licenseIds)).map((l) => [l.id, l.robotModel]));
      await repo.deleteFlexibleLicenses(tx, userId, licenseIds);
      return {
        from: current?.amount ?? 0,
        to: amount,
        emptied: removed
          .filter((r) => r.licenseId)
          .map((r) => ({ slot: r.slotId, model: models.get(r.licenseId as string) ?? r.robotId })),
      };
    });
  }

  /** The catalogue robot ids a slot may hold, by id. */
  private async approved(): Promise<Map<string, ApprovedDriver>> {
    return approvedDrivers(await this.peers.catalogue());
  }

  async get(userId: string, approved?: Map<string, ApprovedDriver>): Promise<FlexSlotsView> {
    const [amount, rows, drivers] = await Promise.all([
      repo.amount(this.db, userId),
      repo.slots(this.db, userId),
      approved ?? this.approved(),
    ]);
    return {
      user_slot_amount: amount,
      user_slots: rows
        .filter((r) => r.slotId < amount)
        .map((r) => ({
          slot_id: r.slotId,
          license_id: r.licenseId ?? '',
          robot_id: r.robotId,
          updated_on: r.updatedAt.getTime(),
        })),
      approved_robot_ids: [...drivers.keys()].sort(),
    };
  }

  /**
   * Replaces the user's selection with `slots` (the whole selection: a slot left out is empty).
   * Refused with a 400 naming the slot, before anything changes: a slot id at or past the slot
   * count, a slot named twice, a robot id not on the approved list.
   */
  async update(userId: string, slots: readonly FlexSlotUpdate[]): Promise<FlexSlotsView> {
    const seen = new Map<number, number>();
    slots.forEach((s, i) => {
      const first = seen.get(s.slot_id);
      if (first !== undefined)
        throw new ApiError(
          'VALIDATION',
          `user_slots.${i}.slot_id: slot ${s.slot_id} is already given at user_slots.${first}`,
        );
      seen.set(s.slot_id, i);
    });
    const approved = await this.approved();
    slots.forEach((s, i) => {
      if (s.robot_id && !approved.has(s.robot_id))
        throw new ApiError('VALIDATION', `user_slots.${i}.robot_id: ${s.robot_id} is not an approved robot model`);
    });
    await this.db.transaction(async (tx) => {
      await repo.lockUser(tx, userId);
      // Read under the lock: a plan that shrank meanwhile is the count that holds.
      const amount = await repo.amount(tx, userId);
      slots.forEach((s, i) => {
        if (s.slot_id >= amount)
          throw new ApiError(
            'VALIDATION',
            `user_slots.${i}.slot_id: must be below your slot count (${amount})${amount === 0 ? '; your plan has no flexible slots' : ''}`,
          );
      });
      await this.replace(tx, userId, amount, new Map(slots.map((s) => [s.slot_id, s.robot_id])), approved);
    });
    return this.get(userId, approved);
  }

  /** Empties every slot and deletes the user's flexible licenses. */
  async clear(userId: string): Promise<FlexSlotsView> {
    await this.db.transaction(async (tx) => {
      await repo.lockUser(tx, userId);
      await this.replace(tx, userId, await repo.amount(tx, userId), new Map(), new Map());
    });
    return this.get(userId);
  }

  /** Inside the caller's locked transaction: the old flexible licenses go, the selection gets new ones. */
  private async replace(
    tx: Executor,
    userId: string,
    amount: number,
    wanted: ReadonlyMap<number, string>,
    approved: ReadonlyMap<string, ApprovedDriver>,
  ): Promise<void> {
    const now = this.clock.now();
    await repo.deleteAllFlexibleLicenses(tx, userId);
    await repo.deleteSlotsFrom(tx, userId, amount);
    const assets = new Map((await repo.drivers(tx, [...new Set(wanted.values())])).map((a) => [a.id, a]));
    for (let slotId = 0; slotId < amount; slotId++) {
      const robotId = wanted.get(slotId) ?? '';
      const driver = robotId ? approved.get(robotId) : undefined;
      const asset = assets.get(robotId);
      // The license names the robot as a bought driver does: the driver asset's make and model
      // when the asset exists, else the catalogue's model.
      const granted = driver
        ? await this.licenses.grantRobotLicense(tx, {
            userId,
            assetId: robotId,
            make: asset?.make || driver.model,
            model: asset?.model || driver.model,
            isFlexible: true,
            source: 'flexible',
          })
        : undefined;
      await repo.upsertSlot(tx, {
        userId,
        slotId,
        robotId: driver ? robotId : '',
        licenseId: granted?.license.id ?? null,
        now,
      });
    }
  }
}
