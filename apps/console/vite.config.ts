import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served by the gateway under /console: every asset URL carries that base.
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
});
