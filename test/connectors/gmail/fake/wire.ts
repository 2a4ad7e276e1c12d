// The Gmail fake's wire conventions: Google's error body (https://developers.google.com/gmail/api/guides/handle-errors,
// with the `status` member Gmail adds), messages rendered in each `format` of users.messages.get as the
// discovery document's Message and MessagePart schemas type them (internalDate and historyId are int64/uint64,
// so strings; part data is base64url), RFC 2822 text in and out of `raw`, and the search syntax the fake knows.
import type { Answer } from '../../kit/index.ts';
import type { Dataset, Message } from './dataset.ts';

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

/** `{error: {code, message, errors: [{message, domain, reason}], status}}` */
export function googleError(status: number, reason: string, message: string, domain = 'global'): Answer {
  return {
    status,
    body: {
      error: {
        code: status,
        message,
        errors: [{ message, domain, reason }],
        status: STATUS[status] ?? 'UNKNOWN',
      },
    },
  };
}

export const unauthorized = () =>
  googleError(
    401,
    'authError',
    'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
  );
export const notFound = () => googleError(404, 'notFound', 'Requested entity was not found.');
export const invalid = (message: string) => googleError(400, 'invalidArgument', message);
export const userRateLimited = () =>
  googleError(403, 'userRateLimitExceeded', 'User-rate limit exceeded.', 'usageLimits');

/** The default body of a status (injected faults without a body). */
export function errorFor(status: number): unknown {
  const reasons: Record<number, [string, string]> = {
    400: ['badRequest', 'Bad Request'],
    401: ['authError', 'Invalid Credentials'],
    403: ['forbidden', 'Forbidden'],
    404: ['notFound', 'Requested entity was not found.'],
    429: ['rateLimitExceeded', 'Too many concurrent requests for user.'],
    500: ['backendError', 'Internal error encountered.'],
    503: ['backendError', 'The service is currently unavailable.'],
  };
  const [reason, message] = reasons[status] ?? ['backendError', 'Backend Error'];
  return googleError(status, reason, message).body;
}

const b64url = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64url');
const rfc2822Date = (ms: number) => new Date(ms).toUTCString().replace('GMT', '+0000');

function headersOf(m: Message): Array<{ name: string; value: string }> {
  return [
    { name: 'From', value: m.from },
    { name: 'To', value: m.to },
    { name: 'Subject', value: m.subject },
    { name: 'Date', value: rfc2822Date(m.internalDate) },
    { name: 'Message-ID', value: `<${m.id}@mail.ces-demo.example>` },
    { name: 'MIME-Version', value: '1.0' },
  ];
}

const BOUNDARY = '000000000000ces0fake0boundary';

/** The message as RFC 2822 text: what `raw` encodes. */
export function rfc2822(m: Message): string {
  const head = headersOf(m)
    .map((h) => `${h.name}: ${h.value}`)
    .join('\r\n');
  if (m.attachments.length === 0)
    return `${head}\r\nContent-Type: text/plain; charset="UTF-8"\r\n\r\n${m.text}`;
  const parts = [
    `--${BOUNDARY}\r\nContent-Type: text/plain; charset="UTF-8"\r\n\r\n${m.text}`,
    ...m.attachments.map(
      (a) =>
        `--${BOUNDARY}\r\nContent-Type: ${a.mimeType}; name="${a.filename}"\r\nContent-Disposition: attachment; filename="${a.filename}"\r\nContent-Transfer-Encoding: base64\r\n\r\n${a.data.toString('base64')}\r\n`,
    ),
  ];
  return `${head}\r\nContent-Type: multipart/mixed; boundary="${BOUNDARY}"\r\n\r\n${parts.join('')}--${BOUNDARY}--\r\n`;
}

/** About the bytes of the RFC 2822 text (attachments base64-encoded), without building it. */
const sizeEstimate = (m: Message) =>
  400 +
  Buffer.byteLength(m.subject) +
  Buffer.byteLength(m.text) +
  m.attachments.reduce((n, a) => n + 200 + Math.ceil(a.data.length / 3) * 4, 0);

export const snippet = (m: Message) => m.text.replace(/\s+/g, ' ').trim().slice(0, 100);

export type Format = 'minimal' | 'full' | 'raw' | 'metadata';

