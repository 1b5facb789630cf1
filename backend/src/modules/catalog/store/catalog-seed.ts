import { seedScenes, seedTemplates } from '../catalog';

/** Runs one SQL statement: a QueryRunner's or a DataSource's `query`. */
export type RunQuery = (sql: string, params?: unknown[]) => Promise<unknown>;

/**
 * Inserts the seed rows (the typed data) missing from the catalogue tables and never touches a
 * row that exists: an admin's edits stay, and a template or scene added to the code later appears
 * at the next start. Answers how many rows it inserted (the caller raises the version then).
 * Used by the migration that creates the tables and by every start (CatalogStore).
 */
export async function insertMissingSeed(run: RunQuery): Promise<number> {
  const templates = seedTemplates().map((t) => ({
    id: t.id,
    category: t.category,
    name: t.name,
    description: t.description,
    prompt_description: t.promptDescription,
    required_tier: t.requiredTier,
    sort_order: t.sortOrder,
    artwork: t.artwork,
  }));
  const scenes = seedScenes().map((s) => ({
    id: s.id,
    name: s.name,
    description: s.description,
    prompt_description: s.promptDescription,
    required_tier: s.requiredTier,
    credit_cost: s.creditCost,
    sort_order: s.sortOrder,
    artwork: s.artwork,
  }));
  const inserted = (rows: unknown) => (Array.isArray(rows) ? rows.length : 0);
  const t = await run(
    `INSERT INTO "catalog_templates" ("id", "category", "name", "description", "prompt_description", "required_tier", "sort_order", "artwork")
     SELECT x.id, x.category, x.name, x.description, x.prompt_description, x.required_tier, x.sort_order, x.artwork
       FROM jsonb_to_recordset($1::jsonb) AS x(id varchar, category varchar, name varchar, description varchar,
            prompt_description varchar, required_tier varchar, sort_order integer, artwork jsonb)
     ON CONFLICT ("id") DO NOTHING RETURNING "id"`,
    [JSON.stringify(templates)],
  );
  const s = await run(
    `INSERT INTO "catalog_scenes" ("id", "name", "description", "prompt_description", "required_tier", "credit_cost", "sort_order", "artwork")
     SELECT x.id, x.name, x.description, x.prompt_description, x.required_tier, x.credit_cost, x.sort_order, x.artwork
       FROM jsonb_to_recordset($1::jsonb) AS x(id varchar, name varchar, description varchar, prompt_description varchar,
            required_tier varchar, credit_cost integer, sort_order integer, artwork jsonb)
     ON CONFLICT ("id") DO NOTHING RETURNING "id"`,
    [JSON.stringify(scenes)],
  );
  return inserted(t) + inserted(s);
}
