import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { ErrorCode, InsufficientCreditsError } from '../../src/common/errors';
import { CreditsService } from '../../src/modules/credits/credits.service';
import { createTestApp, TestApp, uniqueId } from '../helpers/test-app';

/** The ledger against the real PostgreSQL: concurrency, invariants, the monthly reset, the constraints. */
describe('the credit ledger', () => {
  let t: TestApp;
  let credits: CreditsService;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    credits = t.app.get(CreditsService);
    db = t.app.get(DataSource);
  });
  afterAll(async () => t?.close());

  async function newUser(tier = 'free'): Promise<string> {
    const [row] = await db.query(`INSERT INTO users (email, tier) VALUES ($1, $2) RETURNING id`, [
      `${uniqueId('ledger')}@example.com`,
      tier,
    ]);
    await credits.openAccount(row.id, tier);
    return row.id;
  }

  async function giveCredits(userId: string, amount: number): Promise<void> {
    if (amount > 0) await credits.adjust({ userId, mode: 'add', amount, reason: 'test setup', actorId: userId });
  }

  /** For each bucket, the sum of the ledger equals the balance; held equals the open holds. */
  async function assertBooksBalance(userId: string): Promise<void> {
    const [account] = await db.query(`SELECT subscription_balance, purchased_balance, held FROM credit_accounts WHERE user_id = $1`, [
      userId,
    ]);
    const sums: { bucket: string; total: string }[] = await db.query(
      `SELECT bucket, sum(amount) AS total FROM credit_ledger_entries WHERE user_id = $1 GROUP BY bucket`,
      [userId],
    );
    const sum = (bucket: string) => Number(sums.find((s) => s.bucket === bucket)?.total ?? 0);
    const [open] = await db.query(`SELECT coalesce(sum(amount), 0) AS held FROM credit_holds WHERE user_id = $1 AND status = 'held'`, [
      userId,
    ]);
    expect({
      subscription: account.subscription_balance,
      purchased: account.purchased_balance,
      held: account.held,
    }).toEqual({ subscription: sum('subscription'), purchased: sum('purchased'), held: Number(open.held) });
    expect(account.subscription_balance).toBeGreaterThanOrEqual(0);
    expect(account.purchased_balance).toBeGreaterThanOrEqual(0);
    expect(account.held).toBeLessThanOrEqual(account.subscription_balance + account.purchased_balance);
  }

  it('opens an account with the plan credits once, as a ledger entry', async () => {
    const userId = await newUser('free');
    await credits.openAccount(userId, 'free');
    expect(await credits.getBalance(userId)).toEqual({ subscription: 3, purchased: 0, held: 0, available: 3 });
    const entries = await db.query(`SELECT kind, bucket, amount FROM credit_ledger_entries WHERE user_id = $1`, [userId]);
    expect(entries).toEqual([{ kind: 'monthly_grant', bucket: 'subscription', amount: 3 }]);
    await assertBooksBalance(userId);
  });

  it('refuses a hold beyond the available balance with the catalogue message, changing nothing', async () => {
    const userId = await newUser();
    await credits.hold(userId, randomUUID(), 2);
    const refused = credits.hold(userId, randomUUID(), 5);
    await expect(refused).rejects.toBeInstanceOf(InsufficientCreditsError);
    await expect(refused).rejects.toMatchObject({
      code: ErrorCode.INSUFFICIENT_CREDITS,
      message: 'Insufficient credits. Required: 5, Available: 1.',
    });
    expect(await credits.getBalance(userId)).toEqual({ subscription: 3, purchased: 0, held: 2, available: 1 });
    await assertBooksBalance(userId);
  });

  it('accepts exactly 10 of 50 parallel holds of 1 credit on a balance of 10', async () => {
    const userId = await newUser();
    await giveCredits(userId, 7);
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => credits.hold(userId, randomUUID(), 1)));
    const accepted = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected');
    expect(accepted).toBe(10);
    expect(refused).toHaveLength(40);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientCreditsError);
    expect(await credits.getBalance(userId)).toEqual({ subscription: 3, purchased: 7, held: 10, available: 0 });
    await assertBooksBalance(userId);
  });

  it('captures subscription credits first, resolves each hold once, and ignores repeats', async () => {
    const userId = await newUser();
    await giveCredits(userId, 4);
    const a = randomUUID();
    const b = randomUUID();
    await credits.hold(userId, a, 2);
    await credits.hold(userId, a, 2); // same generation: no second hold
    await credits.hold(userId, b, 3);
    expect((await credits.getBalance(userId)).held).toBe(5);
    expect(await credits.capture(a, 'Image generation')).toBe(true);
    expect(await credits.getBalance(userId)).toEqual({ subscription: 1, purchased: 4, held: 3, available: 2 });
    expect(await credits.capture(b, 'Video generation')).toBe(true); // 1 from subscription, 2 from purchased
    expect(await credits.getBalance(userId)).toEqual({ subscription: 0, purchased: 2, held: 0, available: 2 });
    expect(await credits.capture(a)).toBe(false);
    expect(await credits.release(a)).toBe(false);
    expect(await credits.release(b)).toBe(false);
    expect(await credits.getBalance(userId)).toEqual({ subscription: 0, purchased: 2, held: 0, available: 2 });
    const charges = await db.query(
      `SELECT generation_id, bucket, amount FROM credit_ledger_entries WHERE user_id = $1 AND kind = 'generation_charge' ORDER BY id`,
      [userId],
    );
    expect(charges).toEqual([
      { generation_id: a, bucket: 'subscription', amount: -2 },
      { generation_id: b, bucket: 'subscription', amount: -1 },
      { generation_id: b, bucket: 'purchased', amount: -2 },
    ]);
    await assertBooksBalance(userId);
  });

  it('releases a hold once and gives the credits back', async () => {
    const userId = await newUser();
    const g = randomUUID();
    await credits.hold(userId, g, 3);
    expect(await credits.release(g)).toBe(true);
    expect(await credits.release(g)).toBe(false);
    expect(await credits.capture(g)).toBe(false);
    expect(await credits.getBalance(userId)).toEqual({ subscription: 3, purchased: 0, held: 0, available: 3 });
    await assertBooksBalance(userId);
  });

  it('keeps the books under 200+ random concurrent operations (property)', async () => {
    type Op =
      | { kind: 'hold'; user: number; gen: number; amount: number }
      | { kind: 'capture' | 'release'; gen: number }
      | { kind: 'add' | 'deduct'; user: number; amount: number }
      | { kind: 'reset' };
    const USERS = 5;
    const GENS = 80;
    const op: fc.Arbitrary<Op> = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constant('hold' as const),
          user: fc.nat(USERS - 1),
          gen: fc.nat(GENS - 1),
          amount: fc.integer({ min: 1, max: 6 }),
        }),
      },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('capture' as const), gen: fc.nat(GENS - 1) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('release' as const), gen: fc.nat(GENS - 1) }) },
      {
        weight: 1,
        arbitrary: fc.record({ kind: fc.constant('add' as const), user: fc.nat(USERS - 1), amount: fc.integer({ min: 1, max: 10 }) }),
      },
      {
        weight: 1,
        arbitrary: fc.record({ kind: fc.constant('deduct' as const), user: fc.nat(USERS - 1), amount: fc.integer({ min: 1, max: 8 }) }),
      },
      { weight: 1, arbitrary: fc.constant({ kind: 'reset' as const }) },
    );

    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 200, maxLength: 260 }), async (ops) => {
        const users = await Promise.all(Array.from({ length: USERS }, () => newUser()));
        for (const u of users) await giveCredits(u, 10);
        const gens = Array.from({ length: GENS }, () => randomUUID());
        const owner = new Map<number, number>(); // a generation belongs to the first user that holds it
        for (const o of ops) if (o.kind === 'hold' && !owner.has(o.gen)) owner.set(o.gen, o.user);
        // Age the accounts so that the reset operations really reset, once.
        await db.query(`UPDATE credit_accounts SET period_start = now() - interval '40 days' WHERE user_id = ANY($1::uuid[])`, [users]);

        const results = await Promise.allSettled(
          ops.map(async (o) => {
            switch (o.kind) {
              case 'hold':
                return credits.hold(users[owner.get(o.gen)!], gens[o.gen], o.amount);
              case 'capture':
                return credits.capture(gens[o.gen]);
              case 'release':
                return credits.release(gens[o.gen]);
              case 'add':
                return credits.adjust({ userId: users[o.user], mode: 'add', amount: o.amount, reason: 'property', actorId: users[o.user] });
              case 'deduct':
                return credits.adjust({
                  userId: users[o.user],
                  mode: 'deduct',
                  amount: o.amount,
                  reason: 'property',
                  actorId: users[o.user],
                });
              case 'reset':
                return credits.resetDueAccounts();
            }
          }),
        );
        // Only the catalogue's refusals are allowed to fail.
        for (const r of results) {
          if (r.status === 'rejected') expect((r.reason as { code?: string }).code).toMatch(/^(INSUFFICIENT_CREDITS|VALIDATION_ERROR)$/);
        }
        for (const u of users) await assertBooksBalance(u);

        // Every hold resolves exactly once; repeating capture/release afterwards changes nothing.
        for (const g of gens) await credits.release(g);
        const before = await Promise.all(users.map((u) => credits.getBalance(u)));
        const repeats = await Promise.all(gens.flatMap((g) => [credits.capture(g), credits.release(g)]));
        expect(repeats.every((r) => r === false)).toBe(true);
        expect(await Promise.all(users.map((u) => credits.getBalance(u)))).toEqual(before);
        const holds: { generation_id: string; status: string; amount: number }[] = await db.query(
          `SELECT generation_id, status, amount FROM credit_holds WHERE generation_id = ANY($1::uuid[])`,
          [gens],
        );
        for (const h of holds) {
          expect(h.status === 'captured' || h.status === 'released').toBe(true);
          const [charged] = await db.query(
            `SELECT coalesce(sum(amount), 0)::int AS total FROM credit_ledger_entries WHERE generation_id = $1 AND kind = 'generation_charge'`,
            [h.generation_id],
          );
          expect(charged.total).toBe(h.status === 'captured' ? -h.amount : 0);
        }
        for (const u of users) {
          await assertBooksBalance(u);
          expect((await credits.getBalance(u)).held).toBe(0);
        }
      }),
      { numRuns: 3 },
    );
  });

  it('a hold asked again while the hold is being captured or released changes nothing and never deadlocks', async () => {
    // Holding locks the account and then writes the hold; capturing and releasing used to take the
    // hold first and then the account, and the two orders met in PostgreSQL deadlocks (one failed).
    const userId = await newUser('free');
    await giveCredits(userId, 300);
    const failures: string[] = [];
    for (let i = 0; i < 120; i++) {
      const g = randomUUID();
      const resolve = () => (i % 2 === 0 ? credits.capture(g) : credits.release(g));
      const settled = await Promise.allSettled([
        credits.hold(userId, g, 1),
        credits.hold(userId, g, 1),
        resolve(),
        credits.hold(userId, g, 1),
        resolve(),
      ]);
      for (const r of settled) if (r.status === 'rejected') failures.push(String((r.reason as Error).message));
      await credits.release(g); // a capture or release that came before the hold left it open
    }
    expect(failures).toEqual([]);
    expect((await credits.getBalance(userId)).held).toBe(0);
    await assertBooksBalance(userId);
  });

  describe('the monthly reset', () => {
    it('resets subscription credits to the plan without rollover, leaves purchased credits, and is idempotent', async () => {
      const userId = await newUser('free');
      await giveCredits(userId, 5); // purchased
      await credits.hold(userId, randomUUID(), 1);
      const g = randomUUID();
      await credits.hold(userId, g, 1);
      await credits.capture(g); // subscription 3 -> 2
      await db.query(`UPDATE credit_accounts SET period_start = now() - interval '40 days' WHERE user_id = $1`, [userId]);
      const before = await credits.getBalance(userId);
      expect(before).toEqual({ subscription: 2, purchased: 5, held: 1, available: 6 });

      expect(await credits.resetDueAccounts()).toBeGreaterThanOrEqual(1);
      expect(await credits.getBalance(userId)).toEqual({ subscription: 3, purchased: 5, held: 1, available: 7 });
      const [account] = await db.query(
        `SELECT period_start > now() - interval '1 month' AS current FROM credit_accounts WHERE user_id = $1`,
        [userId],
      );
      expect(account.current).toBe(true);

      await credits.resetDueAccounts(); // second run: nothing due for this user
      expect(await credits.getBalance(userId)).toEqual({ subscription: 3, purchased: 5, held: 1, available: 7 });
      const kinds = await db.query(
        `SELECT kind, amount FROM credit_ledger_entries WHERE user_id = $1 AND kind LIKE 'monthly%' ORDER BY id`,
        [userId],
      );
      expect(kinds).toEqual([
        { kind: 'monthly_grant', amount: 3 },
        { kind: 'monthly_expiry', amount: -2 },
        { kind: 'monthly_grant', amount: 3 },
      ]);
      await assertBooksBalance(userId);
    });

    it('grants the plan of the tier and is safe when two workers run it at once', async () => {
      const userId = await newUser('starter');
      expect((await credits.getBalance(userId)).subscription).toBe(20);
      await db.query(`UPDATE credit_accounts SET subscription_balance = subscription_balance WHERE user_id = $1`, [userId]);
      await credits.adjust({ userId, mode: 'deduct', amount: 15, reason: 'spent', actorId: userId });
      await db.query(`UPDATE credit_accounts SET period_start = now() - interval '32 days' WHERE user_id = $1`, [userId]);
      await Promise.all([credits.resetDueAccounts(), credits.resetDueAccounts(), credits.resetDueAccounts()]);
      expect(await credits.getBalance(userId)).toEqual({ subscription: 20, purchased: 0, held: 0, available: 20 });
      const grants = await db.query(`SELECT count(*)::int AS n FROM credit_ledger_entries WHERE user_id = $1 AND kind = 'monthly_grant'`, [
        userId,
      ]);
      expect(grants[0].n).toBe(2);
      await assertBooksBalance(userId);
    });
  });

  describe('administrator adjustments', () => {
    it('adds to purchased credits and deducts subscription first, never below zero', async () => {
      const userId = await newUser();
      const admin = await newUser();
      const added = await credits.adjust({ userId, mode: 'add', amount: 5, reason: 'outage compensation', actorId: admin });
      expect(added.balance).toEqual({ subscription: 3, purchased: 5, held: 0, available: 8 });
      await credits.hold(userId, randomUUID(), 2);
      await expect(credits.adjust({ userId, mode: 'deduct', amount: 7, reason: 'too much', actorId: admin })).rejects.toMatchObject({
        code: ErrorCode.VALIDATION_ERROR,
        message: 'Cannot deduct 7 credits: only 6 available.',
      });
      const deducted = await credits.adjust({ userId, mode: 'deduct', amount: 4, reason: 'abuse', actorId: admin });
      expect(deducted.balance).toEqual({ subscription: 0, purchased: 4, held: 2, available: 2 });
      const [entry] = await db.query(
        `SELECT reason, actor_id FROM credit_ledger_entries WHERE user_id = $1 AND kind = 'admin_deduct' LIMIT 1`,
        [userId],
      );
      expect(entry).toEqual({ reason: 'abuse', actor_id: admin });
      await expect(credits.adjust({ userId, mode: 'add', amount: 0, reason: 'x', actorId: admin })).rejects.toMatchObject({
        code: ErrorCode.VALIDATION_ERROR,
      });
      await expect(credits.adjust({ userId, mode: 'add', amount: 1.5, reason: 'x', actorId: admin })).rejects.toMatchObject({
        code: ErrorCode.VALIDATION_ERROR,
      });
      await expect(credits.adjust({ userId, mode: 'add', amount: 1, reason: '  ', actorId: admin })).rejects.toMatchObject({
        code: ErrorCode.VALIDATION_ERROR,
      });
      await assertBooksBalance(userId);
    });
  });

  describe('the database itself', () => {
    it('refuses a negative balance or an over-commitment whatever the code does', async () => {
      const userId = await newUser();
      await expect(db.query(`UPDATE credit_accounts SET subscription_balance = -1 WHERE user_id = $1`, [userId])).rejects.toMatchObject({
        driverError: { code: '23514' },
      });
      await expect(db.query(`UPDATE credit_accounts SET held = 4 WHERE user_id = $1`, [userId])).rejects.toMatchObject({
        driverError: { code: '23514' },
      });
    });

    it('keeps ledger entries immutable (no update, no delete) but lets account deletion anonymise them', async () => {
      const userId = await newUser();
      await expect(db.query(`UPDATE credit_ledger_entries SET amount = 100 WHERE user_id = $1`, [userId])).rejects.toThrow(/immutable/);
      await expect(db.query(`DELETE FROM credit_ledger_entries WHERE user_id = $1`, [userId])).rejects.toThrow(/immutable/);
      const [{ count }] = await db.query(`SELECT count(*)::int AS count FROM credit_ledger_entries WHERE user_id = $1`, [userId]);
      await db.query(`DELETE FROM users WHERE id = $1`, [userId]);
      const [{ orphaned }] = await db.query(
        `SELECT count(*)::int AS orphaned FROM credit_ledger_entries WHERE user_id IS NULL AND reason = 'Monthly credits (free plan)' AND created_at > now() - interval '1 minute'`,
      );
      expect(orphaned).toBeGreaterThanOrEqual(count);
    });
  });
});
