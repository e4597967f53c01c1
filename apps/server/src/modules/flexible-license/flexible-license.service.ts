import { ApiError, AssetType, type FlexSlot, type FlexSlotUpdate, SUPPORTED_ROBOT_MODELS } from '@portal/contract';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { LicenseService } from '../license/license.service.ts';
import { flexSlotRepository as repo } from './flexible-license.repository.ts';

/**
 * Flexible license slots (docs/architecture.md#commerce), served for now under /api/dial_manager (GET_SLOTS,
 * UPDATE_SLOTS, CLEAR_SLOTS); /api/flexible_license will mount the same service. A slot holds the id
 * of a robot-driver asset of an approved model; saving makes an unpaired flexible license for each
 * changed slot and removes the license a slot no longer holds, in one transaction. A slot whose
 * robot did not change keeps its license and pairing.
 */
export class FlexSlotService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly licenses: LicenseService,
  ) {}

  /** How many slots the user has. */
  amount(userId: string): Promise<number> {
    return repo.amount(this.db, userId);
  }

  /** Sets the user's slot count (an operator's grant or a subscription's); answers the new count. */
  async setAmount(userId: string, amount: number, source: Parameters<typeof repo.setAmount>[3]): Promise<number> {
    await repo.setAmount(this.db, userId, amount, source, this.clock.now());
    return repo.amount(this.db, userId);
  }

  async get(userId: string): Promise<{ user_slots: FlexSlot[]; user_slot_amount: number }> {
    const [amount, rows] = await Promise.all([repo.amount(this.db, userId), repo.slots(this.db, userId)]);
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
    };
  }

  async update(userId: string, slots: readonly FlexSlotUpdate[]) {
    const amount = await repo.amount(this.db, userId);
    slots.forEach((s, i) => {
      if (s.slot_id >= amount)
        throw new ApiError(
          'VALIDATION',
          `user_slots.${i}.slot_id: must be below your slot count (${amount})${amount === 0 ? '; your plan has no flexible slots' : ''}`,
        );
    });
    const approved = new Set(SUPPORTED_ROBOT_MODELS.map((m) => m.toLowerCase()));
    const wanted = [...new Set(slots.map((s) => s.robot_id).filter(Boolean))];
    const drivers = new Map(
      (await repo.drivers(this.db, wanted))
        .filter((a) => a.type === AssetType.RobotDriver && approved.has(a.model.toLowerCase()))
        .map((a) => [a.id, a]),
    );
    slots.forEach((s, i) => {
      if (s.robot_id && !drivers.has(s.robot_id))
        throw new ApiError('VALIDATION', `user_slots.${i}.robot_id: not an approved robot model`);
    });

    await this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const saved = new Map((await repo.slots(tx, userId)).map((r) => [r.slotId, r]));
      const removed: string[] = [];
      for (const slot of slots) {
        const before = saved.get(slot.slot_id);
        if (before && before.robotId === slot.robot_id) continue;
        if (before?.licenseId) removed.push(before.licenseId);
        const driver = slot.robot_id ? drivers.get(slot.robot_id) : undefined;
        const granted = driver
          ? await this.licenses.grantRobotLicense(tx, {
              userId,
              assetId: driver.id,
              make: driver.make,
              model: driver.model,
              isFlexible: true,
              source: 'flexible',
            })
          : undefined;
        await repo.upsertSlot(tx, {
          userId,
          slotId: slot.slot_id,
          robotId: slot.robot_id,
          licenseId: granted?.license.id ?? null,
          now,
        });
      }
      await repo.deleteFlexibleLicenses(tx, userId, removed);
    });
    return this.get(userId);
  }

  async clear(userId: string) {
    await this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const saved = await repo.slots(tx, userId);
      for (const slot of saved)
        await repo.upsertSlot(tx, { userId, slotId: slot.slotId, robotId: '', licenseId: null, now });
      await repo.deleteFlexibleLicenses(
        tx,
        userId,
        saved.flatMap((s) => (s.licenseId ? [s.licenseId] : [])),
      );
    });
    return this.get(userId);
  }
}
