import { execFileSync } from 'node:child_process';

/** `npm run bundle`, quietly unless it fails (then its output and exit 1): returns dist/openapi.json. */
export function bundleSpec(): string {
  try {
    execFileSync('npm', ['run', '-s', 'bundle'], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, REDOCLY_TELEMETRY: 'off' } });
  } catch (error) {
    console.error(`npm run bundle failed:\n${(error as { stderr?: Buffer }).stderr?.toString() ?? ''}`);
    process.exit(1);
  }
  return 'dist/openapi.json';
}
