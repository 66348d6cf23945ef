// /settings/domains and /settings/domains/{id}: the account's custom signing domains (control database,
// the API's queries) with status and certificate status; for admins (the custom-domain API is admin-only)
// the add form, the DNS TXT record to publish, Verify, make default, delete and the branding editor.
import type { Context } from 'hono';
import type { AppEnv } from '../../app-env';
import { getCustomDomain, listCustomDomains } from '../../db/queries/custom-domains';
import type { CustomDomain } from '../../db/schema/index';
import { paginateByCursor } from '../../lib/pagination';
import { LEGACY_VERIFY_RECORD_PREFIX, VERIFY_RECORD_PREFIX } from '../../services/custom-domains/ownership';
import { BrandingFields, BrandingPreview, BrandingSummary } from './branding-editor';
import { notFoundPage, Pager, pageQuery, rightsOf, renderPage, Status, DataTable, TableFrame, Time } from './page-parts';

const STATUS_TEXT: Record<string, string> = {
  pending: 'Pending: publish the TXT record, then verify',
  verified: 'Verified: activation not finished, verify again',
  active: 'Active',
  failed: 'Failed: Cloudflare refused the host name',
};

function statusText(domain: Pick<CustomDomain, 'status'>): string {
  return STATUS_TEXT[domain.status] ?? domain.status;
}

