// One input per field type for the stepper: text-like inputs, choices, uploads, and the signature pad
// (draw with finger or mouse via pointer events, type, or upload).
import { el } from '../../browser/dom';
import type { TemplateArea } from '../../shared/template-schema';
import { send } from './api';
import { t } from './messages';

export type Field = {
  uuid: string;
  name: string;
  type: string;
  required: boolean;
  readonly: boolean;
  /** Shown read-only because the embedding host asked (`readonly_fields`); its value is still submitted. */
  locked?: boolean;
  placeholder?: string;
  options?: string[];
  formula?: string;
  default_value?: string;
  pattern?: string;
  validation?: string;
  areas: TemplateArea[];
  preferences: Record<string, unknown>;
};

/**
 * What the stepper shows for a field: `node`, and `control`, the native control that carries the field's
 * label, required and invalid states (a checkbox, input or select); without one the field is a group
 * (radio buttons, a signature's ways to sign, a payment) that the stepper names with a legend.
 */
export type Widget = { node: HTMLElement; focus(): void; control?: HTMLElement; checkbox?: boolean };

const MODE_LABELS = {
  draw: 'client.signature.mode.draw',
  type: 'client.signature.mode.type',
  upload: 'client.signature.mode.upload',
} as const;

const INPUT_TYPES: Record<string, string> = { text: 'text', cells: 'text', number: 'number', date: 'date', phone: 'tel' };

/** The signer's payments as the server knows them (field uuid → status, amount text, last failure). */
export type PaymentStates = Record<string, { status: string; amount: string; failure: string | null }>;

export function widgetFor(
  field: Field,
  value: unknown,
  slug: string,
  commit: (value: unknown) => void,
  fail: (message: string) => void,
  payments: PaymentStates = {},
  save: () => Promise<void> = async () => undefined,
): Widget {
  if (field.type === 'payment') return paymentWidget(field, value, slug, fail, payments[field.uuid], save);
  if (field.readonly || field.formula || field.locked || field.type === 'datenow') {
    const node = el('output', { class: 'readonly', id: 'field-input', text: value === null || value === undefined ? '' : String(value) });
    return { node, focus: () => undefined };
  }
  if (INPUT_TYPES[field.type]) {
    const input = el('input', {
      id: 'field-input',
      type: INPUT_TYPES[field.type],
      name: field.uuid,
      placeholder: field.placeholder || undefined,
    });
    if (field.type === 'number') input.setAttribute('step', 'any');
    if (field.type === 'cells') input.setAttribute('autocomplete', 'off');
    if (field.type === 'date') input.setAttribute('autocomplete', 'off');
    input.value = value === null || value === undefined ? '' : String(value);
    input.addEventListener('input', () => commit(input.value));
    return { node: input, control: input, focus: () => input.focus() };
  }
  if (field.type === 'checkbox') {
    const input = el('input', { id: 'field-input', type: 'checkbox', name: field.uuid });
    input.checked = value === true || value === 'true';
    input.addEventListener('change', () => commit(input.checked));
    return { node: input, control: input, checkbox: true, focus: () => input.focus() };
  }
  if (field.type === 'select') {
    const select = el('select', { id: 'field-input', name: field.uuid }, el('option', { value: '', text: t('client.select.choose') }));
    for (const option of field.options ?? []) select.append(el('option', { value: option, text: option }));
    select.value = value === null || value === undefined ? '' : String(value);
    select.addEventListener('change', () => commit(select.value));
    return { node: select, control: select, focus: () => select.focus() };
  }
  if (field.type === 'radio') {
    const group = el('div', { id: 'field-input', class: 'choices' });
    for (const [i, option] of (field.options ?? []).entries()) {
      const input = el('input', { type: 'radio', name: field.uuid, value: option, id: `radio-${i}` });
      input.checked = value === option;
      input.addEventListener('change', () => commit(option));
      group.append(el('label', { for: `radio-${i}` }, input, ` ${option}`));
    }
    const first = () => (group.querySelector('input:checked') ?? group.querySelector('input')) as HTMLInputElement | null;
    return { node: group, focus: () => first()?.focus() };
  }
  if (field.type === 'signature' || field.type === 'initials') return signatureWidget(field, value, slug, commit, fail);
  if (field.type === 'stamp') return stampWidget(field, value, commit);
  return uploadWidget(field, slug, commit, fail);
}

