/**
 * Route schemas compiled on first use instead of before listening. Fastify compiles every route's request
 * validators and response serializers at `ready()`; with ~100 routes that was most of ces's start-up (about a
 * second of fast-json-stringify and Ajv on the bench machine). Here each compiler hands fastify a function that
 * compiles its schema the first time it runs, and `warm()` compiles what is still pending one schema per event
 * loop turn once the server listens: the first request on a route rarely pays, a request never waits behind
 * more than one compile, and a schema that cannot compile still shows within a second of start (the app's test
 * warms every route's schemas).
 */
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import { serializerSchema } from './serializer-schema.ts';

type Validate = ((data: unknown) => unknown) & { errors?: unknown };
type Serialize = (data: unknown) => string;
type SerializerFactory = SerializerSelector.SerializerFactory;

export class LazySchemas {
  private readonly pending = new Set<() => unknown>();
  private warming: NodeJS.Immediate | undefined;
  private stopped = false;

  /** Wraps a validator compiler: fastify's `setValidatorCompiler`. */
  validators(compile: FastifySchemaCompiler<FastifySchema>): FastifySchemaCompiler<FastifySchema> {
    return (route) => {
      const compiled = this.later(() => compile(route) as unknown as Validate);
      // Fastify reads `.errors` off the function it called, as Ajv leaves them there.
      const validate: Validate = (data) => {
        const inner = compiled();
        const result = inner(data);
        validate.errors = inner.errors;
        return result;
      };
      return validate as unknown as ReturnType<FastifySchemaCompiler<FastifySchema>>;
    };
  }

  /**
   * A serializer factory (fastify's `schemaController.compilersFactory.buildSerializer`) over fast-json-stringify,
   * given schemas that need no validator to serialise (serializer-schema.ts).
   */
  serializers(): SerializerFactory {
    const eager = SerializerSelector();
    return (externalSchemas, options) => {
      // Shared schemas (the error body) are rewritten too: every route's error responses refer to them.
      const shared = externalSchemas
        ? Object.fromEntries(Object.entries(externalSchemas).map(([id, s]) => [id, serializerSchema(s)]))
        : externalSchemas;
      const compile = eager(shared as typeof externalSchemas, options);
      // The same schema compiles to the same serializer, whatever the route or status: the error body is the
      // answer of ~9 statuses on each of ~100 routes, and was compiled for every one of them.
      const bySchema = new Map<string, () => Serialize>();
      return (route) => {
        const text = JSON.stringify(route.schema);
        let compiled = bySchema.get(text);
        if (!compiled) {
          compiled = this.later(
            (): Serialize => compile({ ...route, schema: serializerSchema(route.schema) }),
          );
          bySchema.set(text, compiled);
        }
        const get = compiled;
        return (data: unknown) => get()(data);
      };
    };
  }

  /** `make`, run once at the first call of what this returns, or by warm(); pending until then. */
  private later<T>(make: () => T): () => T {
    let made: T | undefined;
    const get = (): T => {
      if (made === undefined) {
        this.pending.delete(get);
        made = make();
      }
      return made;
    };
    this.pending.add(get);
    return get;
  }

  /** How many schemas are not compiled yet. */
  get size(): number {
    return this.pending.size;
  }

  /**
   * Compiles the pending schemas in the background, one per event loop turn, starting `afterMs` from now (the
   * first requests after start-up, readiness probes among them, go first); `onError` hears a schema that fails.
   */
  warm(onError: (err: Error) => void, afterMs = 0): void {
    const step = () => {
      this.warming = undefined;
      const next = this.pending.values().next();
      if (this.stopped || next.done) return;
      try {
        next.value();
      } catch (err) {
        onError(err as Error);
      }
      this.warming = setImmediate(step);
    };
    if (this.warming || this.stopped) return;
    const start = setTimeout(() => {
      if (!this.warming && !this.stopped) this.warming = setImmediate(step);
    }, afterMs);
    start.unref();
  }

  /** Compiles every pending schema now; throws the first failure. */
  compileAll(): void {
    for (const build of [...this.pending]) build();
  }

  stop(): void {
    this.stopped = true;
    if (this.warming) clearImmediate(this.warming);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's route schemas not compiled yet (src/http/lazy-schemas.ts). */
    lazySchemas: LazySchemas;
  }
}
