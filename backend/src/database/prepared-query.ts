import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

interface PgPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * Runs one of the few queries every request makes (the session check, the profile) as a named
 * prepared statement: each pooled connection parses and plans it once, then only binds and runs it,
 * which is most of PostgreSQL's work for a small indexed read (`npm run bench:api`). The name is the
 * statement's identity on a connection, so it must always go with the same text.
 */
export async function preparedQuery<T>(db: DataSource, name: string, text: string, values: unknown[]): Promise<T[]> {
  const pool = (db.driver as PostgresDriver).master as PgPool | undefined;
  if (!pool) return db.query(text, values); // not connected yet: TypeORM reports it
  const { rows } = await pool.query({ name, text, values });
  return rows as T[];
}
