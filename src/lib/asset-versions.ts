// Versioned URLs for the browser bundles under /vendor (issue 31 › 6): `?v=` carries the file's ETag
// from the ASSETS binding, and an answer to a request whose `v` is the current ETag may be cached for a
// year without asking again (`immutable`); any other request keeps the assets' own revalidating headers.
// A deployment's assets never change under an isolate, so each file's ETag is asked for once per isolate.

// Values, not promises: a promise of another request's fetch may not be awaited (Workers refuse I/O on
// behalf of a different request), so requests arriving before the first answer each ask.
const versions = new Map<string, string | null>();

/** `"abc"` and `W/"abc"` → `abc` (the compressed copy an edge serves may carry a weak one). */
function etagValue(etag: string | null): string | null {
  const value = etag?.replace(/^W\//, '').replace(/"/g, '');
  return value && /^[\w.-]{1,128}$/.test(value) ? value : null;
}

/** The file's version (its ETag), asked for once per isolate; null when ASSETS cannot say. */
async function assetVersion(assets: Fetcher | undefined, path: string): Promise<string | null> {
  const known = versions.get(path);
  if (known !== undefined) return known;
  if (!assets) return null;
  try {
    const res = await assets.fetch(new Request(`https://assets.invalid${path}`, { method: 'HEAD' }));
    await res.body?.cancel();
    const version = res.ok ? etagValue(res.headers.get('ETag')) : null;
    versions.set(path, version);
    return version;
  } catch {
    return null;
  }
}

/** `path?v=<version>`, or `path` itself when its version is unknown (a build without the file). */
export async function versionedAssetUrl(assets: Fetcher | undefined, path: string): Promise<string> {
  const version = await assetVersion(assets, path);
  return version ? `${path}?v=${version}` : path;
}

/**
 * The ASSETS answer to a /vendor request, cached for good when the request names the file's current
 * version (`?v=`, as versionedAssetUrl writes it).
 */
export async function servedAsset(assets: Fetcher, request: Request): Promise<Response> {
  const res = await assets.fetch(request);
  const asked = new URL(request.url).searchParams.get('v');
  if (!res.ok || !asked || asked !== etagValue(res.headers.get('ETag'))) return res;
  const cached = new Response(res.body, res);
  cached.headers.set('Cache-Control', 'public, max-age=31536000, immutable');
  return cached;
}
