// Form field names with a dot become nested JSON: `branding.company_name` → `{branding: {company_name}}`,
// how the brand and domain forms send the API's `branding` object. Pure, so the tests run it too.

/** Moves every `outer.inner` key of `body` into `body.outer.inner` (one level; the first dot splits). */
export function nestDotted(body: Record<string, unknown>): Record<string, unknown> {
  for (const name of Object.keys(body)) {
    const dot = name.indexOf('.');
    if (dot <= 0) continue;
    const outer = name.slice(0, dot);
    const existing = body[outer];
    const inner = (existing && typeof existing === 'object' && !Array.isArray(existing) ? existing : (body[outer] = {})) as Record<string, unknown>;
    inner[name.slice(dot + 1)] = body[name];
    delete body[name];
  }
  return body;
}
