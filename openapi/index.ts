// Entry of the typed API client. Everything under src/ is generated from openapi.json by
// `npm run openapi` (at the repository root); do not edit it by hand.
export * from './src/index';
export { client } from './src/client.gen';
