import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

const apiProxy = { '/api': { target: 'http://localhost:3000' } };

// The API serves the built console under /admin (the user app owns /).
export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  resolve: {
    alias: {
      // One source for each rule (also in tsconfig.json "paths"): who may do what is the API's own
      // pure policy file; the session (refresh protocol, cross-tab lock) is the user app's store.
      '@access-policy': here('../backend/src/common/auth/access-policy.ts'),
      '@user-app/session': here('../frontend/src/features/auth/session-store.ts'),
      '@user-app/errors': here('../frontend/src/api/errors.ts'),
    },
  },
  server: { port: 5174, proxy: apiProxy },
  preview: { port: 4174, proxy: apiProxy },
  build: {
    outDir: 'dist',
    rolldownOptions: {
      output: {
        // Vendor code changes less often than ours: keep it in its own long-cached chunks.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|cookie|set-cookie-parser)[\\/]/,
              priority: 30,
            },
            {
              name: 'mui',
              test: /[\\/]node_modules[\\/](@mui|@emotion|@popperjs|react-transition-group|stylis|clsx|@babel[\\/]runtime|hoist-non-react-statics|react-is|prop-types)[\\/]/,
              priority: 20,
            },
            {
              name: 'react-admin',
              test: /[\\/]node_modules[\\/]/,
              priority: 10,
            },
          ],
        },
      },
    },
  },
});
