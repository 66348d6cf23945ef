// A real local HTTP server answering like Stripe, for the checkout and payment tests: Checkout Sessions
// (mode subscription for the service's plans; mode payment and subscription for accounts' payment
// fields), their Payment Intents and Subscriptions (with trials), and an imitation checkout page with
// Pay and Fail buttons that builds the webhook events Stripe would send, sends them signed to the
// endpoint a test registered (POST /__webhooks), and redirects to success_url or cancel_url.
// Tests read what it received (GET /__requests) and the events of a session (GET /__events/<session id>).
// POST /v1/checkout/sessions/<id>/expire expires an open session (checkout.session.expired); a paid or
// expired session's checkout page answers 410, as Stripe shows no checkout for it.
// Accounts' recurring payments: Customers, Products and Subscriptions created directly (POST /v1/…, with
// Stripe's Idempotency-Key replay), and POST /__subscriptions/<sub id>/<pay|fail|cancel> builds (and sends
// when registered) invoice.paid, invoice.payment_failed or customer.subscription.deleted, answering the
// events. POST /__outage {secret_key, count, skip?} makes that key's next `count` API calls (after `skip` more) answer 500.
// Plain JavaScript: it runs in Node, and the TypeScript program is typed for workerd only.
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';

/** The key tests configure; any other key gets Stripe's 401 body, except accounts' keys (below). */
export const IMITATION_SECRET_KEY = 'sk_test_imitation';
/** Accounts' own keys in tests start with this (PUT /api/settings/payments). */
export const ACCOUNT_KEY_PREFIX = 'sk_test_acct';

