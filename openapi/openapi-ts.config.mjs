// Generates the typed client in src/ from openapi.json (`npm run openapi` at the root does both).
/** @type {import('@hey-api/openapi-ts').UserConfig} */
export default {
  input: './openapi.json',
  output: { path: './src', postProcess: [] },
  plugins: ['@hey-api/client-fetch', '@hey-api/typescript', { name: '@hey-api/sdk' }],
  logs: { level: 'warn' },
};
