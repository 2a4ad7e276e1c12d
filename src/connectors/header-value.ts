/**
 * What an HTTP header value can carry: visible ASCII, spaces and the printable Latin-1 range (RFC 9110
 * field-value, with obs-text). undici refuses anything else when it sends, which would surface as a transport
 * failure ("could not reach …"); checking first answers the caller's mistake as one, naming the field.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what we reject
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const BEYOND_LATIN1 = /[\u0100-\u{10ffff}]/u;

/** Why `value` can't be sent in a header (never quoting it: it may be a secret), or undefined when it can. */
export function headerValueProblem(value: string): string | undefined {
  if (CONTROL.test(value)) return 'contains a line break or another control character';
  if (BEYOND_LATIN1.test(value)) return 'contains a character beyond U+00FF (non-Latin-1)';
  return undefined;
}