/** @param {import('node:http').IncomingMessage} request @returns {Promise<string>} */
function readBody(request) {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

/** Stripe's signature header over a body (stripe.com/docs/webhooks#verify-manually). */
export function signStripeBody(secret, body, timestamp = Math.floor(Date.now() / 1000)) {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** Nested `metadata[k]` form keys → {k: value}. */
function metadataOf(form, prefix) {
  const out = {};
  for (const [key, value] of Object.entries(form)) {
    const match = key.startsWith(prefix) ? /^\[([^\]]+)\]$/.exec(key.slice(prefix.length)) : null;
    if (match) out[match[1]] = value;
  }
  return out;
}

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Starts the imitation on a spare loopback port. */
export async function startStripeImitation() {
  const received = [];
  /** session id → session (with the key that created it) */
  const sessions = new Map();
  /** session id → events built for it */
  const events = new Map();
  /** secret key → {url, secret}: where a test wants that key's webhooks sent */
  const webhooks = new Map();
  /** subscription id → subscription created through /v1/subscriptions (with its key and price) */
  const subscriptions = new Map();
  /** `${key} ${idempotency key}` → the first response's [status, body] */
  const idempotent = new Map();
  /** secret key → API calls left to fail */
  const outages = new Map();
  let counter = 0;
  const next = (prefix) => `${prefix}_test_imitation${String((counter += 1)).padStart(6, '0')}`;

  function event(type, object) {
    return { id: next('evt'), object: 'event', type, created: Math.floor(Date.now() / 1000), data: { object } };
  }

  /** Builds the events of paying (or failing) a session, records them, and sends them when a webhook is registered. */
  async function settle(session, outcome) {
    const built = [];
    if (session.mode === 'payment') {
      const intent = {
        id: session.payment_intent,
        object: 'payment_intent',
        amount: session.amount_total,
        currency: session.currency,
        metadata: session.payment_intent_metadata,
      };
      if (outcome === 'pay') {
        session.status = 'complete';
        built.push(event('payment_intent.succeeded', { ...intent, status: 'succeeded' }));
        built.push(event('checkout.session.completed', { ...publicSession(session), status: 'complete', payment_status: 'paid' }));
      } else {
        built.push(
          event('payment_intent.payment_failed', {
            ...intent,
            status: 'requires_payment_method',
            last_payment_error: { code: 'card_declined', message: 'Your card was declined.' },
          }),
        );
      }
    } else {
      const subscription = {
        id: session.subscription,
        object: 'subscription',
        status: session.trial_days ? 'trialing' : 'active',
        metadata: session.subscription_metadata,
        trial_end: session.trial_days ? Math.floor(Date.now() / 1000) + session.trial_days * 86400 : null,
      };
      if (outcome === 'pay') {
        built.push(
          event('checkout.session.completed', {
            ...publicSession(session),
            status: 'complete',
            payment_status: session.trial_days ? 'no_payment_required' : 'paid',
          }),
        );
        built.push(event('customer.subscription.created', subscription));
        built.push(
          event('invoice.paid', {
            id: next('in'),
            object: 'invoice',
            subscription: session.subscription,
            amount_paid: session.trial_days ? 0 : session.amount_total,
            currency: session.currency,
            subscription_details: { metadata: session.subscription_metadata },
          }),
        );
      } else {
        built.push(
          event('invoice.payment_failed', {
            id: next('in'),
            object: 'invoice',
            subscription: session.subscription,
            amount_due: session.amount_total,
            currency: session.currency,
            subscription_details: { metadata: session.subscription_metadata },
          }),
        );
      }
    }
    events.set(session.id, [...(events.get(session.id) ?? []), ...built]);
    const hook = webhooks.get(session.key);
    if (hook) {
      for (const e of built) {
        const body = JSON.stringify(e);
        await fetch(hook.url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signStripeBody(hook.secret, body) },
          body,
        }).catch(() => undefined);
      }
    }
    return built;
  }

  async function send(key, built) {
    const hook = webhooks.get(key);
    if (!hook) return;
    for (const e of built) {
      const body = JSON.stringify(e);
      await fetch(hook.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signStripeBody(hook.secret, body) },
        body,
      }).catch(() => undefined);
    }
  }

  /** An invoice of a directly created subscription paid or failed, or the subscription canceled. */
  async function settleSubscription(subscription, action) {
    const invoice = (status) => ({
      id: next('in'),
      object: 'invoice',
      status,
      subscription: subscription.id,
      customer: subscription.customer,
      amount_due: subscription.amount,
      amount_paid: status === 'paid' ? subscription.amount : 0,
      currency: subscription.currency,
      subscription_details: { metadata: subscription.metadata },
    });
    let built;
    if (action === 'pay') {
      subscription.status = 'active';
      built = [event('invoice.paid', invoice('paid'))];
    } else if (action === 'fail') {
      subscription.status = 'past_due';
      built = [event('invoice.payment_failed', invoice('open'))];
    } else {
      subscription.status = 'canceled';
      built = [event('customer.subscription.deleted', publicSubscription(subscription))];
    }
    events.set(subscription.id, [...(events.get(subscription.id) ?? []), ...built]);
    await send(subscription.key, built);
    return built;
  }

  function publicSubscription(subscription) {
    const { key: _key, amount: _amount, ...rest } = subscription;
    return rest;
  }

  /** POST /v1/customers, /v1/products, /v1/subscriptions with an account's key: [status, body]. */
  function createObject(path, key, form) {
    if (path === '/v1/customers')
      return [
        200,
        { id: next('cus'), object: 'customer', email: form.email ?? null, name: form.name ?? null, metadata: metadataOf(form, 'metadata') },
      ];
    if (path === '/v1/products') {
      if (!form.name) return [400, { error: { type: 'invalid_request_error', message: 'Missing required param: name.', param: 'name' } }];
      return [200, { id: next('prod'), object: 'product', name: form.name }];
    }
    for (const required of [
      'customer',
      'items[0][price_data][currency]',
      'items[0][price_data][unit_amount]',
      'items[0][price_data][recurring][interval]',
      'items[0][price_data][product]',
    ]) {
      if (!form[required])
        return [400, { error: { type: 'invalid_request_error', message: `Missing required param: ${required}.`, param: required } }];
    }
    const trialDays = Number(form.trial_period_days ?? 0);
    const subscription = {
      id: next('sub'),
      object: 'subscription',
      key,
      customer: form.customer,
      status: trialDays ? 'trialing' : 'active',
      collection_method: form.collection_method ?? 'charge_automatically',
      amount: Number(form['items[0][price_data][unit_amount]']),
      currency: form['items[0][price_data][currency]'],
      interval: form['items[0][price_data][recurring][interval]'],
      trial_end: trialDays ? Math.floor(Date.now() / 1000) + trialDays * 86400 : null,
      metadata: metadataOf(form, 'metadata'),
    };
    subscriptions.set(subscription.id, subscription);
    return [200, publicSubscription(subscription)];
  }

  function publicSession(session) {
    const { key: _key, payment_intent_metadata: _pim, subscription_metadata: _sm, trial_days: _t, ...rest } = session;
    return rest;
  }

  const server = createServer(async (request, response) => {
    const reply = (status, body) => {
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const url = new URL(request.url ?? '/', 'http://imitation');
    const raw = await readBody(request);
    if (request.method === 'GET' && url.pathname === '/__requests') return reply(200, received);
    const eventsPath = /^\/__events\/([\w]+)$/.exec(url.pathname);
    if (request.method === 'GET' && eventsPath) return reply(200, events.get(eventsPath[1]) ?? []);
    if (request.method === 'POST' && url.pathname === '/__outage') {
      const { secret_key, count, skip = 0 } = JSON.parse(raw);
      outages.set(secret_key, { skip: Number(skip), count: Number(count) });
      return reply(200, { ok: true });
    }
    const subscriptionAction = /^\/__subscriptions\/(sub_[\w]+)\/(pay|fail|cancel)$/.exec(url.pathname);
    if (request.method === 'POST' && subscriptionAction) {
      const subscription = subscriptions.get(subscriptionAction[1]);
      if (!subscription) return reply(404, { error: { message: 'No such subscription.' } });
      return reply(200, await settleSubscription(subscription, subscriptionAction[2]));
    }
    if (request.method === 'POST' && url.pathname === '/__webhooks') {
      const { secret_key, url: target, secret } = JSON.parse(raw);
      webhooks.set(secret_key, { url: target, secret });
      return reply(200, { ok: true });
    }
    // The imitation checkout page: what the signer's browser lands on.
    const page = /^\/checkout\/(cs_[\w]+)(?:\/(pay|fail))?$/.exec(url.pathname);
    if (page) {
      const session = sessions.get(page[1]);
      if (!session) return reply(404, { error: { message: 'No such checkout session.' } });
      if (request.method === 'GET' && !page[2]) {
        const amount = (session.amount_total / 100).toFixed(2);
        response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        return response.end(
          `<!doctype html><title>Imitation Checkout</title><h1>Pay ${escapeHtml(amount)} ${escapeHtml(session.currency.toUpperCase())}</h1>` +
            `<p id="product">${escapeHtml(session.product ?? '')}</p>` +
            `<form method="post" action="/checkout/${session.id}/pay"><button id="imitation-pay">Pay</button></form>` +
            `<form method="post" action="/checkout/${session.id}/fail"><button id="imitation-fail">Fail</button></form>` +
            `<a id="imitation-cancel" href="${escapeHtml(session.cancel_url)}">Back</a>`,
        );
      }
      // Stripe shows no checkout for a session that is no longer open (paid, or expired).
      if (session.status !== 'open') return reply(410, { error: { message: `This checkout session is ${session.status}.` } });
      if (request.method === 'POST' && page[2]) {
        await settle(session, page[2]);
        response.writeHead(303, {
          Location: (page[2] === 'pay' ? session.success_url : session.cancel_url).replace('{CHECKOUT_SESSION_ID}', session.id),
        });
        return response.end();
      }
    }

    const form = Object.fromEntries(new URLSearchParams(raw));
    received.push({
      method: request.method ?? '',
      path: request.url ?? '',
      authorization: request.headers.authorization ?? null,
      contentType: request.headers['content-type'] ?? null,
      idempotencyKey: request.headers['idempotency-key'] ?? null,
      form,
    });
    const direct = ['/v1/customers', '/v1/products', '/v1/subscriptions'].includes(request.url ?? '');
    const expire = /^\/v1\/checkout\/sessions\/(cs_[\w]+)\/expire$/.exec(request.url ?? '');
    if (request.method !== 'POST' || (request.url !== '/v1/checkout/sessions' && !direct && !expire)) {
      return reply(404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${request.url}).` },
      });
    }
    const key = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (key !== IMITATION_SECRET_KEY && !key.startsWith(ACCOUNT_KEY_PREFIX)) {
      return reply(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' } });
    }
    const outage = outages.get(key);
    if (outage && outage.skip > 0) outage.skip -= 1;
    else if (outage && outage.count > 0) {
      outage.count -= 1;
      return reply(500, { error: { type: 'api_error', message: 'An imitated outage: try again later.' } });
    }
    if (expire) {
      // stripe.com/docs/api/checkout/sessions/expire: only an open session of the same key.
      const session = sessions.get(expire[1]);
      if (!session || session.key !== key)
        return reply(404, { error: { type: 'invalid_request_error', message: `No such checkout.session: '${expire[1]}'` } });
      if (session.status !== 'open')
        return reply(400, {
          error: { type: 'invalid_request_error', message: 'Only Checkout Sessions with a status of `open` can be expired.' },
        });
      session.status = 'expired';
      const built = [event('checkout.session.expired', publicSession(session))];
      events.set(session.id, [...(events.get(session.id) ?? []), ...built]);
      await send(session.key, built);
      return reply(200, publicSession(session));
    }
    if (direct) {
      const idempotencyKey = request.headers['idempotency-key'];
      const replay = idempotencyKey ? idempotent.get(`${key} ${idempotencyKey}`) : undefined;
      if (replay) return reply(replay[0], replay[1]);
      const [status, body] = createObject(request.url, key, form);
      if (idempotencyKey && status === 200) idempotent.set(`${key} ${idempotencyKey}`, [status, body]);
      return reply(status, body);
    }
    for (const required of ['mode', 'success_url', 'line_items[0][quantity]', 'line_items[0][price_data][currency]']) {
      if (!form[required])
        return reply(400, { error: { type: 'invalid_request_error', message: `Missing required param: ${required}.`, param: required } });
    }
    if (!['payment', 'subscription'].includes(form.mode))
      return reply(400, { error: { type: 'invalid_request_error', message: `Invalid mode: ${form.mode}.`, param: 'mode' } });
    const id = next('cs');
    const session = {
      id,
      object: 'checkout.session',
      mode: form.mode,
      status: 'open',
      key,
      amount_total: Number(form['line_items[0][price_data][unit_amount]'] ?? 0),
      currency: form['line_items[0][price_data][currency]'],
      product: form['line_items[0][price_data][product_data][name]'],
      client_reference_id: form.client_reference_id ?? null,
      metadata: metadataOf(form, 'metadata'),
      success_url: form.success_url,
      cancel_url: form.cancel_url,
      payment_intent: form.mode === 'payment' ? next('pi') : null,
      payment_intent_metadata: metadataOf(form, 'payment_intent_data[metadata]'),
      subscription: form.mode === 'subscription' ? next('sub') : null,
      subscription_metadata: metadataOf(form, 'subscription_data[metadata]'),
      trial_days: Number(form['subscription_data[trial_period_days]'] ?? 0),
    };
    sessions.set(id, session);
    // The service's own plan checkout keeps Stripe's hosted address; accounts' payments get the imitation page.
    const address =
      key === IMITATION_SECRET_KEY ? `https://checkout.stripe.com/c/pay/${id}` : `http://127.0.0.1:${server.address().port}/checkout/${id}`;
    reply(200, { ...publicSession(session), url: address });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** @param {import('vitest/node').TestProject} project */
export default async function setup(project) {
  const imitation = await startStripeImitation();
  project.provide('stripePort', imitation.port);
  return imitation.close;
}