function uploadWidget(field: Field, slug: string, commit: (value: unknown) => void, fail: (message: string) => void): Widget {
  const input = el('input', {
    id: 'field-input',
    type: 'file',
    accept: field.type === 'file' ? 'application/pdf,image/png,image/jpeg' : 'image/png,image/jpeg',
    'aria-label': field.name,
  });
  input.addEventListener('change', async () => {
    const file = input.files?.[0];
    if (!file) return;
    const form = new FormData();
    form.append('field_uuid', field.uuid);
    form.append('file', file);
    try {
      const stored = await send('POST', `/s/${slug}/attachments`, form);
      commit(stored.value);
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
    }
  });
  return { node: input, control: input, focus: () => input.focus() };
}

/** A drawing surface: pointer events cover mouse, pen and touch alike. */
function signaturePad(): { canvas: HTMLCanvasElement; empty(): boolean; clear(): void } {
  const canvas = el('canvas', {
    class: 'sigpad',
    id: 'signature-pad',
    width: '600',
    height: '200',
    role: 'img',
    'aria-label': t('client.signature.mode.draw'),
  });
  const ctx = canvas.getContext('2d')!;
  let drawing = false;
  let strokes = 0;
  const point = (e: PointerEvent) => {
    const r = canvas.getBoundingClientRect();
    return [((e.clientX - r.left) / r.width) * canvas.width, ((e.clientY - r.top) / r.height) * canvas.height] as const;
  };
  canvas.addEventListener('pointerdown', (e) => {
    drawing = true;
    canvas.setPointerCapture(e.pointerId);
    ctx.lineWidth = 3;
    ctx.lineCap = 'round';
    ctx.strokeStyle = '#0b1f66';
    ctx.beginPath();
    ctx.moveTo(...point(e));
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!drawing) return;
    ctx.lineTo(...point(e));
    ctx.stroke();
    strokes += 1;
  });
  const stop = () => (drawing = false);
  canvas.addEventListener('pointerup', stop);
  canvas.addEventListener('pointercancel', stop);
  return {
    canvas,
    empty: () => strokes === 0,
    clear: () => {
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      strokes = 0;
    },
  };
}

/**
 * A signature or initials: drawn, typed or uploaded, three choices of equal standing (issue 31 › 4): the
 * keyboard reaches all three, and a typed name is a signature the server takes as it is.
 */
function signatureWidget(
  field: Field,
  value: unknown,
  slug: string,
  commit: (value: unknown) => void,
  fail: (message: string) => void,
): Widget {
  const node = el('div', { class: 'signature' });
  const body = el('div');
  const tabs = el('div', { class: 'tabs', role: 'group', 'aria-label': t('client.signature.how') });
  const show = (mode: 'draw' | 'type' | 'upload') => {
    for (const tab of tabs.querySelectorAll('button')) tab.setAttribute('aria-pressed', String(tab.dataset.mode === mode));
    body.replaceChildren();
    if (mode === 'draw') {
      const pad = signaturePad();
      const apply = el('button', {
        type: 'button',
        id: 'sig-apply',
        text: field.type === 'initials' ? t('client.initials.apply') : t('client.signature.apply'),
      });
      const clear = el('button', { type: 'button', class: 'secondary', text: t('client.signature.clear') });
      apply.addEventListener('click', () =>
        pad.empty() ? fail(t('client.signature.draw_first')) : commit(pad.canvas.toDataURL('image/png')),
      );
      clear.addEventListener('click', () => pad.clear());
      body.append(pad.canvas, el('div', { class: 'actions' }, apply, clear));
    } else if (mode === 'type') {
      const label = field.type === 'initials' ? t('client.initials.typed_placeholder') : t('client.signature.typed_placeholder');
      const input = el('input', { id: 'sig-typed', type: 'text', autocomplete: field.type === 'initials' ? 'off' : 'name' });
      if (field.required) input.setAttribute('aria-required', 'true');
      if (typeof value === 'string' && !value.startsWith('data:')) input.value = value;
      input.addEventListener('input', () => commit(input.value));
      body.append(el('label', { for: 'sig-typed', text: label }), input);
    } else {
      body.append(uploadWidget(field, slug, commit, fail).node);
    }
  };
  for (const mode of ['draw', 'type', 'upload'] as const) {
    const tab = el('button', {
      type: 'button',
      class: 'secondary',
      'data-mode': mode,
      'aria-pressed': 'false',
      text: t(MODE_LABELS[mode]),
    });
    tab.addEventListener('click', () => show(mode));
    tabs.append(tab);
  }
  node.append(tabs, body);
  if (typeof value === 'string' && value.startsWith('data:image/'))
    body.append(el('img', { src: value, alt: t('client.signature.current') }));
  else show(typeof value === 'string' && value ? 'type' : 'draw');
  const pressed = () => (tabs.querySelector('[aria-pressed="true"]') ?? tabs.querySelector('button')) as HTMLButtonElement;
  return { node, focus: () => pressed().focus() };
}

