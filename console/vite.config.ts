// The console's build (npm run build:console): Preact's JSX through Vite's own transformer, the
// client package from its sources (the same files the server's tests use), content-hashed files in
// dist/console/ served by the service at /console/.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: '/console/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  resolve: { alias: [{ find: /^payroll-fee-service$/, replacement: here('../packages/client/src/index.ts') }] },
  build: { outDir: here('../dist/console'), emptyOutDir: true, assetsDir: 'assets', sourcemap: false, reportCompressedSize: false },
});
