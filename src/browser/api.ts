// The browser bundles' one way to the service's JSON routes (the console's forms, the builder, the signing
// page, the embed scripts). Authentication is a swappable strategy: the console session (cookie +
// X-CSRF-Token from the page's meta tag), an embed JWT (`Authorization: Bearer …`, issue 15 › 1), or the
// signing page's own cookie (sameOrigin). Nothing else in a bundle knows which.
/* eslint-disable @typescript-eslint/no-explicit-any -- API answers are read field by field */

export type ApiAuth = {
  /** Headers every request carries (also pdf.js's document requests). */
  headers(): Record<string, string>;
  /** Whether the browser sends this origin's cookies. */
  credentials: RequestCredentials;
};

export function sessionAuth(doc: Document = document): ApiAuth {
  const csrf = doc.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
  return { headers: () => ({ 'X-CSRF-Token': csrf }), credentials: 'same-origin' };
}

export function bearerAuth(token: string): ApiAuth {
  return { headers: () => ({ Authorization: `Bearer ${token}` }), credentials: 'omit' };
}

/** This origin's cookies and nothing else (the signing page's routes, whose link is the credential). */
export const sameOrigin: ApiAuth = { headers: () => ({}), credentials: 'same-origin' };

export type ApiResult = { ok: boolean; status: number; json: any };

/** The sentences of an API error body: `{error: "…"}` or `{error: ["…", …]}`. */
export function errorSentences(result: ApiResult): string[] {
  const error = result.json?.error ?? result.json?.message;
  if (Array.isArray(error)) return error.map(String);
  if (typeof error === 'string') return [error];
  if (result.status === 401) return ['Your session has ended; sign in again.'];
  return [`The request failed (${result.status}).`];
}

export type ApiClient = {
  base: string;
  auth: ApiAuth;
  call(method: string, path: string, body?: unknown): Promise<ApiResult>;
};

export function createApiClient(base: string, auth: ApiAuth): ApiClient {
  async function call(method: string, path: string, body?: unknown): Promise<ApiResult> {
    const headers: Record<string, string> = { ...auth.headers(), Accept: 'application/json' };
    let payload: BodyInit | undefined;
    if (body instanceof FormData)
      payload = body; // the browser writes the multipart boundary
    else if (body !== undefined && method !== 'GET') {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, { method, headers, body: payload, credentials: auth.credentials });
    } catch {
      return { ok: false, status: 0, json: { error: 'The service could not be reached; check the connection and try again.' } };
    }
    const text = await response.text();
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { ok: response.ok, status: response.status, json };
  }
  return { base, auth, call };
}