export async function domainsPage(c: Context<AppEnv>) {
  const { account } = c.var.signedIn;
  const { isAdmin } = rightsOf(c);
  const page = await paginateByCursor(pageQuery(c, 50), (window) => listCustomDomains(c.var.control, account.id, window));
  return renderPage(c, {
    title: 'Custom domains',
    section: 'domains',
    children: (
      <>
        <section class="card" aria-labelledby="domains-heading">
          <h2 id="domains-heading">Signing domains</h2>
          <p class="muted">Signers open their links on an active domain instead of the service’s address.</p>
          {page.data.length === 0 ? (
            <p>No custom domains yet.</p>
          ) : (
            <DataTable label="Custom domains" columns={['Host name', 'Status', 'Certificate', 'Default', 'Added']}>
              {page.data.map((domain) => (
                <tr>
                  <th scope="row">
                    <a href={`/settings/domains/${domain.id}`}>{domain.hostname}</a>
                  </th>
                  <td>{statusText(domain)}</td>
                  <td>{domain.certificateStatus ?? <span class="muted">—</span>}</td>
                  <td>{domain.isDefault ? 'Default' : <span class="muted">No</span>}</td>
                  <td>
                    <Time at={domain.createdAt} />
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
          <Pager path="/settings/domains" pagination={page.pagination} />
          {isAdmin ? null : <p class="muted">Only account admins add, verify and change custom domains.</p>}
        </section>
        {isAdmin ? (
          <section class="card" aria-labelledby="add-domain-heading">
            <h2 id="add-domain-heading">Add a domain</h2>
            <form data-api="/api/custom_domains" data-method="POST" data-redirect="/settings/domains">
              <label for="new-domain-hostname">Host name</label>
              <input id="new-domain-hostname" name="hostname" required maxlength={253} placeholder="sign.example.com" autocomplete="off" />
              <label for="new-domain-website">Website URL</label>
              <input
                id="new-domain-website"
                name="website_url"
                type="url"
                maxlength={2048}
                data-type="optional"
                aria-describedby="new-domain-website-hint"
              />
              <p id="new-domain-website-hint" class="muted">
                Optional: your own website, for signers who open the domain’s root.
              </p>
              <p>
                <input type="checkbox" id="new-domain-default" name="is_default" />{' '}
                <label for="new-domain-default" style="display:inline">
                  Default domain for links of templates that name none
                </label>
              </p>
              <div class="actions">
                <button type="submit">Add domain</button>
              </div>
              <Status />
            </form>
          </section>
        ) : null}
      </>
    ),
  });
}

/** The record that proves ownership (docs/custom-domains.md › Ownership). */
function DnsInstructions(props: { domain: CustomDomain }) {
  const { domain } = props;
  return (
    <section class="card" aria-labelledby="dns-heading">
      <h2 id="dns-heading">DNS record</h2>
      <p>Publish this TXT record at your DNS provider, then verify:</p>
      <TableFrame label="TXT record to publish">
        <table>
          <tbody>
            <tr>
              <th scope="row">Type</th>
              <td>TXT</td>
            </tr>
            <tr>
              <th scope="row">Name</th>
              <td>
                <code>{`${VERIFY_RECORD_PREFIX}.${domain.hostname}`}</code>
              </td>
            </tr>
            <tr>
              <th scope="row">Value</th>
              <td>
                <code class="secret">{domain.verificationToken}</code>
              </td>
            </tr>
          </tbody>
        </table>
      </TableFrame>
      <p class="muted">
        A record already published under the older name <code>{`${LEGACY_VERIFY_RECORD_PREFIX}.${domain.hostname}`}</code> is accepted too.
        Then point <code>{domain.hostname}</code> (CNAME) at the service so that the certificate can be issued.
      </p>
      <form data-api={`/api/custom_domains/${domain.id}/verify`} data-method="POST" data-reload>
        <div class="actions">
          <button type="submit">{domain.status === 'active' ? 'Refresh certificate status' : 'Verify'}</button>
        </div>
        <Status />
      </form>
    </section>
  );
}

export async function domainPage(c: Context<AppEnv>) {
  const id = c.req.param('id') ?? '';
  const { account } = c.var.signedIn;
  const domain = /^[1-9]\d{0,15}$/.test(id) ? await getCustomDomain(c.var.control, account.id, Number(id)) : undefined;
  if (!domain) return notFoundPage(c, 'domains', 'Domain');
  const { isAdmin } = rightsOf(c);
  return renderPage(c, {
    title: `Domain ${domain.hostname}`,
    section: 'domains',
    children: (
      <>
        <p>
          <a href="/settings/domains">All domains</a>
        </p>
        <section class="card" aria-labelledby="domain-heading">
          <h2 id="domain-heading">Status</h2>
          <dl>
            <dt>Status</dt>
            <dd>{statusText(domain)}</dd>
            <dt>Certificate</dt>
            <dd>{domain.certificateStatus ?? '—'}</dd>
            <dt>Default</dt>
            <dd>{domain.isDefault ? 'Yes: links of templates that name no domain use it' : 'No'}</dd>
            <dt>Verified</dt>
            <dd>
              <Time at={domain.verifiedAt} empty="Not yet" />
            </dd>
          </dl>
          {isAdmin && !domain.isDefault ? (
            <form data-api={`/api/custom_domains/${domain.id}`} data-method="PUT" data-reload>
              <input type="hidden" name="is_default" value="true" data-type="boolean" />
              <div class="actions">
                <button type="submit" class="secondary">
                  Make default
                </button>
              </div>
              <Status />
            </form>
          ) : null}
        </section>
        {isAdmin ? <DnsInstructions domain={domain} /> : null}
        <section class="card" aria-labelledby="domain-branding-heading">
          <h2 id="domain-branding-heading">Website and branding</h2>
          <p class="muted">On this domain, its branding fills in every key a template and its brand leave unset.</p>
          {isAdmin ? (
            <form data-api={`/api/custom_domains/${domain.id}`} data-method="PUT" data-reload>
              <label for="domain-website">Website URL</label>
              <input
                id="domain-website"
                name="website_url"
                type="url"
                maxlength={2048}
                value={domain.websiteUrl ?? ''}
                data-type="optional"
              />
              <BrandingFields prefix="domain" branding={domain.branding} previewId="domain-preview" />
              <BrandingPreview id="domain-preview" branding={domain.branding} accountName={account.name} serviceName={c.env.SERVICE_NAME} />
              <div class="actions">
                <button type="submit">Save</button>
              </div>
              <Status />
            </form>
          ) : (
            <>
              <dl>
                <dt>Website URL</dt>
                <dd style="word-break:break-all">{domain.websiteUrl ?? '—'}</dd>
              </dl>
              <BrandingSummary branding={domain.branding} />
              <BrandingPreview id="domain-preview" branding={domain.branding} accountName={account.name} serviceName={c.env.SERVICE_NAME} />
            </>
          )}
        </section>
        {isAdmin ? (
          <section class="card" aria-labelledby="delete-domain-heading">
            <h2 id="delete-domain-heading">Delete</h2>
            <form
              data-api={`/api/custom_domains/${domain.id}`}
              data-method="DELETE"
              data-confirm="Delete this domain? Links fall back to the service’s address at once."
              data-redirect="/settings/domains"
            >
              <div class="actions">
                <button type="submit" class="danger">
                  Delete domain
                </button>
              </div>
              <Status />
            </form>
          </section>
        ) : null}
      </>
    ),
  });
}
