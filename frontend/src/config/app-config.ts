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

const runtimeConfig = readInjectedConfig();

export const APP_NAME: string = runtimeConfig?.appName?.trim() || DEFAULT_APP_NAME;

/** Derived from the page's host when the server did not inject an address (e.g. `vite dev`). */
function fallbackAddress(mailbox: string): string {
  const host = typeof location === 'undefined' ? 'localhost' : location.hostname.replace(/^www\./, '');
  return `${mailbox}@${host}`;
}

/** Where users write for help, billing, privacy and legal questions (SUPPORT_EMAIL). */
export const SUPPORT_EMAIL: string = runtimeConfig?.supportEmail?.trim() || fallbackAddress('support');
/** Where partners and press write (BUSINESS_EMAIL). */
export const BUSINESS_EMAIL: string = runtimeConfig?.businessEmail?.trim() || fallbackAddress('business');

/** Uploaded photos no generation used for this many days are deleted (UPLOAD_RETENTION_DAYS). */
export const UPLOAD_RETENTION_DAYS: number =
  Number.isInteger(runtimeConfig?.uploadRetentionDays) && runtimeConfig!.uploadRetentionDays! > 0
    ? runtimeConfig!.uploadRetentionDays!
    : 30;
