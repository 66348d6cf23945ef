// The live preview of the signing page header beside a branding form (src/console/settings/branding-editor.tsx):
// redrawn on every input with the rules the signing page uses — header colour = header_color, else the
// primary colour darkened 20% (the same `darken` as the server: src/shared/colors.ts).
import { headerPreview } from '../../shared/header-preview';

const HEX = /^#[0-9a-fA-F]{6}$/;

function field(fields: HTMLElement, key: string): HTMLInputElement | null {
  return fields.querySelector<HTMLInputElement>(`[data-branding-key="${key}"]`);
}

function text(fields: HTMLElement, key: string): string {
  return field(fields, key)?.value.trim() ?? '';
}

function redraw(fields: HTMLElement): void {
  const preview = document.getElementById(fields.dataset.brandingFields ?? '');
  if (!preview) return;
  const state = headerPreview(
    {
      displayTitle: text(fields, 'display_title'),
      companyName: text(fields, 'company_name'),
      logoUrl: text(fields, 'logo_url'),
      primary: text(fields, 'primary_button_color'),
      header: text(fields, 'header_color'),
      showBranding: field(fields, 'show_branding')?.checked ?? true,
    },
    { company: preview.dataset.fallbackCompany ?? '', title: preview.dataset.fallbackTitle ?? '' },
  );
  const part = <T extends HTMLElement>(name: string) => preview.querySelector<T>(`[data-preview-${name}]`);
  const header = part('header');
  if (header) header.style.background = state.header;
  const logo = part<HTMLImageElement>('logo');
  if (logo) {
    logo.hidden = !state.logo;
    if (state.logo) logo.src = state.logo;
    else logo.removeAttribute('src');
    logo.alt = state.company;
  }
  const company = part('company');
  if (company) {
    company.hidden = Boolean(state.logo);
    company.textContent = state.company;
  }
  const title = part('title');
  if (title) title.textContent = state.title;
  const button = part('button');
  if (button) button.style.background = state.primary;
  const powered = part('powered');
  if (powered) powered.hidden = !state.showBranding;
}

/** A colour picker and its text field stay in step; the text field is what the form sends. */
function syncColour(target: HTMLInputElement): void {
  if (target.dataset.colorFor) {
    const textField = document.getElementById(target.dataset.colorFor) as HTMLInputElement | null;
    if (textField) textField.value = target.value;
    return;
  }
  const picker = target.id ? document.querySelector<HTMLInputElement>(`[data-color-for="${target.id}"]`) : null;
  if (picker && HEX.test(target.value.trim())) picker.value = target.value.trim().toLowerCase();
}

export function startBrandingPreviews(): void {
  const onChange = (event: Event) => {
    const target = event.target;
    if (!(target instanceof HTMLInputElement)) return;
    const fields = target.closest<HTMLElement>('[data-branding-fields]');
    if (!fields) return;
    syncColour(target);
    redraw(fields);
  };
  document.addEventListener('input', onChange);
  document.addEventListener('change', onChange);
  document.addEventListener('reset', (event) => {
    const form = event.target;
    if (form instanceof HTMLFormElement) setTimeout(() => form.querySelectorAll<HTMLElement>('[data-branding-fields]').forEach(redraw));
  });
}
