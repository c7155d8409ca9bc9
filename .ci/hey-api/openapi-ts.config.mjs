// A second client generator on the bundled spec (npm run check:hey-api; CI runs it): a client for
// the fetch API, written as ES modules whose relative imports end in `.js`, as TypeScript's NodeNext
// resolution requires. Its default base URL is the spec's first server.
export default {
  input: './dist/openapi.json',
  output: { path: './.ci/hey-api/generated', importFileExtension: '.js', clean: true },
  plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
  logs: { file: false },
};
