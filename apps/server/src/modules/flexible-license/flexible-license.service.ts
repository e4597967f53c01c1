import { ApiError, AssetType, type FlexSlot, type FlexSlotUpdate, SUPPORTED_ROBOT_MODELS } from '@portal/contract';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { LicenseService } from '../license/license.service.ts';
import { flexSlotRepository as repo } from './flexible-license.repository.ts';

/** What a change of the slot count did: the slots emptied held these models. */
export interface SlotChange {
  from: number;
  to: number;
  emptied: { slot: number; model: string }[];
}

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
