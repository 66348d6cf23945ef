// The REST API requests the MCP server (src/routes/mcp) makes for a tool call, known by the Request object
// itself: no header can claim to be one, so only code in this Worker can mark a request as a tool call.
import type { Scope } from '../../lib/scopes';

export type McpCall = {
  /** The tool, for the audit trail. */
  tool: string;
  /** Every scope the tool requires; authorization checks these instead of the route's (docs/mcp.md › Tools). */
  scopes: readonly Scope[];
};

const calls = new WeakMap<Request, McpCall>();

/** A request to our own API on behalf of `call`, with the caller's credential in `init.headers`. */
export function mcpToolRequest(url: string, init: RequestInit, call: McpCall): Request {
  const request = new Request(url, init);
  calls.set(request, call);
  return request;
}

export function mcpCallOf(request: Request): McpCall | undefined {
  return calls.get(request);
}
