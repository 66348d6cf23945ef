// Every page of GET /api/templates counts the account's templates (pagination.total), and every template
// create of a limited plan guards on the same count: both are read from the templates_account_active
// index alone, and a page comes from it in id order without a sort, however many templates an account
// has; the page, its total and its templates' documents come in one D1 round trip. The statements
// checked are the ones the list and the guard send, recorded on their way to D1.
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { observeD1, withD1Observers } from '../../src/db/observed-d1';
import { activeTemplatesCountQuery, listTemplates } from '../../src/db/queries/templates';
import { createAccount, shardOf } from '../helpers';

type Sent = { sql: string; params: unknown[] };

/** The binding with every statement's SQL and parameters recorded as it is bound. */
function recording(binding: D1Database, sent: Sent[]): D1Database {
  const passThrough = <T extends object>(target: T, key: PropertyKey) => {
    const value = Reflect.get(target, key, target) as unknown;
    return typeof value === 'function' ? value.bind(target) : value;
  };
  return new Proxy(binding, {
    get(target, key) {
      if (key !== 'prepare') return passThrough(target, key);
      return (sql: string) =>
        new Proxy(target.prepare(sql), {
          get(statement, name) {
            if (name !== 'bind') return passThrough(statement, name);
            return (...params: unknown[]) => {
              sent.push({ sql, params });
              return statement.bind(...params);
            };
          },
        });
    },
  });
}

/** SQLite's plan for one statement, its steps' details joined. */
async function planOf(shard: D1Database, { sql, params }: Sent): Promise<string> {
  const { results } = await shard
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return results.map((r) => r.detail).join(' | ');
}

describe('the templates list and the active-templates count', () => {
  it('read a page, its total and its documents in one call, sorting nothing and reading no row to count', async () => {
    const owner = await createAccount();
    const shard = await shardOf(owner.accountId);
    const sent: Sent[] = [];
    const db = createDb(recording(shard, sent));
    let calls = 0;
    await withD1Observers(() => {
      observeD1((_call, run) => {
        calls += 1;
        return run();
      });
      return listTemplates(db, owner.accountId, { archived: false }, { page: 2, per_page: 10 });
    });
    expect(calls).toBe(1);
    expect(sent).toHaveLength(3);
    const [page, total, documents] = sent;
    expect(page.sql).toMatch(/order by/i);
    expect(await planOf(shard, page)).toBe('SEARCH templates USING INDEX templates_account_active (account_id=? AND archived_at=?)');
    expect(await planOf(shard, total)).toBe(
      'SEARCH templates USING COVERING INDEX templates_account_active (account_id=? AND archived_at=?)',
    );
    // Only the page's templates' documents, found through their index, the page's ids from the page's index.
    const documentsPlan = await planOf(shard, documents);
    expect(documentsPlan).toContain('SEARCH template_documents USING INDEX template_documents_template (template_id=?)');
    expect(documentsPlan).toContain('SEARCH templates USING COVERING INDEX templates_account_active (account_id=? AND archived_at=?)');
    expect(documentsPlan).not.toMatch(/SCAN template_documents/);
  });

  it('count the active templates a limited plan’s guard compares from the index alone', async () => {
    const owner = await createAccount();
    const shard = await shardOf(owner.accountId);
    const { sql, params } = activeTemplatesCountQuery(createDb(shard), owner.accountId).toSQL();
    expect(await planOf(shard, { sql, params })).toBe(
      'SEARCH templates USING COVERING INDEX templates_account_active (account_id=? AND archived_at=?)',
    );
  });
});
