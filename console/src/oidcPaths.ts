/** Where the identity provider sends the browser back with the code: in the main bundle, oidc-client-ts only loaded when used. */
export const CALLBACK_PATH = '/oidc/callback';