/** users.messages.get's answer in `format` (metadataHeaders narrows format=metadata's headers). */
export function renderMessage(
  m: Message,
  format: Format,
  metadataHeaders: string[] = [],
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: m.id,
    threadId: m.threadId,
    labelIds: m.labelIds,
    snippet: snippet(m),
    sizeEstimate: sizeEstimate(m),
    historyId: String(m.historyId),
    internalDate: String(m.internalDate),
  };
  if (format === 'raw') out.raw = b64url(rfc2822(m));
  if (format === 'metadata') {
    const wanted = metadataHeaders.map((h) => h.toLowerCase());
    out.payload = {
      mimeType: m.attachments.length > 0 ? 'multipart/mixed' : 'text/plain',
      headers: headersOf(m).filter((h) => wanted.length === 0 || wanted.includes(h.name.toLowerCase())),
    };
  }
  if (format === 'full') {
    const text = { size: Buffer.byteLength(m.text), data: b64url(m.text) };
    out.payload =
      m.attachments.length === 0
        ? { partId: '', mimeType: 'text/plain', filename: '', headers: headersOf(m), body: text }
        : {
            partId: '',
            mimeType: 'multipart/mixed',
            filename: '',
            headers: headersOf(m),
            body: { size: 0 },
            parts: [
              {
                partId: '0',
                mimeType: 'text/plain',
                filename: '',
                headers: [{ name: 'Content-Type', value: 'text/plain; charset="UTF-8"' }],
                body: text,
              },
              ...m.attachments.map((a, i) => ({
                partId: String(i + 1),
                mimeType: a.mimeType,
                filename: a.filename,
                headers: [
                  { name: 'Content-Type', value: `${a.mimeType}; name="${a.filename}"` },
                  { name: 'Content-Disposition', value: `attachment; filename="${a.filename}"` },
                ],
                body: { attachmentId: a.id, size: a.data.length },
              })),
            ],
          };
  }
  return out;
}

/** What users.messages.send and drafts read of `raw`: the headers and the text; undefined when it can't be read. */
export function parseRaw(raw: unknown): { to: string; subject: string; text: string } | undefined {
  if (typeof raw !== 'string' || !/^[A-Za-z0-9_-]*={0,2}$/.test(raw)) return undefined;
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  const split = text.search(/\r?\n\r?\n/);
  const head = split < 0 ? text : text.slice(0, split);
  const body = split < 0 ? '' : text.slice(split).replace(/^\r?\n\r?\n/, '');
  const header = (name: string) => new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  return { to: header('To'), subject: header('Subject'), text: body };
}

type Test = (m: Message, data: Dataset) => boolean;

const has = (haystack: string, needle: string) => haystack.toLowerCase().includes(needle.toLowerCase());

/** `after:`/`before:` take Unix seconds or a date (YYYY/MM/DD, read at midnight UTC here). */
function instant(value: string): number | undefined {
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const m = /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/.exec(value);
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : undefined;
}

/**
 * Gmail's search operators the fake knows (https://support.google.com/mail/answer/7190), space-separated and
 * all required; other words match the sender, subject or text. Gmail reads an unknown operator as words
 * too, so a query never fails: it matches nothing.
 */
export function searchQuery(q: string): Test {
  const tests: Test[] = [];
  for (const term of q.trim().split(/\s+/).filter(Boolean)) {
    const m = /^([a-z]+):(.+)$/i.exec(term);
    const op = m?.[1]?.toLowerCase();
    const value = m?.[2] ?? term;
    if (op === 'after' || op === 'before') {
      const at = instant(value);
      if (at !== undefined) {
        tests.push(op === 'after' ? (x) => x.internalDate >= at : (x) => x.internalDate < at);
        continue;
      }
    }
    if (op === 'from') tests.push((x) => has(x.from, value));
    else if (op === 'to') tests.push((x) => has(x.to, value));
    else if (op === 'subject') tests.push((x) => has(x.subject, value));
    else if (op === 'label' || op === 'in')
      tests.push((x, data) =>
        value === 'anywhere'
          ? true
          : x.labelIds.some(
              (id) => id.toLowerCase() === value.toLowerCase() || has(data.label(id)?.name ?? '', value),
            ),
      );
    else if (op === 'is' && value === 'unread') tests.push((x) => x.labelIds.includes('UNREAD'));
    else if (op === 'is' && value === 'read') tests.push((x) => !x.labelIds.includes('UNREAD'));
    else if (op === 'is' && value === 'starred') tests.push((x) => x.labelIds.includes('STARRED'));
    else if (op === 'has' && value === 'attachment') tests.push((x) => x.attachments.length > 0);
    else tests.push((x) => has(`${x.from} ${x.subject} ${x.text}`, term));
  }
  return (m, data) => tests.every((t) => t(m, data));
}
