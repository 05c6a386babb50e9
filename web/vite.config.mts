/**
 * Vite build of the dashboard: `npm run web:build` writes web/dist, which the server serves at `/`
 * (src/server/web.ts). `npm run web:dev` serves it with hot reload and forwards the API to a
 * running Sluice (SLUICE_URL, default http://localhost:9000).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

const api = process.env.SLUICE_URL ?? 'http://localhost:9000';

export default defineConfig({
  root: here,
  base: '/',
  build: {
    outDir: path.join(here, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 400,
  },
  server: {
    proxy: {
      '/graphql': { target: api, ws: true },
      '/api': api,
      '/logs': api,
      '/graphiql': api,
    },
  },
});
