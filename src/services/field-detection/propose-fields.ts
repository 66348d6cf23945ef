// Proposes form fields from one page's layout: blanks (underscore runs, drawn lines, boxes) matched with
// the label beside or under them, and checkboxes (small squares, ☐ glyphs) with the text to their right.
// Plain rules over geometry, so detection works offline; a model may refine the result (detect-fields.ts).
import type { PageLayout, Shape, TextRun } from './page-layout';

export type ProposedType = 'text' | 'signature' | 'initials' | 'date' | 'phone' | 'checkbox';

/** A proposal on one page, its area in fractions of the page (top-left origin), as template areas are. */
export type Proposal = {
  name: string;
  type: ProposedType;
  page: number;
  area: { x: number; y: number; w: number; h: number };
  confidence: number;
};

type Blank = { x: number; y: number; w: number; label?: string; labelled: 'left' | 'below' | 'above' | 'inside' | 'none' };

const CHECKBOX_GLYPHS = /[\u2610\u25a1\u2751\u274f\u25fb\u25a2\u274e]/gu;
const UNDERSCORES = /_{4,}/g;
/** Labels longer than this are sentences, not labels. */
const MAX_LABEL = 48;

/** The field type a label asks for, and whether a keyword said so (spec › Template field types). */
export function typeOfLabel(label: string): { type: ProposedType; keyword: boolean } {
  const text = label.toLowerCase();
  if (/\bdate\b|\bdated\b|\bdob\b/.test(text)) return { type: 'date', keyword: true };
  if (/\binitials?\b/.test(text)) return { type: 'initials', keyword: true };
  if (/\bsign(ature|ed|ing)?\b|sign here/.test(text)) return { type: 'signature', keyword: true };
  if (/\b(tele)?phone\b|\btel\b|\bmobile\b|\bcell\b|\bfax\b/.test(text)) return { type: 'phone', keyword: true };
  if (/\bname\b|\bprint(ed)?\b|\be-?mail\b|\baddress\b|\bcity\b|\bstate\b|\bzip\b|\btitle\b|\bcompany\b|\bwitness\b/.test(text))
    return { type: 'text', keyword: true };
  return { type: 'text', keyword: false };
}

function cleanLabel(text: string): string {
  return text
    .replace(/_+/g, ' ')
    .replace(/[:.\s]+$/u, '')
    .replace(/^[\s:.]+/u, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_LABEL);
}

/** Text that sits on the same line as a point at height `baseline` (top-origin y of a blank's line). */
function onRow(run: TextRun, lineY: number): boolean {
  const base = run.y + run.h;
  return base >= lineY - run.h * 1.2 && base <= lineY + 4;
}

function labelLeftOf(texts: TextRun[], x: number, lineY: number): string | undefined {
  let best: TextRun | undefined;
  for (const run of texts) {
    const right = run.x + run.w;
    if (!onRow(run, lineY) || right > x + 3 || right < x - 160) continue;
    if (!best || right > best.x + best.w) best = run;
  }
  const label =
    best &&
    cleanLabel(
      best.text
        .split(/_{4,}/)
        .filter((s) => s.trim())
        .pop() ?? '',
    );
  return label && label.length <= MAX_LABEL && /\p{L}/u.test(label) ? label : undefined;
}

/** A label printed just under (or above) a line, starting within its span: "Signature of applicant". */
function labelNear(texts: TextRun[], blank: { x: number; y: number; w: number }, side: 'below' | 'above'): string | undefined {
  for (const run of texts) {
    const startsWithin = run.x >= blank.x - 8 && run.x <= blank.x + blank.w * 0.6;
    const gap = side === 'below' ? run.y - blank.y : blank.y - (run.y + run.h);
    if (!startsWithin || gap < -2 || gap > 12) continue;
    const label = cleanLabel(run.text);
    if (label.length > 0 && label.length <= MAX_LABEL && /\p{L}/u.test(label)) return label;
  }
  return undefined;
}

