import {
  ApiError,
  DEFAULT_LICENSE_DURATION_S,
  type FlexSlotUpdate,
  type FlexSlotView,
  type PaymentProduct,
  planSlotSave,
} from '@portal/contract';
import type { Db, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { LicenseService } from '../license/license.service.ts';
import { type ApprovedDriver, approvedDrivers } from './flexible-license.approved.ts';
import { type AllowanceRow, flexSlotRepository as repo } from './flexible-license.repository.ts';

/** What a change of the slot count did: the slots emptied held these models. */
export interface SlotChange {
  from: number;
  to: number;
  emptied: { slot: number; model: string }[];
}

/** What the slots need from elsewhere: the catalogue the approved list is read from, robots' names. */
export interface FlexSlotPeers {
  catalogue(): Promise<readonly PaymentProduct[]>;
  /** the user's own robot of this id, if any */
  robot(userId: string, robotId: string): Promise<{ name: string } | undefined>;
}

/** How many slots a user has, and why (docs/decisions/061). */
export interface SlotAllowance {
  /** what the user's plan gives (0 without one) */
  plan: number;
  /** an operator's grant; null when none */
  granted: number | null;
  /** the count in force: the larger of the two */
  amount: number;
}

const allowanceOf = (row: AllowanceRow | undefined): SlotAllowance => ({
  plan: row?.planAmount ?? 0,
  granted: row?.grantedAmount ?? null,
  amount: row?.amount ?? 0,
});

/** Called in the transaction of a count that changed, with the counts before and after (the audit trail's entry). */
export type OnCountChange = (tx: Executor, before: SlotAllowance, after: SlotAllowance) => Promise<void>;

export interface FlexSlotsView {
  user_slots: FlexSlotView[];
  user_slot_amount: number;
  approved_robot_ids: string[];
}

/**
 * Flexible license slots (docs/architecture.md#flexible-licenses, docs/decisions/022 and 061), mounted
 * twice: /api/flexible_license (GetSlots, UpdateSlots, ClearSlots) and /api/dial_manager (GET_SLOTS,
 * UPDATE_SLOTS, CLEAR_SLOTS). A slot holds the catalogue robot id of an approved driver.
 *
 * Saving makes the user's flexible licenses equal to the selection in one transaction
 * (`planSlotSave`): a license whose model stays in the selection is kept with its pairing code and
 * paired robot, also when its card moved to another slot; only changed slots get new unpaired
 * licenses, and licenses the selection dropped are deleted. Saves and clears of one user take a lock
 * first, so two racing saves apply one after the other, each against what the other left.
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

  /** The plan's count, the operator's grant and the count in force (the customer view). */
  async allowance(userId: string): Promise<SlotAllowance> {
    return allowanceOf(await repo.allowance(this.db, userId));
  }

  /**
   * Sets or clears an operator's grant (docs/decisions/061): the user has the larger of it and the
   * plan's count. Answers the counts after.
   */
  async setGrant(userId: string, granted: number | null, onChange?: OnCountChange): Promise<SlotAllowance> {
    return (await this.setCount(userId, granted, 'operator', onChange)).allowance;
  }

  /**
   * Sets the plan's count (SubscriptionService.reconcile, docs/decisions/019) or an operator's grant.
   * Answers the change of the count in force, or undefined when it did not change.
   */
  async applyAmount(
    userId: string,
    amount: number,
    source: 'operator' | 'subscription',
  ): Promise<SlotChange | undefined> {
    return (await this.setCount(userId, amount, source)).change;
  }

  /**
   * One count changes and the count in force follows, the larger of the plan's and the grant. When it
   * shrinks, the highest-numbered slots are emptied and their flexible licenses deleted, so they stop
   * working.
   */
  private async setCount(
    userId: string,
    amount: number | null,
    source: 'operator' | 'subscription',
    onChange?: OnCountChange,
  ): Promise<{ allowance: SlotAllowance; change: SlotChange | undefined }> {
    return this.db.transaction(async (tx) => {
      // The same lock as a save: a save never fills a slot the new count has just taken away.
      await repo.lockUser(tx, userId);
      const current = await repo.allowance(tx, userId);
      const same =
        source === 'subscription'
          ? (current?.planAmount ?? 0) === (amount ?? 0)
          : (current?.grantedAmount ?? null) === amount;
      if (same) return { allowance: allowanceOf(current), change: undefined };
      const row = await repo.setAmount(tx, userId, amount, source, this.clock.now());
      const from = current?.amount ?? 0;
      const removed = await repo.deleteSlotsFrom(tx, userId, row.amount);
      const licenseIds = removed.flatMap((r) => (r.licenseId ? [r.licenseId] : []));
      const models = new Map((await this.licenses.byIds(tx, licenseIds)).map((l) => [l.id, l.robotModel]));
      await repo.deleteFlexibleLicenses(tx, userId, licenseIds);
      const emptied = removed
        .filter((r) => r.licenseId)
        .map((r) => ({ slot: r.slotId, model: models.get(r.licenseId as string) ?? r.robotId }));
      await onChange?.(tx, allowanceOf(current), allowanceOf(row));
      return {
        allowance: allowanceOf(row),
        change: from === row.amount && emptied.length === 0 ? undefined : { from, to: row.amount, emptied },
      };
    });
  }

  /** The catalogue robot ids a slot may hold, by id. */
  private async approved(): Promise<Map<string, ApprovedDriver>> {
    return approvedDrivers(await this.peers.catalogue());
  }

  async get(userId: string, approved?: Map<string, ApprovedDriver>): Promise<FlexSlotsView> {
    const [amount, all, drivers] = await Promise.all([
      repo.amount(this.db, userId),
      repo.slots(this.db, userId),
      approved ?? this.approved(),
    ]);
    const rows = all.filter((r) => r.slotId < amount);
    const held = rows.flatMap((r) => (r.licenseId ? [r.licenseId] : []));
    const paired = (await this.licenses.byIds(this.db, held)).filter((l) => l.robotId);
    const names = new Map(
      await Promise.all(
        paired.map(async (l) => [l.id, (await this.peers.robot(userId, l.robotId as string))?.name ?? ''] as const),
      ),
    );
    return {
      user_slot_amount: amount,
      user_slots: rows.map((r) => ({
        slot_id: r.slotId,
        license_id: r.licenseId ?? '',
        robot_id: r.robotId,
        updated_on: r.updatedAt.getTime(),
        paired_robot_name: (r.licenseId && names.get(r.licenseId)) || '',
      })),
      approved_robot_ids: [...drivers.keys()].sort(),
    };
  }

  /**
   * Saves `slots` as the user's selection (the whole selection: a slot left out is empty).
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
      await this.apply(tx, userId, amount, slots, approved);
    });
    return this.get(userId, approved);
  }

  /** Empties every slot and deletes the user's flexible licenses. */
  async clear(userId: string): Promise<FlexSlotsView> {
    await this.db.transaction(async (tx) => {
      await repo.lockUser(tx, userId);
      await this.apply(tx, userId, await repo.amount(tx, userId), [], new Map());
    });
    return this.get(userId);
  }

  /**
   * Inside the caller's locked transaction: makes the user's flexible licenses equal to the selection
   * (docs/decisions/061). A license whose model stays in the selection is kept, in its slot or
   * following its moved card, with its pairing code and paired robot, and runs a year from now again;
   * each other filled slot gets a new unpaired license; every other flexible license of the user is
   * deleted (a robot paired with one is released, so the hub no longer dials it unmetered).
   */
  private async apply(
    tx: Executor,
    userId: string,
    amount: number,
    wanted: readonly { slot_id: number; robot_id: string }[],
    approved: ReadonlyMap<string, ApprovedDriver>,
  ): Promise<void> {
    const now = this.clock.now();
    const rows = await repo.slots(tx, userId);
    const plan = planSlotSave(
      rows.map((r) => ({ slot_id: r.slotId, robot_id: r.robotId, license_id: r.licenseId ?? '' })),
      wanted.filter((w) => approved.has(w.robot_id)),
      amount,
    );
    const keptIds = plan.slots.flatMap((s) => (s.kind === 'kept' || s.kind === 'moved' ? [s.license_id] : []));
    await repo.deleteFlexibleLicensesExcept(tx, userId, keptIds);
    await repo.deleteSlotsFrom(tx, userId, amount);
    const renewedUntil = new Date(now.getTime() + DEFAULT_LICENSE_DURATION_S * 1000);
    for (const id of keptIds) await this.licenses.setEnd(tx, id, renewedUntil);

    const added = plan.slots.flatMap((s) => (s.kind === 'added' ? [s.robot_id] : []));
    const assets = new Map((await repo.drivers(tx, [...new Set(added)])).map((a) => [a.id, a]));
    const before = new Map(rows.map((r) => [r.slotId, r]));
    for (const outcome of plan.slots) {
      const row = before.get(outcome.slot_id);
      if (outcome.kind === 'kept') continue;
      if (outcome.kind === 'empty' && row && row.robotId === '' && row.licenseId === null) continue;
      let licenseId: string | null = null;
      if (outcome.kind === 'moved') licenseId = outcome.license_id;
      if (outcome.kind === 'added') {
        const driver = approved.get(outcome.robot_id) as ApprovedDriver;
        const asset = assets.get(outcome.robot_id);
        // The license names the robot as a bought driver does: the driver asset's make and model
        // when the asset exists, else the catalogue's model.
        const granted = await this.licenses.grantRobotLicense(tx, {
          userId,
          assetId: outcome.robot_id,
          make: asset?.make || driver.model,
          model: asset?.model || driver.model,
          isFlexible: true,
          source: 'flexible',
        });
        licenseId = granted.license.id;
      }
      await repo.upsertSlot(tx, {
        userId,
        slotId: outcome.slot_id,
        robotId: outcome.kind === 'empty' ? '' : outcome.robot_id,
        licenseId,
        now,
      });
    }
  }
}
