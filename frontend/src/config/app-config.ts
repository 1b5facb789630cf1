/**
 * Runtime configuration of the user app.
 *
 * The server injects a JSON block `<script id="app-config" type="application/json">` into
 * index.html (APP_NAME and other public settings); every value falls back to a default here.
 * This module is the only place the app reads the product name from.
 */
export interface RuntimeAppConfig {
  appName?: string;
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
