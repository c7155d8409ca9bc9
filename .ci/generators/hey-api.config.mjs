// @hey-api/openapi-ts on the bundled spec (npm run check:generators): a client for the fetch API,
// written as ES modules whose relative imports end in `.js`, as TypeScript's NodeNext resolution
// requires of a consumer compiled with `module`/`moduleResolution` `NodeNext`. Its default base URL
// is the spec's first server.
export default {
  input: './dist/openapi.json',
  output: { path: './.ci/generators/generated/hey-api', importFileExtension: '.js', clean: true },
  plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
  logs: { file: false },
};
