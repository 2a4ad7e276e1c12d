import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { DomainError } from '../errors.ts';

export type TokenKind = 'application' | 'scoped';

export interface TokenClaims {
  kind: TokenKind;
  applicationId: string;
  organizationId: string;
  /** Scoped tokens only. */
  workspaceId?: string;
}

const ISSUER = 'ces';
const AUDIENCE = 'ces-api';
/** Widget tokens have an audience of their own, so no API route accepts one and the connect page no other. */
const WIDGET_AUDIENCE = 'ces-connect';

/** What a widget token lets the connect page do: connect accounts into one workspace, for one embedding origin. */
export interface WidgetClaims {
  applicationId: string;
  organizationId: string;
  workspaceId: string;
  /** The origin of the page embedding the connect page; events are posted to it only. */
  allowedOrigin: string;
  /** Source template tags the page offers (empty: every template of the organization). */
  tags: string[];
  tagsMode: 'all' | 'any';
}

/**
 * HS256 JWTs. Verification pins the algorithm, so `alg: none` and RS/HS confusion are rejected by construction.
 */
export class TokenService {
  /**
   * Verified tokens, so a client reusing its token for many calls pays for the signature check once. Keyed by
   * the whole token, bounded, and entries die with the token's own expiry; revocation is still checked per
   * request by the caller.
   */
  private readonly verified = new Map<string, { claims: TokenClaims; expiresAtMs: number }>();
  private static readonly CACHE_MAX = 10_000;

  constructor(
    private readonly key: Uint8Array,
    private readonly ttl: { application: number; scoped: number; widget?: number },
  ) {}

  /** Short-lived (default 15 minutes): it is handed to a browser. */
  async issueWidget(claims: WidgetClaims): Promise<{ token: string; expiresIn: number }> {
    const expiresIn = this.ttl.widget ?? 900;
    const token = await new SignJWT({
      org: claims.organizationId,
      ws: claims.workspaceId,
      typ: 'widget',
      origin: claims.allowedOrigin,
      tags: claims.tags,
      tags_mode: claims.tagsMode,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(WIDGET_AUDIENCE)
      .setSubject(claims.applicationId)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${expiresIn}s`)
      .sign(this.key);
    return { token, expiresIn };
  }

  /**
   * The claims, the token's expiry, and its id (`jti`, `tokenId`), by which one end user's request rate and open
   * consent flows are counted.
   */
  async verifyWidget(token: string): Promise<WidgetClaims & { expiresAt: string; tokenId: string }> {
    try {
      const { payload: p } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: WIDGET_AUDIENCE,
        requiredClaims: ['exp', 'sub', 'jti', 'org', 'ws', 'typ', 'origin'],
      });
      const tags = Array.isArray(p.tags) && p.tags.every((t) => typeof t === 'string') ? p.tags : undefined;
      if (
        p.typ !== 'widget' ||
        typeof p.org !== 'string' ||
        typeof p.ws !== 'string' ||
        typeof p.origin !== 'string' ||
        !p.sub ||
        typeof p.jti !== 'string' ||
        !p.jti ||
        tags === undefined ||
        (p.tags_mode !== 'all' && p.tags_mode !== 'any')
      ) {
        throw new DomainError('UNAUTHENTICATED', 'The widget token is malformed.');
      }
      return {
        applicationId: p.sub,
        organizationId: p.org,
        workspaceId: p.ws,
        allowedOrigin: p.origin,
        tags,
        tagsMode: p.tags_mode,
        tokenId: p.jti,
        expiresAt: new Date((p.exp ?? 0) * 1000).toISOString(),
      };
    } catch (err) {
      if (err instanceof DomainError) throw err;
      throw new DomainError(
        'UNAUTHENTICATED',
        err instanceof joseErrors.JWTExpired
          ? 'The widget token has expired; ask the application for a new one.'
          : 'The widget token is invalid.',
      );
    }
  }

  async issue(claims: TokenClaims): Promise<{ token: string; expiresIn: number }> {
    const expiresIn = claims.kind === 'scoped' ? this.ttl.scoped : this.ttl.application;
    const payload: Record<string, string> = { org: claims.organizationId, typ: claims.kind };
    if (claims.workspaceId) payload.ws = claims.workspaceId;
    const token = await new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(claims.applicationId)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${expiresIn}s`)
      .sign(this.key);
    return { token, expiresIn };
  }

  async verify(token: string): Promise<TokenClaims> {
    const known = this.verifiedBefore(token);
    if (known) return known;
    const { claims, expiresAtMs } = await this.verifyUncached(token);
    if (this.verified.size >= TokenService.CACHE_MAX) {
      const oldest = this.verified.keys().next().value;
      if (oldest !== undefined) this.verified.delete(oldest);
    }
    this.verified.set(token, { claims, expiresAtMs });
    return claims;
  }

  /** The claims of a token verified before and not expired since; undefined if it must be verified (`verify`). */
  verifiedBefore(token: string): TokenClaims | undefined {
    const hit = this.verified.get(token);
    if (!hit) return undefined;
    if (hit.expiresAtMs > Date.now()) return hit.claims;
    this.verified.delete(token);
    return undefined;
  }

  private async verifyUncached(token: string): Promise<{ claims: TokenClaims; expiresAtMs: number }> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['exp', 'sub', 'org', 'typ'],
      });
      const kind = payload.typ;
      if ((kind !== 'application' && kind !== 'scoped') || typeof payload.org !== 'string' || !payload.sub) {
        throw new DomainError('UNAUTHENTICATED', 'The access token is malformed.');
      }
      if (kind === 'scoped' && typeof payload.ws !== 'string') {
        throw new DomainError('UNAUTHENTICATED', 'The access token is malformed.');
      }
      const claims: TokenClaims = {
        kind,
        applicationId: payload.sub,
        organizationId: payload.org,
        ...(kind === 'scoped' ? { workspaceId: payload.ws as string } : {}),
      };
      return { claims, expiresAtMs: (payload.exp ?? 0) * 1000 };
    } catch (err) {
      if (err instanceof DomainError) throw err;
      const message =
        err instanceof joseErrors.JWTExpired
          ? 'The access token has expired; request a new one.'
          : 'The access token is invalid.';
      throw new DomainError('UNAUTHENTICATED', message);
    }
  }
}
