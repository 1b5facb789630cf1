/**
 * Runtime configuration of the user app.
 *
 * The server injects a JSON block `<script id="app-config" type="application/json">` into
 * index.html (APP_NAME and other public settings); every value falls back to a default here.
 * This module is the only place the app reads the product name from.
 */
export interface RuntimeAppConfig {
  appName?: string;
  /** SUPPORT_EMAIL / BUSINESS_EMAIL of the server (footer and legal pages). */
  supportEmail?: string;
  businessEmail?: string;
  /** UPLOAD_RETENTION_DAYS: unused uploaded photos are deleted after this many days. */
  uploadRetentionDays?: number;
}

declare global {
  interface Window {
    __APP_CONFIG__?: RuntimeAppConfig;
  }
}

export const DEFAULT_APP_NAME = 'Fitting Room';

function readInjectedConfig(): RuntimeAppConfig | undefined {
  // `document` is absent when vite.config.ts imports this module to fill index.html at build time.
  if (typeof document === 'undefined') return undefined;
  const block = document.getElementById('app-config')?.textContent;
  if (block) {
    try {
      return JSON.parse(block) as RuntimeAppConfig;
    } catch {
      /* a broken block falls back to the defaults */
    }
  }
  return window.__APP_CONFIG__;
}

/**
 * The values below are live bindings: the browser sets them once from the page's block, before the
 * first render; the server's pre-render (entry-server.tsx) sets them from its configuration before
 * each render, so they are read at render time, never copied at module level.
 */
export let APP_NAME: string = DEFAULT_APP_NAME;
/** Where users write for help, billing, privacy and legal questions (SUPPORT_EMAIL). */
export let SUPPORT_EMAIL: string = fallbackAddress('support');
/** Where partners and press write (BUSINESS_EMAIL). */
export let BUSINESS_EMAIL: string = fallbackAddress('business');
/** Uploaded photos no generation used for this many days are deleted (UPLOAD_RETENTION_DAYS). */
export let UPLOAD_RETENTION_DAYS = 30;

/** Derived from the page's host when the server did not inject an address (e.g. `vite dev`). */
function fallbackAddress(mailbox: string): string {
  const host = typeof location === 'undefined' ? 'localhost' : location.hostname.replace(/^www\./, '');
  return `${mailbox}@${host}`;
}

/** Sets the values above from a configuration; every missing or blank value falls back to its default. */
export function applyRuntimeConfig(config: RuntimeAppConfig | undefined): void {
  APP_NAME = config?.appName?.trim() || DEFAULT_APP_NAME;
  SUPPORT_EMAIL = config?.supportEmail?.trim() || fallbackAddress('support');
  BUSINESS_EMAIL = config?.businessEmail?.trim() || fallbackAddress('business');
  const days = config?.uploadRetentionDays;
  UPLOAD_RETENTION_DAYS = typeof days === 'number' && Number.isInteger(days) && days > 0 ? days : 30;
}

applyRuntimeConfig(readInjectedConfig());
