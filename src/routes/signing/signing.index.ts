// The signing page under /s/<slug> (spec › What the service does; Submitter states, rules 1–4). The slug
// is the credential: no API token here. State-changing requests must come from the page's own origin.
import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { outboxDrain } from '../../middleware/outbox-drain';
import { sameOrigin } from '../../middleware/same-origin';
import * as h from './signing.handlers';

export function createSigningRoutes() {
  const s = new Hono<AppEnv>();
  s.use('*', sameOrigin());
  // Opening the form (a GET) fires form.viewed, so GETs drain the outbox too.
  s.use('*', outboxDrain({ methods: new Set(['GET', 'POST', 'PUT']) }));
  s.get('/:slug', h.showPage);
  s.get('/:slug/documents/:document_uuid', h.streamDocument);
  s.get('/:slug/download', h.downloadSigned);
  s.post('/:slug/verification', h.postSendCode);
  s.post('/:slug/verification/check', h.postCheckCode);
  s.post('/:slug/open', h.postOpen);
  s.put('/:slug/values', h.putValues);
  s.post('/:slug/attachments', h.postAttachment);
  s.post('/:slug/submit', h.postSubmit);
  s.post('/:slug/decline', h.postDecline);
  s.post('/:slug/delegate', h.postDelegate);
  s.post('/:slug/invite_witness', h.postInviteWitness);
  return s;
}