/** Underscore runs inside text: each run's own preceding words are its label. */
function underscoreBlanks(texts: TextRun[]): Blank[] {
  const blanks: Blank[] = [];
  for (const run of texts) {
    const perChar = run.w / Math.max(1, run.text.length);
    for (const match of run.text.matchAll(UNDERSCORES)) {
      const before = cleanLabel(run.text.slice(0, match.index).split(/_{4,}/).pop() ?? '');
      const x = run.x + perChar * match.index;
      const blank: Blank = { x, y: run.y + run.h, w: perChar * match[0].length, labelled: 'none' };
      const label = before && /\p{L}/u.test(before) ? before : match.index === 0 ? labelLeftOf(texts, x, blank.y) : undefined;
      if (label) Object.assign(blank, { label, labelled: 'left' });
      blanks.push(blank);
    }
  }
  return blanks;
}

function isLine(shape: Shape, page: PageLayout): boolean {
  return shape.h <= 2.5 && shape.w >= 36 && shape.w <= page.width * 0.85;
}

function isCheckbox(shape: Shape): boolean {
  return shape.w >= 5 && shape.w <= 16 && shape.h >= 5 && shape.h <= 16 && Math.abs(shape.w - shape.h) <= 2;
}

function isBox(shape: Shape, page: PageLayout): boolean {
  return shape.h >= 12 && shape.h <= 60 && shape.w >= 48 && shape.w <= page.width * 0.7;
}

/** A line under words already written (an underlined link or heading) is not a blank. */
function isUnderline(texts: TextRun[], line: { x: number; y: number; w: number }): boolean {
  return texts.some((t) => {
    const overlap = Math.min(t.x + t.w, line.x + line.w) - Math.max(t.x, line.x);
    const base = t.y + t.h;
    return overlap >= line.w * 0.5 && base <= line.y + 1 && base >= line.y - 4;
  });
}

/** Drawn lines with a label to their left, under them or (for keyword labels) over them. */
function lineBlanks(page: PageLayout): Blank[] {
  const blanks: Blank[] = [];
  for (const shape of page.shapes.filter((s) => isLine(s, page))) {
    const line = { x: shape.x, y: shape.y + shape.h / 2, w: shape.w };
    if (isUnderline(page.texts, line)) continue;
    const left = labelLeftOf(page.texts, line.x, line.y);
    if (left) {
      blanks.push({ ...line, label: left, labelled: 'left' });
      continue;
    }
    // Printed forms often caption a line from below ("LAST", "Signature of applicant").
    const below = labelNear(page.texts, line, 'below');
    if (below && (typeOfLabel(below).keyword || below.length <= 24)) {
      blanks.push({ ...line, label: below, labelled: 'below' });
    }
  }
  return blanks;
}

/** Boxes holding (at most) a short label in their top-left corner, or with one to their left. */
function boxBlanks(page: PageLayout): Blank[] {
  const blanks: Blank[] = [];
  for (const shape of page.shapes.filter((s) => isBox(s, page))) {
    const inside = page.texts.filter(
      (t) => t.x >= shape.x - 1 && t.x + t.w <= shape.x + shape.w + 1 && t.y >= shape.y - 1 && t.y + t.h <= shape.y + shape.h + 1,
    );
    const bottom = shape.y + shape.h;
    if (inside.length === 1 && inside[0].y - shape.y < shape.h / 2) {
      const label = cleanLabel(inside[0].text);
      if (label && typeOfLabel(label).keyword) blanks.push({ x: shape.x, y: bottom, w: shape.w, label, labelled: 'inside' });
    } else if (inside.length === 0) {
      const label = labelLeftOf(page.texts, shape.x, bottom);
      if (label && typeOfLabel(label).keyword) blanks.push({ x: shape.x, y: bottom, w: shape.w, label, labelled: 'left' });
    }
  }
  return blanks;
}

