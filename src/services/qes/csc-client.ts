// A client of a Cloud Signature Consortium API v2 (v2.0.0.2) remote signing service, as the account
// configured it (spec › Update signature level; decisions.md › issue 18: QES through a CSC v2 provider).
// Service calls authenticate with the OAuth client credentials grant; the signer authorizes the
// credential for the document's hash in the browser (scope `credential`, PKCE S256, SCAL2: hashes bound),
// and the access token that comes back is the credential token signHash takes (§ 8.4.4, § 11.10).
// Every request goes to the configured URL's origin only, judged by the webhook destination rules
// first; redirects are not followed; every failure is a QesProviderError.
import * as pkijs from 'pkijs';
import type { QesProviderCredentials } from './provider-credentials';
import { readLimited } from '../../lib/request';
import { QesProviderError, type QesProviderErrorKind } from './provider-error';
import { checkQesProviderUrl, type QesProviderEnv } from './provider-url';
import { fromBase64, toBase64, toBase64Url } from '../../lib/base64';
import { splitApiKey } from './provider-credentials';

export const CSC_OID = {
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  sha256WithRSA: '1.2.840.113549.1.1.11',
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
} as const;

/** The signature algorithms we can embed, in order of preference (each with SHA-256). */
const SUPPORTED_SIGN_ALGOS = [CSC_OID.sha256WithRSA, CSC_OID.rsaEncryption, CSC_OID.ecdsaWithSHA256] as const;
export type CscSignAlgo = (typeof SUPPORTED_SIGN_ALGOS)[number];

export const CSC_TIMEOUT_MS = 10_000;
/** Provider answers larger than this are not read (a certificate chain is a few kB). */
const MAX_RESPONSE_CHARS = 1_000_000;

export type CscCredential = {
  /** DER certificates, the signer's first, then its issuers as the provider sent them. */
  chain: Uint8Array[];
  signAlgo: CscSignAlgo;
  /** The certificate's subject as the provider describes it, when it does. */
  subjectDN: string | null;
};

type Json = Record<string, unknown>;

/** A provider's error code, only when it looks like one (never free text from its body). */
const errorCode = (body: Json | null) => (typeof body?.error === 'string' && /^[a-z_]{1,40}$/.test(body.error) ? body.error : null);

/** What a provider's refusal means for us, from its status and CSC error (§ 10.2) and the step it answered. */
function refusalKind(step: 'service' | 'credential', status: number, body: Json | null): QesProviderErrorKind {
  const code = errorCode(body);
  const description = typeof body?.error_description === 'string' ? body.error_description : '';
  if (status === 429 || status >= 500 || code === 'temporarily_unavailable' || code === 'server_error') return 'unavailable';
  if (code === 'invalid_client' || code === 'unauthorized_client') return 'rejected_credentials';
  if (status === 401 || code === 'invalid_token' || code === 'expired_token')
    return step === 'credential' ? 'authorization_expired' : 'rejected_credentials';
  if (code === 'invalid_grant' || /SAD expired|invalid parameter SAD/i.test(description)) return 'authorization_expired';
  if (/not authorized by the SAD|numbers? of signatures/i.test(description)) return 'authorization_mismatch';
  if (/credentialID/.test(description)) return 'unknown_credential';
  if (/client_id|client_secret/.test(description)) return 'rejected_credentials';
  if (/certificate is expired|disabled|revoked/i.test(description)) return 'credential_unusable';
  if (code === 'access_denied') return step === 'credential' ? 'declined' : 'rejected_credentials';
  return 'bad_response';
}

export class CscClient {
  private readonly base: URL;
  private readonly client: { clientId: string; clientSecret: string } | null;
  private checked: Promise<void> | null = null;
  private infoResult: Promise<Json> | null = null;
  private serviceTokenResult: Promise<string> | null = null;

  constructor(
    private readonly credentials: QesProviderCredentials,
    private readonly env: QesProviderEnv,
    private readonly timeoutMs = CSC_TIMEOUT_MS,
  ) {
    this.base = new URL(credentials.apiUrl.endsWith('/') ? credentials.apiUrl : `${credentials.apiUrl}/`);
    this.client = splitApiKey(credentials.apiKey);
  }

  get credentialId(): string {
    return this.credentials.certificateId;
  }

  /** The configured URL judged once per client (SSRF policy, DNS included). */
  private checkDestination(): Promise<void> {
    this.checked ??= checkQesProviderUrl(this.base.toString(), this.env).then((verdict) => {
      if (verdict.ok) return;
      throw new QesProviderError(verdict.kind === 'unavailable' ? 'unreachable' : 'blocked_url', verdict.reason);
    });
    return this.checked;
  }

