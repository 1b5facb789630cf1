// Generates the typed client in src/ from openapi.json (`npm run openapi` at the root does both).
/** @type {import('@hey-api/openapi-ts').UserConfig} */
export default {
  input: './openapi.json',
  output: { path: './src', postProcess: [] },
  // baseUrl: false: the document's server is `/` (same origin); the apps set the base URL themselves (configureApiClient)
  plugins: [{ name: '@hey-api/client-fetch', baseUrl: false }, '@hey-api/typescript', { name: '@hey-api/sdk' }],
  logs: { level: 'warn' },
};
