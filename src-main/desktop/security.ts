import type { Session, WebContents } from 'electron';

/**
 * Window security (ARCHITECTURE Principle 9): a strict CSP on every response, no navigation
 * away from the app, no new windows (external http(s) links go to the system browser), and
 * no web permissions besides writing to the clipboard.
 */

/** Strict CSP for the app's pages. Development relaxes it only for Vite's dev server (HMR). */
export function appCsp(devServerUrl?: string): string {
  const dev = devServerUrl ? new URL(devServerUrl) : null;
  const devWs = dev ? `ws://${dev.host}` : '';
  return [
    "default-src 'self'",
    // React refresh injects an inline preamble in development; production runs no inline script.
    dev ? "script-src 'self' 'unsafe-inline'" : "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "media-src 'self' blob:",
    // The renderer talks to the platform through the bridge, never over the network.
    dev ? `connect-src 'self' ${devWs}` : "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Sets the CSP on every response the session receives, replacing any the server sent. */
export function installCsp(session: Pick<Session, 'webRequest'>, csp: string): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers = { ...details.responseHeaders };
    for (const k of Object.keys(headers)) if (k.toLowerCase() === 'content-security-policy') delete headers[k];
    headers['Content-Security-Policy'] = [csp];
    callback({ responseHeaders: headers });
  });
}

/** An external link the system browser may open: http(s) only (never file:, javascript:, custom schemes). */
export function isExternalWebUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !!u.hostname;
  } catch {
    return false;
  }
}

export interface GuardOptions {
  /** Whether a URL is the app itself (its scheme, or the dev server). */
  isAppUrl: (url: string) => boolean;
  openExternal: (url: string) => unknown;
}

/** Denies navigation off the app and every new window; http(s) targets open in the system browser. */
export function guardWebContents(contents: Pick<WebContents, 'on' | 'setWindowOpenHandler'>, opts: GuardOptions): void {
  const leave = (event: { preventDefault(): void }, url: string) => {
    if (opts.isAppUrl(url)) return;
    event.preventDefault();
    if (isExternalWebUrl(url)) void opts.openExternal(url);
  };
  contents.on('will-navigate', (event, url) => leave(event, url));
  // Subframes too (the CSP allows none, but a frame must never be a way out).
  contents.on('will-frame-navigate', (details) => leave(details, details.url));
  contents.on('will-redirect', (event, url) => leave(event, url));
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalWebUrl(url)) void opts.openExternal(url);
    return { action: 'deny' };
  });
}

const ALLOWED_PERMISSIONS = new Set(['clipboard-sanitized-write']);

/** No camera, microphone, geolocation, notifications, USB, HID or serial devices...: the app needs none of them. */
export function installPermissionHandlers(session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler'>): void {
  session.setPermissionRequestHandler((_wc, permission, callback) => callback(ALLOWED_PERMISSIONS.has(permission)));
  session.setPermissionCheckHandler((_wc, permission) => ALLOWED_PERMISSIONS.has(permission));
  session.setDevicePermissionHandler(() => false);
}
