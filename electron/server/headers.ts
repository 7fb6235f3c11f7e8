/**
 * The renderer's security headers, one source for browser mode's answers and (through the meta tag
 * in renderer/index.html, which tests/app/hardening-units.test.ts holds equal) Electron's window.
 * Scripts only from this origin (no inline or evaluated script); styles may be inline because Svelte
 * sets element styles; no plugin objects; no other origin may frame the page (its token would be in
 * reach of a clickjacking page).
 */
export const CONTENT_SECURITY_POLICY_META =
  "default-src 'self'; script-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; media-src 'self' blob: mediastream:; object-src 'none'; base-uri 'none'; form-action 'self'";

/** frame-ancestors is ignored in a meta tag, so it is only in the header (and X-Frame-Options for old browsers). */
export const CONTENT_SECURITY_POLICY = `${CONTENT_SECURITY_POLICY_META}; frame-ancestors 'none'`;

export const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
} as const;
