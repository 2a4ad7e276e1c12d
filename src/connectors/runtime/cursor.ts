/**
 * Opaque page cursors: the complete next-page request, sealed (AES-256-GCM, src/security/sealed.ts).
 *
 * Sealed rather than signed because the request names what only the connector's owner should see (a GitHub
 * Enterprise host, a query, a POST search body), and cursors travel further than that owner: logs, agents,
 * shared transcripts. The seal also keeps it tamper-evident (a client could otherwise point our credentials at
 * any path), and it is bound to connector + entity + action so a cursor from one tenant's connector can't be
 * replayed through another. The binding is inside the ciphertext, not only authenticated beside it, so a
 * cursor of another connector, entity or action is refused saying which, as before. It never holds
 * credentials: the paginators strip query-placed auth before sealing.
 *
 * Plaintext: one format byte (JSON, or JSON deflated when that pays), then
 * `[connector id, entity, action, url, body | null, headers | null]`, then `skip | null, take | null` when a
 * client's `limit` set them.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { type DomainError, invalidField } from '../../errors.ts';
import { Sealer } from '../../security/sealed.ts';

/** The next request of a paged action. `body` is the JSON body of body-paged styles (POST searches). */
export interface NextRequest {
  url: string;
  body?: unknown;
  /** Header values the first request's params set (an API version header), sent again on every page. */
  headers?: Record<string, string>;
  /** Records of this page already answered: a client's `limit` stopped inside it (executor.ts capRecords). */
  skip?: number;
  /** The client's `limit`, kept for every later page. */
  take?: number;
}

export interface CursorBinding {
  connectorId: string;
  entity: string;
  action: string;
}

const PURPOSE = 'execute-cursor';
const PLAIN_JSON = 0;
const DEFLATED_JSON = 1;
/**
 * Deflating a link-header payload (~150 bytes) would save ~15% for ~10 µs, doubling the cost of a seal; a
 * body-paged search's body (~500 bytes) saves 30% and more. Measured by `npm run bench:cursor`. Compressing
 * before encrypting makes the length depend on the content (CRIME): learning anything from it takes choosing
 * part of the plaintext, i.e. executing on the connector, which already shows what it pages through; a holder
 * of a cursor alone learns its length only, as without compression.
 */
const DEFLATE_FROM = 256;
/**
 * Far above any real next-page URL, and room for a body-paged search's body (a filter listing a few hundred
 * ids); still stops a client from making us decrypt megabytes. Refused before any crypto work.
 */
const MAX_CURSOR_LENGTH = 32_768;
/** Only we seal payloads, but inflating one is bounded all the same. */
const MAX_PLAINTEXT = 4 * MAX_CURSOR_LENGTH;

type Payload =
  | [string, string, string, string, unknown, Record<string, string> | null]
  | [string, string, string, string, unknown, Record<string, string> | null, number | null, number | null];

export class CursorCodec {
  private readonly sealer: Sealer;
  /** The secrets that may have signed the cursors issued before they were sealed; see verifyLegacy. */
  private readonly legacyKeys: readonly Uint8Array[];

  /** `keys`: the cursor secret, or several newest first while one is rotated out (all open, the first seals). */
  constructor(keys: Uint8Array | readonly Uint8Array[]) {
    const list = keys instanceof Uint8Array ? [keys] : keys;
    if (list.some((k) => k.length < 16)) throw new Error('cursor key must be at least 16 bytes');
    this.sealer = new Sealer(list, PURPOSE);
    this.legacyKeys = list;
  }

  sign(binding: CursorBinding, req: NextRequest): string {
    const payload: Payload = [
      binding.connectorId,
      binding.entity,
      binding.action,
      req.url,
      req.body ?? null,
      req.headers ?? null,
    ];
    if (req.skip !== undefined || req.take !== undefined) payload.push(req.skip ?? null, req.take ?? null);
    const json = Buffer.from(JSON.stringify(payload), 'utf8');
    const deflated = json.length >= DEFLATE_FROM ? deflateRawSync(json) : undefined;
    const plain =
      deflated && deflated.length < json.length
        ? Buffer.concat([FORMAT[DEFLATED_JSON], deflated])
        : Buffer.concat([FORMAT[PLAIN_JSON], json]);
    return this.sealer.seal(plain);
  }

