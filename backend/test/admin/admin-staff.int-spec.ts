import { ROLE_CHANGE_MESSAGES } from '@fitting-room/shared/access-policy';
import { DataSource } from 'typeorm';
import { planForTier } from '../../src/modules/catalog/plans';
import { bearer, signUp, SignedIn, uniqueEmail } from '../helpers/auth';
import { createTestApp, TestApp } from '../helpers/test-app';

/**
 * The console's tier change confirmation and staff roles against the real PostgreSQL: the figure
 * the confirmation states is the one the change gives (the server's rule, read twice, never copied),
 * a balance that moved meanwhile refuses the change (409) with nothing changed; an admin sets roles
 * (audited), a support agent then reaches the desk and nothing else; nobody removes their own admin
 * role, an address ADMIN_EMAILS lists keeps it, and two admins demoting each other at once leave one.
 */
describe('admin API: tier change confirmation and staff roles', () => {
  let t: TestApp;
  let db: DataSource;
  let admin: SignedIn;
  const adminEmail = uniqueEmail('staff-admin');
  const listedEmail = uniqueEmail('staff-listed');

  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: `${adminEmail},${listedEmail}` });
    db = t.app.get(DataSource);
    admin = await signUp(t.http, { email: adminEmail, full_name: 'Staff Admin' });
  });
  afterAll(async () => t?.close());

  const as = (who: SignedIn) => bearer(who.accessToken);
  const auditOf = (userId: string, action: string) =>
    db.query(`SELECT actor_id, before, after FROM audit_log WHERE target_user_id = $1 AND action = $2 ORDER BY created_at, id`, [
      userId,
      action,
    ]);
  const ledgerOf = (userId: string) =>
    db.query(`SELECT kind, amount FROM credit_ledger_entries WHERE user_id = $1 ORDER BY id`, [userId]) as Promise<
      { kind: string; amount: number }[]
    >;

  /** A Starter account with 12 credits left, as the tester's. */
  async function starterWith12(label: string): Promise<SignedIn> {
    const person = await signUp(t.http, { full_name: `Tier ${label}` });
    await t.http.put(`/api/admin/users/${person.userId}`).set(as(admin)).send({ tier: 'starter' }).expect(200);
    const res = await t.http
      .post(`/api/admin/users/${person.userId}/credits`)
      .set(as(admin))
      .send({ mode: 'deduct', amount: planForTier('starter').monthlyCredits - 12, reason: 'Spent' })
      .expect(200);
    expect(res.body.credits).toBe(12);
    return person;
  }

  it("states the server's figure, changes nothing until confirmed, and the change gives exactly that figure", async () => {
    const person = await starterWith12('confirmed');
    const ledgerBefore = await ledgerOf(person.userId);
    const preview = await t.http.get(`/api/admin/users/${person.userId}/tier-change`).query({ tier: 'glow_up' }).set(as(admin)).expect(200);
    const added = planForTier('glow_up').monthlyCredits - 12;
    expect(preview.body).toEqual({
      from_tier: 'starter',
      to_tier: 'glow_up',
      from_name: 'Starter',
      to_name: 'Glow Up',
      unchanged: false,
      credits_added: added,
      credits_before: 12,
      credits_after: 12 + added,
      monthly_credits: planForTier('glow_up').monthlyCredits,
      stripe_subscription: false,
      title: 'Change tier from Starter to Glow Up?',
      summary: `This gives ${added} subscription credits now (balance 12 -> ${12 + added}). The person is told by mail.`,
    });
    // asking changed nothing: the tier, the ledger, the audit trail
    const still = await t.http.get(`/api/admin/users/${person.userId}`).set(as(admin)).expect(200);
    expect({ tier: still.body.tier, credits: still.body.credits }).toEqual({ tier: 'starter', credits: 12 });
    expect(await ledgerOf(person.userId)).toEqual(ledgerBefore);
    expect(await auditOf(person.userId, 'user.tier.change')).toHaveLength(1); // the Starter set-up only

    // confirmed with that figure: applied, and the balance is the one announced
    const changed = await t.http
      .patch(`/api/admin/users/${person.userId}`)
      .set(as(admin))
      .send({ tier: 'glow_up', expected_credits_added: preview.body.credits_added })
      .expect(200);
    expect({ tier: changed.body.tier, credits: changed.body.credits }).toEqual({ tier: 'glow_up', credits: preview.body.credits_after });
    expect((await ledgerOf(person.userId)).at(-1)).toEqual({ kind: 'plan_upgrade', amount: added });
    expect((await auditOf(person.userId, 'user.tier.change')).at(-1)).toEqual({
      actor_id: admin.userId,
      before: { tier: 'starter' },
      after: { tier: 'glow_up', credits_added: added },
    });
  });

  it('refuses a confirmation whose figure is stale (the balance moved): 409, and nothing changed', async () => {
    const person = await starterWith12('stale');
    const preview = (
      await t.http.get(`/api/admin/users/${person.userId}/tier-change`).query({ tier: 'glow_up' }).set(as(admin)).expect(200)
    ).body;
    // meanwhile the person spends (an admin deducts 2): the upgrade would now give 2 more
    await t.http
      .post(`/api/admin/users/${person.userId}/credits`)
      .set(as(admin))
      .send({ mode: 'deduct', amount: 2, reason: 'Spent meanwhile' })
      .expect(200);
    const ledgerBefore = await ledgerOf(person.userId);
    const refused = await t.http
      .patch(`/api/admin/users/${person.userId}`)
      .set(as(admin))
      .send({ tier: 'glow_up', expected_credits_added: preview.credits_added });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message: `The balance changed since the confirmation: this change now gives ${preview.credits_added + 2} subscription credits. Review it again.`,
    });
    const still = await t.http.get(`/api/admin/users/${person.userId}`).set(as(admin)).expect(200);
    expect({ tier: still.body.tier, credits: still.body.credits }).toEqual({ tier: 'starter', credits: 10 });
    expect(await ledgerOf(person.userId)).toEqual(ledgerBefore);
    expect(await auditOf(person.userId, 'user.tier.change')).toHaveLength(1);
  });

  it('answers a downgrade and an unknown tier or account as the change would', async () => {
    const person = await starterWith12('down');
    const down = await t.http.get(`/api/admin/users/${person.userId}/tier-change`).query({ tier: 'free' }).set(as(admin)).expect(200);
    expect(down.body).toMatchObject({
      credits_added: 0,
      credits_before: 12,
      credits_after: 12,
      title: 'Change tier from Starter to Free?',
    });
    expect(down.body.summary).toBe(
      'No credits are taken back (balance stays 12); from the next monthly reset, Free gives 3 subscription credits. The person is told by mail.',
    );
    const bad = await t.http.get(`/api/admin/users/${person.userId}/tier-change`).query({ tier: 'platinum' }).set(as(admin));
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    const none = await t.http
      .get('/api/admin/users/00000000-0000-4000-8000-000000000000/tier-change')
      .query({ tier: 'starter' })
      .set(as(admin));
    expect(none.status).toBe(404);
  });

  it('an admin makes someone support (audited): the desk opens to them and nothing else; back to user closes it', async () => {
    const agent = await signUp(t.http, { full_name: 'Sam Support' });
    expect((await t.http.get('/api/admin/support-inquiries').set(as(agent))).status).toBe(403);

    const res = await t.http.put(`/api/admin/users/${agent.userId}/role`).set(as(admin)).send({ role: 'support' }).expect(200);
    expect(res.body.role).toBe('support');
    expect(await auditOf(agent.userId, 'user.role.change')).toEqual([
      { actor_id: admin.userId, before: { role: 'user' }, after: { role: 'support' } },
    ]);
    // at once, with the same session: the desk and the user lookup, not the admin's pages
    await t.http.get('/api/admin/support-inquiries').set(as(agent)).expect(200);
    await t.http.get('/api/admin/users').set(as(agent)).expect(200);
    for (const path of ['/api/admin/stats', '/api/admin/audit-log', '/api/admin/payments'])
      expect({ path, status: (await t.http.get(path).set(as(agent))).status }).toEqual({ path, status: 403 });
    // support cannot set roles
    expect((await t.http.put(`/api/admin/users/${agent.userId}/role`).set(as(agent)).send({ role: 'admin' })).status).toBe(403);

    await t.http.put(`/api/admin/users/${agent.userId}/role`).set(as(admin)).send({ role: 'user' }).expect(200);
    expect((await t.http.get('/api/admin/support-inquiries').set(as(agent))).status).toBe(403);
    // a role that does not exist changes nothing
    const bad = await t.http.put(`/api/admin/users/${agent.userId}/role`).set(as(admin)).send({ role: 'superadmin' });
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    expect(await auditOf(agent.userId, 'user.role.change')).toHaveLength(2);
  });

  it('nobody removes their own admin role; an address ADMIN_EMAILS lists keeps it', async () => {
    const own = await t.http.put(`/api/admin/users/${admin.userId}/role`).set(as(admin)).send({ role: 'support' });
    expect(own.body).toEqual({ statusCode: 400, code: 'VALIDATION_ERROR', message: ROLE_CHANGE_MESSAGES.ownRole });
    const listed = await signUp(t.http, { email: listedEmail, full_name: 'Listed Admin' });
    expect((await t.http.get(`/api/admin/users/${listed.userId}`).set(as(admin)).expect(200)).body.role).toBe('admin');
    const demote = await t.http.put(`/api/admin/users/${listed.userId}/role`).set(as(admin)).send({ role: 'user' });
    expect(demote.body).toEqual({ statusCode: 400, code: 'VALIDATION_ERROR', message: ROLE_CHANGE_MESSAGES.listedAdmin });
    const [row] = await db.query(`SELECT role FROM users WHERE id = $1`, [listed.userId]);
    expect(row.role).toBe('admin');
    expect(await auditOf(listed.userId, 'user.role.change')).toEqual([]);
  });

  it('two admins demoting each other at the same moment: one wins, the other is refused, an admin is left', async () => {
    const ann = await signUp(t.http, { full_name: 'Ann Admin' });
    const bob = await signUp(t.http, { full_name: 'Bob Admin' });
    for (const who of [ann, bob])
      await t.http.put(`/api/admin/users/${who.userId}/role`).set(as(admin)).send({ role: 'admin' }).expect(200);
    const [byAnn, byBob] = await Promise.all([
      t.http.put(`/api/admin/users/${bob.userId}/role`).set(as(ann)).send({ role: 'user' }),
      t.http.put(`/api/admin/users/${ann.userId}/role`).set(as(bob)).send({ role: 'user' }),
    ]);
    expect([byAnn.status, byBob.status].sort()).toEqual([200, 403]);
    const roles: { id: string; role: string }[] = await db.query(`SELECT id, role FROM users WHERE id = ANY($1::uuid[])`, [
      [ann.userId, bob.userId],
    ]);
    expect(roles.map((r) => r.role).sort()).toEqual(['admin', 'user']);
  });
});
