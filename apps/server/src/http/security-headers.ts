import type { FastifyReply } from 'fastify';

/** What the policy allows beyond our own origin. */
export interface CspSources {
  scriptSrc?: readonly string[];
  frameSrc?: readonly string[];
  imgSrc?: readonly string[];
  connectSrc?: readonly string[];
}

/**
 * Content-Security-Policy for the Vite-built single-page app: scripts only from our origin
 * (plus the bot-check widget's and the tag manager's sources when they are on), inline styles allowed (the UI kit sets
 * style attributes), workers from blob: (Vite workers), in frames exactly the configured
 * players and widgets (and the bot check's frame), none when nothing is configured, and no
 * framing of the app itself.
 */
export function buildContentSecurityPolicy(extra: CspSources = {}): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...(extra.scriptSrc ?? [])].join(' '),
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data: blob:", ...(extra.imgSrc ?? [])].join(' '),
    "font-src 'self' data:",
    ["connect-src 'self'", ...(extra.connectSrc ?? [])].join(' '),
    "worker-src 'self' blob:",
    `frame-src ${extra.frameSrc?.length ? [...new Set(extra.frameSrc)].join(' ') : "'none'"}`,
    "media-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The origins of the configured frame addresses, for the policy's frame-src. */
export function frameOrigins(urls: readonly (string | null)[]): string[] {
  return urls.flatMap((url) => (url ? [new URL(url).origin] : []));
}

/** The policy with no bot-check widget and no configured frame. */
export const CONTENT_SECURITY_POLICY = buildContentSecurityPolicy();

/** Sets the security headers on every response. */
export function applySecurityHeaders(
  reply: FastifyReply,
  options: { isProduction: boolean; contentSecurityPolicy?: string },
): void {
  reply.header('content-security-policy', options.contentSecurityPolicy ?? CONTENT_SECURITY_POLICY);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('x-frame-options', 'DENY');
  // Reset links carry a token in the path: never send it on as a referrer.
  reply.header('referrer-policy', 'no-referrer');
  reply.header('cross-origin-opener-policy', 'same-origin');
  reply.header('cross-origin-resource-policy', 'same-origin');
  reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  reply.header('x-dns-prefetch-control', 'off');
  if (options.isProduction)
    reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
}
