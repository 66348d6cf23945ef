// The signing page's requests to its own routes (same origin; JSON errors are `{error: string | string[]}`).
export class RequestError extends Error {}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each caller reads the fields of its own route's JSON
export async function send(method: string, path: string, body?: unknown): Promise<any> {
  const init: RequestInit = { method, headers: {}, credentials: 'same-origin' };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
  }
  const res = await fetch(path, init);
  const json = await res.json().catch(() => ({}));
  if (!res.ok) {
    const error = json.error;
    throw new RequestError(Array.isArray(error) ? error.join(' ') : error || `The request failed (${res.status}).`);
  }
  return json;
}

export function $(selector: string, root: ParentNode = document): HTMLElement | null {
  return root.querySelector(selector);
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}