  /** The request a cursor replays; INVALID_CURSOR (422) if it is forged, damaged or issued for something else. */
  verify(binding: CursorBinding, cursor: unknown): NextRequest {
    if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH) {
      throw invalid('params.cursor must be a non-empty end_cursor string returned by a previous page.');
    }
    const [cid, ent, act, url, body, headers, skip, take] = cursor.includes('.')
      ? this.verifyLegacy(cursor)
      : this.open(cursor);
    if (cid !== binding.connectorId) {
      throw invalid(
        'params.cursor was issued for a different connector; cursors only work on the connector that returned them.',
      );
    }
    if (ent !== binding.entity || act !== binding.action) {
      throw invalid(
        `params.cursor was issued for ${ent}.${act}, not ${binding.entity}.${binding.action}; pass it with the entity and action that returned it.`,
      );
    }
    return {
      url,
      ...(body === null ? {} : { body }),
      ...(headers === null ? {} : { headers }),
      ...(skip === null || skip === undefined ? {} : { skip }),
      ...(take === null || take === undefined ? {} : { take }),
    };
  }

  private open(cursor: string): Payload {
    const plain = this.sealer.open(cursor);
    if (plain === undefined || plain.length < 1) throw forged();
    let payload: unknown;
    try {
      const json =
        plain[0] === DEFLATED_JSON
          ? inflateRawSync(plain.subarray(1), { maxOutputLength: MAX_PLAINTEXT })
          : plain[0] === PLAIN_JSON
            ? plain.subarray(1)
            : undefined;
      payload = json === undefined ? undefined : JSON.parse(json.toString('utf8'));
    } catch {
      throw forged();
    }
    // Only we seal, so this only fails for a payload layout we no longer write.
    if (
      !Array.isArray(payload) ||
      (payload.length !== 6 && payload.length !== 8) ||
      !payload.slice(0, 4).every((part) => typeof part === 'string') ||
      !(payload[5] === null || isStringRecord(payload[5])) ||
      !countOrAbsent(payload[6], 0) ||
      !countOrAbsent(payload[7], 1)
    ) {
      throw forged();
    }
    return payload as Payload;
  }

  /**
   * Cursors issued before cursors were sealed: `base64url(JSON) . base64url(HMAC-SHA256)`. Still accepted
   * (no longer issued) because the Context Store's sync keeps the cursor of its next page in its checkpoint,
   * and a pass interrupted by the upgrade resumes from it; a client's paging continues too.
   */
  private verifyLegacy(cursor: string): Payload {
    const [body, mac, extra] = cursor.split('.');
    if (body === undefined || mac === undefined || extra !== undefined) throw forged();
    const given = Buffer.from(mac, 'base64url');
    const signedBy = (key: Uint8Array) => {
      const expected = createHmac('sha256', key).update(`ces-cursor.v1.${body}`).digest();
      return given.length === expected.length && timingSafeEqual(given, expected);
    };
    if (!this.legacyKeys.some(signedBy)) throw forged();
    let payload: { v?: unknown; cid?: unknown; ent?: unknown; act?: unknown; req?: Partial<NextRequest> };
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw forged();
    }
    const req = payload.req;
    if (payload.v !== 1 || typeof req?.url !== 'string') throw forged();
    return [
      String(payload.cid),
      String(payload.ent),
      String(payload.act),
      req.url,
      req.body ?? null,
      isStringRecord(req.headers) ? req.headers : null,
    ];
  }
}

function countOrAbsent(value: unknown, least: number): boolean {
  return value === undefined || value === null || (Number.isSafeInteger(value) && (value as number) >= least);
}

const FORMAT = [Buffer.from([PLAIN_JSON]), Buffer.from([DEFLATED_JSON])] as const;

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string')
  );
}

function forged(): DomainError {
  return invalid(
    'params.cursor is not a cursor issued by this service (it is malformed or was modified); pass end_cursor unchanged.',
  );
}

function invalid(message: string): DomainError {
  return invalidField('INVALID_CURSOR', 'params.cursor', message);
}
