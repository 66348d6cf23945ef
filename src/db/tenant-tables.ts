// Which tables are tenant data and which are control data, derived from the drizzle schema in one place
// (docs/architecture.md › Moving an account): a move copies every tenant table, and a test fails when a
// table with an account_id column is in neither list.
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as schema from './schema/index';

/** Looked up before an account is known: the control database (src/db/shards.ts). Never moved. */
export const CONTROL_TABLES: readonly SQLiteTable[] = [
  schema.accounts,
  schema.users,
  schema.accessTokens,
  schema.stripeEvents,
  schema.idBlocks,
  schema.sessions,
  schema.mfaBackupCodes,
  schema.passwordTokens,
  schema.oauthClients,
  schema.oauthGrants,
  schema.oauthCodes,
  schema.oauthTokens,
  schema.customDomains,
];

/** Shard bookkeeping that is not an account's data: the move's own fences, the plan-limit guard (never holds a row). */
export const SHARD_SYSTEM_TABLES: readonly SQLiteTable[] = [schema.accountFences, schema.planLimitGuards];

export type TenantTable = { name: string; columns: string[] };

const allTables: SQLiteTable[] = (Object.values(schema) as unknown[]).filter((value): value is SQLiteTable => value instanceof SQLiteTable);

function hasAccountId(table: SQLiteTable): boolean {
  return getTableConfig(table).columns.some((column) => column.name === 'account_id');
}

/** Every schema table that is neither control nor shard bookkeeping: an account's rows on its shard. */
export function tenantTableObjects(): SQLiteTable[] {
  const excluded = new Set([...CONTROL_TABLES, ...SHARD_SYSTEM_TABLES]);
  return allTables.filter((table) => !excluded.has(table));
}

/** Schema tables with an account_id column that no list claims (a test keeps this empty). */
export function unclassifiedAccountTables(): string[] {
  const claimed = new Set([...CONTROL_TABLES, ...SHARD_SYSTEM_TABLES, ...tenantTableObjects()]);
  return allTables.filter((table) => hasAccountId(table) && !claimed.has(table)).map((table) => getTableConfig(table).name);
}

/**
 * The tenant tables parent-first (a table after every table its foreign keys reference), so a copy in
 * this order and a delete in the reverse one never break a reference. Each has an `id` and an
 * `account_id`; a tenant table without them could not be moved and throws here.
 */
export function tenantTables(): TenantTable[] {
  const tables = tenantTableObjects();
  const names = new Map(tables.map((table) => [table, getTableConfig(table).name]));
  const ordered: SQLiteTable[] = [];
  const visit = (table: SQLiteTable, path: Set<SQLiteTable>) => {
    if (ordered.includes(table) || path.has(table)) return;
    path.add(table);
    for (const fk of getTableConfig(table).foreignKeys) {
      const parent = fk.reference().foreignTable;
      if (parent !== table && names.has(parent)) visit(parent, path);
    }
    ordered.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return ordered.map((table) => {
    const config = getTableConfig(table);
    const columns = config.columns.map((column) => column.name);
    if (!columns.includes('id') || !columns.includes('account_id'))
      throw new Error(`Tenant table ${config.name} needs id and account_id columns to be movable.`);
    return { name: config.name, columns };
  });
}
