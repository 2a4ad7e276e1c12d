/** Types of scripts/check-self-contained.mjs (plain JS, so `npm run lint` runs it with node alone). */
export const DIRS: string[];
export const EXCEPTIONS: string[];
export interface StringLiteral {
  value: string;
  line: number;
  start: number;
  end: number;
  template: boolean;
  head: boolean;
}
export function stringLiterals(text: string): StringLiteral[];
export function outsideReason(value: string, file: string, root: string): string | null;
export function outsidePaths(
  text: string,
  file: string,
  root: string,
): Array<{ line: number; literal: string; why: string }>;
export function sourceFiles(root: string): string[];
export function check(root: string): string[];
