import { DomainError } from '../errors.ts';

/**
 * Refuses to create one more `what` when the organization already holds `limit` of them (0: no limit). A 403,
 * not a 429: waiting does not help, deleting some or an operator raising the variable does.
 */
export function assertUnderQuota(count: number, limit: number, what: string, variable: string): void {
  if (limit <= 0 || count < limit) return;
  const message = `This organization has reached its limit of ${limit} ${what} (${variable}); delete some or ask the operator to raise it.`;
  throw new DomainError('QUOTA_EXCEEDED', message, {
    errors: [
      {
        field: null,
        message: `at most ${limit} ${what} per organization`,
        error_code: 'quota_exceeded',
        details: { limit, variable },
      },
    ],
  });
}
