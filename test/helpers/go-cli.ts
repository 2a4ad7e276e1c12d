/** The hosted service's Go CLI as ces's tests replay it: the version its requests name. */
export const CLI_VERSION = '0.9.3';

/** The headers the CLI's client sets on every request (Go's transport adds Accept-Encoding itself). */
export function cliHeaders(orgId: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': `airbyte-agent/${CLI_VERSION}`,
    'x-adp-agent-cli': CLI_VERSION,
    'x-organization-id': orgId,
    'accept-encoding': 'gzip',
  };
}
