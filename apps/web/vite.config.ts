import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API (apps/api) listens on 3000; in development Vite serves the SPA and forwards API and file calls.
const apiOrigin = 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiOrigin, changeOrigin: true },
      '/files': { target: apiOrigin, changeOrigin: true },
      // The sandbox payment provider's hosted checkout page is served by the API.
      '/buy': { target: apiOrigin, changeOrigin: true },
    },
  },
  preview: { port: 4173 },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    // dist/.vite/manifest.json: which chunks each route loads, for `npm run bench:web`.
    manifest: true,
    // Images stay files (cached, lazy-loaded) instead of base64 inside the page chunks.
    assetsInlineLimit: 0,
    // Pages are split per route by the router's lazy imports (src/app/router.tsx). Three entries: the app
    // (index.html -> src/main.tsx), the few-KB entry of the prerendered content pages (src/public.ts,
    // ADR 027) and the entry of the prerendered /login and /register (src/sign-in.tsx, ADR 038), which
    // scripts/prerender.ts puts into their HTML instead of the app's.
    rollupOptions: { input: { index: 'index.html', public: 'src/public.ts', signIn: 'src/sign-in.tsx' } },
  },
});
