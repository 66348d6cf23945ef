// PKCS#12 files for the certificate upload tests, made with the real `openssl` once per test run:
// a good RSA one, an ECDSA P-256 one with an intermediate CA, one whose key belongs to another
// certificate, an expired one, and a legacy (RC2/3DES) one. Returned as base64, keyed by name.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PKCS12_PASSWORD = 's3cret-pässword';

/** Also declared for the tests in test/env.d.ts (ProvidedContext). */
export type Pkcs12Fixtures = { password: string; files: Record<'good' | 'ecChain' | 'mismatch' | 'expired' | 'legacy', string> };

export function makePkcs12Fixtures(): Pkcs12Fixtures {
  const dir = mkdtempSync(join(tmpdir(), 'pkcs12-'));
  const path = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const pass = `pass:${PKCS12_PASSWORD}`;
  try {
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'rsa.key',
      '-out',
      'rsa.crt',
      '-days',
      '365',
      '-subj',
      '/CN=Uploaded Seal/O=Acme Uploads',
    );
    openssl('pkcs12', '-export', '-inkey', 'rsa.key', '-in', 'rsa.crt', '-out', 'good.p12', '-passout', pass);

    // An intermediate CA signing a P-256 leaf: the chain travels in the file.
    openssl(
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
      '-days',
      '365',
      '-subj',
      '/CN=Acme Issuing CA',
    );
    openssl(
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      'leaf.key',
      '-out',
      'leaf.csr',
      '-subj',
      '/CN=Acme EC Seal/O=Acme Uploads',
    );
    openssl('x509', '-req', '-in', 'leaf.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'leaf.crt', '-days', '365');
    openssl('pkcs12', '-export', '-inkey', 'leaf.key', '-in', 'leaf.crt', '-certfile', 'ca.crt', '-out', 'ec-chain.p12', '-passout', pass);

    // openssl refuses to pair a key with a certificate it does not match, so the certificate rides as
    // an extra one (-certfile) beside a key from elsewhere.
    openssl('pkcs12', '-export', '-nocerts', '-inkey', 'leaf.key', '-certfile', 'rsa.crt', '-out', 'mismatch.p12', '-passout', pass);

    // -days -1: valid until yesterday.
    openssl('req', '-new', '-key', 'rsa.key', '-out', 'expired.csr', '-subj', '/CN=Expired Seal');
    openssl('x509', '-req', '-in', 'expired.csr', '-signkey', 'rsa.key', '-days', '-1', '-out', 'expired.crt');
    openssl('pkcs12', '-export', '-inkey', 'rsa.key', '-in', 'expired.crt', '-out', 'expired.p12', '-passout', pass);

    openssl('pkcs12', '-export', '-legacy', '-inkey', 'rsa.key', '-in', 'rsa.crt', '-out', 'legacy.p12', '-passout', pass);

    const read = (name: string) => readFileSync(path(name)).toString('base64');
    return {
      password: PKCS12_PASSWORD,
      files: {
        good: read('good.p12'),
        ecChain: read('ec-chain.p12'),
        mismatch: read('mismatch.p12'),
        expired: read('expired.p12'),
        legacy: read('legacy.p12'),
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
