import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiProxy = { '/api': { target: 'http://localhost:3000' } };

// The API serves the built console under /admin (the user app owns /).
export default defineConfig({
  base: '/admin/',
  plugins: [react()],
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
