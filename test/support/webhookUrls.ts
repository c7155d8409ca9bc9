/**
 * Webhook URLs that reach loopback or a metadata service in spellings a naive check lets through,
 * plus a decimal spelling of 127.0.0.1: every one must be refused at registration.
 */
export const REVIEWED_WEBHOOK_URLS = [
  'https://[::ffff:127.0.0.1]:4450/hook',
  'https://[::]:4450/hook',
  'https://localhost./hook',
  'https://[::ffff:169.254.169.254]/latest/meta-data',
  'https://[::ffff:10.0.0.1]/hook',
  'https://100.64.0.1/hook',
  'https://[64:ff9b::7f00:1]/hook',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://2130706433/hook',
];
