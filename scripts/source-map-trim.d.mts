export interface SourceMapV3 {
  version: number;
  sources: string[];
  names: string[];
  mappings: string;
  [key: string]: unknown;
}
export function trimSourceMap(map: SourceMapV3, drop?: (source: string) => boolean): SourceMapV3;
