import { randomBytes } from 'node:crypto';

/** Ours, never the client's: an X-Request-Id a client sends is not trusted as the id of its request. */
export const newRequestId = () => `req_${randomBytes(12).toString('base64url')}`;
