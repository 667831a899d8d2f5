import type { FastifyReply } from 'fastify';

/**
 * Content-Security-Policy for the Vite-built single-page app: scripts only from our origin,
 * inline styles allowed (the UI kit sets style attributes), workers from blob: (Vite
 * workers), the privacy-enhanced video player in frames, and no framing of the app itself.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https://i.ytimg.com",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  'frame-src https://www.youtube-nocookie.com',
  "media-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Sets the security headers on every response. */
export function applySecurityHeaders(
  reply: FastifyReply,
  options: { isProduction: boolean },
): void {
  reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
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
