// The account's certificate authority for aes signer certificates (issue 18 › 2) is made on first use;
// first uses at the same moment store one authority and all of them sign with it.
import { env } from 'cloudflare:test';
import * as pkijs from 'pkijs';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { accountCertificateAuthority } from '../../src/services/certificates/account-identity';
import { issueSignerCertificate } from '../../src/services/certificates/signer-certificate';
import { createAccount, shardOf } from '../helpers';
import { accountRow } from '../shard-fixtures';

describe('the account certificate authority', () => {
  it('is one authority when first uses race, and the certificates it issues chain to it', async () => {
    const { accountId } = await createAccount({ name: 'Racing CA Co' });
    const shard = await shardOf(accountId);
    const account = await accountRow(accountId);
    const authorities = await Promise.all([0, 1, 2].map(() => accountCertificateAuthority(env, createDb(shard), account)));
    const { results } = await shard
      .prepare("SELECT certificate FROM signing_identities WHERE account_id = ? AND source = 'ca'")
      .bind(accountId)
      .all<{ certificate: string }>();
    expect(results).toHaveLength(1);
    const stored = Uint8Array.from(atob(results[0].certificate), (c) => c.charCodeAt(0));
    for (const ca of authorities) expect([...ca.certificate]).toEqual([...stored]);

    const { signer } = await issueSignerCertificate(authorities[1], { name: 'Ada Buyer', email: 'ada@example.com' }, new Date());
    const issued = pkijs.Certificate.fromBER(signer.certificate);
    expect(await issued.verify(pkijs.Certificate.fromBER(stored))).toBe(true);
  });
});
