// The error a QES signing ends with when it stops for a reason of ours. Apart from qes-signing-flow.ts so
// the signing routes can recognise it without loading the signature engine (decisions.md › Cold start).

import type { MessageKey } from '../../shared/i18n/translator';

/** Signing stopped for a reason of ours, not the provider's; `signerMessage` (a catalog key) is for the retry page. */
export class QesSigningStopped extends Error {
  constructor(
    readonly signerMessage: MessageKey,
    message: string,
  ) {
    super(message);
    this.name = 'QesSigningStopped';
  }
}
