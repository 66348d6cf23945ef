// The OAuth consent page (issue 16 › 3): shown on every authorization request, never skipped. It names
// the signed-in user, the application, where it will send them back to, and each scope in words; scopes
// the user's role lacks are listed as not granted.
import { ConsoleLayout, type ConsoleViewer } from '../layout';
import { SCOPE_DESCRIPTIONS } from '../../services/identity/oauth/oauth-scopes';
import type { Scope } from '../../lib/scopes';
import type { Audience } from '../../lib/audiences';

export type ConsentProps = {
  viewer: ConsoleViewer;
  appName: string;
  redirectHost: string;
  granted: Scope[];
  refused: Scope[];
  /** The request's parameters, posted back with the decision. */
  request: Record<string, string>;
  /** Its `resource` parameters (RFC 8707), posted back too; may be several. */
  resources: string[];
  /** What the tokens will be accepted by. */
  audiences: Audience[];
};

const AUDIENCE_NAMES: Record<Audience, string> = { api: 'the REST API', mcp: 'the MCP server (AI agents)' };

export function ConsentPage(props: ConsentProps) {
  const { viewer } = props;
  return (
    <ConsoleLayout title={`Allow ${props.appName} to use your account?`} viewer={viewer}>
      <div class="card">
        <p>
          You are signed in as <strong>{viewer.user.email}</strong> in <strong>{viewer.account.name}</strong>.
        </p>
        <p>
          <strong>{props.appName}</strong> asks to act on your behalf. After you decide, you will be sent back to{' '}
          <strong>{props.redirectHost}</strong>.
        </p>
        <p id="audiences">Its access works with {props.audiences.map((audience) => AUDIENCE_NAMES[audience]).join(' and ')} only.</p>
        {props.granted.length ? (
          <>
            <h2>It will be able to</h2>
            <ul id="granted-scopes">
              {props.granted.map((scope) => (
                <li>
                  <code>{scope}</code>: {SCOPE_DESCRIPTIONS[scope]}
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p class="error">
            Your role ({viewer.user.role}) allows none of the access this application asks for, so it cannot be authorized.
          </p>
        )}
        {props.refused.length ? (
          <>
            <h2>Not granted: your role ({viewer.user.role}) does not have</h2>
            <ul id="refused-scopes">
              {props.refused.map((scope) => (
                <li>
                  <code>{scope}</code>: {SCOPE_DESCRIPTIONS[scope]}
                </li>
              ))}
            </ul>
          </>
        ) : null}
        <form method="post" action="/oauth/authorize">
          <input type="hidden" name="csrf_token" value={viewer.csrfToken} />
          {Object.entries(props.request).map(([name, value]) => (
            <input type="hidden" name={name} value={value} />
          ))}
          {props.resources.map((resource) => (
            <input type="hidden" name="resource" value={resource} />
          ))}
          <div class="actions">
            {props.granted.length ? (
              <button type="submit" name="decision" value="allow">
                Allow
              </button>
            ) : null}
            <button type="submit" name="decision" value="deny" class="secondary">
              Deny
            </button>
          </div>
        </form>
      </div>
    </ConsoleLayout>
  );
}

/** A request that cannot be sent back to the application: said here, never redirected. */
export function AuthorizationErrorPage(props: { message: string }) {
  return (
    <ConsoleLayout title="This authorization request cannot be completed">
      <div class="card narrow">
        <p class="error" role="alert">
          {props.message}
        </p>
        <p>Return to the application and try again, or tell its developer.</p>
      </div>
    </ConsoleLayout>
  );
}
