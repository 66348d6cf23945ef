// The floor for bench/submissions' creates: the least a bulk create of submissions, each with one signer
// invited by email, must do — read the JSON body, write a submission and a submitter row for each in one
// D1 batch (ids back, the way the API's batch gets them), and queue the invitations — behind the same
// HTTP hop and routing, in the same runtime. No template, audit trail, webhook events or validation.
const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS submissions (id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, template_id TEXT NOT NULL,
     slug TEXT NOT NULL UNIQUE, status TEXT NOT NULL DEFAULT 'pending', created_at TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS submitters (id INTEGER PRIMARY KEY, submission_id INTEGER NOT NULL REFERENCES submissions(id),
     slug TEXT NOT NULL UNIQUE, email TEXT NOT NULL, name TEXT, created_at TEXT NOT NULL)`,
];

/** D1 binds at most 100 parameters a statement. */
const MAX_PARAMETERS = 100;

let schemaReady;

const slug = () => crypto.randomUUID().replaceAll('-', '').slice(0, 14);

/** Multi-row inserts of `rows`, each `perRow` parameters after `shared` ones bound once (?1…). */
function inserts(db, head, shared, rows, perRow, tuple) {
  const statements = [];
  const size = Math.floor((MAX_PARAMETERS - shared.length) / perRow);
  for (let i = 0; i < rows.length; i += size) {
    const chunk = rows.slice(i, i + size);
    const values = chunk.map((_, j) => tuple(shared.length + j * perRow + 1)).join(', ');
    statements.push(db.prepare(`${head} VALUES ${values} RETURNING id`).bind(...shared, ...chunk.flat()));
  }
  return statements;
}

export default {
  async fetch(request, env) {
    schemaReady ??= env.DB.batch(SCHEMA.map((sql) => env.DB.prepare(sql)));
    await schemaReady;
    const { template_id: templateId, submissions } = await request.json();
    const at = new Date().toISOString();
    const made = submissions.map(({ submitters: [signer] }) => ({ slug: slug(), signer: { ...signer, slug: slug() } }));
    const results = await env.DB.batch([
      ...inserts(
        env.DB,
        'INSERT INTO submissions (account_id, template_id, created_at, slug)',
        [1, String(templateId), at],
        made.map((s) => [s.slug]),
        1,
        (p) => `(?1, ?2, ?3, ?${p})`,
      ),
      ...inserts(
        env.DB,
        'INSERT INTO submitters (created_at, submission_id, slug, email, name)',
        [at],
        made.map((s) => [s.slug, s.signer.slug, s.signer.email, s.signer.name ?? null]),
        4,
        (p) => `(?1, (SELECT id FROM submissions WHERE slug = ?${p}), ?${p + 1}, ?${p + 2}, ?${p + 3})`,
      ),
    ]);
    const ids = results.flatMap((r) => r.results.map((row) => row.id));
    await env.MESSAGES.sendBatch(made.map((s) => ({ body: { type: 'invitation', submitter: s.signer.slug } })));
    return Response.json(
      made.map((s, i) => ({
        id: ids[i],
        slug: s.slug,
        submitters: [{ id: ids[made.length + i], slug: s.signer.slug, email: s.signer.email }],
      })),
      { status: 201 },
    );
  },
};
