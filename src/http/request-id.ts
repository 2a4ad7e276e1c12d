import { randomFillSync } from 'node:crypto';

/** The response header that carries a request's id (every reply; see app.ts). */
export const REQUEST_ID_HEADER = 'x-request-id';

const ID_BYTES = 12;
/** Random bytes for 512 ids, drawn at once: one call into the CSPRNG per 512 requests instead of one each. */
const pool = Buffer.alloc(ID_BYTES * 512);
let next = pool.length;

/** Ours, never the client's: an X-Request-Id a client sends is not trusted as the id of its request. */
export function newRequestId(): string {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  const id = `req_${pool.toString('base64url', next, next + ID_BYTES)}`;
  next += ID_BYTES;
  return id;
}