  /** One request to the provider's origin; the parsed JSON of a 2xx, a QesProviderError for anything else. */
  private async request(step: 'service' | 'credential', what: string, url: URL, init: RequestInit): Promise<Json> {
    if (url.origin !== this.base.origin) {
      throw new QesProviderError(
        'blocked_url',
        `The QES provider's ${what} is at ${url.origin}, not at qes_provider_api_url's origin ${this.base.origin}; requests go to that origin only.`,
      );
    }
    await this.checkDestination();
    let response: Response;
    try {
      response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new QesProviderError(
        'unreachable',
        `The QES provider at ${this.base.origin} ${timedOut ? `did not answer ${what} within ${this.timeoutMs / 1000} s` : `could not be reached for ${what}`}.`,
      );
    }
    const text = await readLimited(response, MAX_RESPONSE_CHARS);
    let body: Json | null = null;
    if (text.length <= MAX_RESPONSE_CHARS) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Json;
      } catch {
        body = null;
      }
    }
    if (response.status >= 200 && response.status < 300 && body) return body;
    if (response.status >= 200 && response.status < 400) {
      throw new QesProviderError('bad_response', `The QES provider answered ${what} with HTTP ${response.status} and no CSC v2 JSON body.`);
    }
    const kind = refusalKind(step, response.status, body);
    const code = errorCode(body);
    throw new QesProviderError(kind, `The QES provider refused ${what} (HTTP ${response.status}${code ? `, ${code}` : ''}).`);
  }

  private api(step: 'service' | 'credential', method: string, body: Json, token?: string): Promise<Json> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    return this.request(step, method, new URL(method, this.base), { method: 'POST', headers, body: JSON.stringify(body) });
  }

  private requireClient(): { clientId: string; clientSecret: string } {
    if (!this.client)
      throw new QesProviderError(
        'rejected_credentials',
        'qes_provider_api_key must be the OAuth client the provider registered for the account, as client_id:client_secret.',
      );
    return this.client;
  }

  /** `info` (§ 11.1), once per client. */
  info(): Promise<Json> {
    this.infoResult ??= this.api('service', 'info', {});
    return this.infoResult;
  }

  /** The authorization server's base URI from `info.oauth2`; on the provider's own origin only. */
  private async oauthEndpoint(endpoint: 'authorize' | 'token'): Promise<URL> {
    const info = await this.info();
    if (typeof info.oauth2 !== 'string')
      throw new QesProviderError(
        'bad_response',
        'The QES provider’s info names no oauth2 authorization server (oauth2Issuer discovery is not supported).',
      );
    let base: URL;
    try {
      base = new URL(info.oauth2.endsWith('/') ? info.oauth2 : `${info.oauth2}/`);
    } catch {
      throw new QesProviderError('bad_response', 'The QES provider’s info names an oauth2 base that is not a URL.');
    }
    if (base.origin !== this.base.origin) {
      throw new QesProviderError(
        'blocked_url',
        `The QES provider's authorization server is at ${base.origin}, not at qes_provider_api_url's origin ${this.base.origin}; requests go to that origin only.`,
      );
    }
    return new URL(`oauth2/${endpoint}`, base);
  }

  private async token(step: 'service' | 'credential', form: Record<string, string>): Promise<Json> {
    const { clientId, clientSecret } = this.requireClient();
    const body = new URLSearchParams({ ...form, client_id: clientId, client_secret: clientSecret });
    const what = step === 'service' ? 'the service token request' : 'the authorization code';
    const answer = await this.request(step, what, await this.oauthEndpoint('token'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body,
    });
    if (typeof answer.access_token !== 'string' || !answer.access_token)
      throw new QesProviderError('bad_response', 'The QES provider’s token answer carries no access_token.');
    return answer;
  }

  /** A service access token (client credentials grant, scope `service`), once per client. */
  serviceToken(): Promise<string> {
    this.serviceTokenResult ??= this.token('service', { grant_type: 'client_credentials', scope: 'service' }).then(
      (t) => t.access_token as string,
    );
    return this.serviceTokenResult;
  }

  /** `credentials/list` (§ 11.4): the credential ids the account's client may use. */
  async listCredentials(): Promise<string[]> {
    const answer = await this.api('service', 'credentials/list', {}, await this.serviceToken());
    if (!Array.isArray(answer.credentialIDs) || !answer.credentialIDs.every((id) => typeof id === 'string')) {
      throw new QesProviderError('bad_response', 'The QES provider’s credentials/list answer carries no credentialIDs.');
    }
    return answer.credentialIDs as string[];
  }

  /**
   * `credentials/info` (§ 11.5) for the account's credential with its whole chain: usable (key enabled,
   * certificate valid) and signing with an algorithm we can embed, or a QesProviderError saying why not.
   * `token`: a credential token instead of the service token.
   */
  async credentialInfo(token?: string): Promise<CscCredential> {
    const step = token ? 'credential' : 'service';
    const answer = await this.api(
      step,
      'credentials/info',
      { credentialID: this.credentialId, certificates: 'chain', certInfo: true },
      token ?? (await this.serviceToken()),
    );
    const key = answer.key as Json | undefined;
    const cert = answer.cert as Json | undefined;
    const certificates = cert?.certificates;
    if (
      !key ||
      !Array.isArray(key.algo) ||
      !Array.isArray(certificates) ||
      certificates.length === 0 ||
      !certificates.every((c) => typeof c === 'string')
    ) {
      throw new QesProviderError(
        'bad_response',
        'The QES provider’s credentials/info answer lacks the key algorithms or the certificate chain.',
      );
    }
    const id = this.credentialId;
    if (key.status !== 'enabled')
      throw new QesProviderError('credential_unusable', `The QES provider reports the key of credential ${id} as ${String(key.status)}.`);
    if (cert?.status !== undefined && cert.status !== 'valid')
      throw new QesProviderError(
        'credential_unusable',
        `The QES provider reports the certificate of credential ${id} as ${String(cert.status)}.`,
      );
    const signAlgo = SUPPORTED_SIGN_ALGOS.find((algo) => (key.algo as unknown[]).includes(algo));
    if (!signAlgo)
      throw new QesProviderError(
        'credential_unusable',
        `Credential ${id} signs with none of the algorithms the signing service embeds (RSA or ECDSA with SHA-256).`,
      );
    let chain: Uint8Array[];
    let signerCertificate: pkijs.Certificate;
    try {
      chain = (certificates as string[]).map(fromBase64);
      signerCertificate = pkijs.Certificate.fromBER(chain[0]);
    } catch {
      throw new QesProviderError('bad_response', 'The QES provider’s certificate chain is not base64 DER X.509.');
    }
    const now = Date.now();
    if (signerCertificate.notBefore.value.getTime() > now || signerCertificate.notAfter.value.getTime() < now) {
      throw new QesProviderError(
        'credential_unusable',
        `The certificate of credential ${id} is not valid now (valid ${signerCertificate.notBefore.value.toISOString()} to ${signerCertificate.notAfter.value.toISOString()}).`,
      );
    }
    return { chain, signAlgo, subjectDN: typeof cert?.subjectDN === 'string' ? cert.subjectDN : null };
  }

  /**
   * Where to send the signer's browser to authorize this credential for exactly these SHA-256 hashes
   * (oauth2/authorize, § 8.4.2: scope `credential`, one signature per hash, PKCE S256).
   */
  async authorizationUrl(input: {
    redirectUri: string;
    state: string;
    codeChallenge: string;
    hashes: Uint8Array[];
    description?: string;
  }): Promise<string> {
    const { clientId } = this.requireClient();
    const url = await this.oauthEndpoint('authorize');
    const params: Record<string, string> = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: input.redirectUri,
      scope: 'credential',
      code_challenge: input.codeChallenge,
      code_challenge_method: 'S256',
      state: input.state,
      credentialID: this.credentialId,
      numSignatures: String(input.hashes.length),
      hashes: input.hashes.map((h) => toBase64Url(h)).join(','),
      hashAlgorithmOID: CSC_OID.sha256,
    };
    if (input.description) params.description = input.description.slice(0, 500);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return url.toString();
  }

  /** The authorization code exchanged for the credential token (the SAD-bearing access token, § 8.4.4). */
  async exchangeCode(input: {
    code: string;
    codeVerifier: string;
    redirectUri: string;
  }): Promise<{ accessToken: string; expiresIn: number | null }> {
    const answer = await this.token('credential', {
      grant_type: 'authorization_code',
      code: input.code,
      code_verifier: input.codeVerifier,
      redirect_uri: input.redirectUri,
    });
    return { accessToken: answer.access_token as string, expiresIn: typeof answer.expires_in === 'number' ? answer.expires_in : null };
  }

  /** `signatures/signHash` (§ 11.10): the raw signature of each SHA-256 hash, in order. */
  async signHash(input: { accessToken: string; hashes: Uint8Array[]; signAlgo: CscSignAlgo }): Promise<Uint8Array[]> {
    const body: Json = { credentialID: this.credentialId, hashes: input.hashes.map(toBase64), signAlgo: input.signAlgo };
    // Only plain rsaEncryption leaves the hash algorithm to be named (§ 11.10, hashAlgorithmOID).
    if (input.signAlgo === CSC_OID.rsaEncryption) body.hashAlgorithmOID = CSC_OID.sha256;
    const answer = await this.api('credential', 'signatures/signHash', body, input.accessToken);
    const signatures = answer.signatures;
    if (
      !Array.isArray(signatures) ||
      signatures.length !== input.hashes.length ||
      !signatures.every((s) => typeof s === 'string' && s.length > 0)
    ) {
      throw new QesProviderError('bad_response', 'The QES provider’s signHash answer does not carry one signature per hash.');
    }
    try {
      return (signatures as string[]).map(fromBase64);
    } catch {
      throw new QesProviderError('bad_response', 'The QES provider’s signatures are not base64.');
    }
  }
}
