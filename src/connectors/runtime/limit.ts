/**
 * `limit` on a collection action: the hosted service's name for the page size, which its clients send to every
 * `list` whatever the provider calls it (its SDK's health check sends `{limit: 1}`). It sets the action's
 * page-size param (page-size.ts) and caps the records ces answers on each page, so a provider with a fixed page
 * size (Gong's 100) still answers at most `limit`. Above the page-size param's maximum it is clamped to it,
 * not refused: a caller asking for "up to 500" of a provider that pages by 100 gets the first 100 and a cursor,
 * which is what the hosted service answers too.
 */
import { DomainError, type ErrorDetail } from '../../errors.ts';
import { LIMIT_PARAM, pageSizeParam } from '../page-size.ts';
import { COLLECTION_ACTIONS, type ConnectorDefinition } from '../schema.ts';
import { resolveAction } from './params.ts';

const DECIMAL = /^[1-9][0-9]{0,8}$/;

/**
 * The params with a client's `limit` moved to the page-size param (clamped), and the record cap it asks for;
 * INVALID_PARAMS for a limit that isn't a positive integer or that is given beside the page-size param.
 */
export function liftLimit(
  def: ConnectorDefinition,
  entity: string,
  action: string,
  params: Record<string, unknown>,
): { params: Record<string, unknown>; limit: number | undefined } {
  if (!Object.hasOwn(params, LIMIT_PARAM) || !COLLECTION_ACTIONS.includes(action as never))
    return { params, limit: undefined };
  const { [LIMIT_PARAM]: raw, ...rest } = params;
  if (raw === null || raw === undefined) return { params: rest, limit: undefined };
  const resolved = resolveAction(def, entity, action);
  const size = pageSizeParam(resolved.action);
  const declared = size === undefined ? undefined : resolved.action.params?.[size];
  const n = typeof raw === 'string' && DECIMAL.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1)
    throw invalid(
      'limit',
      `'limit' must be a positive integer (the most records a page answers)`,
      'invalid_value',
    );
  const max = declared?.maximum;
  const pageSize = max !== undefined && n > max ? max : n;
  if (size === undefined || declared === undefined) return { params: rest, limit: n };
  if (size !== LIMIT_PARAM) {
    const clash = [size, ...(declared.aliases ?? [])].find(
      (name) => Object.hasOwn(rest, name) && rest[name] !== null && rest[name] !== undefined,
    );
    if (clash)
      throw invalid('limit', `'limit' and '${clash}' both give the page size; give one of them`, 'duplicate');
  }
  return { params: { ...rest, [size]: pageSize }, limit: pageSize };
}

/** How `limit` reaches this action's provider, for the catalog: its page-size param, or none (a cap only). */
export function limitDescription(size: string | undefined, maximum: number | undefined): string {
  if (size === undefined)
    return 'The most records to answer per page. The provider sets its own page size; ces answers at most this many of each page, and end_cursor continues after the last one answered.';
  const clamp = maximum === undefined ? '' : ` (at most ${maximum}; a larger limit is clamped to ${maximum})`;
  const via = size === LIMIT_PARAM ? '' : `, sent as ${size}`;
  return `The page size${via}${clamp}. ces answers at most this many records per page.`;
}

function invalid(name: string, message: string, code: string): DomainError {
  const detail: ErrorDetail = { field: `params.${name}`, message, error_code: code, details: null };
  return new DomainError('INVALID_PARAMS', `Invalid params: ${message}.`, { errors: [detail] });
}
