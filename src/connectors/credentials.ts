/**
 * Matching a client's `credentials` object to one of a definition's credential options.
 * Error messages name keys and options, never values: these objects hold secrets.
 */
import { DomainError, type ErrorDetail } from '../errors.ts';
import { headerValueProblem } from './header-value.ts';
import { authPlacements, type ConnectorDefinition, type CredentialOption } from './schema.ts';
import { placeholders } from './template.ts';

export interface ResolvedCredentials {
  /** The chosen option's title (`option_title`). */
  option: string;
  /** Field name -> value, keyed by the definition's field names (aliases already resolved). */
  values: Record<string, string>;
}

const DISCRIMINATOR = 'option_title';
/**
 * Beside the fields of an option with `refresh`, ces stores when the access token expires (ISO 8601). It is
 * server-managed: a client can't set it.
 */
export const EXPIRES_AT = 'expires_at';

export function resolveCredentials(def: ConnectorDefinition, input: unknown): ResolvedCredentials {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw fail(def, 'credentials must be an object.', [detail('credentials', 'must be an object', 'type')]);
  }
  const obj = input as Record<string, unknown>;
  const title = obj[DISCRIMINATOR];
  if (title !== undefined) {
    const option =
      typeof title === 'string'
        ? def.credential_options.find((o) => o.title.toLowerCase() === title.toLowerCase())
        : undefined;
    if (!option) {
      const msg = `credentials.option_title must name one of the credential options.`;
      throw fail(def, msg, [detail(`credentials.${DISCRIMINATOR}`, 'unknown credential option', 'enum')]);
    }
    const { [DISCRIMINATOR]: _, ...rest } = obj;
    return resolveWith(def, option, rest);
  }
  const keys = Object.keys(obj);
  const fits = def.credential_options.filter((o) => problemsFor(o, obj).length === 0);
  if (fits.length === 1) return resolveWith(def, fits[0] as CredentialOption, obj);
  if (fits.length > 1) {
    const msg = `credentials match several credential options; add option_title to choose one.`;
    throw fail(def, msg, [
      detail(`credentials.${DISCRIMINATOR}`, 'required to choose an option', 'ambiguous'),
    ]);
  }
  // No option fits: report against the option the keys overlap most, which is almost always the one meant.
  const closest = [...def.credential_options].sort((a, b) => overlap(b, keys) - overlap(a, keys))[0];
  const problems = closest ? problemsFor(closest, obj) : [];
  const shown = keys.map((k) => `'${clip(k)}'`).join(', ') || 'none';
  const what = problems.map((p) => p.message).join('; ');
  throw fail(
    def,
    `credentials do not match any credential option (provided keys: ${shown}): ${what}.`,
    problems,
  );
}

function resolveWith(def: ConnectorDefinition, option: CredentialOption, obj: Record<string, unknown>) {
  const problems = problemsFor(option, obj);
  if (problems.length === 0) problems.push(...headerProblems(option, obj));
  if (problems.length > 0) {
    const what = problems.map((p) => p.message).join('; ');
    throw fail(def, `credentials for '${option.title}' are invalid: ${what}.`, problems);
  }
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(obj)) values[canonical(option, key) as string] = value as string;
  return { option: option.title, values };
}

/** Field name for a key (itself or through an alias), or undefined if the option does not know the key. */
function canonical(option: CredentialOption, key: string): string | undefined {
  if (Object.hasOwn(option.fields, key)) return key;
  return Object.entries(option.fields).find(([, f]) => f.aliases?.includes(key))?.[0];
}

function problemsFor(option: CredentialOption, obj: Record<string, unknown>): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const present = new Set<string>();
  for (const [key, value] of Object.entries(obj)) {
    const field = canonical(option, key);
    const at = `credentials.${clip(key)}`;
    if (field === undefined && key === EXPIRES_AT && option.refresh) {
      out.push(detail(at, `'${EXPIRES_AT}' is managed by ces for option '${option.title}'`, 'managed_field'));
      continue;
    }
    if (field === undefined) {
      out.push(detail(at, `unknown field '${clip(key)}' for option '${option.title}'`, 'unknown_field'));
      continue;
    }
    if (present.has(field)) out.push(detail(at, `'${field}' is given twice (through an alias)`, 'duplicate'));
    present.add(field);
    if (typeof value !== 'string') out.push(detail(at, `'${clip(key)}' must be a string`, 'type'));
    else if (value.length === 0) out.push(detail(at, `'${clip(key)}' must not be empty`, 'empty'));
  }
  for (const req of option.required) {
    if (!present.has(req))
      out.push(detail(`credentials.${req}`, `missing required field '${req}'`, 'required'));
  }
  return out;
}

/**
 * Fields the option sends inside an HTTP header (a bearer token, a header's value template): a value a header
 * can't carry would otherwise fail at send time, after the live check had already started. Basic
 * credentials are base64-encoded and query values percent-encoded, so any text is fine there.
 */
function headerProblems(option: CredentialOption, obj: Record<string, unknown>): ErrorDetail[] {
  const inHeader = new Set(
    authPlacements(option).flatMap((auth) =>
      placeholders(auth.type === 'bearer' ? auth.token : auth.type === 'header' ? auth.value : ''),
    ),
  );
  const out: ErrorDetail[] = [];
  for (const [key, value] of Object.entries(obj)) {
    const field = canonical(option, key);
    const why = field !== undefined && inHeader.has(field) ? headerValueProblem(String(value)) : undefined;
    if (why) out.push(detail(`credentials.${clip(key)}`, `'${clip(key)}' ${why}`, 'header_value'));
  }
  return out;
}

function overlap(option: CredentialOption, keys: string[]): number {
  return keys.filter((k) => canonical(option, k) !== undefined).length;
}

/** "Available options: 'PAT Credentials' (personal_access_token), ..." — the hint every message ends with. */
export function describeOptions(def: ConnectorDefinition): string {
  const parts = def.credential_options.map((o) => {
    const fields = Object.keys(o.fields).map((f) => (o.required.includes(f) ? f : `${f}?`));
    return `'${o.title}' (${fields.join(', ')})`;
  });
  return `Available options for ${def.name}: ${parts.join(', ')}.`;
}

function fail(def: ConnectorDefinition, message: string, errors: ErrorDetail[]): DomainError {
  return new DomainError('INVALID_CREDENTIALS', `Invalid credentials: ${message} ${describeOptions(def)}`, {
    errors,
  });
}

function detail(field: string, message: string, kind: string): ErrorDetail {
  return { field, message, error_code: 'invalid_credentials', details: { reason: kind } };
}

/** Key names come from the client; keep them from bloating messages. */
function clip(key: string): string {
  return key.length > 64 ? `${key.slice(0, 61)}...` : key;
}
