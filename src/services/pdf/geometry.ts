// Field areas to PDF rectangles. Areas are stored as callers gave them (spec › Area): numbers up to 1
// are fractions of the page, larger ones PDF points; both measured from the top-left corner, pages
// numbered from 1 (docs/decisions.md › Templates).

export type Area = { page: number; x: number; y: number; w: number; h: number };
export type Rect = { x: number; y: number; width: number; height: number };

export function isFractional(area: Area): boolean {
  return Math.max(area.x, area.y, area.w, area.h) <= 1;
}

/** The area as a rectangle in PDF user space (origin bottom-left) of a page of the given size. */
export function areaToRect(area: Area, page: { width: number; height: number }): Rect {
  const scaleX = isFractional(area) ? page.width : 1;
  const scaleY = isFractional(area) ? page.height : 1;
  const width = area.w * scaleX;
  const height = area.h * scaleY;
  return { x: area.x * scaleX, y: page.height - area.y * scaleY - height, width, height };
}
