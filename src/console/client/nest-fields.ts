// Form field names with a dot become nested JSON: `branding.company_name` → `{branding: {company_name}}`,
// how the brand and domain forms send the API's `branding` object. Pure, so the tests run it too.

/** Moves every `outer.inner` key of `body` into `body.outer.inner` (one level; the first dot splits). */
export function nestDotted(body: Record<string, unknown>): Record<string, unknown> {
  for (const name of Object.keys(body)) {
    const dot = name.indexOf('.');
    if (dot <= 0) continue;
    const outer = name.slice(0, dot);
    const existing = body[outer];
    const inner = (existing && typeof existing === 'object' && !Array.isArray(existing) ? existing : (body[outer] = {})) as Record<
      string,
      unknown
    >;
    inner[name.slice(dot + 1)] = body[name];
    delete body[name];
  }
  return body;
}

/**
 * Rails-style indexed names become arrays of objects: `submitters[0][email]` → `{submitters: [{email}]}`
 * (the send form's one row per role). Rows whose every value is empty are left out; other keys stay.
 */
export function nestIndexed(body: Record<string, unknown>): Record<string, unknown> {
  const rows = new Map<string, Map<number, Record<string, unknown>>>();
  for (const name of Object.keys(body)) {
    const match = /^(\w+)\[(\d{1,3})\]\[(\w+)\]$/.exec(name);
    if (!match) continue;
    const [, outer, index, inner] = match;
    const list = rows.get(outer) ?? new Map<number, Record<string, unknown>>();
    rows.set(outer, list);
    const row = list.get(Number(index)) ?? {};
    list.set(Number(index), row);
    const value = body[name];
    if (value !== '' && value !== null && value !== undefined) row[inner] = value;
    delete body[name];
  }
  for (const [outer, list] of rows) {
    body[outer] = [...list.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([, row]) => row)
      .filter((row) => Object.keys(row).length > 0);
  }
  return body;
}
