// Facts about the incoming request that the platform reports.

/** The client address Cloudflare reports; the edge overwrites any caller-sent value. */
export function clientIp(request: Request): string | null {
  return request.headers.get('CF-Connecting-IP') ?? null;
}

/** Base URL for links in responses: APP_URL when configured, else the request's own origin. */
export function baseUrl(request: Request, appUrl?: string): string {
  return (appUrl || new URL(request.url).origin).replace(/\/+$/, '');
}
