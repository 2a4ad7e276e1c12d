/** A body kept as the chunks it arrived in (UpstreamRequest.asParts), and ranges of it. */

/** The chunks as one buffer: the chunk itself when there is one (no copy). */
export function joinParts(parts: readonly Buffer[]): Buffer {
  return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
}

/** Chunks kept as they are until someone needs them as one buffer; joined once, then that buffer is the chunk. */
export class JoinedOnRead {
  #parts: readonly Buffer[];

  constructor(parts: readonly Buffer[]) {
    this.#parts = parts;
  }

  get parts(): readonly Buffer[] {
    return this.#parts;
  }

  joined(): Buffer {
    const whole = joinParts(this.#parts);
    this.#parts = [whole];
    return whole;
  }
}

/** Bytes [start, end) of the chunks joined, as sub-ranges of the chunks themselves (no copy). */
export function rangeOfParts(parts: readonly Buffer[], start: number, end: number): Buffer[] {
  const out: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const from = Math.max(start, offset);
    const to = Math.min(end, offset + part.length);
    if (from < to) out.push(part.subarray(from - offset, to - offset));
    offset += part.length;
    if (offset >= end) break;
  }
  return out;
}
