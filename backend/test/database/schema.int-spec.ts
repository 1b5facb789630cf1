import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from '../helpers/test-app';

/** The app never synchronizes: the committed migrations alone must build the schema the entities describe. */
describe('the database schema', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('is exactly what the entities describe once the migrations ran (run `npm run migration:generate -- <Name>` when this fails)', async () => {
    const pending = await t.app.get(DataSource).driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
  });
});
