// The signing page under /s/<slug> (spec › What the service does; Submitter states, rules 1–4). The slug
// is the credential: no API token here. State-changing requests must come from the page's own origin.
import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { outboxDrain } from '../../middleware/outbox-drain';
import { sameOrigin } from '../../middleware/same-origin';
import * as h from './signing.handlers';
import { ATTACHMENT_BODY_BYTES, SMALL_BODY_BYTES, signingBodyLimit, signingRateLimits, VALUES_BODY_BYTES } from './signing.limits';

export function createSigningRoutes() {
  const s = new Hono<AppEnv>();
  // Counted first, so even a refused or unknown-link request costs its sender a slot.
  s.use('*', ...signingRateLimits());
  s.use('*', sameOrigin());
  // Opening the form (a GET) fires form.viewed, so GETs drain the outbox too.
  s.use('*', outboxDrain({ methods: new Set(['GET', 'POST', 'PUT']) }));
  s.get('/:slug', h.showPage);
  s.get('/:slug/documents/:document_uuid', h.streamDocument);
  s.get('/:slug/download', h.downloadSigned);
  const small = signingBodyLimit(SMALL_BODY_BYTES);
  const values = signingBodyLimit(VALUES_BODY_BYTES);
  s.post('/:slug/verification', small, h.postSendCode);
  s.post('/:slug/verification/check', small, h.postCheckCode);
  s.post('/:slug/open', small, h.postOpen);
  s.put('/:slug/values', values, h.putValues);
  // Multipart: the file itself is judged by the attachment rules (512 KB pictures, 10 MB files).
  s.post('/:slug/attachments', signingBodyLimit(ATTACHMENT_BODY_BYTES), h.postAttachment);
  s.post('/:slug/submit', values, h.postSubmit);
  s.post('/:slug/decline', small, h.postDecline);
  s.post('/:slug/delegate', small, h.postDelegate);
  s.post('/:slug/invite_witness', small, h.postInviteWitness);
  return s;
}