/** A stamp drawn from the signer's name and today's date (what a company stamp carries). */
function stampWidget(field: Field, value: unknown, commit: (value: unknown) => void): Widget {
  const apply = el('button', { type: 'button', id: 'stamp-apply', text: t('client.stamp.apply') });
  apply.addEventListener('click', () => {
    const canvas = el('canvas', { width: '400', height: '160' });
    const ctx = canvas.getContext('2d')!;
    ctx.strokeStyle = ctx.fillStyle = '#1e3a8a';
    ctx.lineWidth = 6;
    ctx.strokeRect(6, 6, 388, 148);
    ctx.font = 'bold 28px sans-serif';
    ctx.textAlign = 'center';
    ctx.fillText(document.title.split(' - ').pop() ?? 'Stamp', 200, 70, 370);
    ctx.font = '22px sans-serif';
    ctx.fillText(new Date().toISOString().slice(0, 10), 200, 115);
    commit(canvas.toDataURL('image/png'));
  });
  const node = el('div', {}, apply);
  if (typeof value === 'string' && value.startsWith('data:image/')) node.prepend(el('img', { src: value, alt: field.name }));
  return { node, focus: () => apply.focus() };
}

/**
 * A payment field: its amount and description, and a Pay button that starts a Stripe Checkout with the
 * account's key (POST /s/:slug/payments/:field_uuid/checkout) and goes there. Stripe sends the signer
 * back to this page; the webhook, not the return, marks the field paid.
 */
function paymentWidget(
  field: Field,
  value: unknown,
  slug: string,
  fail: (message: string) => void,
  state: PaymentStates[string] | undefined,
  save: () => Promise<void>,
): Widget {
  const prefs = field.preferences as { amount?: unknown; currency?: unknown; description?: unknown };
  const amount =
    state?.amount ??
    (prefs.amount !== undefined
      ? `${prefs.amount} ${prefs.currency}`
      : value !== null && value !== undefined
        ? `${value} ${prefs.currency}`
        : `— ${prefs.currency}`);
  const node = el('div', { id: 'field-input', class: 'payment' }, el('p', { class: 'payment-amount', text: amount }));
  if (typeof prefs.description === 'string') node.append(el('p', { class: 'payment-description', text: prefs.description }));
  if (state?.status === 'paid') {
    node.append(el('p', { class: 'payment-status', role: 'status', text: t('client.payment.paid') }));
    return { node, focus: () => undefined };
  }
  const pay = el('button', { type: 'button', id: 'pay', text: t('client.payment.pay', { amount }) });
  pay.addEventListener('click', async () => {
    pay.setAttribute('disabled', '');
    try {
      // What the signer typed is saved before leaving for Stripe: the page they come back to shows it,
      // and a formula amount is computed from it.
      await save();
      const started = await send('POST', `/s/${slug}/payments/${field.uuid}/checkout`, {});
      window.location.assign(started.url);
    } catch (error) {
      pay.removeAttribute('disabled');
      fail(error instanceof Error ? error.message : String(error));
    }
  });
  node.append(pay);
  // What still asks the signer to pay reads in the error colour; paid and confirming in the success colour.
  const returned = new URLSearchParams(window.location.search).get('payment');
  if (state?.status === 'changed')
    node.append(
      el('p', {
        class: 'payment-status unpaid',
        role: 'status',
        text: t('client.payment.changed', { amount }),
      }),
    );
  else if (state?.status === 'failed')
    node.append(
      el('p', {
        class: 'payment-status unpaid',
        role: 'status',
        text: t('client.payment.failed', { reason: state.failure ?? t('client.payment.refused') }),
      }),
    );
  else if (returned === 'cancelled')
    node.append(el('p', { class: 'payment-status unpaid', role: 'status', text: t('client.payment.cancelled') }));
  else if (returned === 'success' && state?.status === 'pending')
    node.append(el('p', { class: 'payment-status', role: 'status', text: t('client.payment.confirming') }));
  return { node, focus: () => pay.focus() };
}
