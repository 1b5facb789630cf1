/**
 * Runtime configuration of the user app.
 *
 * The server may inject `window.__APP_CONFIG__` into index.html; every value falls back to a
 * default here. This module is the only place the app reads the product name from.
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

// `window` is absent when vite.config.ts imports this module to fill index.html at build time.
const runtimeConfig: RuntimeAppConfig | undefined =
  typeof window === 'undefined' ? undefined : window.__APP_CONFIG__;

export const APP_NAME: string = runtimeConfig?.appName?.trim() || DEFAULT_APP_NAME;
