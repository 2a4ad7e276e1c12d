/** Types of scripts/check-layers.mjs (plain JS, so `npm run lint` runs it with node alone). */
export const LAYERS: ReadonlyArray<{ name: string; has: (file: string) => boolean }>;
export function layerOf(file: string): number;
export function violations(edges: Array<[string, string]>): string[];
/** One arrow between two layers: every file import it stands for, and whether it points up the order. */
export interface LayerArrow {
  from: string;
  to: string;
  up: boolean;
  imports: string[];
}
export function layerArrows(edges: Array<[string, string]>): {
  arrows: LayerArrow[];
  against: LayerArrow[];
  unplaced: string[];
};
export function layerCycles(edges: Array<[string, string]>): string[][];
export function importEdges(root: string, dir?: string): Array<[string, string]>;
