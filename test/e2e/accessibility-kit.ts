// What the accessibility sweeps of the signer's pages share (issue 31 › 4): axe-core with the WCAG 2.2 AA
// tags at any impact, visible focus reached by Tab, the focused element's accessibility node, and the
// layout checks axe leaves out (no sideways scroll at 320 CSS px, touch targets of 44 px).
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { TOUCH_TARGET } from '../../src/lib/design-tokens';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Every axe violation, any impact, as "rule: target" lines (empty when the page passes). */
export async function violations(page: Page, state: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${state} › ${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary}`),
  );
}

/**
 * Where focus is, it shows and nothing covers it (WCAG 2.4.7, 2.4.11): a solid outline, and the element
 * itself is what sits at its centre (not the sticky stepper or a dialog's backdrop).
 */
const FOCUS_SHOWN = `(() => {
  const node = document.activeElement;
  const box = node.getBoundingClientRect();
  const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  const outline = getComputedStyle(node).outlineStyle;
  return { outline, covered: !(top && (top === node || node.contains(top) || top.control === node)) };
})()`;

/** Presses Tab (or Shift+Tab) until the focused element matches `selector`; at most 40 presses. */
export async function tabTo(page: Page, selector: string, shift = false): Promise<void> {
  for (let i = 0; i < 40; i += 1) {
    if (await page.evaluate(`document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`)) {
      expect(await page.evaluate(FOCUS_SHOWN), selector).toEqual({ outline: 'solid', covered: false });
      return;
    }
    await page.keyboard.press(shift ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${selector}; focus is on ${await page.evaluate('document.activeElement?.outerHTML.slice(0, 120)')}`);
}

/** The focused element's computed accessibility node (Chromium's tree over CDP): role, name, properties. */
export async function focusedNode(page: Page): Promise<{ role: string; name: string; properties: Record<string, unknown> }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { result } = (await cdp.send('Runtime.evaluate', { expression: 'document.activeElement' })) as { result: { objectId: string } };
    const { nodes } = (await cdp.send('Accessibility.getPartialAXTree', { objectId: result.objectId, fetchRelatives: false })) as {
      nodes: { role?: { value: string }; name?: { value: string }; properties?: { name: string; value: { value: unknown } }[] }[];
    };
    const node = nodes[0];
    return {
      role: node.role?.value ?? '',
      name: node.name?.value ?? '',
      properties: Object.fromEntries((node.properties ?? []).map((p) => [p.name, p.value.value])),
    };
  } finally {
    await cdp.detach();
  }
}

/**
 * What axe does not check, as lines like violations(): the page scrolls sideways (reflow, WCAG 1.4.10),
 * or a visible control is smaller than the design's touch target (src/lib/design-tokens.ts › TOUCH_TARGET)
 * either way. Checkboxes and radios are 24 px with their label's row making the target; a link inside
 * running text is exempt (WCAG 2.5.8 › Inline).
 */
export async function layoutProblems(page: Page, state: string): Promise<string[]> {
  const found: string[] = await page.evaluate(
    `(() => {
      const width = document.documentElement.clientWidth;
      const problems = [];
      if (document.documentElement.scrollWidth > width) problems.push('scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + width + ' px');
      const controls = document.querySelectorAll('button, a.button, .actions a, select, textarea, summary, input:not([type=checkbox]):not([type=radio]):not([type=hidden])');
      for (const node of controls) {
        const box = node.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        if (getComputedStyle(node).visibility === 'hidden' || node.closest('.visually-hidden')) continue;
        if (box.width < ${TOUCH_TARGET} - 0.5 || box.height < ${TOUCH_TARGET} - 0.5)
          problems.push('target under ${TOUCH_TARGET} px: ' + (node.id ? '#' + node.id : node.outerHTML.slice(0, 80)) + ' ' + Math.round(box.width) + '×' + Math.round(box.height));
      }
      return problems;
    })()`,
  );
  return found.map((line) => `${state} › ${line}`);
}
