// npm start's second step (prestart) and npm run build:console: the browser console (console/,
// docs/console.md) built by Vite into dist/console/, which the service serves at /console/. Plain
// JavaScript (.mjs), like build-server.mjs, so that it runs before anything can run TypeScript.
import { build } from 'vite';

await build({ configFile: new URL('../console/vite.config.ts', import.meta.url).pathname });
