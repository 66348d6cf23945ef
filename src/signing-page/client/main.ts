// The signing page's browser script: reads the page's data and starts the part of the page it shows.
import { $ } from '../../browser/dom';
import { send } from './api';
import { showDocuments } from './documents';
import { startForm, type FormState } from './form';
import { announcePage } from './embed-messages';
import { reportLinkClick } from './link-click';
import { t } from './messages';

type Disclosure = { version: string; locale: string; accepted: boolean };
type PageData =
  | ({ page: 'form'; disclosure?: Disclosure } & FormState)
  | { page: 'verify'; slug: string; channel: 'email' | 'sms' | 'whatsapp' }
  | { page: 'completed'; slug: string };

function text(id: string, value: string) {
  const node = $(`#${id}`);
  if (node) node.textContent = value;
}

function startVerify(slug: string, channel: 'email' | 'sms' | 'whatsapp') {
  $('#send-code')?.addEventListener('click', async () => {
    try {
      await send('POST', `/s/${slug}/verification`, {});
      text('verify-error', t(channel === 'email' ? 'client.verify.sent' : 'client.verify.sent_phone'));
    } catch (e) {
      text('verify-error', (e as Error).message);
    }
  });
  $('#check-code')?.addEventListener('click', async () => {
    try {
      await send('POST', `/s/${slug}/verification/check`, { code: ($('#code') as HTMLInputElement).value });
      window.location.reload();
    } catch (e) {
      text('verify-error', (e as Error).message);
    }
  });
}

function startCompleted(slug: string) {
  $('#invite-witness')?.addEventListener('click', async () => {
    try {
      const name = ($('#witness-name') as HTMLInputElement).value;
      const email = ($('#witness-email') as HTMLInputElement).value;
      await send('POST', `/s/${slug}/invite_witness`, { name, email });
      text('witness-error', t('client.witness.invited', { email }));
    } catch (e) {
      text('witness-error', (e as Error).message);
    }
  });
}

/**
 * The language switch applies when the signer presses its button, not on change (WCAG 3.2.2: a closed
 * select fires a change for every arrow key), keeping the rest of the page's query: an embedding host's
 * options (theme, prefill, redirect) survive the switch, which the form's own GET would drop.
 */
function startLanguageSwitch() {
  const form = $('#language-form') as HTMLFormElement | null;
  const select = $('#language-select') as HTMLSelectElement | null;
  form?.addEventListener('submit', (event) => {
    if (!select) return;
    event.preventDefault();
    const url = new URL(window.location.href);
    url.searchParams.set('lang', select.value);
    window.location.assign(url.href);
  });
}

/** The disclosure comes first: the form starts once the signer ticked the box and it is recorded. */
function startAfterDisclosure(data: { slug: string; disclosure?: Disclosure }, start: () => void) {
  if (!data.disclosure || data.disclosure.accepted) return start();
  const box = $('#disclosure-accept') as HTMLInputElement | null;
  const button = $('#disclosure-continue') as HTMLButtonElement | null;
  button?.addEventListener('click', async () => {
    if (!box?.checked) {
      text('disclosure-error', t('client.disclosure.tick_first'));
      box?.focus();
      return;
    }
    button.disabled = true;
    try {
      // The version and language shown: accepting records that language's text and hash.
      await send('POST', `/s/${data.slug}/consent`, { version: data.disclosure!.version, language: data.disclosure!.locale });
      $('#disclosure')?.remove();
      start();
    } catch (e) {
      button.disabled = false;
      text('disclosure-error', (e as Error).message);
    }
  });
}

document.documentElement.classList.add('js');
startLanguageSwitch();
announcePage();
const raw = document.getElementById('signing-data')?.textContent;
if (raw) {
  const data = JSON.parse(raw) as PageData;
  reportLinkClick(data.slug);
  if (data.page === 'form') {
    // The documents show at once, the disclosure above them; the form over them starts once it is accepted.
    const pages = showDocuments(document.getElementById('app')!, data.documents);
    startAfterDisclosure(data, () => startForm(data, pages));
  } else if (data.page === 'verify') startVerify(data.slug, data.channel);
  else if (data.page === 'completed') startCompleted(data.slug);
}
