// The fields' areas drawn over the pages, and how they are moved and resized: by pointer (mouse, pen and
// touch alike, through pointer events) and by keyboard (arrows move, Shift+arrows resize, Alt for fine
// steps, Delete removes). Each area is a focusable button named for screen readers.
import { areaAsFractions, type DocumentView } from '../../shared/template-schema';
import { clampArea, resizeArea, TYPE_LABELS, type Area } from './builder-model';
import { el } from '../../browser/dom';
import { pageSize } from '../../browser/pdf-pages';
import type { Editor } from './editor';
import { pageKey, type PageMap } from './pages';

const STEP = 0.01;
const FINE_STEP = 0.001;

function place(box: HTMLElement, area: Area): void {
  box.style.left = `${area.x * 100}%`;
  box.style.top = `${area.y * 100}%`;
  box.style.width = `${area.w * 100}%`;
  box.style.height = `${area.h * 100}%`;
}

function areaPageSize(documents: DocumentView[], area: Area) {
  return pageSize(
    documents.find((d) => d.uuid === area.attachment_uuid),
    area.page,
  );
}

export function mountAreas(editor: Editor, pages: PageMap, documents: DocumentView[]): void {
  const focusSelected = () => {
    const s = editor.selected;
    if (!s) return;
    document.querySelector<HTMLElement>(`.area[data-field="${s.field}"][data-area="${s.area}"]`)?.focus();
  };

  editor.onRender(() => {
    const hadFocus = document.activeElement instanceof HTMLElement && document.activeElement.classList.contains('area');
    for (const old of Array.from(document.querySelectorAll('.page .area'))) old.remove();
    for (const field of editor.draft.fields) {
      field.areas.forEach((area, index) => {
        const page = pages.get(pageKey(area.attachment_uuid, area.page));
        if (!page) return;
        const shown = areaAsFractions(area, areaPageSize(documents, area));
        const selected = editor.selected?.field === field.uuid && editor.selected.area === index;
        const invalid = editor.fieldErrors.has(field.uuid);
        const label = `${TYPE_LABELS[field.type]} field "${field.name}" for ${editor.roleName(field.submitter_uuid)}, page ${area.page}${field.areas.length > 1 ? `, area ${index + 1} of ${field.areas.length}` : ''}${invalid ? ', has errors' : ''}`;
        const box = el(
          'div',
          {
            class: `area type-${field.type}${selected ? ' selected' : ''}${invalid ? ' invalid' : ''}`,
            role: 'button',
            tabindex: '0',
            'aria-label': label,
            'aria-pressed': selected ? 'true' : 'false',
            'aria-describedby': 'area-keys',
            'data-field': field.uuid,
            'data-area': String(index),
            'data-type': field.type,
          },
          el('span', { class: 'area-name', 'aria-hidden': 'true', text: field.name }),
          el('span', { class: 'handle', 'aria-hidden': 'true', 'data-handle': 'resize' }),
        );
        place(box, shown);
        page.append(box);
      });
    }
    if (hadFocus) focusSelected();
  });

  const root = document.getElementById('builder-pages')!;

  root.addEventListener('pointerdown', (event) => {
    const box = (event.target as HTMLElement).closest<HTMLElement>('.area');
    if (!box || event.button !== 0) return;
    const field = editor.draft.fields.find((f) => f.uuid === box.dataset.field);
    const index = Number(box.dataset.area);
    const page = box.parentElement!;
    if (!field || !field.areas[index]) return;
    event.preventDefault();
    const resizing = (event.target as HTMLElement).dataset.handle === 'resize';
    const snapshot = JSON.stringify(editor.draft);
    const start = areaAsFractions(field.areas[index], areaPageSize(documents, field.areas[index]));
    const rect = page.getBoundingClientRect();
    const from = { x: event.clientX, y: event.clientY };
    let moved = false;
    box.setPointerCapture(event.pointerId);
    box.focus();
    const onMove = (e: PointerEvent) => {
      const dx = (e.clientX - from.x) / rect.width;
      const dy = (e.clientY - from.y) / rect.height;
      if (!moved && Math.abs(e.clientX - from.x) + Math.abs(e.clientY - from.y) < 3) return;
      moved = true;
      field.areas[index] = resizing ? resizeArea(start, dx, dy) : clampArea({ ...start, x: start.x + dx, y: start.y + dy });
      place(box, field.areas[index]);
    };
    const onUp = () => {
      box.removeEventListener('pointermove', onMove);
      box.removeEventListener('pointerup', onUp);
      box.removeEventListener('pointercancel', onUp);
      editor.selected = { field: field.uuid, area: index };
      if (moved) editor.commitFrom(snapshot);
      else editor.render();
      focusSelected();
    };
    box.addEventListener('pointermove', onMove);
    box.addEventListener('pointerup', onUp);
    box.addEventListener('pointercancel', onUp);
  });

  root.addEventListener('keydown', (event) => {
    const box = (event.target as HTMLElement).closest<HTMLElement>('.area');
    if (!box) return;
    const fieldUuid = box.dataset.field!;
    const index = Number(box.dataset.area);
    const field = editor.draft.fields.find((f) => f.uuid === fieldUuid);
    if (!field) return;
    if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      editor.selected = null;
      editor.change((draft) => {
        const target = draft.fields.find((f) => f.uuid === fieldUuid)!;
        target.areas.splice(index, 1);
        if (target.areas.length === 0) draft.fields.splice(draft.fields.indexOf(target), 1);
      });
      document.getElementById('builder-palette')?.querySelector<HTMLElement>('button')?.focus();
      return;
    }
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      editor.select({ field: fieldUuid, area: index });
      focusSelected();
      return;
    }
    const arrows: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const direction = arrows[event.key];
    if (!direction) return;
    event.preventDefault();
    const step = event.altKey ? FINE_STEP : STEP;
    editor.selected = { field: fieldUuid, area: index };
    editor.change((draft) => {
      const target = draft.fields.find((f) => f.uuid === fieldUuid)!;
      const area = areaAsFractions(target.areas[index], areaPageSize(documents, target.areas[index]));
      target.areas[index] = event.shiftKey
        ? resizeArea(area, direction[0] * step, direction[1] * step)
        : clampArea({ ...area, x: area.x + direction[0] * step, y: area.y + direction[1] * step });
    });
    focusSelected();
  });
}
