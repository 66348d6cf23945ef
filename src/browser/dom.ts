// A small element factory for the browser bundles: attributes as strings (undefined ones left out),
// `text` as the text content, children appended (null ones skipped).
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | undefined> = {},
  ...children: (Node | string | null)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined) continue;
    if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child !== null) node.append(child);
  return node;
}

export function $(selector: string, root: ParentNode = document): HTMLElement | null {
  return root.querySelector(selector);
}

/** The JSON a page renders into `<script type="application/json" id=…>`, or null when absent or unreadable. */
export function jsonData<T>(id: string): T | null {
  const raw = document.getElementById(id)?.textContent;
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}