const HEIGHT: Record<ProposedType, number> = { signature: 26, initials: 22, date: 15, phone: 15, text: 15, checkbox: 10 };

function proposalOf(page: PageLayout, blank: Blank): Proposal {
  const { type, keyword } = blank.label ? typeOfLabel(blank.label) : { type: 'text' as const, keyword: false };
  const h = Math.min(HEIGHT[type], blank.labelled === 'inside' ? 20 : HEIGHT[type]);
  const confidence = blank.label ? (keyword ? (blank.labelled === 'left' || blank.labelled === 'inside' ? 0.9 : 0.8) : 0.6) : 0.4;
  return {
    name: blank.label ?? 'Field',
    type,
    page: page.page,
    area: fraction(page, { x: blank.x, y: blank.y - h, w: blank.w, h }),
    confidence,
  };
}

function fraction(page: PageLayout, box: { x: number; y: number; w: number; h: number }) {
  const x = Math.max(0, box.x);
  const y = Math.max(0, box.y);
  // Rounded down, so x + w and y + h never pass the page's edge.
  const round = (n: number) => Math.floor(n * 1e4) / 1e4;
  return {
    x: round(x / page.width),
    y: round(y / page.height),
    w: round(Math.min(box.w, page.width - x) / page.width),
    h: round(Math.min(box.h, page.height - y) / page.height),
  };
}

/** The words right of a checkbox on its row: its name. */
function checkboxLabel(texts: TextRun[], box: Shape): string | undefined {
  const centre = box.y + box.h / 2;
  const run = texts
    .filter((t) => t.x >= box.x + box.w - 1 && t.x <= box.x + box.w + 40 && t.y <= centre && t.y + t.h >= centre)
    .sort((a, b) => a.x - b.x)[0];
  const label = run && cleanLabel(run.text.replace(CHECKBOX_GLYPHS, ''));
  return label || undefined;
}

function checkboxes(page: PageLayout): Proposal[] {
  const boxes: { box: Shape; confidence: number }[] = page.shapes.filter(isCheckbox).map((box) => ({ box, confidence: 0.75 }));
  for (const run of page.texts) {
    const perChar = run.w / Math.max(1, [...run.text].length);
    for (const match of run.text.matchAll(CHECKBOX_GLYPHS)) {
      const size = Math.min(run.h, 14);
      boxes.push({
        box: { x: run.x + perChar * [...run.text.slice(0, match.index)].length, y: run.y + (run.h - size) / 2, w: size, h: size },
        confidence: 0.85,
      });
    }
  }
  return boxes.map(({ box, confidence }) => ({
    name: checkboxLabel(page.texts, box) ?? 'Checkbox',
    type: 'checkbox',
    page: page.page,
    area: fraction(page, box),
    confidence,
  }));
}

export function intersectionOverUnion(a: Proposal['area'], b: Proposal['area']): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const overlap = w * h;
  return overlap / (a.w * a.h + b.w * b.h - overlap);
}

/** One proposal per place: of overlapping ones (a box and its own bottom edge), the surest stays. */
function withoutOverlaps(proposals: Proposal[]): Proposal[] {
  const kept: Proposal[] = [];
  for (const p of [...proposals].sort((a, b) => b.confidence - a.confidence)) {
    if (!kept.some((k) => k.page === p.page && intersectionOverUnion(k.area, p.area) > 0.4)) kept.push(p);
  }
  return kept;
}

/** Every field proposed on one page, top to bottom, left to right. */
export function proposeFields(page: PageLayout): Proposal[] {
  const blanks = [...underscoreBlanks(page.texts), ...lineBlanks(page), ...boxBlanks(page)];
  const proposals = withoutOverlaps([...blanks.map((b) => proposalOf(page, b)), ...checkboxes(page)]);
  return proposals.sort((a, b) => a.area.y - b.area.y || a.area.x - b.area.x);
}
