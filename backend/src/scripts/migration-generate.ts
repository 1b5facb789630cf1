import 'reflect-metadata';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../database/data-source';
import { registerMigration } from '../database/migrations-index';

/**
 * `npm run migration:generate -- <PascalCaseName>`: compares the entities with the schema that the
 * existing migrations build (in a scratch database on the local PostgreSQL, dropped afterwards)
 * and writes the difference as a new migration, registered in database/migrations/index.ts.
 */
const MIGRATIONS_DIR = path.resolve(__dirname, '..', '..', 'src', 'database', 'migrations');

function escape(sql: string): string {
  return sql.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');
}

async function main(): Promise<void> {
  const name = process.argv[2];
  if (!name || !/^[A-Z][A-Za-z0-9]+$/.test(name)) {
    throw new Error('Usage: npm run migration:generate -- <PascalCaseName>');
  }
  const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const scratch = `fr_migration_${Date.now()}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${scratch}`);
  const url = new URL(adminUrl);
  url.pathname = `/${scratch}`;
  const ds = new DataSource(dataSourceOptions(url.toString()));
  try {
    await ds.initialize();
    await ds.runMigrations();
    const sql = await ds.driver.createSchemaBuilder().log();
    if (sql.upQueries.length === 0) {
      process.stdout.write('No changes in the entities: no migration written.\n');
      return;
    }
    const timestamp = Date.now();
    const className = `${name}${timestamp}`;
    const up = sql.upQueries.map(
      (q) => `    await queryRunner.query(\`${escape(q.query)}\`${q.parameters?.length ? `, ${JSON.stringify(q.parameters)}` : ''});`,
    );
    const down = sql.downQueries
      .reverse()
      .map((q) => `    await queryRunner.query(\`${escape(q.query)}\`${q.parameters?.length ? `, ${JSON.stringify(q.parameters)}` : ''});`);
    const file = `${timestamp}-${name}`;
    fs.writeFileSync(
      path.join(MIGRATIONS_DIR, `${file}.ts`),
      `import { MigrationInterface, QueryRunner } from 'typeorm';\n\n` +
        `export class ${className} implements MigrationInterface {\n  name = '${className}';\n\n` +
        `  public async up(queryRunner: QueryRunner): Promise<void> {\n${up.join('\n')}\n  }\n\n` +
        `  public async down(queryRunner: QueryRunner): Promise<void> {\n${down.join('\n')}\n  }\n}\n`,
    );
    const indexFile = path.join(MIGRATIONS_DIR, 'index.ts');
    fs.writeFileSync(indexFile, registerMigration(fs.readFileSync(indexFile, 'utf8'), className, file));
    process.stdout.write(`wrote src/database/migrations/${file}.ts (${up.length} statements)\n`);
  } finally {
    if (ds.isInitialized) await ds.destroy();
    await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
