import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, urlPolicyFromEnv, type UrlPolicy } from '../../src/services/webhooks/url-policy';

const production: UrlPolicy = { production: true, allowHosts: [] };
const development: UrlPolicy = { production: false, allowHosts: [] };

// [url, what the refusal must mention]
const BLOCKED: [string, string][] = [
  ['https://127.0.0.1/', 'loopback (127.0.0.0/8)'],
  ['https://127.255.255.254/', 'loopback'],
  ['https://2130706433/', '127.0.0.1, loopback'],
  ['https://0x7f000001/', '127.0.0.1, loopback'],
  ['https://0x7f.0x0.0x0.0x1/', '127.0.0.1, loopback'],
  ['https://0177.0.0.1/', '127.0.0.1, loopback'],
  ['https://017700000001/', '127.0.0.1, loopback'],
  ['https://127.1/', '127.0.0.1, loopback'],
  ['https://127.0.1/', '127.0.0.1, loopback'],
  ['https://0/', '0.0.0.0, "this network"'],
  ['https://0.0.0.0/', '"this network"'],
  ['https://10.0.0.1/', 'a private network (10.0.0.0/8)'],
  ['https://172.16.5.4/', 'a private network (172.16.0.0/12)'],
  ['https://172.31.255.255/', 'a private network (172.16.0.0/12)'],
  ['https://192.168.1.1/', 'a private network (192.168.0.0/16)'],
  ['https://3232235777/', '192.168.1.1, a private network'],
  ['https://100.64.0.1/', 'carrier-grade NAT'],
  ['https://169.254.169.254/latest/meta-data/', 'link-local, where cloud metadata services live'],
  ['https://0xa9fea9fe/', '169.254.169.254, link-local'],
  ['https://192.0.0.170/', 'IETF protocol assignments'],
  ['https://192.0.2.1/', 'documentation space (192.0.2.0/24)'],
  ['https://198.18.0.1/', 'benchmarking space'],
  ['https://198.51.100.9/', 'documentation space (198.51.100.0/24)'],
  ['https://203.0.113.9/', 'documentation space (203.0.113.0/24)'],
  ['https://224.0.0.1/', 'multicast (224.0.0.0/4)'],
  ['https://239.255.255.250/', 'multicast'],
  ['https://240.0.0.1/', 'reserved space'],
  ['https://255.255.255.255/', 'reserved space, including broadcast'],
  ['https://[::1]/', 'loopback (::1)'],
  ['https://[::]/', 'the unspecified address'],
  ['https://[0:0:0:0:0:0:0:1]/', 'loopback (::1)'],
  ['https://[::ffff:127.0.0.1]/', 'an IPv4-mapped address in loopback'],
  ['https://[::ffff:7f00:1]/', 'an IPv4-mapped address in loopback'],
  ['https://[::ffff:169.254.169.254]/', 'an IPv4-mapped address in link-local'],
  ['https://[::ffff:10.0.0.1]/', 'an IPv4-mapped address in a private network'],
  ['https://[::127.0.0.1]/', 'IPv4-compatible space'],
  ['https://[64:ff9b::a9fe:a9fe]/', 'NAT64'],
  ['https://[fc00::1]/', 'a unique local network'],
  ['https://[fd12:3456::1]/', 'a unique local network'],
  ['https://[fe80::1]/', 'link-local (fe80::/10)'],
  ['https://[ff02::1]/', 'multicast (ff00::/8)'],
  ['https://[2001:db8::1]/', 'documentation space (2001:db8::/32)'],
  ['https://[2002:7f00:1::]/', 'a 6to4 address in loopback'],
  ['https://[2001:0:4136:e378::1]/', 'Teredo'],
  ['https://localhost/', 'localhost'],
  ['https://LOCALHOST/', 'localhost'],
  ['https://localhost./', 'localhost'],
  ['https://localhost../', 'localhost'],
  ['https://api.localhost/', 'localhost'],
  ['https://metadata.google.internal/computeMetadata/v1/', 'a cloud metadata service'],
  ['https://metadata.google.internal./', 'a cloud metadata service'],
  ['https://db.prod.internal/', 'an internal hostname'],
  ['https://metadata/', 'a single-label hostname'],
  ['https://127.0.0.1.nip.io/', 'a wildcard-DNS name for loopback'],
  ['https://app-10-0-0-1.sslip.io/', 'a wildcard-DNS name for a private network'],
  ['https://sub.localtest.me/', 'resolves to loopback'],
  ['https://good.com@127.0.0.1/', 'user name or password'],
  ['https://user:pass@hooks.example.com/', 'user name or password'],
  ['https://0x7g.0.0.1/', 'must be an absolute URL'],
];

describe('checkWebhookUrl', () => {
  it.each(BLOCKED)('refuses %s, saying why', (url, why) => {
    const verdict = checkWebhookUrl(url, development);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) {
      expect(verdict.reason).toContain(why);
      expect(verdict.reason).toMatch(/^url .+\.$/);
    }
  });

  it.each([
    'https://hooks.example.com/signing',
    'https://example.com:8443/a?b=c',
    'https://8.8.8.8/',
    'https://134744072/',
    'https://[2606:4700:4700::1111]/',
    'https://[::ffff:8.8.8.8]/',
    'https://8.8.8.8.nip.io/',
    'https://xn--bcher-kva.example/',
  ])('accepts the public destination %s', (url) => {
    expect(checkWebhookUrl(url, development).ok).toBe(true);
  });

  it('refuses plain http in production', () => {
    const verdict = checkWebhookUrl('http://hooks.example.com/', production);
    expect(verdict).toEqual({ ok: false, reason: 'url must use https; plain http is accepted only in development and test.' });
  });

  it('refuses ports other than 443 and 80 in production', () => {
    expect(checkWebhookUrl('https://hooks.example.com:8443/', production)).toEqual({
      ok: false,
      reason: 'url must use port 443 (or 80); port 8443 is accepted only in development and test.',
    });
  });

  it('accepts plain http outside production', () => {
    expect(checkWebhookUrl('http://hooks.example.com/', development).ok).toBe(true);
  });

  it('refuses schemes other than http(s)', () => {
    expect(checkWebhookUrl('ftp://hooks.example.com/', development)).toEqual({ ok: false, reason: 'url must use https, not ftp.' });
  });

  it('refuses a URL over 2048 characters', () => {
    expect(checkWebhookUrl(`https://example.com/${'a'.repeat(2048)}`, development).ok).toBe(false);
  });

  it('lets WEBHOOK_ALLOW_HOSTS exempt an exact host and port outside production', () => {
    const policy = urlPolicyFromEnv({ ENVIRONMENT: 'test', WEBHOOK_ALLOW_HOSTS: '127.0.0.1:9999, other.test' });
    expect(checkWebhookUrl('http://127.0.0.1:9999/hook', policy).ok).toBe(true);
    expect(checkWebhookUrl('http://127.0.0.1:9998/hook', policy).ok).toBe(false);
  });

  it('ignores WEBHOOK_ALLOW_HOSTS in production', () => {
    const policy = urlPolicyFromEnv({ ENVIRONMENT: 'production', WEBHOOK_ALLOW_HOSTS: '127.0.0.1:9999' });
    expect(checkWebhookUrl('https://127.0.0.1:9999/hook', policy).ok).toBe(false);
  });
});
