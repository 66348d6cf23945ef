import { describe, expect, it } from 'vitest';
import { canonicalIpEntry, describeInvalidIpEntry, ipAllowed, ipEntryWithin } from '../../src/lib/ip';

describe('allowed_ips entries', () => {
  it.each(['192.0.2.1', '10.0.0.0/8', '2001:db8::1', '2001:db8::/32', '::ffff:10.0.0.0/104'])('accepts %s', (entry) => {
    expect(describeInvalidIpEntry(entry)).toBeNull();
  });

  it.each(['10.1', '256.0.0.1', '10.0.0.0/33', '2001:db8::/129', 'example.com', ''])('rejects %j with a sentence', (entry) => {
    expect(describeInvalidIpEntry(entry)).toMatch(/is not a valid/);
  });

  it('canonicalises IPv6 spelling', () => {
    expect(canonicalIpEntry('2001:0DB8:0000::0001')).toBe('2001:db8::1');
  });
});

describe('ipAllowed', () => {
  it('allows any address when the list is empty', () => {
    expect(ipAllowed('198.51.100.1', [])).toBe(true);
    expect(ipAllowed(null, [])).toBe(true);
  });

  it('matches an IPv4 client inside an IPv4-mapped IPv6 range', () => {
    expect(ipAllowed('10.1.2.3', ['::ffff:10.0.0.0/104'])).toBe(true);
    expect(ipAllowed('11.1.2.3', ['::ffff:10.0.0.0/104'])).toBe(false);
  });

  it('never matches an IPv6 client against an IPv4 range', () => {
    expect(ipAllowed('2001:db8::1', ['0.0.0.0/0'])).toBe(false);
  });

  it('refuses a missing client address when a list is set', () => {
    expect(ipAllowed(null, ['0.0.0.0/0'])).toBe(false);
  });
});

describe('ipEntryWithin', () => {
  it('holds for any entry when the outer list is empty', () => {
    expect(ipEntryWithin('2001:db8::1', [])).toBe(true);
  });

  it('holds for an address or a narrower range inside a listed range', () => {
    expect(ipEntryWithin('10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(ipEntryWithin('10.1.0.0/16', ['10.0.0.0/8'])).toBe(true);
    expect(ipEntryWithin('10.0.0.0/8', ['10.0.0.0/8'])).toBe(true);
  });

  it('fails for a wider range, even one containing the listed range', () => {
    expect(ipEntryWithin('10.0.0.0/7', ['10.0.0.0/8'])).toBe(false);
    expect(ipEntryWithin('10.0.0.0/24', ['10.0.0.1'])).toBe(false);
  });

  it('compares IPv4-mapped IPv6 entries as the IPv4 ones they carry', () => {
    expect(ipEntryWithin('::ffff:10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(ipEntryWithin('10.1.0.0/16', ['::ffff:10.0.0.0/104'])).toBe(true);
    expect(ipEntryWithin('::ffff:0:0/95', ['0.0.0.0/0'])).toBe(false);
  });

  it('never matches across address families', () => {
    expect(ipEntryWithin('2001:db8::1', ['0.0.0.0/0'])).toBe(false);
    expect(ipEntryWithin('10.0.0.1', ['::/0'])).toBe(false);
  });
});
